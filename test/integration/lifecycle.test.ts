// The request lifecycle end to end, over real HTTP against the real server: fields PUT, activate, cancel,
// signer replacement and reminders (spec "States and transitions", "Endpoints", "Events"; sandbox contract).
// Every row of the request state table is driven through the API; events, the audit trail and signing
// links are read from the server's own database and link resolver.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { resolveSigningLink } from '../../src/features/signing/resolve-signing-link.js';
import { expectError } from '../helpers/errors.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { createRequest, status } from '../helpers/flows.js';
import { STATUS_KEYS } from '../helpers/answer-keys.js';

const ROUTE = '/v1/signature-requests';
const DAY_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^[0-9A-Za-z]{43,}$/;
const JSON_HEADERS = { 'content-type': 'application/json' };

type Json = Record<string, unknown>;

interface ActivatedSigner {
  id: string;
  reference: string;
  status: string;
  signing_url: string;
  email_delivery: string;
  embed_url: string;
}
interface ActivateResponse {
  id: string;
  status: string;
  environment: string;
  signers: ActivatedSigner[];
}
interface SignerStatus {
  id: string;
  reference: string;
  name: string;
  email: string;
  order: number;
  status: string;
  locale: string;
  expires_at: string | null;
}
interface StatusResponse {
  id: string;
  client_reference: string;
  status: string;
  created_at: string;
  updated_at: string;
  retention_expires_at: string | null;
  signers: SignerStatus[];
  fields: Json[];
}
interface ReplaceResponse {
  id: string;
  signer: { id: string; reference: string; email: string; status: string; signing_url: string; email_delivery: string; embed_url?: string };
}
interface Reminder {
  reference: string;
  email_delivery: string;
  signing_url: string;
  embed_url?: string;
}
interface ReminderResponse {
  id: string;
  status: string;
  reminders: Reminder[];
}
interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: { signature_request_id: string; client_reference: string; status: string; signer?: Json; replaced_signer?: Json };
}

// ------------------------------------------------------------------------------------------------------------
// Helpers

/** Fields on an A4 page (595.28 x 841.89 points). */
const sig = (over: Json = {}): Json => ({ signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50, ...over });
const text = (over: Json = {}): Json => ({ signer_reference: 'client', type: 'text', page: 1, x: 50, y: 100, width: 200, height: 20, ...over });

const CLIENT = { reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 };
const WITNESS = { reference: 'witness', name: 'Bob Witness', email: 'bob@example.com', order: 2, locale: 'fr' };
const BOTH_FIELDS = [sig(), sig({ signer_reference: 'witness', y: 600 })];

/** A JSON call; `body` undefined sends no body and no content type at all. */
function send(server: TestServer, method: string, route: string, body?: unknown, key?: string): Promise<Response> {
  return server.call(method, route, {
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: JSON_HEADERS }),
    ...(key === undefined ? {} : { key }),
  });
}

const at = (id: string, action: string) => `${ROUTE}/${id}/${action}`;

/** A new prepared request of client + witness (fr), one signature field each unless overridden; answers its id. */
const createPair = (server: TestServer, overrides: Json = {}, key?: string): Promise<string> =>
  createRequest(server, { signers: [CLIENT, WITNESS], fields: BOTH_FIELDS, ...overrides }, { key });

async function ok<T>(res: Response, status = 200): Promise<T> {
  const body = await res.text();
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${body}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  return JSON.parse(body) as T;
}

async function activate(server: TestServer, id: string, body: unknown = {}): Promise<ActivateResponse> {
  return ok<ActivateResponse>(await send(server, 'POST', at(id, 'activate'), body));
}

/** GET one request as this file's StatusResponse (the shared `status` of helpers/flows.ts). */
const getStatus = async (server: TestServer, id: string, key?: string) => (await status(server, id, key)) as unknown as StatusResponse;

/** The token of a signing or embed URL, after checking the URL is `${server.url}/<kind>/<token>[?lang=..]`. */
function tokenOf(server: TestServer, url: string, kind: 'sign' | 'embed' = 'sign'): string {
  const prefix = `${server.url}/${kind}/`;
  assert.ok(url.startsWith(prefix), `${url} should start with ${prefix}`);
  const token = url.slice(prefix.length).split('?')[0] ?? '';
  assert.match(token, TOKEN);
  return token;
}

/** 'ok' or the reason the link is closed, as the signing page would see it. */
function linkState(server: TestServer, token: string): string {
  const resolved = resolveSigningLink(server.running.ctx, token);
  return resolved.ok ? 'ok' : resolved.reason;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function eventsOf(server: TestServer, requestId: string) {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('events').selectAll().where('request_id', '=', requestId).orderBy('seq', 'asc'));
}

function auditOf(server: TestServer, requestId: string) {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('audit_events').selectAll().where('request_id', '=', requestId).orderBy('id', 'asc'));
}

function linksOf(server: TestServer, requestId: string) {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('signing_links').selectAll().where('request_id', '=', requestId).orderBy('created_at', 'asc'));
}

/** The id of the server's first API key (the one `server.call` uses). */
function firstKeyId(server: TestServer): string {
  const { db } = server.running.ctx;
  const row = db.first(db.q.selectFrom('api_keys').select('id').where('key_hash', '=', sha256(server.apiKey)));
  assert.ok(row);
  return row.id;
}

/** Every value of every row of every table, as text (blobs as latin1). */
function databaseText(server: TestServer): Map<string, string> {
  const { db } = server.running.ctx;
  const raw = <R>(query: ReturnType<typeof sql<R>>) => ({ compile: () => query.compile(db.q) });
  const tables = db.all(raw(sql<{ name: string }>`select name from sqlite_master where type = 'table'`));
  const out = new Map<string, string>();
  for (const { name } of tables) {
    const rows = db.all(raw(sql<Json>`select * from ${sql.table(name)}`));
    const cells = rows.flatMap((row) => Object.values(row).map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v))));
    out.set(name, cells.join('\n'));
  }
  return out;
}

/** Tables, then raw files of the data directory (database, WAL, blobs), that contain `needle`. */
function whereStored(server: TestServer, needle: string): string[] {
  const found = [...databaseText(server)].filter(([, content]) => content.includes(needle)).map(([name]) => `table ${name}`);
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of walk(server.dataDir)) {
    if (fs.readFileSync(file).includes(Buffer.from(needle, 'latin1'))) found.push(`file ${path.relative(server.dataDir, file)}`);
  }
  return found;
}

/** Marks a signer as signed directly in the database (no signing endpoint is involved in these tests). */
function markSigned(server: TestServer, signerId: string): void {
  const { db, clock } = server.running.ctx;
  db.run(db.q.updateTable('signers').set({ status: 'signed', signed_at: clock.now() }).where('id', '=', signerId));
}

// ------------------------------------------------------------------------------------------------------------
// The request state table

// Each test has its own server: they run side by side.
describe('lifecycle', { concurrency: 3 }, () => {
  test('state table from prepared: PUT fields, signer correction, activate and cancel are legal; reminders are not', async (t) => {
    const server = await useServer(t);

    await t.test('PUT /fields answers 200 and replaces every field', async () => {
      const id = await createPair(server, {
        fields: [...BOTH_FIELDS, text({ name: 'old_note', value: 'old' }), text({ type: 'date', name: 'old_date', y: 130 })],
      });
      assert.deepEqual(
        (await getStatus(server, id)).fields.map((f) => f.name),
        ['old_note', 'old_date'],
      );
      const fields = [
        sig({ x: 60 }),
        sig({ signer_reference: 'witness', y: 500 }),
        text({ name: 'new_note', value: 'new value' }),
        text({ signer_reference: 'witness', type: 'date', field_key: 'sign_date', y: 160 }),
      ];
      const answer = await ok<StatusResponse>(await send(server, 'PUT', at(id, 'fields'), { fields }));
      assert.equal(answer.id, id);
      assert.equal(answer.status, 'prepared');
      const status = await getStatus(server, id);
      assert.equal(status.status, 'prepared');
      assert.deepEqual(
        status.fields.map(({ id: _id, ...rest }) => rest),
        [
          { name: 'new_note', type: 'text', field_key: '', signer_reference: 'client', value: 'new value', read_only: false, completed: false },
          { name: '', type: 'date', field_key: 'sign_date', signer_reference: 'witness', value: '', read_only: false, completed: false },
        ],
      );
      assert.deepEqual(answer.fields, status.fields);
      // Every stored field was replaced, signature fields included.
      const { db } = server.running.ctx;
      const stored = db.all(db.q.selectFrom('fields').select(['type', 'x', 'y']).where('request_id', '=', id).orderBy('position', 'asc'));
      assert.deepEqual(
        stored.map((f) => [f.type, f.x, f.y]),
        [
          ['signature', 60, 700],
          ['signature', 50, 500],
          ['text', 50, 100],
          ['date', 50, 160],
        ],
      );
      // Still prepared: it can be confirmed again.
      await ok(await send(server, 'PUT', at(id, 'fields'), { fields: BOTH_FIELDS }));
      assert.deepEqual((await getStatus(server, id)).fields, []);
    });

    await t.test('signer replace corrects the signer in place: same id, empty signing_url, no link, no event', async () => {
      const id = await createPair(server);
      const before = await getStatus(server, id);
      const witness = before.signers[1];
      assert.ok(witness);
      const res = await send(server, 'POST', at(id, 'signers/witness/replace'), { email: 'wendy@example.com', name: 'Wendy', locale: 'ar' });
      const answer = await ok<ReplaceResponse>(res);
      assert.deepEqual(answer, {
        id,
        signer: { id: witness.id, reference: 'witness', email: 'wendy@example.com', status: 'pending', signing_url: '', email_delivery: 'not_requested' },
      });
      const after = await getStatus(server, id);
      assert.equal(after.status, 'prepared');
      assert.deepEqual(
        after.signers.map((s) => s.id),
        before.signers.map((s) => s.id),
      );
      assert.deepEqual({ ...after.signers[1], id: undefined }, { ...witness, id: undefined, email: 'wendy@example.com', name: 'Wendy', locale: 'ar' });
      assert.deepEqual(after.signers[0], before.signers[0]);
      assert.equal(linksOf(server, id).length, 0);
      assert.equal(eventsOf(server, id).length, 0);
      // The corrected signer gets the link at activation, in the corrected locale.
      const activated = await activate(server, id);
      assert.equal(activated.signers[1]?.id, witness.id);
      assert.match(activated.signers[1]?.signing_url ?? '', /\?lang=ar$/);
    });

    await t.test('activate answers 200 and the request is active', async () => {
      const id = await createPair(server);
      assert.equal((await activate(server, id)).status, 'active');
      assert.equal((await getStatus(server, id)).status, 'active');
    });

    await t.test('cancel answers 200 and the request is cancelled', async () => {
      const id = await createPair(server);
      const answer = await ok<StatusResponse>(await send(server, 'POST', at(id, 'cancel'), {}));
      assert.equal(answer.status, 'cancelled');
      assert.equal((await getStatus(server, id)).status, 'cancelled');
    });

    await t.test('reminders on a prepared request answer 409 conflict', async () => {
      const id = await createPair(server);
      await expectError(await send(server, 'POST', at(id, 'reminders'), {}), 409, 'conflict', /active/);
      await expectError(await send(server, 'POST', at(id, 'reminders'), { signer_reference: 'client' }), 409, 'conflict', /active/);
      assert.equal((await getStatus(server, id)).status, 'prepared');
      assert.equal(auditOf(server, id).filter((a) => a.type === 'reminder_sent').length, 0);
    });
  });

  test('state table from active: fields PUT and activate are 409; reminders, replace and cancel are 200', async (t) => {
    const server = await useServer(t);
    const id = await createPair(server);
    await activate(server, id);

    await expectError(await send(server, 'PUT', at(id, 'fields'), { fields: BOTH_FIELDS }), 409, 'conflict', /prepared.*active|active/);
    await expectError(await send(server, 'POST', at(id, 'activate'), {}), 409, 'conflict', /already active: .*reminders\) issues a signer a new link/);
    await expectError(await send(server, 'POST', at(id, 'activate'), { link_expiry_days: 3 }), 409, 'conflict', 'already active');
    assert.equal(eventsOf(server, id).filter((e) => e.type === 'signature_request.activated').length, 1);

    const reminded = await ok<ReminderResponse>(await send(server, 'POST', at(id, 'reminders'), {}));
    assert.equal(reminded.status, 'active');
    const replaced = await ok<ReplaceResponse>(await send(server, 'POST', at(id, 'signers/witness/replace'), { email: 'carol@example.com' }));
    assert.equal(replaced.signer.email, 'carol@example.com');
    assert.equal((await getStatus(server, id)).status, 'active');

    const cancelled = await ok<StatusResponse>(await send(server, 'POST', at(id, 'cancel'), {}));
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await getStatus(server, id)).status, 'cancelled');
  });

  test('state table from cancelled: every move answers 409 and changes nothing', async (t) => {
    const server = await useServer(t);
    const fromPrepared = await createPair(server);
    await ok(await send(server, 'POST', at(fromPrepared, 'cancel'), {}));
    const fromActive = await createPair(server);
    await activate(server, fromActive);
    await ok(await send(server, 'POST', at(fromActive, 'cancel'), { reason: 'changed our mind' }));

    for (const id of [fromPrepared, fromActive]) {
      const before = await getStatus(server, id);
      const auditCount = auditOf(server, id).length;
      const eventCount = eventsOf(server, id).length;
      await expectError(await send(server, 'POST', at(id, 'cancel'), {}), 409, 'conflict', 'already cancelled');
      await expectError(await send(server, 'POST', at(id, 'cancel'), { reason: 'again' }), 409, 'conflict', 'already cancelled');
      await expectError(await send(server, 'POST', at(id, 'activate'), {}), 409, 'conflict', /cancelled/);
      await expectError(await send(server, 'PUT', at(id, 'fields'), { fields: BOTH_FIELDS }), 409, 'conflict', /cancelled/);
      await expectError(await send(server, 'POST', at(id, 'reminders'), {}), 409, 'conflict', /cancelled/);
      await expectError(await send(server, 'POST', at(id, 'signers/client/replace'), { email: 'new@example.com' }), 409, 'conflict', /cancelled/);
      assert.deepEqual(await getStatus(server, id), before);
      assert.equal(auditOf(server, id).length, auditCount);
      assert.equal(eventsOf(server, id).length, eventCount);
    }
  });

  test('unknown, foreign and malformed request ids answer 404 not_found on every lifecycle endpoint', async (t) => {
    const server = await useServer(t);
    const other = server.newKey();
    const foreign = await createPair(server, {}, other.apiKey);
    const mine = await createPair(server);
    const calls: Array<[string, string, unknown]> = [
      ['PUT', 'fields', { fields: BOTH_FIELDS }],
      ['POST', 'activate', {}],
      ['POST', 'cancel', {}],
      ['POST', 'reminders', {}],
      ['POST', 'signers/client/replace', { email: 'new@example.com' }],
    ];
    for (const id of [randomUUID(), foreign, 'not-a-uuid', '12345', `${randomUUID()}x`]) {
      for (const [method, action, body] of calls) {
        await expectError(await send(server, method, at(id, action), body), 404, 'not_found');
      }
      await expectError(await server.call('GET', `${ROUTE}/${id}`), 404, 'not_found');
    }
    // The foreign request is untouched and still answers its owner; the owner cannot reach ours either.
    const theirs = await ok<StatusResponse>(await server.call('GET', `${ROUTE}/${foreign}`, { key: other.apiKey }));
    assert.equal(theirs.status, 'prepared');
    assert.deepEqual(
      theirs.signers.map((s) => s.email),
      ['ada@example.com', 'bob@example.com'],
    );
    assert.equal(linksOf(server, foreign).length, 0);
    assert.deepEqual(
      auditOf(server, foreign).map((a) => a.type),
      ['request_created'],
    );
    await expectError(await send(server, 'POST', at(mine, 'activate'), {}, other.apiKey), 404, 'not_found');
    await expectError(await send(server, 'POST', at(mine, 'cancel'), {}, other.apiKey), 404, 'not_found');
    assert.equal((await getStatus(server, mine)).status, 'prepared');
  });

  // ------------------------------------------------------------------------------------------------------------
  // Activate

  test('activate: 409 request_not_ready while a signer has no field, then 200 once the fields are confirmed', async (t) => {
    const server = await useServer(t);
    const id = await createPair(server, { fields: [sig()] }); // create allows a signer without a field
    await expectError(await send(server, 'POST', at(id, 'activate'), {}), 409, 'request_not_ready', '"witness"');
    const noFields = await createPair(server, { fields: undefined });
    await expectError(await send(server, 'POST', at(noFields, 'activate'), {}), 409, 'request_not_ready', '"client"');
    assert.equal((await getStatus(server, id)).status, 'prepared');
    assert.equal(linksOf(server, id).length, 0);
    assert.equal(eventsOf(server, id).length, 0);

    await ok(await send(server, 'PUT', at(id, 'fields'), { fields: BOTH_FIELDS }));
    assert.equal((await activate(server, id)).status, 'active');
  });

  test('activate: the ActivateResponse, absolute signing links with lang, 256-bit tokens stored only as SHA-256, expiry', async (t) => {
    const server = await useServer(t);
    const third = { reference: 'notary', email: 'nora@example.com', order: 3, locale: 'ar' };
    const fields = [...BOTH_FIELDS, sig({ signer_reference: 'notary', y: 500 })];
    const id = await createPair(server, { signers: [CLIENT, WITNESS, third], fields });
    const created = await getStatus(server, id);

    const answer = await activate(server, id);
    assert.deepEqual(Object.keys(answer).sort(), ['environment', 'id', 'signers', 'status']);
    assert.equal(answer.id, id);
    assert.equal(answer.status, 'active');
    assert.equal(answer.environment, 'sandbox');
    assert.equal(answer.signers.length, 3);
    for (const [i, signer] of answer.signers.entries()) {
      assert.deepEqual(Object.keys(signer).sort(), ['email_delivery', 'embed_url', 'id', 'reference', 'signing_url', 'status']);
      assert.equal(signer.id, created.signers[i]?.id);
      assert.equal(signer.reference, created.signers[i]?.reference);
      assert.equal(signer.status, 'pending');
      assert.equal(signer.email_delivery, 'not_requested');
      assert.equal(signer.embed_url, '');
    }
    const tokens = answer.signers.map((s) => tokenOf(server, s.signing_url));
    assert.equal(answer.signers[0]?.signing_url, `${server.url}/sign/${tokens[0]}`);
    assert.equal(answer.signers[1]?.signing_url, `${server.url}/sign/${tokens[1]}?lang=fr`);
    assert.equal(answer.signers[2]?.signing_url, `${server.url}/sign/${tokens[2]}?lang=ar`);
    assert.equal(new Set(tokens).size, 3);

    // Only the SHA-256 of each token is stored; the token itself is nowhere in the data directory.
    const links = linksOf(server, id);
    assert.equal(links.length, 3);
    for (const [i, token] of tokens.entries()) {
      const link = links.find((l) => l.signer_id === answer.signers[i]?.id);
      assert.ok(link);
      assert.equal(link.token_hash, sha256(token));
      assert.equal(link.revoked_at, null);
      assert.deepEqual(whereStored(server, token), []);
      assert.equal(linkState(server, token), 'ok');
    }

    // GET: active, each signer's link expires 7 days after activation by default.
    const status = await getStatus(server, id);
    assert.equal(status.status, 'active');
    const activatedAt = Date.parse(status.updated_at);
    assert.equal(
      server.running.ctx.db.first(server.running.ctx.db.q.selectFrom('signature_requests').select('activated_at').where('id', '=', id))?.activated_at,
      activatedAt,
    );
    for (const signer of status.signers) {
      assert.equal(signer.status, 'pending');
      assert.equal(signer.expires_at, new Date(activatedAt + 7 * DAY_MS).toISOString());
    }
    for (const link of links) assert.equal(link.expires_at, activatedAt + 7 * DAY_MS);

    await t.test('link_expiry_days 3 and an empty JSON body', async () => {
      const three = await createPair(server);
      const activated = await activate(server, three, { link_expiry_days: 3, send_emails: false });
      assert.ok(activated.signers.every((s) => s.email_delivery === 'not_requested'));
      const s = await getStatus(server, three);
      for (const signer of s.signers) assert.equal(signer.expires_at, new Date(Date.parse(s.updated_at) + 3 * DAY_MS).toISOString());

      const empty = await createPair(server);
      await activate(server, empty, {});
      const e = await getStatus(server, empty);
      for (const signer of e.signers) assert.equal(signer.expires_at, new Date(Date.parse(e.updated_at) + 7 * DAY_MS).toISOString());
    });

    await t.test('embed_origin: embed_url carries the same token under /embed/', async () => {
      const embedded = await createPair(server, { embed_origin: 'https://app.example.com' });
      const activated = await activate(server, embedded);
      for (const signer of activated.signers) {
        const token = tokenOf(server, signer.signing_url);
        const lang = signer.reference === 'witness' ? '?lang=fr' : '';
        assert.equal(signer.embed_url, `${server.url}/embed/${token}${lang}`);
        assert.equal(tokenOf(server, signer.embed_url, 'embed'), token);
      }
    });

    await t.test('invalid ActivateInput answers 400 invalid_request and leaves the request prepared', async () => {
      const target = await createPair(server);
      const invalid: Array<[unknown, RegExp]> = [
        [{ link_expiry_days: 0 }, /link_expiry_days/],
        [{ link_expiry_days: 31 }, /link_expiry_days/],
        [{ link_expiry_days: 2.5 }, /link_expiry_days/],
        [{ link_expiry_days: '7' }, /link_expiry_days/],
        [{ link_expiry_days: null }, /link_expiry_days/],
        [{ send_emails: 'true' }, /send_emails/],
        [{ send_emails: 1 }, /send_emails/],
        [{ expires_in_days: 7 }, /unknown property "expires_in_days"/],
        [[], /object/],
      ];
      for (const [body, rule] of invalid) {
        await expectError(await send(server, 'POST', at(target, 'activate'), body), 400, 'invalid_request', rule);
      }
      await expectError(
        await server.call('POST', at(target, 'activate'), { body: '{"link_expiry_days":', headers: JSON_HEADERS }),
        400,
        'invalid_request',
        /JSON/,
      );
      assert.equal((await getStatus(server, target)).status, 'prepared');
      assert.equal(linksOf(server, target).length, 0);
      // Boundaries are accepted.
      await activate(server, target, { link_expiry_days: 1 });
      const s = await getStatus(server, target);
      assert.equal(s.signers[0]?.expires_at, new Date(Date.parse(s.updated_at) + DAY_MS).toISOString());
    });
  });

  test('activate: link expiry is capped at the retention deadline', async (t) => {
    const server = await useServer(t);
    // Created now: retention ends 10 days later. Activated 5 days later.
    const thirty = await createPair(server);
    const byDefault = await createPair(server);
    const three = await createPair(server);
    server.running.ctx.clock.advance(5 * DAY_MS);

    await activate(server, thirty, { link_expiry_days: 30 });
    await activate(server, byDefault);
    await activate(server, three, { link_expiry_days: 3 });

    for (const id of [thirty, byDefault]) {
      const status = await getStatus(server, id);
      assert.ok(status.retention_expires_at);
      assert.equal(Date.parse(status.retention_expires_at) - Date.parse(status.created_at), 10 * DAY_MS);
      assert.ok(Date.parse(status.updated_at) - Date.parse(status.created_at) >= 5 * DAY_MS);
      for (const signer of status.signers) assert.equal(signer.expires_at, status.retention_expires_at);
      for (const link of linksOf(server, id)) assert.equal(link.expires_at, Date.parse(status.retention_expires_at));
    }
    // 5 + 3 days stays inside the retention: not capped.
    const s = await getStatus(server, three);
    for (const signer of s.signers) assert.equal(signer.expires_at, new Date(Date.parse(s.updated_at) + 3 * DAY_MS).toISOString());
  });

  test('activate: 20 parallel calls give exactly one 200, nineteen 409 and one activated event', async (t) => {
    const server = await useServer(t);
    const id = await createPair(server);
    const responses = await Promise.all(Array.from({ length: 20 }, () => send(server, 'POST', at(id, 'activate'), {})));
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 409).length, 19, statuses.join(','));
    for (const res of responses) {
      if (res.status === 409) await expectError(res, 409, 'conflict', 'already active');
      else await json(res);
    }
    assert.equal(eventsOf(server, id).filter((e) => e.type === 'signature_request.activated').length, 1);
    assert.equal(eventsOf(server, id).length, 1);
    assert.equal(auditOf(server, id).filter((a) => a.type === 'request_activated').length, 1);
    assert.equal(linksOf(server, id).length, 2);
  });

  // ------------------------------------------------------------------------------------------------------------
  // Events and audit trail

  test('events and audit trail of a request: activated, signer.replaced, cancelled; audit ids 1..n by the API key', async (t) => {
    const server = await useServer(t);
    const keyId = firstKeyId(server);
    const id = await createPair(server, { client_reference: 'events-1', fields: [sig()] });
    const clientReference = 'events-1';
    await ok(await send(server, 'PUT', at(id, 'fields'), { fields: BOTH_FIELDS }));
    const before = await getStatus(server, id);
    await activate(server, id);

    // signature_request.activated: a WebhookEvent, data.status after the change.
    let events = eventsOf(server, id);
    assert.equal(events.length, 1);
    const activated = JSON.parse(events[0]?.payload ?? '') as WebhookEvent;
    assert.deepEqual(Object.keys(activated).sort(), ['created_at', 'data', 'id', 'type']);
    assert.equal(activated.type, 'signature_request.activated');
    assert.equal(events[0]?.type, 'signature_request.activated');
    assert.equal(events[0]?.id, activated.id);
    assert.ok(activated.id.length > 0);
    assert.equal(activated.created_at, new Date(Date.parse(activated.created_at)).toISOString());
    assert.equal(activated.created_at, (await getStatus(server, id)).updated_at);
    assert.deepEqual(activated.data, { signature_request_id: id, client_reference: clientReference, status: 'active' });
    assert.equal(events[0]?.account_id, server.accountId);
    assert.equal(events[0]?.api_key_id, keyId);

    // Reminder (audit only), then replace the witness: signer.replaced with the new and the old signer.
    await ok(await send(server, 'POST', at(id, 'reminders'), { signer_reference: 'client' }));
    const replaced = await ok<ReplaceResponse>(await send(server, 'POST', at(id, 'signers/witness/replace'), { email: 'carol@example.com', name: 'Carol' }));
    const oldWitness = before.signers[1];
    assert.ok(oldWitness);
    events = eventsOf(server, id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['signature_request.activated', 'signer.replaced'],
    );
    const replacedEvent = JSON.parse(events[1]?.payload ?? '') as WebhookEvent;
    assert.equal(replacedEvent.type, 'signer.replaced');
    assert.notEqual(replacedEvent.id, activated.id);
    assert.deepEqual(replacedEvent.data, {
      signature_request_id: id,
      client_reference: clientReference,
      status: 'active',
      signer: { id: replaced.signer.id, reference: 'witness', email: 'carol@example.com', status: 'pending' },
      replaced_signer: { id: oldWitness.id, reference: 'witness', email: 'bob@example.com', status: 'pending' },
    });

    // Cancel with a reason: signature_request.cancelled with data.status cancelled.
    await ok(await send(server, 'POST', at(id, 'cancel'), { reason: 'Contract withdrawn' }));
    events = eventsOf(server, id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['signature_request.activated', 'signer.replaced', 'signature_request.cancelled'],
    );
    const cancelled = JSON.parse(events[2]?.payload ?? '') as WebhookEvent;
    assert.deepEqual(Object.keys(cancelled).sort(), ['created_at', 'data', 'id', 'type']);
    assert.deepEqual(cancelled.data, { signature_request_id: id, client_reference: clientReference, status: 'cancelled' });
    assert.equal(new Set(events.map((e) => e.id)).size, 3);

    // The audit trail: sequential ids from 1, every change by the API client with the key's id.
    const trail = auditOf(server, id);
    assert.deepEqual(
      trail.map((a) => [a.id, a.type]),
      [
        [1, 'request_created'],
        [2, 'fields_confirmed'],
        [3, 'request_activated'],
        [4, 'reminder_sent'],
        [5, 'signer_replaced'],
        [6, 'request_cancelled'],
      ],
    );
    for (const entry of trail) {
      assert.equal(entry.actor_type, 'api_client');
      assert.equal(entry.actor_id, keyId);
      assert.equal(entry.actor_email, '');
    }
    assert.equal(trail[3]?.signer_id, before.signers[0]?.id);
    assert.equal(trail[4]?.signer_id, replaced.signer.id);
    assert.deepEqual(JSON.parse(trail[4]?.data ?? ''), { replaced_signer_id: oldWitness.id });
    assert.deepEqual(JSON.parse(trail[5]?.data ?? ''), { reason: 'Contract withdrawn' });
    for (let i = 1; i < trail.length; i++) assert.ok((trail[i]?.created_at ?? 0) >= (trail[i - 1]?.created_at ?? 0));

    // Another request's trail is numbered on its own, from 1; a second key is recorded as itself.
    const second = server.newKey(server.accountId);
    const other = await createPair(server, {}, second.apiKey);
    await ok(await send(server, 'POST', at(other, 'activate'), {}, second.apiKey));
    const otherTrail = auditOf(server, other);
    assert.deepEqual(
      otherTrail.map((a) => [a.id, a.type, a.actor_id]),
      [
        [1, 'request_created', second.keyId],
        [2, 'request_activated', second.keyId],
      ],
    );
    assert.equal(eventsOf(server, other)[0]?.api_key_id, second.keyId);
  });

  // ------------------------------------------------------------------------------------------------------------
  // Signing links

  test('links: rotated by reminders, revoked by replacement, cancelled by cancel, expired by time', async (t) => {
    const server = await useServer(t);
    const id = await createPair(server);
    const activated = await activate(server, id);
    const [client, witness] = activated.signers.map((s) => tokenOf(server, s.signing_url));
    assert.ok(client && witness);
    assert.equal(linkState(server, client), 'ok');
    assert.equal(linkState(server, witness), 'ok');
    assert.equal(linkState(server, 'A'.repeat(43)), 'unavailable');
    assert.equal(linkState(server, 'not a token'), 'unavailable');
    assert.equal(linkState(server, ''), 'unavailable');

    // A reminder rotates the client's link only.
    const reminded = await ok<ReminderResponse>(await send(server, 'POST', at(id, 'reminders'), { signer_reference: 'client' }));
    const client2 = tokenOf(server, reminded.reminders[0]?.signing_url ?? '');
    assert.notEqual(client2, client);
    assert.equal(linkState(server, client), 'revoked');
    assert.equal(linkState(server, client2), 'ok');
    assert.equal(linkState(server, witness), 'ok');

    // Replacing the witness: old link revoked, the new signer's link works; the old signer leaves the status.
    const before = await getStatus(server, id);
    const oldWitness = before.signers[1];
    assert.ok(oldWitness);
    const replaced = await ok<ReplaceResponse>(
      await send(server, 'POST', at(id, 'signers/witness/replace'), { email: 'carol@example.com', name: 'Carol', locale: 'en' }),
    );
    const carol = tokenOf(server, replaced.signer.signing_url);
    assert.equal(replaced.signer.signing_url, `${server.url}/sign/${carol}?lang=en`);
    assert.equal(linkState(server, witness), 'revoked');
    assert.equal(linkState(server, carol), 'ok');
    assert.equal(linkState(server, client2), 'ok');
    // The old signer's link row itself is revoked, not only shadowed by the replacement.
    const oldLinks = linksOf(server, id).filter((l) => l.token_hash === sha256(witness));
    assert.equal(oldLinks.length, 1);
    assert.notEqual(oldLinks[0]?.revoked_at, null);
    assert.equal(oldLinks[0]?.revoked_reason, 'replaced');
    const after = await getStatus(server, id);
    assert.equal(after.status, 'active');
    assert.equal(after.signers.length, 2);
    assert.deepEqual(after.signers[0], before.signers[0]);
    assert.ok(!after.signers.some((s) => s.id === oldWitness.id));
    const carolStatus = after.signers[1];
    assert.ok(carolStatus);
    assert.match(carolStatus.id, UUID);
    assert.equal(carolStatus.id, replaced.signer.id);
    assert.notEqual(carolStatus.id, oldWitness.id);
    assert.deepEqual(
      {
        reference: carolStatus.reference,
        order: carolStatus.order,
        status: carolStatus.status,
        email: carolStatus.email,
        name: carolStatus.name,
        locale: carolStatus.locale,
      },
      { reference: 'witness', order: oldWitness.order, status: 'pending', email: 'carol@example.com', name: 'Carol', locale: 'en' },
    );
    assert.ok(carolStatus.expires_at);
    // The old signer's reference now names the new signer: reminding it rotates Carol's link.
    const carolReminded = await ok<ReminderResponse>(await send(server, 'POST', at(id, 'reminders'), { signer_reference: 'witness' }));
    const carol2 = tokenOf(server, carolReminded.reminders[0]?.signing_url ?? '');
    assert.equal(linkState(server, carol), 'revoked');
    assert.equal(linkState(server, carol2), 'ok');

    // Cancel: every unsigned link says cancelled, whatever it said before.
    await ok(await send(server, 'POST', at(id, 'cancel'), {}));
    for (const token of [client, client2, witness, carol, carol2]) assert.equal(linkState(server, token), 'cancelled');
    assert.ok(linksOf(server, id).every((l) => l.revoked_at !== null));

    await t.test('a live link expires once the clock passes expires_at', async () => {
      const next = await createPair(server);
      const links = (await activate(server, next, { link_expiry_days: 2 })).signers.map((s) => tokenOf(server, s.signing_url));
      server.running.ctx.clock.advance(2 * DAY_MS - 60_000);
      for (const token of links) assert.equal(linkState(server, token), 'ok');
      server.running.ctx.clock.advance(2 * 60_000);
      for (const token of links) assert.equal(linkState(server, token), 'expired');
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // PUT /fields

  test('PUT /fields: 1 to 100 FieldInput items, every rule, every signer covered', async (t) => {
    const server = await useServer(t);
    const original = [...BOTH_FIELDS, text({ name: 'kept' })];
    const id = await createPair(server, { fields: original });
    const put = (body: unknown) => send(server, 'PUT', at(id, 'fields'), body);
    const fieldsBefore = (await getStatus(server, id)).fields;

    const refused: Array<[string, unknown, RegExp | string]> = [
      ['no body at all', undefined, /body|fields/],
      ['an empty object', {}, /fields is required/],
      ['fields not an array', { fields: sig() }, /fields must be an array/],
      ['0 items', { fields: [] }, /fields must have at least 1 item/],
      ['101 items', { fields: Array.from({ length: 101 }, (_, i) => sig({ signer_reference: i % 2 ? 'witness' : 'client' })) }, /at most 100/],
      ['an unknown top-level property', { fields: BOTH_FIELDS, confirm: true }, /unknown property "confirm"/],
      ['an unknown field property', { fields: [...BOTH_FIELDS, sig({ colour: 'red' })] }, /fields\[2\] has an unknown property "colour"/],
      [
        'signer_reference missing',
        { fields: [...BOTH_FIELDS, { type: 'signature', page: 1, x: 1, y: 1, width: 1, height: 1 }] },
        /fields\[2\]\.signer_reference is required/,
      ],
      ['signer_reference not a signer', { fields: [...BOTH_FIELDS, sig({ signer_reference: 'nobody' })] }, /fields\[2\]\.signer_reference "nobody"/],
      ['an unknown type', { fields: [...BOTH_FIELDS, sig({ type: 'checkbox' })] }, /fields\[2\]\.type/],
      ['an unknown field_key', { fields: [...BOTH_FIELDS, text({ field_key: 'phone' })] }, /fields\[2\]\.field_key/],
      ['page 0', { fields: [...BOTH_FIELDS, sig({ page: 0 })] }, /fields\[2\]\.page/],
      ['page 10001', { fields: [...BOTH_FIELDS, sig({ page: 10001 })] }, /fields\[2\]\.page/],
      ['page 1.5', { fields: [...BOTH_FIELDS, sig({ page: 1.5 })] }, /fields\[2\]\.page/],
      ['page beyond the document', { fields: [...BOTH_FIELDS, sig({ page: 2 })] }, /fields\[2\]\.page 2 does not exist.*1 page/],
      ['negative x', { fields: [...BOTH_FIELDS, sig({ x: -1 })] }, /fields\[2\]\.x/],
      ['negative y', { fields: [...BOTH_FIELDS, sig({ y: -0.5 })] }, /fields\[2\]\.y/],
      ['width 0', { fields: [...BOTH_FIELDS, sig({ width: 0 })] }, /fields\[2\]\.width/],
      ['height 5001', { fields: [...BOTH_FIELDS, sig({ height: 5001 })] }, /fields\[2\]\.height/],
      ['x as a string', { fields: [...BOTH_FIELDS, sig({ x: '50' })] }, /fields\[2\]\.x/],
      ['a field beyond the right edge', { fields: [...BOTH_FIELDS, sig({ x: 400, width: 196 })] }, /fields\[2\] lies outside page 1/],
      ['a field beyond the bottom edge', { fields: [...BOTH_FIELDS, sig({ y: 800, height: 42 })] }, /fields\[2\] lies outside page 1/],
      ['a name breaking the pattern', { fields: [...BOTH_FIELDS, text({ name: 'Bad-Name' })] }, /fields\[2\]\.name/],
      ['a duplicate name', { fields: [...BOTH_FIELDS, text({ name: 'note' }), text({ name: 'note', y: 130 })] }, /fields\[3\]\.name "note"/],
      ['a value over 500 characters', { fields: [...BOTH_FIELDS, text({ value: 'v'.repeat(501) })] }, /fields\[2\]\.value/],
      ['a value on a signature field', { fields: [...BOTH_FIELDS, sig({ value: 'Ada' })] }, /fields\[2\]\.value/],
      ['a value on an identity field_key', { fields: [...BOTH_FIELDS, text({ field_key: 'signer_name', value: 'X' })] }, /fields\[2\]\.value/],
      ['field_key on a signature field', { fields: [...BOTH_FIELDS, sig({ field_key: 'signer_name' })] }, /fields\[2\]\.field_key/],
      ['sign_date on a text field', { fields: [...BOTH_FIELDS, text({ field_key: 'sign_date' })] }, /fields\[2\]\.field_key/],
      ['read_only without value', { fields: [...BOTH_FIELDS, text({ read_only: true })] }, /fields\[2\]\.read_only requires a value/],
      ['read_only not a boolean', { fields: [...BOTH_FIELDS, text({ value: 'x', read_only: 'yes' })] }, /fields\[2\]\.read_only/],
      ['a signer without a field', { fields: [sig(), text()] }, /signer "witness" has no field/],
      ['the other signer without a field', { fields: [sig({ signer_reference: 'witness' })] }, /signer "client" has no field/],
    ];
    for (const [name, body, message] of refused) {
      await t.test(name, async () => {
        await expectError(await put(body), 400, 'invalid_request', message);
      });
    }
    await t.test('invalid JSON', async () => {
      await expectError(await server.call('PUT', at(id, 'fields'), { body: '{"fields": [', headers: JSON_HEADERS }), 400, 'invalid_request', /JSON/);
    });

    await t.test('refused sets change nothing', async () => {
      assert.deepEqual((await getStatus(server, id)).fields, fieldsBefore);
      assert.deepEqual(
        auditOf(server, id).map((a) => a.type),
        ['request_created'],
      );
    });

    await t.test('100 items and fields on the page edge are accepted', async () => {
      const hundred = Array.from({ length: 100 }, (_, i) =>
        sig({ signer_reference: i % 2 ? 'witness' : 'client', x: 395.28, width: 200, y: 791.89, height: 50 }),
      );
      const answer = await ok<StatusResponse>(await put({ fields: hundred }));
      assert.deepEqual(answer.fields, []);
      const { db } = server.running.ctx;
      assert.equal(db.all(db.q.selectFrom('fields').select('id').where('request_id', '=', id)).length, 100);
      assert.deepEqual(JSON.parse(auditOf(server, id)[1]?.data ?? ''), { field_count: 100 });
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // Cancel

  test('cancel: reason up to 500 characters, kept in the audit trail; answers the SignatureRequestStatus', async (t) => {
    const server = await useServer(t);
    const { db } = server.running.ctx;
    const id = await createPair(server);
    await activate(server, id);

    for (const [body, rule] of [
      [{ reason: 'r'.repeat(501) }, /reason must be at most 500 characters/],
      [{ reason: 42 }, /reason must be a string/],
      [{ reason: 'x', notify: true }, /unknown property "notify"/],
      ['just a reason', /object/],
    ] as Array<[unknown, RegExp]>) {
      await expectError(await send(server, 'POST', at(id, 'cancel'), body), 400, 'invalid_request', rule);
    }
    assert.equal((await getStatus(server, id)).status, 'active');

    const reason = 'r'.repeat(499) + 'é';
    const answer = await ok<StatusResponse>(await send(server, 'POST', at(id, 'cancel'), { reason }));
    assert.deepEqual(Object.keys(answer).sort(), STATUS_KEYS);
    assert.equal(answer.id, id);
    assert.equal(answer.status, 'cancelled');
    assert.deepEqual(answer, await getStatus(server, id));
    assert.deepEqual(
      answer.signers.map((s) => s.reference),
      ['client', 'witness'],
    );
    const trail = auditOf(server, id);
    assert.equal(trail.at(-1)?.type, 'request_cancelled');
    assert.deepEqual(JSON.parse(trail.at(-1)?.data ?? ''), { reason });
    assert.equal(db.first(db.q.selectFrom('signature_requests').select('cancellation_reason').where('id', '=', id))?.cancellation_reason, reason);

    // Without a reason: none recorded (a call without any body is in the "optional bodies" test).
    const plain = await createPair(server);
    const cancelled = await ok<StatusResponse>(await send(server, 'POST', at(plain, 'cancel'), {}));
    assert.equal(cancelled.status, 'cancelled');
    assert.deepEqual(JSON.parse(auditOf(server, plain).at(-1)?.data ?? ''), {});
    assert.equal(db.first(db.q.selectFrom('signature_requests').select('cancellation_reason').where('id', '=', plain))?.cancellation_reason, null);
  });

  // ------------------------------------------------------------------------------------------------------------
  // Replace

  test('replace: body rules, duplicate email, unknown reference, response shape with and without embed origin', async (t) => {
    const server = await useServer(t);
    const id = await createPair(server);
    await activate(server, id);
    const replace = (reference: string, body?: unknown) => send(server, 'POST', at(id, `signers/${reference}/replace`), body);
    const before = await getStatus(server, id);

    const refused: Array<[string, unknown, RegExp]> = [
      ['no body at all', undefined, /body|email/],
      ['an empty object', {}, /email is required/],
      ['an invalid email', { email: 'not-an-email' }, /email must be a valid email/],
      ['email not a string', { email: 42 }, /email/],
      ['a name over 200 characters', { email: 'new@example.com', name: 'n'.repeat(201) }, /name must be at most 200/],
      ['locale de', { email: 'new@example.com', locale: 'de' }, /locale/],
      ['locale FR', { email: 'new@example.com', locale: 'FR' }, /locale/],
      ['send_email not a boolean', { email: 'new@example.com', send_email: 'yes' }, /send_email/],
      ['an extra property', { email: 'new@example.com', order: 3 }, /unknown property "order"/],
      ['the email of another current signer', { email: 'bob@example.com' }, /already used/],
      ['the email of another current signer, other case', { email: 'BOB@Example.COM' }, /already used/],
    ];
    for (const [name, body, rule] of refused) {
      await t.test(name, async () => {
        await expectError(await replace('client', body), 400, 'invalid_request', rule);
      });
    }
    await t.test('unknown reference answers 404', async () => {
      await expectError(await replace('nobody', { email: 'new@example.com' }), 404, 'not_found', '"nobody"');
    });
    await t.test('refused replacements change nothing', async () => {
      assert.deepEqual(await getStatus(server, id), before);
      assert.deepEqual(
        eventsOf(server, id).map((e) => e.type),
        ['signature_request.activated'],
      );
    });

    await t.test('response without embed origin: no embed_url key', async () => {
      const answer = await ok<ReplaceResponse>(await replace('client', { email: 'ADA2@example.com', name: 'n'.repeat(200), send_email: false }));
      assert.deepEqual(Object.keys(answer).sort(), ['id', 'signer']);
      assert.deepEqual(Object.keys(answer.signer).sort(), ['email', 'email_delivery', 'id', 'reference', 'signing_url', 'status']);
      assert.equal(answer.id, id);
      assert.match(answer.signer.id, UUID);
      assert.notEqual(answer.signer.id, before.signers[0]?.id);
      assert.equal(answer.signer.reference, 'client');
      assert.equal(answer.signer.email, 'ADA2@example.com');
      assert.equal(answer.signer.status, 'pending');
      assert.equal(answer.signer.email_delivery, 'not_requested');
      const token = tokenOf(server, answer.signer.signing_url);
      assert.equal(answer.signer.signing_url, `${server.url}/sign/${token}`);
      assert.equal(linksOf(server, id).find((l) => l.signer_id === answer.signer.id)?.token_hash, sha256(token));
      // The replaced person's email is free again; the new signer's is taken, case-insensitively.
      await expectError(await replace('witness', { email: 'ada2@EXAMPLE.com' }), 400, 'invalid_request', /already used/);
    });

    await t.test('response with embed origin: embed_url, empty before activation', async () => {
      const embedded = await createPair(server, { embed_origin: 'https://app.example.com' });
      const corrected = await ok<ReplaceResponse>(await send(server, 'POST', at(embedded, 'signers/client/replace'), { email: 'eve@example.com' }));
      assert.deepEqual(Object.keys(corrected.signer).sort(), ['email', 'email_delivery', 'embed_url', 'id', 'reference', 'signing_url', 'status']);
      assert.equal(corrected.signer.signing_url, '');
      assert.equal(corrected.signer.embed_url, '');
      await activate(server, embedded);
      const answer = await ok<ReplaceResponse>(await send(server, 'POST', at(embedded, 'signers/witness/replace'), { email: 'fay@example.com', locale: 'fr' }));
      assert.deepEqual(Object.keys(answer.signer).sort(), ['email', 'email_delivery', 'embed_url', 'id', 'reference', 'signing_url', 'status']);
      const token = tokenOf(server, answer.signer.signing_url);
      assert.equal(answer.signer.signing_url, `${server.url}/sign/${token}?lang=fr`);
      assert.equal(answer.signer.embed_url, `${server.url}/embed/${token}?lang=fr`);
    });

    await t.test('a signed signer cannot be replaced (409) nor reminded (409)', async () => {
      const done = await createPair(server);
      const activated = await activate(server, done);
      markSigned(server, activated.signers[0]?.id ?? '');
      await expectError(await send(server, 'POST', at(done, 'signers/client/replace'), { email: 'zed@example.com' }), 409, 'conflict', /signed/);
      await expectError(await send(server, 'POST', at(done, 'reminders'), { signer_reference: 'client' }), 409, 'conflict', /signed/);
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // Reminders

  test('reminders: every unsigned signer or one by reference, new links, ReminderResponse', async (t) => {
    const server = await useServer(t);
    const notary = { reference: 'notary', email: 'nora@example.com', order: 3 };
    const id = await createPair(server, { signers: [CLIENT, WITNESS, notary], fields: [...BOTH_FIELDS, sig({ signer_reference: 'notary', y: 400 })] });
    const activated = await activate(server, id);
    const firstTokens = activated.signers.map((s) => tokenOf(server, s.signing_url));
    markSigned(server, activated.signers[2]?.id ?? ''); // the notary has signed

    await t.test('without signer_reference: every signer who has not signed', async () => {
      const answer = await ok<ReminderResponse>(await send(server, 'POST', at(id, 'reminders'), {}));
      assert.deepEqual(Object.keys(answer).sort(), ['id', 'reminders', 'status']);
      assert.equal(answer.id, id);
      assert.equal(answer.status, 'active');
      assert.deepEqual(
        answer.reminders.map((r) => r.reference),
        ['client', 'witness'],
      );
      for (const [i, reminder] of answer.reminders.entries()) {
        assert.deepEqual(Object.keys(reminder).sort(), ['email_delivery', 'reference', 'signing_url']);
        assert.ok(['sent', 'failed'].includes(reminder.email_delivery), reminder.email_delivery);
        const token = tokenOf(server, reminder.signing_url);
        assert.equal(reminder.signing_url, `${server.url}/sign/${token}${reminder.reference === 'witness' ? '?lang=fr' : ''}`);
        assert.notEqual(token, firstTokens[i]);
        assert.equal(linkState(server, firstTokens[i] ?? ''), 'revoked');
        assert.equal(linkState(server, token), 'ok');
        assert.equal(linksOf(server, id).filter((l) => l.token_hash === sha256(token)).length, 1);
      }
      // The signed notary's link was not touched.
      assert.equal(linkState(server, firstTokens[2] ?? ''), 'signed');
      assert.equal(linksOf(server, id).filter((l) => l.signer_id === activated.signers[2]?.id).length, 1);
      assert.equal(auditOf(server, id).filter((a) => a.type === 'reminder_sent').length, 2);
    });

    await t.test('with signer_reference: only that signer', async () => {
      const links = linksOf(server, id).length;
      const answer = await ok<ReminderResponse>(await send(server, 'POST', at(id, 'reminders'), { signer_reference: 'witness' }));
      assert.equal(answer.reminders.length, 1);
      assert.equal(answer.reminders[0]?.reference, 'witness');
      assert.equal(linksOf(server, id).length, links + 1);
    });

    await t.test('unknown reference 404, invalid body 400', async () => {
      await expectError(await send(server, 'POST', at(id, 'reminders'), { signer_reference: 'nobody' }), 404, 'not_found', '"nobody"');
      await expectError(await send(server, 'POST', at(id, 'reminders'), { signer_reference: '' }), 400, 'invalid_request', /signer_reference/);
      await expectError(await send(server, 'POST', at(id, 'reminders'), { signer_reference: 7 }), 400, 'invalid_request', /signer_reference/);
      await expectError(await send(server, 'POST', at(id, 'reminders'), { signers: ['client'] }), 400, 'invalid_request', /unknown property "signers"/);
    });

    await t.test('with an embed origin: embed_url with the same new token', async () => {
      const embedded = await createPair(server, { embed_origin: 'https://app.example.com' });
      const first = await activate(server, embedded);
      const answer = await ok<ReminderResponse>(await send(server, 'POST', at(embedded, 'reminders'), {}));
      assert.equal(answer.reminders.length, 2);
      for (const [i, reminder] of answer.reminders.entries()) {
        assert.deepEqual(Object.keys(reminder).sort(), ['email_delivery', 'embed_url', 'reference', 'signing_url']);
        const token = tokenOf(server, reminder.signing_url);
        assert.equal(reminder.embed_url, `${server.url}/embed/${token}${reminder.reference === 'witness' ? '?lang=fr' : ''}`);
        assert.notEqual(token, tokenOf(server, first.signers[i]?.signing_url ?? ''));
        assert.notEqual(reminder.embed_url, first.signers[i]?.embed_url);
      }
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // Optional bodies

  test('optional bodies: activate, cancel and reminders work with no body at all and with an empty JSON body', async (t) => {
    const server = await useServer(t);
    const bodies: Array<[string, { body?: string; headers?: Record<string, string> }]> = [
      ['no body at all', {}],
      ['an empty body with Content-Type application/json', { body: '', headers: JSON_HEADERS }],
    ];
    for (const [label, init] of bodies) {
      await t.test(`activate with ${label}`, async () => {
        const id = await createPair(server);
        const answer = await ok<ActivateResponse>(await server.call('POST', at(id, 'activate'), init));
        assert.equal(answer.status, 'active');
        const status = await getStatus(server, id);
        for (const signer of status.signers) assert.equal(signer.expires_at, new Date(Date.parse(status.updated_at) + 7 * DAY_MS).toISOString());
        assert.ok(answer.signers.every((s) => s.email_delivery === 'not_requested'));
      });
      await t.test(`cancel with ${label}`, async () => {
        const id = await createPair(server);
        const answer = await ok<StatusResponse>(await server.call('POST', at(id, 'cancel'), init));
        assert.equal(answer.status, 'cancelled');
        assert.deepEqual(JSON.parse(auditOf(server, id).at(-1)?.data ?? ''), {});
      });
      await t.test(`reminders with ${label}: every unsigned signer`, async () => {
        const id = await createPair(server);
        await activate(server, id);
        const answer = await ok<ReminderResponse>(await server.call('POST', at(id, 'reminders'), init));
        assert.deepEqual(
          answer.reminders.map((r) => r.reference),
          ['client', 'witness'],
        );
      });
      await t.test(`state errors win over the absent body (${label})`, async () => {
        const id = await createPair(server);
        await expectError(await server.call('POST', at(id, 'reminders'), init), 409, 'conflict');
        await expectError(await server.call('POST', at(randomUUID(), 'activate'), init), 404, 'not_found');
        await expectError(await server.call('POST', at(randomUUID(), 'cancel'), init), 404, 'not_found');
      });
    }
  });

  // ------------------------------------------------------------------------------------------------------------
  // Secrets at rest

  test('signing tokens are not stored in clear when the call carries an Idempotency-Key', async (t) => {
    // Mail goes to a relay that refuses it: a caught mail holds its link by design (it is the signer's mail),
    // so this checks paraph's own bookkeeping (links, idempotent answers, the mail outbox).
    const server = await useServer(t, { smtpRelay: 'smtp://127.0.0.1:9' });
    const id = await createPair(server);
    const res = await server.call('POST', at(id, 'activate'), { body: '{}', headers: { ...JSON_HEADERS, 'idempotency-key': 'activate-1' } });
    const answer = await ok<ActivateResponse>(res);
    const tokens = answer.signers.map((s) => tokenOf(server, s.signing_url));
    const reminded = await ok<ReminderResponse>(
      await server.call('POST', at(id, 'reminders'), { body: '{}', headers: { ...JSON_HEADERS, 'idempotency-key': 'remind-1' } }),
    );
    tokens.push(...reminded.reminders.map((r) => tokenOf(server, r.signing_url)));
    for (const token of tokens) assert.deepEqual(whereStored(server, token), []);
  });
});
