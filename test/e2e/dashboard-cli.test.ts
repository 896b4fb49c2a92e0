// The dashboard's access from the command line: the ready banners carry its URL, `paraph dashboard url`
// prints the same one while serve runs, `paraph dashboard rotate-token` replaces the token at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { BIN, paraph, serveProcess } from '../helpers/cli.js';
import { useTmpDir } from '../helpers/server.js';

const DASHBOARD_URL = /^http:\/\/127\.0\.0\.1:\d+\/_dashboard\/#token=pdash_[0-9A-Za-z]{40,}$/;

async function dashboardStatus(url: string): Promise<number> {
  const token = new URL(url).hash.replace(/^#token=/, '');
  const response = await fetch(new URL('/_dashboard/api/clock', url), { headers: { authorization: `Dashboard ${token}` } });
  await response.arrayBuffer();
  return response.status;
}

test('the JSON banner and `paraph dashboard url` give the same working URL; rotate-token replaces it', async (t) => {
  const dataDir = useTmpDir(t);
  const none = await paraph(['dashboard', 'url', '--data-dir', dataDir]);
  assert.equal(none.code, 1, 'no data directory yet');

  const serve = await serveProcess(t, ['--data-dir', dataDir]);
  const url = serve.ready.dashboard_url as string;
  assert.match(url, DASHBOARD_URL);
  assert.equal(new URL(url).origin, new URL(serve.ready.api_url as string).origin);
  assert.equal(await dashboardStatus(url), 200);

  const shown = await paraph(['dashboard', 'url', '--data-dir', dataDir]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(shown.stdout.trim(), url);
  const asJson = await paraph(['dashboard', 'url', '--json', '--data-dir', dataDir]);
  assert.deepEqual(JSON.parse(asJson.stdout), { dashboard_url: url });

  const rotated = await paraph(['dashboard', 'rotate-token', '--json', '--data-dir', dataDir]);
  assert.equal(rotated.code, 0, rotated.stderr);
  const next = (JSON.parse(rotated.stdout) as { dashboard_url: string }).dashboard_url;
  assert.match(next, DASHBOARD_URL);
  assert.notEqual(next, url);
  // The running server checks the new token at once.
  assert.equal(await dashboardStatus(url), 401);
  assert.equal(await dashboardStatus(next), 200);
  assert.equal((await paraph(['dashboard', 'url', '--data-dir', dataDir])).stdout.trim(), next);
  assert.equal(await serve.stop(), 0);

  // A restart shows the same (rotated) token.
  const again = await serveProcess(t, ['--data-dir', dataDir]);
  assert.equal(new URL(again.ready.dashboard_url as string).hash, new URL(next).hash);
  assert.equal(await again.stop(), 0);
});

test('the human banner has a Dashboard line with the URL', async (t) => {
  const dataDir = useTmpDir(t);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--smtp-port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('Press Ctrl+C')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const line = /^ {2}Dashboard {2}(\S+)$/m.exec(stdout);
  assert.ok(line, stdout);
  assert.match(line[1] as string, DASHBOARD_URL);
  const shown = await paraph(['dashboard', 'url', '--data-dir', dataDir]);
  assert.equal(shown.stdout.trim(), line[1]);
  child.kill('SIGTERM');
  await once(child, 'exit');
});
