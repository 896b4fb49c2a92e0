// The audit chain rule (src/domain/audit-chain.ts) and migration 010, which chains rows written
// before it and installs the append-only triggers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { openDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { AUDIT_GENESIS, auditRowHash, checkAuditChain, type AuditContent } from '../../src/domain/audit-chain.js';
import { useTmpDir } from '../helpers/server.js';

const row = (id: number, overrides: Partial<AuditContent> = {}): AuditContent => ({
  request_id: 'r1',
  id,
  type: `event_${id}`,
  actor_type: 'system',
  actor_id: null,
  actor_email: '',
  signer_id: null,
  data: '{}',
  created_at: 1_700_000_000_000 + id,
  ...overrides,
});

function chain(rows: AuditContent[]) {
  let previous = AUDIT_GENESIS;
  return rows.map((r) => {
    const hash = auditRowHash(r, previous);
    const linked = { ...r, prev_hash: previous, hash };
    previous = hash;
    return linked;
  });
}

test('each hash covers every column and the previous hash', () => {
  const base = row(1);
  const hash = auditRowHash(base, AUDIT_GENESIS);
  assert.match(hash, /^[0-9a-f]{64}$/);
  for (const change of [
    { type: 'x' },
    { actor_type: 'signer' },
    { actor_id: 'k' },
    { actor_email: 'a@b' },
    { signer_id: 's' },
    { data: '{"a":1}' },
    { created_at: 1 },
    { request_id: 'r2' },
    { id: 2 },
  ]) {
    assert.notEqual(auditRowHash({ ...base, ...change }, AUDIT_GENESIS), hash, JSON.stringify(change));
  }
  assert.notEqual(auditRowHash(base, 'f'.repeat(64)), hash);
  // Fields cannot run into each other.
  assert.notEqual(auditRowHash(row(1, { type: 'ab', actor_type: 'c' }), AUDIT_GENESIS), auditRowHash(row(1, { type: 'a', actor_type: 'bc' }), AUDIT_GENESIS));
});

test('checkAuditChain names the first broken row: changed content, broken link, gap', () => {
  const rows = chain([row(1), row(2), row(3), row(4)]);
  assert.deepEqual(checkAuditChain(rows), { count: 4, head: rows[3]?.hash, broken: null });
  assert.deepEqual(checkAuditChain([]), { count: 0, head: AUDIT_GENESIS, broken: null });

  const changed = rows.map((r) => (r.id === 2 ? { ...r, actor_email: 'mallory@example.com' } : r));
  assert.equal(checkAuditChain(changed).broken?.id, 2);
  assert.equal(checkAuditChain(changed).broken?.reason, 'content');
  assert.equal(checkAuditChain(changed).head, rows[0]?.hash, 'the head of what still verifies');

  const rehashed = changed.map((r) => (r.id === 2 ? { ...r, hash: auditRowHash(r, r.prev_hash) } : r));
  assert.deepEqual(checkAuditChain(rehashed).broken, { id: 3, reason: 'link', message: 'event #3 does not link to the hash of event #2' });

  assert.deepEqual(checkAuditChain(rows.filter((r) => r.id !== 2)).broken, { id: 3, reason: 'gap', message: 'event #3 follows #1: #2 is missing' });
  assert.deepEqual(checkAuditChain(rows.filter((r) => r.id === 1 || r.id === 4)).broken?.message, 'event #4 follows #1: #2 to #3 are missing');
  assert.equal(checkAuditChain(rows.slice(1)).broken?.id, 2);
  const reordered = [rows[0], rows[2], rows[1], rows[3]] as typeof rows;
  assert.equal(checkAuditChain(reordered).broken?.id, 3);
});

test('migration 010 chains the rows written before it, then refuses UPDATE, DELETE and unchained INSERT', async (t) => {
  const file = path.join(useTmpDir(t), 'paraph.db');
  const sqlite = new BetterSqlite3(file);
  const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  const migrator = new Migrator({
    db: kysely,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'paraph_migrations',
    migrationLockTableName: 'paraph_migrations_lock',
    disableTransactions: true,
  });
  const before = Object.keys(migrations)
    .filter((name) => name < '010')
    .sort()
    .at(-1) as string;
  const { error } = await migrator.migrateTo(before);
  assert.equal(error, undefined);
  // The requests the rows belong to (the database enforces the references once opened).
  sqlite.exec(`
    insert into accounts (id, created_at) values ('a1', 0);
    insert into api_keys (id, account_id, key_hash, key_hint, webhook_secret_sealed, created_at) values ('k1', 'a1', 'h', 'hint', 's', 0);
    insert into documents (id, account_id, filename, sha256, size, page_count, pages_json, created_at) values ('d1', 'a1', 'f.pdf', 'x', 1, 1, '[]', 0);
    insert into signature_requests (id, account_id, api_key_id, client_reference, status, document_id, sequential_signing, created_at, updated_at, retention_expires_at)
      values ('r1', 'a1', 'k1', 'c1', 'active', 'd1', 0, 0, 0, 0), ('r2', 'a1', 'k1', 'c2', 'active', 'd1', 0, 0, 0, 0);
  `);
  const insert = sqlite.prepare(
    'insert into audit_events (request_id, id, type, actor_type, actor_id, actor_email, signer_id, data, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const r of [row(1), row(2), row(3), row(1, { request_id: 'r2' }), row(2, { request_id: 'r2', actor_type: 'signer', actor_email: 'a@example.com' })]) {
    insert.run(r.request_id, r.id, r.type, r.actor_type, r.actor_id, r.actor_email, r.signer_id, r.data, r.created_at);
  }
  await kysely.destroy();

  const db = await openDatabase(file);
  t.after(() => db.close());
  for (const request of ['r1', 'r2']) {
    const rows = db.all(db.q.selectFrom('audit_events').selectAll().where('request_id', '=', request).orderBy('id', 'asc'));
    assert.equal(checkAuditChain(rows).broken, null, request);
    assert.equal(rows[0]?.prev_hash, AUDIT_GENESIS);
  }
  const raw = new BetterSqlite3(file);
  t.after(() => raw.close());
  assert.throws(() => raw.prepare("update audit_events set type = 'x' where request_id = 'r1'").run(), /append-only/);
  assert.throws(() => raw.prepare("delete from audit_events where request_id = 'r1' and id = 3").run(), /append-only/);
  const head = (raw.prepare("select hash from audit_events where request_id = 'r1' and id = 3").get() as { hash: string }).hash;
  const next = row(4);
  const add = raw.prepare(
    'insert into audit_events (request_id, id, type, actor_type, actor_id, actor_email, signer_id, data, created_at, prev_hash, hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const values = (r: AuditContent, prev: string, hash: string | null) => [
    r.request_id,
    r.id,
    r.type,
    r.actor_type,
    r.actor_id,
    r.actor_email,
    r.signer_id,
    r.data,
    r.created_at,
    prev,
    hash,
  ];
  assert.throws(() => add.run(...values(row(5), head, 'x')), /hash chain/, 'a gap');
  assert.throws(() => add.run(...values(next, AUDIT_GENESIS, 'x')), /hash chain/, 'a wrong link');
  assert.throws(() => add.run(...values(next, head, null)), /hash chain/, 'no hash');
  add.run(...values(next, head, auditRowHash(next, head)));
});
