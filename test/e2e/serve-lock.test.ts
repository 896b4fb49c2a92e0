// Every line: file locks and file modes of a data directory, a lock left by kill -9.
// One `paraph serve` per data directory: a second one exits 1 naming the running server's address and
// pid (an --ephemeral server's directory too); a lock left by a server killed with -9 does not stop the next start. The database files are
// private (0600) even in a data directory other users can read. Runs the built dist/ (`npm run build`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BIN, paraph, serveProcess } from '../helpers/cli.js';
import { useTmpDir } from '../helpers/server.js';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

test('a second serve on a data directory in use exits 1 naming the first; a crashed server leaves no lock that stops the next', {
  timeout: 90_000,
}, async (t) => {
  const dataDir = path.join(useTmpDir(t), 'data');
  const first = await serveProcess(t, ['--data-dir', dataDir]);
  const url = first.ready.api_url as string;
  const origin = new URL(url).origin;

  const second = await paraph(['serve', '--port', '0', '--smtp-port', '0', '--data-dir', dataDir]);
  assert.equal(second.code, 1, second.stderr);
  assert.match(second.stderr, new RegExp(`is in use by another paraph serve, at ${origin.replace(/[.]/g, '\\.')} \\(pid ${first.child.pid}\\)`));
  assert.equal(second.stdout, '');
  // The first still answers, and the CLI still names it.
  assert.equal((await fetch(`${origin}/healthz`)).status, 200);
  const dashboard = await paraph(['dashboard', 'url', '--data-dir', dataDir]);
  assert.equal(dashboard.code, 0, dashboard.stderr);
  assert.ok(dashboard.stdout.startsWith(`${origin}/_dashboard/`), dashboard.stdout);

  // kill -9 leaves the lock file behind; the next start finds its pid gone and takes it over.
  assert.equal(await first.stop('SIGKILL'), null);
  assert.ok(fs.existsSync(path.join(dataDir, 'serve.lock')), 'the crashed server left its lock');
  const third = await serveProcess(t, ['--data-dir', dataDir]);
  assert.equal((await fetch(`${new URL(third.ready.api_url as string).origin}/healthz`)).status, 200);
  assert.equal(await third.stop('SIGTERM'), 0, third.stderr());
  assert.equal(fs.existsSync(path.join(dataDir, 'serve.lock')), false, 'a clean stop removes the lock');
});

test('an --ephemeral server locks its throwaway directory too: a second serve on it exits 1 naming the first', { timeout: 60_000 }, async (t) => {
  const first = await serveProcess(t, ['--ephemeral']);
  const dataDir = first.ready.data_dir as string;
  // With a bound: a second server that starts would run until stopped.
  const second = spawnSync(process.execPath, [BIN, 'serve', '--port', '0', '--smtp-port', '0', '--json', '--data-dir', dataDir], {
    encoding: 'utf8',
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  assert.equal(second.signal, null, 'the second serve did not stop by itself');
  assert.equal(second.status, 1, second.stderr);
  assert.match(second.stderr, new RegExp(`is in use by another paraph serve, at .* \\(pid ${first.child.pid}\\)`));
  assert.ok(!second.stdout.includes('"status":"ready"'), 'no ready line from the second serve');
  assert.equal(await first.stop('SIGTERM'), 0, first.stderr());
  assert.equal(fs.existsSync(dataDir), false, 'the throwaway directory is deleted at exit');
});

test('the database, its -wal and -shm are created 0600, in a data directory made 0700 or an existing 0755 one', { timeout: 60_000 }, async (t) => {
  const made = path.join(useTmpDir(t), 'made');
  const open = path.join(useTmpDir(t), 'open');
  fs.mkdirSync(open, { mode: 0o755 });
  fs.chmodSync(open, 0o755);
  for (const dataDir of [made, open]) {
    const server = await serveProcess(t, ['--data-dir', dataDir]);
    for (const name of ['paraph.db', 'paraph.db-wal', 'paraph.db-shm']) {
      const file = path.join(dataDir, name);
      assert.ok(fs.existsSync(file), `${name} exists while serve runs`);
      assert.equal(modeOf(file).toString(8), '600', `${dataDir}: ${name}`);
    }
    if (dataDir === made) assert.equal(modeOf(dataDir).toString(8), '700', 'a data directory serve makes');
    assert.equal(await server.stop('SIGTERM'), 0, server.stderr());
  }
});
