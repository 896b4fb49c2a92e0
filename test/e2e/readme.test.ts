// Every line: the README's commands through the line's npm and npx.
// The shell blocks of the README and of docs/ci.md, pasted in order as a new user would, in an empty
// project where `npx paraph` finds paraph as an installed package: this checkout (linked), or, when
// PARAPH_PACKED_PROJECT names a project where the `npm pack` tarball was installed, that package. Every
// block must exit 0. A block preceded by `<!-- readme-test: skip (why) -->` is not run (it installs,
// or starts the server the test starts itself). The only change made to the text is the server's
// port: the README says 4010, the test's server listens on a free one.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveProcess } from '../helpers/cli.js';
import { shellBlocks, type ShellBlock as Block } from '../helpers/markdown.js';
import { alive, gone } from '../helpers/processes.js';
import { useTmpDir } from '../helpers/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKED = process.env.PARAPH_PACKED_PROJECT;

/** An empty project with paraph installed; answers the project and the paraph bin it has. */
function newProject(t: TestContext): { dir: string; bin: string } {
  const dir = useTmpDir(t);
  if (PACKED) {
    fs.symlinkSync(path.join(PACKED, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    return { dir, bin: path.join(PACKED, 'node_modules', 'paraph', 'bin', 'paraph.js') };
  }
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'paraph'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'bin', 'paraph.js'), path.join(dir, 'node_modules', '.bin', 'paraph'));
  return { dir, bin: path.join(ROOT, 'bin', 'paraph.js') };
}

/**
 * Runs the blocks in one bash, as in one terminal: variables set by one block are used by the next,
 * `set -e` stops at the first failing command, and a marker line says which block was running.
 */
function runBlocks(blocks: Block[], cwd: string, edit: (code: string) => string = (c) => c): Promise<{ code: number | null; out: string }> {
  const script = ['set -euo pipefail']
    .concat(blocks.map((b) => `printf '\\n::block ${b.line}\\n'\n${edit(b.code)}`))
    .concat([`printf '\\n::done\\n'`])
    .join('\n');
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

function assertRan(file: string, result: { code: number | null; out: string }): void {
  const last = [...result.out.matchAll(/^::block (\d+)$/gm)].at(-1)?.[1];
  assert.equal(result.code, 0, `the ${file} block at line ${last} failed (exit ${result.code}):\n${result.out.slice(-3000)}`);
  assert.match(result.out, /^::done$/m);
}

// Twice in a row on the full line; once in the every-line set (the second run checks the README, not the line).
const RUNS = process.env.PARAPH_TEST_SET === 'every-line' ? [1] : [1, 2];

test(`every shell block of the README runs, in order, against a fresh server, ${RUNS.length === 2 ? 'twice in a row' : 'once'}`, {
  timeout: 300_000,
}, async (t) => {
  const blocks = shellBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  const runnable = blocks.filter((b) => b.skip === null);
  assert.ok(runnable.length >= 5, `the walk-through has its blocks (found ${runnable.length})`);
  // The commands for a clone, the install line for one's own project, and the walk-through's `serve`
  // (the test's own) are not run here.
  assert.ok(blocks.length - runnable.length <= 3, 'only the clone, install and serve blocks are skipped');
  // The address is written once, in the variable the other blocks use.
  const walkThrough = runnable.map((b) => b.code).join('\n');
  assert.equal(walkThrough.match(/127\.0\.0\.1:4010/g)?.length, 1, 'the walk-through names the address once');

  const project = newProject(t);
  assert.ok(!fs.existsSync(path.join(project.dir, 'fixtures')), 'the fixture must come from the package');
  const serve = await serveProcess(t, ['--data-dir', path.join(project.dir, '.paraph')], { bin: project.bin, cwd: project.dir });
  const port = new URL(serve.ready.api_url as string).port;

  // Run again in the same project against the same server, as a reader who tries it twice would.
  const ids: string[] = [];
  for (const run of RUNS) {
    const result = await runBlocks(runnable, project.dir, (code) => code.replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`));
    assertRan(`README (run ${run})`, result);
    // What the walk-through says happened, happened.
    assert.match(result.out, /"status":"prepared"/, `run ${run}: the create answered a new, prepared request`);
    assert.match(result.out, /"status":"completed"/, `run ${run}: both signatures completed the request`);
    assert.match(result.out, /Signature is Valid/, `run ${run}: pdfsig validated the signed PDF`);
    assert.match(result.out, /"code":"unauthorized"/, `run ${run}: the bad key got the error envelope`);
    const evidence = JSON.parse(fs.readFileSync(path.join(project.dir, 'evidence.json'), 'utf8')) as {
      signers?: unknown[];
      signature_request?: { id?: string };
    };
    assert.equal(evidence.signers?.length, 2, `run ${run}: the evidence names both signers`);
    const created = /"id":"([0-9a-f-]{36})"/.exec(result.out)?.[1];
    assert.ok(created, `run ${run}: the create answered an id`);
    ids.push(created);
  }
  if (RUNS.length === 2) assert.notEqual(ids[0], ids[1], 'the second run made a request of its own');
  assert.equal(await serve.stop('SIGTERM'), 0);
});

test('the CI recipe of docs/ci.md starts a throwaway sandbox on free ports and stops it with nothing left behind', { timeout: 120_000 }, async (t) => {
  const blocks = shellBlocks(fs.readFileSync(path.join(ROOT, 'docs', 'ci.md'), 'utf8'));
  assert.equal(blocks.length, 2, 'start, and stop');
  const project = newProject(t);
  const result = await runBlocks(blocks, project.dir);
  assertRan('docs/ci.md', result);
  const ready = JSON.parse(fs.readFileSync(path.join(project.dir, 'paraph.json'), 'utf8')) as Record<string, unknown>;
  assert.notEqual(ready.smtp_port, 2525, 'SMTP on a free port');
  assert.equal(typeof ready.pid, 'number');
  assert.equal(alive(ready.pid as number), false, 'the server stopped');
  if (fs.existsSync(ready.data_dir as string)) {
    assert.fail(
      `its temporary data directory is still there after the server stopped; the server's log:\n${fs.readFileSync(path.join(project.dir, 'paraph.log'), 'utf8')}`,
    );
  }
  assert.match(result.out, /"data":\[\]/, 'the key answered the list');
});

test('under npx, killing `$!` (npm, not paraph) still stops the server and removes its temporary directory', { timeout: 60_000 }, async (t) => {
  const project = newProject(t);
  const script = [
    'npx paraph serve --ephemeral --port 0 --smtp-port 0 --json > paraph.json 2> paraph.log &',
    `for i in $(seq 150); do grep -q '"status":"ready"' paraph.json && break; sleep 0.2; done`,
    'kill $!',
  ].join('\n');
  assertRan('npx', await runBlocks([{ line: 1, code: script, skip: null }], project.dir));
  const ready = JSON.parse(fs.readFileSync(path.join(project.dir, 'paraph.json'), 'utf8')) as { pid: number; data_dir: string };
  t.after(() => {
    if (alive(ready.pid)) process.kill(ready.pid, 'SIGKILL');
  });
  assert.ok(await gone(ready.pid), 'paraph stopped once npm was gone');
  assert.equal(fs.existsSync(ready.data_dir), false, 'its temporary data directory is gone');
});
