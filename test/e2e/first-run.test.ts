// Every line: the README's first command in the checkout this line's `npm ci` installed.
// The README's first command, as a new user runs it: in a fresh clone of this repository, `npm ci`
// (which builds paraph), then the command that starts it, which must print the banner at once: no
// second install or build, nothing added to npm's npx cache. The time from the end of `npm ci` to the
// banner is reported (the target is 5 s; it takes about a second).
//
// The clone is of the committed HEAD. `npm ci` takes its packages from the machine's npm cache (the
// checkout's own `npm ci` put them there): the test's npm cache folder shares that content store but
// is otherwise empty, so anything npx would add shows in its `_npx`. The server listens on free ports
// (PARAPH_PORT=0, PARAPH_SMTP_PORT=0 in the environment; the command itself is the README's).
//
// In CI, the checkout `.ci/run` has just installed with `npm ci` on the line under test is such a fresh
// clone: `.ci/run` names it in PARAPH_FIRST_RUN_CHECKOUT, and the test starts the README's command
// there instead of cloning and installing again (the time is then from the command's start to the
// banner; the first start's `.paraph/` is removed afterwards).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellBlocks } from '../helpers/markdown.js';
import { useTmpDir } from '../helpers/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BANNER_MS = 5_000;

/** The README's first line of commands, e.g. `npm ci && npm start`, as its commands. */
function firstCommands(): string[] {
  const first = shellBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'))[0];
  assert.ok(first, 'the README opens with a shell block');
  const line = (first.code.split('\n')[0] ?? '').replace(/\s+#.*$/, '').trim();
  const commands = line.split('&&').map((c) => c.trim());
  assert.equal(commands[0], 'npm ci', `the first line installs with npm ci: ${line}`);
  assert.equal(commands.length, 2, `the first line is npm ci and the command that starts paraph: ${line}`);
  return commands;
}

const isRepository = spawnSync('git', ['-C', ROOT, 'rev-parse', '--git-dir'], { encoding: 'utf8' }).status === 0;
/** The checkout `.ci/run` has just installed with `npm ci` on this line, if any. */
const installedCheckout = process.env.PARAPH_FIRST_RUN_CHECKOUT || undefined;

test('a fresh clone: npm ci, then the README command prints the banner at once, with no second build and nothing in the npx cache', {
  skip: !isRepository && 'not a git checkout',
  timeout: 900_000,
}, async (t) => {
  const [install, start] = firstCommands() as [string, string];
  const tmp = useTmpDir(t, 'paraph-first-run-');
  const clone = installedCheckout ?? path.join(tmp, 'paraph');
  if (installedCheckout) {
    // A checkout paraph has never started in: the README's first start.
    assert.ok(!fs.existsSync(path.join(clone, '.paraph')), `${clone} holds a .paraph/ already: PARAPH_FIRST_RUN_CHECKOUT names a fresh checkout`);
    t.after(() => fs.rmSync(path.join(clone, '.paraph'), { recursive: true, force: true }));
  } else {
    const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
    assert.equal(cloned.status, 0, cloned.stderr);
  }

  // npm's cache for this test: the machine's packages, and an npx cache of its own, empty.
  const machineCache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  const cache = path.join(tmp, 'npm-cache');
  fs.mkdirSync(cache);
  if (fs.existsSync(path.join(machineCache, '_cacache'))) fs.symlinkSync(path.join(machineCache, '_cacache'), path.join(cache, '_cacache'), 'dir');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_cache: cache,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    PARAPH_PORT: '0',
    PARAPH_SMTP_PORT: '0',
    NO_COLOR: '1',
  };
  delete env.PARAPH_DATA_DIR;

  if (!installedCheckout) {
    const ci = spawnSync('bash', ['-c', install], { cwd: clone, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.equal(ci.status, 0, `${install} failed:\n${ci.stdout.slice(-2000)}\n${ci.stderr.slice(-2000)}`);
  }
  const ended = performance.now();
  const built = fs.statSync(path.join(clone, 'dist', 'paraph.js')).mtimeMs;

  // The command that starts paraph, in its own process group (npm, its shell and paraph).
  const child = spawn('bash', ['-c', start], { cwd: clone, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  t.after(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {}
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const bannerAt = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner after 120 s:\n${out}\n${err}`)), 120_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Press Ctrl\+C to stop\./.test(out)) {
        clearTimeout(timer);
        resolve(performance.now());
      }
    });
    void exited.then((code) => reject(new Error(`${start} exited (${code}) before its banner:\n${out}\n${err}`)));
  });
  const ms = Math.round(bannerAt - ended);
  t.diagnostic(
    `Node ${process.versions.node}: "${start}" printed the banner ${ms} ms after ${installedCheckout ? 'it started, in the checkout CI installed' : `"${install}" ended`}`,
  );

  assert.match(out, /paraph \d+\.\d+\.\d+: e-signature sandbox ready/);
  assert.match(
    out,
    /Keep \.paraph\/ out of version control \(it holds master\.key\): add it to \.gitignore\./,
    'the first start says to keep .paraph/ out of git',
  );
  assert.equal(fs.statSync(path.join(clone, 'dist', 'paraph.js')).mtimeMs, built, 'nothing was built again');
  assert.doesNotMatch(`${out}\n${err}`, /> paraph@[^ ]+ (build|preprepare|prepare)\b/, 'no build script ran');
  const npx = path.join(cache, '_npx');
  assert.deepEqual(fs.existsSync(npx) ? fs.readdirSync(npx) : [], [], 'nothing was added to the npx cache');
  assert.ok(ms < BANNER_MS, `the banner took ${ms} ms after npm ci (target: under ${BANNER_MS} ms)`);

  // Ctrl-C in the terminal: the whole group gets SIGINT, and paraph stops.
  process.kill(-(child.pid as number), 'SIGINT');
  await exited;
});
