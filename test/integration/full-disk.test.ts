// A full disk under a running server, for real: its data directory on a small tmpfs filled to the last
// byte. A call that cannot write answers 503 `temporarily_unavailable` in the error envelope, nothing of
// it is kept, reads still answer, and the same calls, Idempotency-Key and all, succeed once there is room
// again. Mounting needs root's CAP_SYS_ADMIN (CI's machine has it); elsewhere the test skips, saying so.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useServer, json } from '../helpers/server.js';
import { createRequest, postCreate } from '../helpers/flows.js';
import { payload } from '../helpers/requests.js';
import { expectError } from '../helpers/errors.js';

/**
 * A tmpfs of `mib` MiB at a new directory, unmounted (lazily: the server may still hold its files, and
 * lets them go as it stops) and removed when the test ends; null where this user may not mount.
 */
function smallDisk(t: TestContext, mib: number): string | null {
  const at = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-test-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${mib}m`, 'tmpfs', at], { encoding: 'utf8' });
  t.after(() => {
    if (mounted.status === 0) spawnSync('umount', ['-l', at]);
    fs.rmSync(at, { recursive: true, force: true });
  });
  return mounted.status === 0 ? at : null;
}

/** Writes a file until the disk refuses more (ENOSPC). */
function fill(file: string): void {
  const chunk = Buffer.alloc(64 * 1024, 1);
  const fd = fs.openSync(file, 'w');
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
    // The last bytes that fit.
    for (let size = 32 * 1024; size >= 1; size = Math.floor(size / 2)) {
      try {
        for (;;) fs.writeSync(fd, chunk, 0, size);
      } catch {}
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** What a call that cannot write on a full disk answers. */
const FULL_DISK = /full disk; retry once there is free space/;

test('a full disk: 503 temporarily_unavailable in the envelope, nothing kept; the same Idempotency-Key calls succeed once there is room', async (t) => {
  const disk = smallDisk(t, 16);
  if (disk === null) return t.skip('this user may not mount a tmpfs (root with CAP_SYS_ADMIN may)');
  const server = await useServer(t, { dataDir: path.join(disk, 'data') }, {}, { expectedErrors: /database or disk is full|no space left on device/ });
  const id = await createRequest(server);
  const filler = path.join(disk, 'filler');
  fill(filler);

  const create = () => postCreate(server, payload({ client_reference: 'made-on-a-full-disk' }), { headers: { 'idempotency-key': 'full-create' } });
  await expectError(await create(), 503, 'temporarily_unavailable', FULL_DISK);
  // An activation writes a few rows, which the database's log may still hold: done, or refused the same way.
  const activate = () =>
    server.call('POST', `/v1/signature-requests/${id}/activate`, {
      headers: { 'idempotency-key': 'full-activate', 'content-type': 'application/json' },
      body: '{}',
    });
  const first = await activate();
  const activateStatus = first.status;
  if (activateStatus !== 200) await expectError(first, 503, 'temporarily_unavailable', FULL_DISK);
  // Reads still answer, and show nothing of the refused call.
  const listed = await json<{ data: Array<{ client_reference: string }> }>(await server.call('GET', '/v1/signature-requests'));
  assert.deepEqual(
    listed.data.map((request) => request.client_reference),
    [(await json(await server.call('GET', `/v1/signature-requests/${id}`))).client_reference],
  );

  fs.rmSync(filler);
  const [createdStatus, created] = await answer(create());
  assert.equal(createdStatus, 201, JSON.stringify(created.error));
  assert.equal(created.client_reference, 'made-on-a-full-disk');
  const activated = await activate();
  assert.equal(activated.status, 200);
  assert.equal(activated.headers.get('idempotent-replayed'), activateStatus === 200 ? 'true' : null);
  assert.equal((await json(activated)).status, 'active');
});

async function answer(response: Promise<Response>): Promise<[number, Record<string, any>]> {
  const res = await response;
  return [res.status, await json(res)];
}

test('a keyed call that fails and whose key cannot be freed (the database refusing both writes) answers its envelope; the retry acts once writes pass', async (t) => {
  const server = await useServer(t, {}, {}, { expectedErrors: /refused/ });
  const id = await createRequest(server);
  const sqlite = new Database(path.join(server.dataDir, 'paraph.db'));
  t.after(() => sqlite.close());
  sqlite.exec(`
    CREATE TRIGGER refuse_activation BEFORE UPDATE ON signature_requests BEGIN SELECT RAISE(ABORT, 'the activation is refused'); END;
    CREATE TRIGGER keep_keys BEFORE DELETE ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'freeing the key is refused'); END;
  `);
  const activate = () =>
    server.call('POST', `/v1/signature-requests/${id}/activate`, { headers: { 'idempotency-key': 'unfreed', 'content-type': 'application/json' }, body: '{}' });
  await expectError(await activate(), 500, 'internal_error');

  sqlite.exec('DROP TRIGGER refuse_activation; DROP TRIGGER keep_keys');
  const [retryStatus, retried] = await answer(activate());
  assert.equal(retryStatus, 200, JSON.stringify(retried.error));
  assert.equal(retried.status, 'active');
});
