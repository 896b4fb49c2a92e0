/**
 * The seeding step of the list/get benchmark (stored-100k.ts): a data directory's few requests copied
 * with SQL into `count` requests, with fresh unique ids, timestamps spread over the day before the
 * seeding, foreign keys on, and each copy's audit chain computed again so `paraph audit verify` accepts it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { ROOT } from './serve.js';

const DAY_MS = 86_400_000;

/**
 * Tables copied with one `INSERT … SELECT` per chunk, in foreign-key order, and how each row finds its
 * base request. `base_<table>` are snapshots of the base rows, so no join scans the growing tables.
 */
const COPIED: Array<{ table: string; from: string }> = [
  { table: 'documents', from: 'JOIN base_signature_requests r ON r.id = c.old_id JOIN base_documents t ON t.id = r.document_id' },
  { table: 'signature_requests', from: 'JOIN base_signature_requests t ON t.id = c.old_id' },
  { table: 'signers', from: 'JOIN base_signers t ON t.request_id = c.old_id' },
  { table: 'fields', from: 'JOIN base_fields t ON t.request_id = c.old_id' },
  { table: 'signing_links', from: 'JOIN base_signing_links t ON t.request_id = c.old_id' },
  { table: 'events', from: 'JOIN base_events t ON t.request_id = c.old_id' },
  // Sent mail only: a copy's sealed message is bound to its base row's id and is never opened again once sent.
  { table: 'mail_outbox', from: "JOIN base_mail_outbox t ON t.request_id = c.old_id AND t.status = 'sent'" },
  { table: 'signer_marks', from: 'JOIN base_signers s ON s.request_id = c.old_id JOIN base_signer_marks t ON t.signer_id = s.id' },
  { table: 'artifacts', from: 'JOIN base_artifacts t ON t.request_id = c.old_id' },
];

/** Tables that hang off a request and are deliberately left out (none in the base, or not the request's own). */
const NOT_COPIED = new Set(['audit_events', 'emails', 'webhook_deliveries', 'webhook_attempts', 'signer_otps', 'otp_failures', 'idempotency_keys']);

const ENTITY_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|evt_[A-Za-z0-9]{22}/g;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Multiplies the base requests of the database at `file` to `count` requests in all. */
export async function multiply(file: string, count: number, completedId: string): Promise<{ getIdLarge: string }> {
  const { auditRowHash } = (await import(pathToFileURL(path.join(ROOT, 'dist/domain/audit-chain.js')).href)) as {
    auditRowHash: (row: Record<string, unknown>, prev: string) => string;
  };
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const base = db.prepare('SELECT id, client_reference FROM signature_requests ORDER BY seq').all() as Array<{ id: string; client_reference: string }>;
    const m = base.length;
    const copies = Math.ceil((count - m) / m);
    const newCount = count - m;
    // Every id a copy gets afresh; anything else (account, key, blobs, hashes) is shared.
    const entityIds = new Set<string>();
    for (const sql of [
      'SELECT id FROM signature_requests',
      'SELECT document_id AS id FROM signature_requests',
      'SELECT id FROM signers',
      'SELECT id FROM fields',
      'SELECT id FROM signing_links',
      'SELECT id FROM events',
      'SELECT id FROM mail_outbox',
    ])
      for (const row of db.prepare(sql).all() as Array<{ id: string }>) entityIds.add(row.id);
    const refs = new Set(base.map((b) => b.client_reference));

    // Fresh ids per (base id, copy): random UUIDs, and `evt_` + 22 base62 characters for events, as paraph makes them.
    let ids = new Map<string, string>();
    const fresh = (old: string, n: number): string => {
      const key = `${old}|${n}`;
      let id = ids.get(key);
      if (id === undefined) {
        if (old.startsWith('evt_')) {
          const bytes = randomBytes(22);
          id = `evt_${Array.from(bytes, (b) => BASE62[b % 62]).join('')}`;
        } else {
          id = randomUUID();
        }
        ids.set(key, id);
      }
      return id;
    };
    // JSON text (event payloads, audit data): the copy's ids, client reference and times.
    const remapText = (text: string, n: number, shift: number) =>
      text
        .replace(ENTITY_ID, (found) => (entityIds.has(found) ? fresh(found, n) : found))
        .replace(/"client_reference":"([^"]*)"/g, (whole, ref: string) => (refs.has(ref) ? `"client_reference":"${ref}-c${n}"` : whole))
        .replace(
          /"([a-z_]*_at)":"(\d{4}-\d\d-\d\dT[^"]+)"/g,
          (_whole, key: string, iso: string) => `"${key}":"${new Date(Date.parse(iso) + shift).toISOString()}"`,
        );
    db.function(
      'fresh_id',
      { deterministic: true },
      (old: unknown, n: unknown) => (typeof old === 'string' && entityIds.has(old) ? fresh(old, Number(n)) : old) as string,
    );
    db.function(
      'remap',
      { deterministic: true },
      (text: unknown, n: unknown, shift: unknown) => (typeof text === 'string' ? remapText(text, Number(n), Number(shift)) : text) as string,
    );

    // One row per new request: which base it copies, its copy number and its time shift (oldest first).
    const step = Math.floor(DAY_MS / newCount);
    db.exec('CREATE TEMP TABLE copy (ord INTEGER PRIMARY KEY, n INTEGER NOT NULL, old_id TEXT NOT NULL, shift INTEGER NOT NULL)');
    const addCopy = db.prepare('INSERT INTO copy (ord, n, old_id, shift) VALUES (?, ?, ?, ?)');
    db.transaction(() => {
      for (let ord = 0; ord < newCount; ord += 1) addCopy.run(ord, Math.floor(ord / m) + 1, (base[ord % m] as { id: string }).id, -(newCount - ord) * step);
    })();
    db.exec('CREATE INDEX temp.copy_n ON copy (n, ord)');

    for (const { table } of COPIED) db.exec(`CREATE TEMP TABLE base_${table} AS SELECT rowid AS base_rowid, * FROM main.${table}`);
    const columnsOf = (table: string) => db.prepare(`SELECT name, pk FROM pragma_table_info('${table}', 'main')`).all() as Array<{ name: string; pk: number }>;
    const inserts = COPIED.map(({ table, from }) => {
      const columns = columnsOf(table)
        .filter((c) => !(c.name === 'seq' && c.pk === 1))
        .map((c) => c.name);
      const expression = (column: string) => {
        if (column === 'client_reference') return `t.client_reference || '-c' || c.n`;
        if (column === 'token_hash') return 'lower(hex(randomblob(32)))';
        if (column === 'payload' || column === 'data') return `remap(t.${column}, c.n, c.shift)`;
        if (column === 'at' || column.endsWith('_at')) return `t.${column} + c.shift`;
        if (column === 'id' || column.endsWith('_id')) return `fresh_id(t.${column}, c.n)`;
        return `t.${column}`;
      };
      return db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${columns.map(expression).join(', ')} FROM copy c ${from} WHERE c.n BETWEEN ? AND ? ORDER BY c.ord, t.base_rowid`,
      );
    });
    for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%request_id%'").all() as Array<{ name: string }>) {
      if (!COPIED.some((c) => c.table === name) && !NOT_COPIED.has(name))
        throw new Error(`table ${name} hangs off a request and the bench's seeding does not copy it`);
    }

    // The audit trail, chain by chain.
    const auditColumns = ['request_id', 'id', 'type', 'actor_type', 'actor_id', 'actor_email', 'signer_id', 'data', 'created_at'] as const;
    type AuditRow = Record<(typeof auditColumns)[number], string | number | null>;
    const trails = new Map<string, AuditRow[]>();
    for (const row of db.prepare(`SELECT ${auditColumns.join(', ')} FROM audit_events ORDER BY request_id, id`).all() as AuditRow[]) {
      const list = trails.get(row.request_id as string) ?? [];
      list.push(row);
      trails.set(row.request_id as string, list);
    }
    const addAudit = db.prepare(
      `INSERT INTO audit_events (${auditColumns.join(', ')}, prev_hash, hash) VALUES (${auditColumns.map(() => '?').join(', ')}, ?, ?)`,
    );
    const chunkCopies = db.prepare('SELECT n, old_id, shift FROM copy WHERE n BETWEEN ? AND ? ORDER BY ord');
    const remapId = (value: string | number | null, n: number) => (typeof value === 'string' && entityIds.has(value) ? fresh(value, n) : value);

    const CHUNK = 250;
    for (let first = 1; first <= copies; first += CHUNK) {
      const last = Math.min(copies, first + CHUNK - 1);
      db.transaction(() => {
        for (const insert of inserts) insert.run(first, last);
        for (const copy of chunkCopies.all(first, last) as Array<{ n: number; old_id: string; shift: number }>) {
          let previous = '0'.repeat(64);
          for (const row of trails.get(copy.old_id) ?? []) {
            const next: AuditRow = {
              ...row,
              request_id: fresh(copy.old_id, copy.n),
              actor_id: remapId(row.actor_id, copy.n),
              signer_id: remapId(row.signer_id, copy.n),
              data: remapText(row.data as string, copy.n, copy.shift),
              created_at: (row.created_at as number) + copy.shift,
            };
            const hash = auditRowHash(next, previous);
            addAudit.run(...auditColumns.map((c) => next[c]), previous, hash);
            previous = hash;
          }
        }
      })();
      ids = new Map();
    }

    // The base requests are the newest: give them the highest sequence numbers, so the list (newest
    // first, by seq) agrees with created_at.
    db.transaction(() => {
      const top = (db.prepare('SELECT max(seq) AS s FROM signature_requests').get() as { s: number }).s;
      db.prepare('UPDATE signature_requests SET seq = seq + ? WHERE seq <= ?').run(top, m);
      db.prepare("UPDATE sqlite_sequence SET seq = (SELECT max(seq) FROM signature_requests) WHERE name = 'signature_requests'").run();
    })();
    const total = (db.prepare('SELECT count(*) AS n FROM signature_requests').get() as { n: number }).n;
    if (total !== count) throw new Error(`seeded ${total} requests, not ${count}`);
    const broken = db.prepare('PRAGMA foreign_key_check').all();
    if (broken.length > 0) throw new Error(`the seeded database breaks ${broken.length} foreign keys, e.g. ${JSON.stringify(broken[0])}`);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`quick_check of the seeded database: ${String(check)}`);
    const completedRef = (db.prepare('SELECT client_reference AS r FROM signature_requests WHERE id = ?').get(completedId) as { r: string }).r;
    const middle = db.prepare('SELECT id FROM signature_requests WHERE client_reference = ?').get(`${completedRef}-c${Math.ceil(copies / 2)}`) as
      | { id: string }
      | undefined;
    if (!middle) throw new Error('the middle copy of the completed request is missing');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { getIdLarge: middle.id };
  } finally {
    db.close();
  }
}
