// Every line: the data directory on disk: the database, blobs, fsync.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { resolveConfig } from '../../src/platform/config.js';
import { createContext } from '../../src/context.js';
import { startParaph } from '../../src/server.js';
import { createLog } from '../../src/platform/log.js';
import { createApiKey } from '../../src/features/keys/create-api-key.js';
import { runDueJobs } from '../../src/features/sandbox/run-due-jobs.js';
import { UNREFERENCED_BLOB_AGE_MS } from '../../src/features/sandbox/unreferenced-blobs.js';
import { createForm, payload } from '../helpers/requests.js';
import { json, useServer, useTmpDir } from '../helpers/server.js';

test('the data directory is private: directory 0700, master key 0600, SQLite in WAL mode', async (t) => {
  const server = await useServer(t);
  assert.equal(fs.statSync(server.dataDir).mode & 0o777, 0o700);
  assert.equal(fs.statSync(path.join(server.dataDir, 'master.key')).mode & 0o777, 0o600);
  const db = new BetterSqlite3(path.join(server.dataDir, 'paraph.db'), { readonly: true });
  t.after(() => db.close());
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  // Keys are stored as hashes, webhook secrets sealed: neither appears in the database.
  const rows = JSON.stringify(db.prepare('select * from api_keys').all());
  assert.doesNotMatch(rows, new RegExp(server.apiKey));
  assert.doesNotMatch(rows, /whsec_/);
});

/** A data directory whose database also records `migration`, as another paraph would have; answers why it is refused. */
async function refusedWithMigration(t: TestContext, migration: string): Promise<{ file: string; message: string }> {
  const dir = useTmpDir(t);
  const log = createLog('silent');
  await (await createContext({ dataDir: dir, log })).close();
  const file = path.join(dir, 'paraph.db');
  const sqlite = new BetterSqlite3(file);
  sqlite.prepare("INSERT INTO paraph_migrations (name, timestamp) VALUES (?, '2026-11-28T00:00:00.000Z')").run(migration);
  sqlite.close();
  let message = '';
  await assert.rejects(createContext({ dataDir: dir, log }), (error: Error) => {
    message = error.message;
    return true;
  });
  return { file, message };
}

test('a database a newer paraph migrated is refused, saying so and what to do', async (t) => {
  const { file, message } = await refusedWithMigration(t, '999-from-a-newer-paraph');
  assert.ok(message.includes(`${file} was last used by a newer paraph`), message);
  assert.match(message, /its migration 999-from-a-newer-paraph is unknown/);
  assert.match(message, /another data directory \(--data-dir\)/);
});

test("a database a development build migrated under other numbers is refused as such, not as a newer paraph's", async (t) => {
  const { message } = await refusedWithMigration(t, '015-idempotency-committed-answer');
  assert.match(message, /was made by a development build of paraph whose migrations were numbered otherwise/);
  assert.match(message, /its migration 015-idempotency-committed-answer is not this version's/);
  assert.doesNotMatch(message, /newer/);
});

test('a group- or world-readable master key is reported', async (t) => {
  const dir = useTmpDir(t);
  const warnings: string[] = [];
  const log = createLog('silent');
  const first = await createContext({ dataDir: dir, log });
  await first.close();
  fs.chmodSync(path.join(dir, 'master.key'), 0o644);
  const spy = Object.assign(Object.create(log) as typeof log, { warn: (message: string) => void warnings.push(message) });
  const second = await createContext({ dataDir: dir, log: spy });
  await second.close();
  assert.ok(
    warnings.some((w) => /master\.key is readable by other users/.test(w)),
    warnings.join('\n'),
  );
});

test('a second process on the same directory writes while the server serves, without lock errors', async (t) => {
  const server = await useServer(t);
  const cli = await createContext({ dataDir: server.dataDir, log: createLog('silent') });
  t.after(() => cli.close());
  const results = await Promise.all([
    ...Array.from({ length: 20 }, async (_, i) => {
      const response = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ client_reference: `c-${i}` })) });
      return response.status;
    }),
    ...Array.from({ length: 20 }, async () => {
      const key = createApiKey(cli, { accountId: server.accountId });
      const response = await server.call('GET', '/v1/signature-requests', { key: key.api_key });
      return response.status;
    }),
  ]);
  assert.deepEqual(results.slice(0, 20), Array(20).fill(201));
  assert.deepEqual(results.slice(20), Array(20).fill(200));
  const list = await json<{ data: unknown[] }>(await server.call('GET', '/v1/signature-requests?limit=100'));
  assert.equal(list.data.length, 20);
});

test('data survives a restart on the same directory, and the first key is made only once', async (t) => {
  const dir = useTmpDir(t);
  const first = await useServer(t, { dataDir: dir });
  const created = await json<{ id: string }>(
    await first.call('POST', '/v1/signature-requests', { body: await createForm(payload({ client_reference: 'kept' })) }),
  );
  await first.running.close();
  const again = await startParaph(resolveConfig({ port: '0', smtpPort: '0', dataDir: dir }, {}, process.cwd()), { log: createLog('silent') });
  t.after(() => again.close());
  assert.equal(again.firstKey, null);
  const response = await fetch(`${again.url}/v1/signature-requests/${created.id}`, { headers: { authorization: `Bearer ${first.apiKey}` } });
  assert.equal(response.status, 200);
  assert.equal((await json<{ client_reference: string }>(response)).client_reference, 'kept');
});

test("a CLI process applies serve's options from its one record, every option alike (webhook time-out, loopback, brand, relay, timestamps)", async (t) => {
  const server = await useServer(t, {
    webhookTimeout: '60',
    allowLoopbackWebhooks: true,
    brand: 'acme',
    smtpRelay: 'smtp://127.0.0.1:2599',
    timestamps: 'off',
  });
  const cli = await createContext({ dataDir: server.dataDir, log: createLog('silent') });
  t.after(() => cli.close());
  assert.deepEqual(cli.policy, server.running.ctx.policy);
  assert.equal(cli.policy.webhookTimeoutMs, 60_000, 'clock advance sends due webhooks with serve --webhook-timeout');
  assert.equal(cli.policy.allowLoopbackWebhooks, true);
  assert.equal(cli.policy.timestamps, false);
  assert.equal(cli.brand.word, 'acme');
  assert.equal(cli.mailTarget(), 'smtp://127.0.0.1:2599');
  const { db } = cli;
  const records = db.all(
    db.q.selectFrom('settings').select('key').where('key', 'in', ['serve_options', 'brand', 'allow_loopback_webhooks', 'timestamps', 'tsa_url', 'smtp_relay']),
  );
  assert.deepEqual(
    records.map((r) => r.key),
    ['serve_options'],
    'one record, no option kept key by key',
  );
});

test('blob files a crash left without a row (a create killed before its commit) are deleted once old; every referenced one stays', async (t) => {
  const server = await useServer(t);
  const created = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload()) });
  assert.equal(created.status, 201);
  const blobs = path.join(server.dataDir, 'blobs');
  const referenced = fs.readdirSync(blobs);
  assert.equal(referenced.length, 1);
  // What a process killed between its write and its commit leaves: a sealed file no row names, and a temporary one.
  const { id: orphan } = await server.running.ctx.blobs.put(Buffer.from('%PDF-1.7 an upload whose create never committed'));
  const young = (await server.running.ctx.blobs.put(Buffer.from('%PDF-1.7 a create still waiting for its commit'))).id;
  const tmp = path.join(blobs, '.0b7c3a9e-2f4d-4c1e-9a0f-3d2b1c4e5f60.tmp');
  fs.writeFileSync(tmp, 'half-written');
  const old = new Date(Date.now() - UNREFERENCED_BLOB_AGE_MS - 60_000);
  for (const name of [...referenced, `${orphan}.blob`, path.basename(tmp)]) fs.utimesSync(path.join(blobs, name), old, old);

  // Another paraph on the data directory (a CLI command, or the server's next start) runs the due jobs.
  const other = await createContext({ dataDir: server.dataDir, log: createLog('silent') });
  t.after(() => other.close());
  await runDueJobs(other, { deliverWebhooks: false });
  assert.deepEqual(fs.readdirSync(blobs).sort(), [...referenced, `${young}.blob`].sort());
  // The request's document still reads back whole.
  const { db } = server.running.ctx;
  const stored = db.first(db.q.selectFrom('documents').select(['blob_id', 'sha256']));
  const bytes = await server.running.ctx.blobs.get(stored?.blob_id as string, stored?.sha256 as string);
  assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
});
