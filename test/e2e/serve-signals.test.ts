// Every line: signals during the start of serve, and npm killed under `npx paraph serve`.
// A SIGTERM or SIGINT that comes while `paraph serve --ephemeral` starts (before the ready line) stops it
// as one after the ready line does: exit 0, its temporary directory deleted. Started by npx, paraph stops
// once npm is gone, also when npm was killed with SIGKILL and left its shell (paraph's parent) running.
// Runs the built dist/ (`npm run build`).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BIN } from '../helpers/cli.js';
import { alive, gone } from '../helpers/processes.js';
import { useTmpDir } from '../helpers/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('SIGTERM or SIGINT while an --ephemeral serve starts: exit 0, no ready line, its directory deleted', { timeout: 60_000 }, async (t) => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // A temporary directory of the test's own, where the server's --ephemeral directory shows up.
    const tmp = useTmpDir(t);
    const child = spawn(process.execPath, [BIN, 'serve', '--ephemeral', '--port', '0', '--smtp-port', '0', '--json'], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    // The directory is the first thing the start makes: the signal then comes while the server starts.
    const watcher = fs.watch(tmp);
    await new Promise<void>((resolve) => {
      const check = () => {
        if (fs.readdirSync(tmp).some((name) => name.startsWith('paraph-'))) resolve();
      };
      watcher.on('change', check);
      check();
    });
    watcher.close();
    child.kill(signal);
    const [code, killedBy] = await exited;
    assert.equal(killedBy, null, `${signal}: ended by the signal, not by itself`);
    assert.equal(code, 0, `${signal}: ${stderr}`);
    // Not compared with '': a ready line holds the API key, which a failure message must not show.
    assert.ok(!stdout.includes('"status":"ready"'), `${signal}: no ready line for a server stopped while it started`);
    assert.deepEqual(
      fs.readdirSync(tmp).filter((name) => name.startsWith('paraph-')),
      [],
      `${signal}: the --ephemeral directory is deleted`,
    );
  }
});

/** An empty project where `npx paraph` finds this checkout as an installed package. */
function newProject(t: TestContext): string {
  const dir = useTmpDir(t);
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'paraph'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'bin', 'paraph.js'), path.join(dir, 'node_modules', '.bin', 'paraph'));
  return dir;
}

test('under npx, npm killed with SIGKILL (its shell left running) still stops paraph and deletes its directory', { timeout: 60_000 }, async (t) => {
  const project = newProject(t);
  const bundled = path.join(path.dirname(process.execPath), 'npx');
  const npx = spawn(fs.existsSync(bundled) ? bundled : 'npx', ['paraph', 'serve', '--ephemeral', '--port', '0', '--smtp-port', '0', '--json'], {
    cwd: project,
    // npx runs with the Node of this test, as a user's terminal would find it on PATH.
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    if (npx.exitCode === null && npx.signalCode === null) npx.kill('SIGKILL');
  });
  let stderr = '';
  npx.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = await new Promise<{ pid: number; data_dir: string }>((resolve, reject) => {
    let buffer = '';
    npx.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      if (buffer.includes('\n')) resolve(JSON.parse(buffer.split('\n')[0] as string) as { pid: number; data_dir: string });
    });
    npx.once('exit', (code) => reject(new Error(`npx exited with ${code}: ${stderr}`)));
  });
  t.after(() => {
    if (alive(ready.pid)) process.kill(ready.pid, 'SIGKILL');
  });
  assert.notEqual(ready.pid, npx.pid, 'paraph runs in a process of its own');
  npx.kill('SIGKILL');
  assert.ok(await gone(ready.pid, 10_000), 'paraph stopped once npm was gone');
  assert.equal(fs.existsSync(ready.data_dir), false, 'its temporary data directory is gone');
});
