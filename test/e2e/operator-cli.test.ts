import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { apiClient, BIN, paraph, serveProcess } from '../helpers/cli.js';
import { useTmpDir } from '../helpers/server.js';
import { sleep, waitUntil } from '../helpers/wait.js';

test('the CLI moves time and forces outcomes while serve runs on the same directory', async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir]);
  const base = serve.ready.api_url as string;
  const key = serve.ready.api_key as string;
  const api = apiClient(base, key);
  const { makePdf } = await import('../helpers/pdfs.js');
  const create = async (reference: string) => {
    const form = new FormData();
    form.append('document', new Blob([await makePdf()], { type: 'application/pdf' }), 'contract.pdf');
    form.append(
      'request',
      JSON.stringify({
        client_reference: reference,
        signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'client@example.com', order: 1 }],
        fields: [{ signer_reference: 'client', type: 'signature', page: 1, x: 72, y: 600, width: 180, height: 40 }],
      }),
    );
    const created = await api('POST', '/signature-requests', form);
    assert.equal(created.status, 201);
    return created.body.id as string;
  };
  const first = await create('cli-1');
  const second = await create('cli-2');
  assert.equal((await api('POST', `/signature-requests/${first}/activate`, {})).status, 200);
  // Read once before the CLI's changes: the server remembers statuses and the clock offset until the
  // database changes, and must see another process's commit at the next request.
  assert.equal((await api('GET', `/signature-requests/${first}`)).body.status, 'active');
  assert.equal((await api('GET', `/signature-requests/${second}`)).body.status, 'prepared');
  const before = await fetch(base.replace(/\/v1$/, '/_sandbox/clock'), { headers: { authorization: `Bearer ${key}` } });
  assert.equal(((await before.json()) as { offset_seconds: number }).offset_seconds, 0);

  const advanced = await paraph(['clock', 'advance', '8d', '--json', '--data-dir', dataDir]);
  assert.equal(advanced.code, 0, advanced.stderr);
  assert.ok((JSON.parse(advanced.stdout) as { offset_seconds: number }).offset_seconds >= 8 * 86400 - 5);
  // The server reads the same clock and sees what the CLI's jobs did.
  const clock = await fetch(base.replace(/\/v1$/, '/_sandbox/clock'), { headers: { authorization: `Bearer ${key}` } });
  assert.ok(((await clock.json()) as { offset_seconds: number }).offset_seconds >= 8 * 86400 - 5);
  assert.equal((await api('GET', `/signature-requests/${first}`)).body.status, 'expired');

  const refused = await paraph(['expire', first, '--data-dir', dataDir]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /only an active request can expire/);
  const purged = await paraph(['purge', second, '--json', '--data-dir', dataDir]);
  assert.equal(purged.code, 0, purged.stderr);
  assert.equal((JSON.parse(purged.stdout) as { status: string }).status, 'purged');
  assert.equal((await api('GET', `/signature-requests/${second}`)).body.status, 'purged');

  const list = await paraph(['requests', 'list', '--json', '--data-dir', dataDir]);
  assert.equal(list.code, 0);
  const rows = JSON.parse(list.stdout) as Array<{ id: string; status: string; account_id: string }>;
  assert.deepEqual(
    rows.map((r) => [r.id, r.status]),
    [
      [second, 'purged'],
      [first, 'expired'],
    ],
  );
  assert.equal(rows[0]?.account_id, serve.ready.account_id);
  const filtered = await paraph(['requests', 'list', '--status', 'expired', '--json', '--data-dir', dataDir]);
  assert.deepEqual(
    (JSON.parse(filtered.stdout) as Array<{ id: string }>).map((r) => r.id),
    [first],
  );
  const shown = await paraph(['requests', 'show', first, '--data-dir', dataDir]);
  assert.equal(shown.code, 0);
  assert.match(shown.stdout, /request_expired/);
  assert.match(shown.stdout, /signer_expired/);
  // Each signer by reference, name and email.
  assert.match(shown.stdout, /^SIGNER\s+NAME\s+EMAIL\s+ORDER\s+STATUS/m);
  assert.match(shown.stdout, /^client\s+Ada Lovelace\s+client@example\.com\s+1\s+expired/m);
  // A reader that closes the pipe (`| head -1`): the command ends quietly.
  const gone = await readerGone([BIN, 'requests', 'show', first, '--data-dir', dataDir]);
  assert.equal(gone.code, 0, gone.stderr);
  assert.equal(gone.stderr, '');
  const bad = await paraph(['clock', 'advance', 'soon', '--data-dir', dataDir]);
  assert.equal(bad.code, 2);
  await serve.stop();
});

/** Runs a command whose reader closes the pipe before reading (`| true`, or `| head -1` at once). */
async function readerGone(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr };
}

test('serve whose output has no reader keeps serving and stops cleanly; a usage error with no reader of its message still exits 2', async (t) => {
  const dataDir = path.join(useTmpDir(t), 'data');
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--smtp-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  child.stdout.destroy();
  const lock = path.join(dataDir, 'serve.lock');
  const url = await waitUntil(
    'serve to record its address',
    () => fs.existsSync(lock) && (JSON.parse(fs.readFileSync(lock, 'utf8')) as { url?: string }).url,
    20_000,
  );
  // The banner's write has found the pipe closed by now: the server still answers.
  await sleep(500);
  assert.equal(child.exitCode, null, 'serve is still running');
  assert.equal((await fetch(`${url}/healthz`)).status, 200);
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 0);
  assert.equal(fs.existsSync(lock), false, 'the lock is released');
  assert.deepEqual(
    fs.readdirSync(dataDir).filter((name) => name.endsWith('-wal') || name.endsWith('-shm')),
    [],
    'the database was closed',
  );

  const usage = spawn(process.execPath, [BIN, 'clock', 'advance', 'soon', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  usage.stderr.destroy();
  const [usageCode] = (await once(usage, 'close')) as [number | null];
  assert.equal(usageCode, 2);
});
