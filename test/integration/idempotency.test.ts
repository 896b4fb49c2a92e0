// The Idempotency-Key header end to end, over real HTTP against the real server (spec "Idempotency-Key
// header", "Limits", "Errors"; sandbox contract: 422 `idempotency_key_reused`, the sandbox clock).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { useServer, type TestServer } from '../helpers/server.js';
import { a4Pdf, payload, rawMultipart } from '../helpers/requests.js';
import { postCreate } from '../helpers/flows.js';
import { makePdf } from '../helpers/pdfs.js';
import { useSilentSmtpRelay, waitUntil } from '../helpers/crash-loop.js';
import { makeTemplate } from '../helpers/templates.js';
import { createContext, type Context } from '../../src/context.js';
import { createLog } from '../../src/platform/log.js';
import { sha256Hex } from '../../src/platform/crypto/tokens.js';
import { canonicalJson } from '../../src/http/hooks/idempotency.js';
import { claimIdempotencyKey } from '../../src/features/idempotency/idempotency-keys.js';
import { runKeyedCall } from '../../src/features/idempotency/committed-answers.js';
import { archiveTemplate } from '../../src/features/templates/archive-template.js';
import { createTemplate } from '../../src/features/templates/create-template.js';

const ROUTE = '/v1/signature-requests';
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

type Json = Record<string, unknown>;

/** A response read once: status, headers and the exact body text. */
interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function read(res: Response): Promise<Answer> {
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const parse = <T = Json>(answer: Answer): T => JSON.parse(answer.text) as T;
const replayed = (answer: Answer) => answer.headers.get('idempotent-replayed');

/**
 * A call with an optional Idempotency-Key and API key. A mutating call without `body` sends `{}`; `bare`
 * sends no body at all.
 */
async function send(
  server: TestServer,
  method: string,
  route: string,
  options: { key?: string; body?: unknown; apiKey?: string; bare?: boolean } = {},
): Promise<Answer> {
  const body = options.body === undefined && method !== 'GET' && options.bare !== true ? {} : options.body;
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers['idempotency-key'] = options.key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await server.call(method, route, {
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(options.apiKey === undefined ? {} : { key: options.apiKey }),
  });
  return read(res);
}

/** A keyed (or unkeyed) create (flows.ts postCreate: FormData, a fresh multipart boundary every time). */
async function create(
  server: TestServer,
  body: Json,
  options: { key?: string; apiKey?: string; document?: { bytes?: Uint8Array; filename?: string } } = {},
): Promise<Answer> {
  const headers: Record<string, string> = options.key === undefined ? {} : { 'idempotency-key': options.key };
  return read(
    await postCreate(server, body, {
      headers,
      ...(options.document ? { document: options.document } : {}),
      ...(options.apiKey === undefined ? {} : { key: options.apiKey }),
    }),
  );
}

/** Two signers, each with a signature field. */
function twoSigners(overrides: Json = {}): Json {
  return payload({
    signers: [
      { reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 },
      { reference: 'witness', name: 'Charles Babbage', email: 'charles@example.com', order: 2 },
    ],
    fields: [
      { signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 },
      { signer_reference: 'witness', type: 'signature', page: 1, x: 300, y: 700, width: 200, height: 50 },
    ],
    ...overrides,
  });
}

/** A new prepared request of the key's account; answers its id. */
async function prepared(server: TestServer, body: Json = payload(), apiKey?: string): Promise<string> {
  const answer = await create(server, body, apiKey === undefined ? {} : { apiKey });
  assert.equal(answer.status, 201, answer.text);
  return parse<{ id: string }>(answer).id;
}

/** A new active request (activated without a key); answers its id. */
async function active(server: TestServer, body: Json = payload()): Promise<string> {
  const id = await prepared(server, body);
  const answer = await send(server, 'POST', `${ROUTE}/${id}/activate`);
  assert.equal(answer.status, 200, answer.text);
  return id;
}

async function statusOf(server: TestServer, id: string, apiKey?: string): Promise<string> {
  const answer = await send(server, 'GET', `${ROUTE}/${id}`, apiKey === undefined ? {} : { apiKey });
  assert.equal(answer.status, 200, answer.text);
  return parse<{ status: string }>(answer).status;
}

async function listIds(server: TestServer, apiKey?: string): Promise<string[]> {
  const answer = await send(server, 'GET', `${ROUTE}?limit=100`, apiKey === undefined ? {} : { apiKey });
  assert.equal(answer.status, 200, answer.text);
  return parse<{ data: Array<{ id: string }> }>(answer).data.map((r) => r.id);
}

/** An error answer in the envelope, with the given status and code. */
function assertError(answer: Answer, status: number, code: string): { code: string; message: string; request_id: string } {
  assert.equal(answer.status, status, `expected ${status} ${code}, got ${answer.status}: ${answer.text}`);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  const body = parse<{ error: { code: string; message: string; request_id: string } }>(answer);
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'request_id']);
  assert.equal(body.error.code, code, answer.text);
  assert.ok(body.error.message.length > 0);
  return body.error;
}

/** The first answer to a key: acted, not a replay. */
function assertFresh(answer: Answer, status: number): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(replayed(answer), null, 'a first call is not marked as replayed');
}

/** A replay of `first`: same status, same content type, byte-identical body, `Idempotent-Replayed: true`. */
function assertReplayOf(answer: Answer, first: Answer): void {
  assert.equal(answer.status, first.status, answer.text);
  assert.equal(replayed(answer), 'true');
  assert.equal(answer.headers.get('content-type'), first.headers.get('content-type'));
  assert.equal(answer.text, first.text);
}

function activatedEvents(server: TestServer, requestId: string): number {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('events').select('id').where('request_id', '=', requestId).where('type', '=', 'signature_request.activated')).length;
}

function links(server: TestServer, requestId: string): Array<{ token_hash: string; revoked_at: number | null }> {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('signing_links').select(['token_hash', 'revoked_at']).where('request_id', '=', requestId));
}

const tokenHashOf = (signingUrl: string): string =>
  createHash('sha256')
    .update(new URL(signingUrl).pathname.split('/').pop() as string)
    .digest('hex');

function keyRows(server: TestServer) {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('idempotency_keys').selectAll());
}

// ------------------------------------------------------------------------------------------------------------
// Replays

// Each test has its own server: they run side by side.
describe('idempotency', { concurrency: 3 }, () => {
  test('a keyed activate repeated answers the stored status and body with Idempotent-Replayed: true and acts once', async (t) => {
    const server = await useServer(t);
    const id = await prepared(server, twoSigners());
    const route = `${ROUTE}/${id}/activate`;

    const first = await send(server, 'POST', route, { key: 'activate-1', body: {} });
    assertFresh(first, 200);
    const signers = parse<{ signers: Array<{ signing_url: string }> }>(first).signers;
    assert.equal(signers.length, 2);

    const second = await send(server, 'POST', route, { key: 'activate-1', body: {} });
    assertReplayOf(second, first);
    // Another API key of the same account shares the account's keys.
    const sameAccount = server.newKey(server.accountId);
    assertReplayOf(await send(server, 'POST', route, { key: 'activate-1', body: {}, apiKey: sameAccount.apiKey }), first);
    // The same call spelt otherwise: its id in capitals (the same resource), an empty query.
    assertReplayOf(await send(server, 'POST', `${ROUTE}/${id.toUpperCase()}/activate`, { key: 'activate-1', body: {} }), first);
    assertReplayOf(await send(server, 'POST', `${route}?`, { key: 'activate-1', body: {} }), first);

    // Acted once: one event, one live link per signer, and those are the links of the first answer.
    assert.equal(activatedEvents(server, id), 1);
    const rows = links(server, id);
    assert.equal(rows.length, 2, 'no link was issued by the replays');
    const live = rows.filter((r) => r.revoked_at === null).map((r) => r.token_hash);
    assert.equal(live.length, signers.length);
    assert.deepEqual(live.sort(), signers.map((s) => tokenHashOf(s.signing_url)).sort());
    assert.equal(await statusOf(server, id), 'active');

    // Without the key the same call acts again, and is refused because the request is active already.
    assertError(await send(server, 'POST', route, { body: {} }), 409, 'conflict');
  });

  test('a retry while the first activation waits for a silent SMTP relay answers 409 in progress; then the replay carries the mail outcome', async (t) => {
    const relay = await useSilentSmtpRelay(t);
    const server = await useServer(t, { smtpRelay: relay.url });
    const id = await prepared(server, twoSigners());
    const route = `${ROUTE}/${id}/activate`;
    const firstCall = send(server, 'POST', route, { key: 'mail-1', body: { send_emails: true } });
    // The answer is stored with the change; its mail outcome is not known until the relay answers (5 s).
    await waitUntil('the activation to commit', async () => (await statusOf(server, id)) === 'active', 5000, 50);
    assertError(await send(server, 'POST', route, { key: 'mail-1', body: { send_emails: true } }), 409, 'idempotency_request_in_progress');
    const first = await firstCall;
    assertFresh(first, 200);
    const signers = parse<{ signers: Array<{ email_delivery: string }> }>(first).signers;
    assert.deepEqual(
      signers.map((s) => s.email_delivery),
      ['failed', 'failed'],
      'the relay never answered',
    );
    assertReplayOf(await send(server, 'POST', route, { key: 'mail-1', body: { send_emails: true } }), first);
    assert.equal(activatedEvents(server, id), 1);
  });

  test('a keyed 4xx answer is stored and replayed, even once the call would now succeed', async (t) => {
    const server = await useServer(t);

    // 409 conflict: activation of a cancelled request.
    const cancelled = await prepared(server);
    assert.equal((await send(server, 'POST', `${ROUTE}/${cancelled}/cancel`)).status, 200);
    const conflict = await send(server, 'POST', `${ROUTE}/${cancelled}/activate`, { key: 'on-cancelled' });
    assertError(conflict, 409, 'conflict');
    assert.equal(replayed(conflict), null);
    const again = await send(server, 'POST', `${ROUTE}/${cancelled}/activate`, { key: 'on-cancelled' });
    // Byte-identical: the stored body keeps the first call's request_id.
    assertReplayOf(again, conflict);

    // 409 request_not_ready: a signer without a field. Once the fields are confirmed the stored 409 still
    // answers the key; only a new key activates.
    const body = payload({
      signers: [
        { reference: 'client', email: 'ada@example.com', order: 1 },
        { reference: 'witness', email: 'charles@example.com', order: 2 },
      ],
    });
    const notReady = await prepared(server, body);
    const refused = await send(server, 'POST', `${ROUTE}/${notReady}/activate`, { key: 'not-ready' });
    assertError(refused, 409, 'request_not_ready');
    const fields = [
      { signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 },
      { signer_reference: 'witness', type: 'signature', page: 1, x: 300, y: 700, width: 200, height: 50 },
    ];
    assert.equal((await send(server, 'PUT', `${ROUTE}/${notReady}/fields`, { body: { fields } })).status, 200);
    assertReplayOf(await send(server, 'POST', `${ROUTE}/${notReady}/activate`, { key: 'not-ready' }), refused);
    assert.equal(await statusOf(server, notReady), 'prepared');
    assert.equal(activatedEvents(server, notReady), 0);
    assertFresh(await send(server, 'POST', `${ROUTE}/${notReady}/activate`, { key: 'not-ready-2' }), 200);
    assert.equal(await statusOf(server, notReady), 'active');
  });

  test('a keyed 400 for a body that is not valid is stored and replayed; the key with another body, valid or not, is 422', async (t) => {
    const server = await useServer(t);
    // A create whose JSON part breaks a field rule (multipart: read before the key is claimed, checked after).
    const bad = payload({ client_reference: 'bad-create', signers: [{ reference: 'client', email: 'not-an-email', order: 1 }] });
    const refused = await create(server, bad, { key: 'bad-create' });
    assertError(refused, 400, 'invalid_request');
    assert.equal(replayed(refused), null);
    assertReplayOf(await create(server, bad, { key: 'bad-create' }), refused);
    // The corrected body under the same key is another call: 422, and nothing is created.
    assertError(await create(server, payload({ client_reference: 'bad-create' }), { key: 'bad-create' }), 422, 'idempotency_key_reused');
    // A JSON part that is not JSON at all: stored too.
    const raw = rawMultipart([
      { name: 'request', filename: 'request.json', type: 'application/json', body: '{"signers": [' },
      { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: await a4Pdf() },
    ]);
    const garbled = () =>
      server.call('POST', ROUTE, { body: new Uint8Array(raw.body), headers: { 'content-type': raw.contentType, 'idempotency-key': 'garbled' } }).then(read);
    const notJson = await garbled();
    assert.match(assertError(notJson, 400, 'invalid_request').message, /not valid JSON/);
    assertReplayOf(await garbled(), notJson);
    assert.deepEqual(await listIds(server), []);

    // A JSON body (validated by its route's schema): the 400 is stored; the valid body under that key is 422.
    const id = await prepared(server);
    const invalid = await send(server, 'POST', `${ROUTE}/${id}/activate`, { key: 'bad-activate', body: { link_expiry_days: 0 } });
    assertError(invalid, 400, 'invalid_request');
    assertReplayOf(await send(server, 'POST', `${ROUTE}/${id}/activate`, { key: 'bad-activate', body: { link_expiry_days: 0 } }), invalid);
    assertError(await send(server, 'POST', `${ROUTE}/${id}/activate`, { key: 'bad-activate', body: { link_expiry_days: 5 } }), 422, 'idempotency_key_reused');
    assert.equal(await statusOf(server, id), 'prepared');
    // A key that holds a 201, reused with a body that is not valid: 422, not 400.
    const made = await create(server, payload({ client_reference: 'good-create' }), { key: 'good-create' });
    assertFresh(made, 201);
    assertError(await create(server, bad, { key: 'good-create' }), 422, 'idempotency_key_reused');
  });

  // Contract ("Error codes the description leaves open"): every error response carries its request_id in
  // X-Request-Id; a replay answers with the first call's.
  test('a replayed error answer carries an X-Request-Id equal to the request_id of its body', async (t) => {
    const server = await useServer(t);
    const id = await prepared(server);
    assert.equal((await send(server, 'POST', `${ROUTE}/${id}/cancel`)).status, 200);
    const first = await send(server, 'POST', `${ROUTE}/${id}/activate`, { key: 'err' });
    const again = await send(server, 'POST', `${ROUTE}/${id}/activate`, { key: 'err' });
    assertReplayOf(again, first);
    assert.equal(again.headers.get('x-request-id'), assertError(again, 409, 'conflict').request_id);
  });

  // ------------------------------------------------------------------------------------------------------------
  // Reuse of a key for another call: 422

  test('a key reused with another body, path or method answers 422 idempotency_key_reused and does not act', async (t) => {
    const server = await useServer(t);
    const a = await prepared(server);
    const b = await prepared(server);
    const first = await send(server, 'POST', `${ROUTE}/${a}/activate`, { key: 'k', body: {} });
    assertFresh(first, 200);

    // Another body.
    const otherBody = await send(server, 'POST', `${ROUTE}/${a}/activate`, { key: 'k', body: { link_expiry_days: 3 } });
    assert.equal(replayed(otherBody), null);
    assert.match(assertError(otherBody, 422, 'idempotency_key_reused').message, /Idempotency-Key/);

    // Another path: the same call on another request.
    assertError(await send(server, 'POST', `${ROUTE}/${b}/activate`, { key: 'k', body: {} }), 422, 'idempotency_key_reused');
    assert.equal(await statusOf(server, b), 'prepared');
    assert.equal(activatedEvents(server, b), 0);

    // Another method (and path): a key used by the fields PUT, then by the activation of the same request.
    const fields = [{ signer_reference: 'client', type: 'signature', page: 1, x: 60, y: 600, width: 150, height: 40 }];
    assertFresh(await send(server, 'PUT', `${ROUTE}/${b}/fields`, { key: 'k2', body: { fields } }), 200);
    assertError(await send(server, 'POST', `${ROUTE}/${b}/activate`, { key: 'k2', body: {} }), 422, 'idempotency_key_reused');
    assert.equal(await statusOf(server, b), 'prepared');

    // The method alone: no path takes two mutating methods, so the stored call of `k` is changed to a PUT of
    // the same path and body. The same POST is then another call; back to POST, it replays again.
    const { db } = server.running.ctx;
    const setMethod = (method: string) =>
      db.run(db.q.updateTable('idempotency_keys').set({ method }).where('account_id', '=', server.accountId).where('key', '=', 'k'));
    assert.equal(setMethod('PUT').changes, 1);
    assertError(await send(server, 'POST', `${ROUTE}/${a}/activate`, { key: 'k', body: {} }), 422, 'idempotency_key_reused');
    setMethod('POST');
    assertReplayOf(await send(server, 'POST', `${ROUTE}/${a}/activate`, { key: 'k', body: {} }), first);

    // Still acted once.
    assert.equal(activatedEvents(server, a), 1);
  });

  test('keys are per account: the same key in another account acts on its own', async (t) => {
    const server = await useServer(t);
    const mine = await prepared(server);
    const first = await send(server, 'POST', `${ROUTE}/${mine}/activate`, { key: 'shared-key' });
    assertFresh(first, 200);

    const other = server.newKey();
    assert.notEqual(other.accountId, server.accountId);
    const theirs = await prepared(server, payload(), other.apiKey);
    // Another path with the same key, yet no 422: the other account has never used it.
    const theirFirst = await send(server, 'POST', `${ROUTE}/${theirs}/activate`, { key: 'shared-key', apiKey: other.apiKey });
    assertFresh(theirFirst, 200);
    assert.equal(parse<{ id: string }>(theirFirst).id, theirs);
    assert.equal(await statusOf(server, theirs, other.apiKey), 'active');
    assert.equal(activatedEvents(server, theirs), 1);

    // Each account replays its own answer.
    assertReplayOf(await send(server, 'POST', `${ROUTE}/${theirs}/activate`, { key: 'shared-key', apiKey: other.apiKey }), theirFirst);
    assertReplayOf(await send(server, 'POST', `${ROUTE}/${mine}/activate`, { key: 'shared-key' }), first);
  });

  // ------------------------------------------------------------------------------------------------------------
  // Key shape: 1 to 255 printable ASCII characters

  test('an Idempotency-Key that is empty, too long, non-ASCII or has a control character answers 400 and acts not', async (t) => {
    const server = await useServer(t);
    const id = await prepared(server);
    const route = `${ROUTE}/${id}/activate`;

    const bad: Array<[string, string]> = [
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['non-ASCII (latin1 byte 0xE9 on the wire)', 'cl\u00e9'],
      ['a tab', 'a\tb'],
    ];
    for (const [what, key] of bad) {
      const answer = await send(server, 'POST', route, { key, body: {} });
      assert.match(assertError(answer, 400, 'invalid_request').message, /Idempotency-Key/, what);
    }
    assert.equal(await statusOf(server, id), 'prepared');
    assert.deepEqual(keyRows(server), []);

    // 255 printable characters (space included, inside the value) are a key: honoured and replayed.
    const printable = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    const longest = `k${printable.repeat(3)}`.slice(0, 254) + 'k';
    assert.equal(longest.length, 255);
    assert.match(longest, / /);
    const first = await send(server, 'POST', route, { key: longest, body: {} });
    assertFresh(first, 200);
    assertReplayOf(await send(server, 'POST', route, { key: longest, body: {} }), first);
    assert.deepEqual(
      keyRows(server).map((r) => r.key),
      [longest],
    );
  });

  // ------------------------------------------------------------------------------------------------------------
  // Create (multipart)

  test('a keyed create replays across multipart boundaries and JSON key order; another document or payload is 422', async (t) => {
    const server = await useServer(t);
    const body = payload({ client_reference: 'keyed-create', sequential_signing: false });
    const first = await create(server, body, { key: 'create-1' });
    assertFresh(first, 201);
    const id = parse<{ id: string }>(first).id;

    // The same call: a new FormData (new boundary), with the JSON keys in another order, nested ones too.
    const reordered = Object.fromEntries(
      Object.entries(body)
        .reverse()
        .map(([k, v]) => [k, Array.isArray(v) ? v.map((item: Json) => Object.fromEntries(Object.entries(item).reverse())) : v]),
    );
    assert.notEqual(JSON.stringify(reordered), JSON.stringify(body));
    assertReplayOf(await create(server, reordered, { key: 'create-1' }), first);

    // The same call again, hand-built with its own boundary.
    const raw = rawMultipart([
      { name: 'request', filename: 'request.json', type: 'application/json', body: JSON.stringify(reordered, null, 2) },
      { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: await a4Pdf() },
    ]);
    const rawAnswer = await read(
      await server.call('POST', ROUTE, {
        body: new Uint8Array(raw.body),
        headers: { 'content-type': raw.contentType, 'idempotency-key': 'create-1' },
      }),
    );
    assertReplayOf(rawAnswer, first);

    // Another document, or the same document under another filename: another call.
    const otherPdf = await makePdf(undefined, { text: 'Another document' });
    assertError(await create(server, body, { key: 'create-1', document: { bytes: otherPdf } }), 422, 'idempotency_key_reused');
    assertError(await create(server, body, { key: 'create-1', document: { filename: 'other.pdf' } }), 422, 'idempotency_key_reused');
    // Another request JSON.
    assertError(await create(server, { ...body, client_reference: 'keyed-create-2' }, { key: 'create-1' }), 422, 'idempotency_key_reused');
    assertError(await create(server, { ...body, sequential_signing: true }, { key: 'create-1' }), 422, 'idempotency_key_reused');

    assert.deepEqual(await listIds(server), [id]);
  });

  test('50 parallel keyed identical creates: one request, every answer 201, a replay or 409 in progress', async (t) => {
    const server = await useServer(t);
    const body = payload({ client_reference: 'parallel' });
    const answers = await Promise.all(Array.from({ length: 50 }, () => create(server, body, { key: 'parallel-key' })));

    const statuses = answers.map((a) => a.status);
    t.diagnostic(`statuses: ${[...new Set(statuses)].map((s) => `${s}x${statuses.filter((x) => x === s).length}`).join(' ')}`);
    assert.ok(
      statuses.every((s) => s < 500),
      `no 5xx: ${statuses.join(',')}`,
    );
    const fresh = answers.filter((a) => replayed(a) === null && a.status === 201);
    assert.equal(fresh.length, 1, `exactly one call acted: ${statuses.join(',')}`);
    const firstBody = fresh[0] as Answer;
    const id = parse<{ id: string }>(firstBody).id;
    for (const answer of answers) {
      if (answer === firstBody) continue;
      if (answer.status === 409) {
        assertError(answer, 409, 'idempotency_request_in_progress');
        assert.equal(replayed(answer), null);
        continue;
      }
      assert.ok([200, 201].includes(answer.status), `${answer.status}: ${answer.text}`);
      assert.equal(replayed(answer), 'true', answer.text);
      assert.equal(parse<{ id: string }>(answer).id, id);
      assert.equal(answer.text, firstBody.text);
    }
    assert.deepEqual(await listIds(server), [id]);
    // Once settled, the key replays.
    assertReplayOf(await create(server, body, { key: 'parallel-key' }), firstBody);
  });

  // ------------------------------------------------------------------------------------------------------------
  // What is not stored: 5xx and 429

  test('a 5xx answer is not stored: once the failure is gone the same key acts', async (t) => {
    const server = await useServer(t, {}, {}, { expectedErrors: /^request failed: ENOTDIR/ });
    const blobs = path.join(server.dataDir, 'blobs');
    fs.rmSync(blobs, { recursive: true, force: true });
    fs.writeFileSync(blobs, 'not a directory');
    const body = payload({ client_reference: 'after-failure' });

    const failed = await create(server, body, { key: 'retry-me' });
    assertError(failed, 500, 'internal_error');
    assert.equal(replayed(failed), null);
    assert.deepEqual(keyRows(server), [], 'the key is released');
    // Still failing: not a replay, a new attempt.
    const failedAgain = await create(server, body, { key: 'retry-me' });
    assertError(failedAgain, 500, 'internal_error');
    assert.equal(replayed(failedAgain), null);

    fs.rmSync(blobs);
    fs.mkdirSync(blobs, { mode: 0o700 });
    const acted = await create(server, body, { key: 'retry-me' });
    assertFresh(acted, 201);
    assert.deepEqual(await listIds(server), [parse<{ id: string }>(acted).id]);
    assertReplayOf(await create(server, body, { key: 'retry-me' }), acted);
  });

  test('a 429 answer is not stored: after the window the same key acts', async (t) => {
    const server = await useServer(t, { rateLimit: 'on' });
    const id = await active(server);
    const route = `${ROUTE}/${id}/reminders`;
    for (let i = 0; i < 20; i++) {
      const answer = await send(server, 'POST', route, { key: `fill-${i}` });
      assert.equal(answer.status, 200, `reminder ${i + 1}: ${answer.text}`);
    }
    const linksBefore = links(server, id).length;

    const refused = await send(server, 'POST', route, { key: 'late', body: {} });
    assertError(refused, 429, 'rate_limit_exceeded');
    assert.equal(replayed(refused), null);
    assert.equal(keyRows(server).filter((r) => r.key === 'late').length, 0);
    assert.equal(links(server, id).length, linksBefore, 'the refused call did not act');

    server.running.ctx.clock.advance(HOUR_MS);
    const acted = await send(server, 'POST', route, { key: 'late', body: {} });
    assertFresh(acted, 200);
    assert.equal(links(server, id).length, linksBefore + 1, 'a new link was issued');
    assertReplayOf(await send(server, 'POST', route, { key: 'late', body: {} }), acted);
  });

  // ------------------------------------------------------------------------------------------------------------
  // Locks

  test('a lock left by another process, or by a call of this one that could not free it (a full disk), does not block: the retry acts', async (t) => {
    const server = await useServer(t);
    const { db, processId } = server.running.ctx;
    const id = await active(server);
    const route = `${ROUTE}/${id}/reminders`;
    let previous = await send(server, 'POST', route, { key: 'crashy', body: {} });
    assertFresh(previous, 200);

    const lock = (owner: string) =>
      db.run(
        db.q
          .updateTable('idempotency_keys')
          .set({ state: 'in_progress', owner, status_code: null, content_type: null, body: null })
          .where('account_id', '=', server.accountId)
          .where('key', '=', 'crashy'),
      );
    // Held by a process that is gone, then by this one for a call that has answered (a call still running
    // answers 409: the tests above): taken over each time, and the call acts (a new link).
    for (const owner of ['another-process', processId]) {
      assert.equal(lock(owner).changes, 1);
      const retry = await send(server, 'POST', route, { key: 'crashy', body: {} });
      assertFresh(retry, 200);
      const url = (answer: Answer) => parse<{ reminders: Array<{ signing_url: string }> }>(answer).reminders[0]?.signing_url as string;
      assert.notEqual(url(retry), url(previous), owner);
      assert.deepEqual(
        links(server, id)
          .filter((r) => r.revoked_at === null)
          .map((r) => r.token_hash),
        [tokenHashOf(url(retry))],
      );
      const row = keyRows(server).find((r) => r.key === 'crashy');
      assert.equal(row?.state, 'done');
      assert.equal(row?.owner, processId);
      assertReplayOf(await send(server, 'POST', route, { key: 'crashy', body: {} }), retry);
      previous = retry;
    }
  });

  // ------------------------------------------------------------------------------------------------------------
  // Lifetime and scope

  test('keys live 24 hours on the sandbox clock; afterwards the key names a new call', async (t) => {
    const server = await useServer(t);
    const { clock } = server.running.ctx;
    const id = await active(server);
    const route = `${ROUTE}/${id}/reminders`;
    const first = await send(server, 'POST', route, { key: 'daily', body: {} });
    assertFresh(first, 200);

    clock.advance(DAY_MS - 60_000);
    assertReplayOf(await send(server, 'POST', route, { key: 'daily', body: {} }), first);
    assertError(await send(server, 'POST', route, { key: 'daily', body: { signer_reference: 'client' } }), 422, 'idempotency_key_reused');

    clock.advance(60_000 + 1000);
    const fresh = await send(server, 'POST', route, { key: 'daily', body: { signer_reference: 'client' } });
    assertFresh(fresh, 200);
    assert.notEqual(fresh.text, first.text);
    assertReplayOf(await send(server, 'POST', route, { key: 'daily', body: { signer_reference: 'client' } }), fresh);
  });

  test('routes without side effects (GET) ignore the Idempotency-Key header', async (t) => {
    const server = await useServer(t);
    const id = await prepared(server);

    const before = await send(server, 'GET', `${ROUTE}/${id}`, { key: 'read' });
    assert.equal(before.status, 200);
    assert.equal(replayed(before), null);
    assert.equal(parse<{ status: string }>(before).status, 'prepared');

    assert.equal((await send(server, 'POST', `${ROUTE}/${id}/activate`)).status, 200);
    // Same key: a fresh read, not the stored first one.
    const after = await send(server, 'GET', `${ROUTE}/${id}`, { key: 'read' });
    assert.equal(after.status, 200);
    assert.equal(replayed(after), null);
    assert.equal(parse<{ status: string }>(after).status, 'active');

    // Not even its shape is checked, and nothing is stored.
    assert.equal((await send(server, 'GET', ROUTE, { key: 'x'.repeat(300) })).status, 200);
    assert.equal((await send(server, 'GET', ROUTE, { key: '' })).status, 200);
    assert.deepEqual(keyRows(server), []);
    // A key used on a GET is still free for a mutating call.
    assertFresh(await send(server, 'POST', `${ROUTE}/${id}/cancel`, { key: 'read' }), 200);
  });

  // ------------------------------------------------------------------------------------------------------------
  // Optional bodies: not an idempotency rule, but every keyed call of these routes meets it.

  // Spec: their input is optional; an empty JSON body means "no options", as an absent one, and both are
  // the same call for the Idempotency-Key.
  test('activate, cancel and reminders accept an absent body and an empty JSON body as "no options"', async (t) => {
    const server = await useServer(t);
    const id = await prepared(server);
    const activated = await send(server, 'POST', `${ROUTE}/${id}/activate`, { key: 'bare-activate', bare: true });
    assert.equal(activated.status, 200, activated.text);
    assertReplayOf(await send(server, 'POST', `${ROUTE}/${id}/activate`, { key: 'bare-activate', bare: true }), activated);
    assertReplayOf(await send(server, 'POST', `${ROUTE}/${id}/activate`, { key: 'bare-activate', body: {} }), activated);
    const reminded = await server.call('POST', `${ROUTE}/${id}/reminders`, { body: '', headers: { 'content-type': 'application/json' } });
    assert.equal(reminded.status, 200, await reminded.text());
    const cancelled = await send(server, 'POST', `${ROUTE}/${id}/cancel`, { bare: true });
    assert.equal(cancelled.status, 200, cancelled.text);
  });
});

describe('a template call whose server died between its commit and its answer', () => {
  /**
   * Runs a keyed call's use case in another process's context on the same data directory (a second paraph on it, as
   * a server before a restart is), and closes that context without answering: the process died right after the
   * commit. The retry then goes to the running server.
   */
  async function diedAfterCommit(
    server: TestServer,
    call: { key: string; method: string; path: string; body: unknown },
    act: (ctx: Context) => Promise<unknown>,
  ) {
    const other = await createContext({ dataDir: server.dataDir, log: createLog('silent') });
    try {
      const keyed = { accountId: server.accountId, key: call.key, method: call.method, path: call.path, fingerprint: sha256Hex(canonicalJson(call.body)) };
      assert.equal(claimIdempotencyKey(other, keyed).kind, 'new');
      await runKeyedCall(other, { ...keyed, requestId: 'req_died', recorded: false }, () => act(other));
    } finally {
      await other.close();
    }
  }
  const principalOf = (server: TestServer) => ({ accountId: server.accountId, apiKeyId: server.running.firstKey?.key_id as string });

  test('a template archived: the retry replays the 204, not a 404 for the template now gone', async (t) => {
    const server = await useServer(t);
    const template = await makeTemplate(server);
    const route = `/v1/templates/${template.id}`;
    await diedAfterCommit(server, { key: 'archive-1', method: 'DELETE', path: route, body: {} }, (ctx) =>
      archiveTemplate(ctx, { principal: principalOf(server), id: template.id }),
    );
    const retry = await server.call('DELETE', route, { headers: { 'idempotency-key': 'archive-1' } });
    assert.equal(retry.status, 204, await retry.clone().text());
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(await retry.text(), '');
  });

  test('a template created: the retry replays the 201 with the same template, and no second one is made', async (t) => {
    const server = await useServer(t);
    const bytes = await a4Pdf();
    const fields = [{ signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 }];
    const body = { document: { sha256: sha256Hex(bytes), filename: 'nda.pdf' }, parts: { name: 'NDA', fields } };
    let made: { id: string } | undefined;
    await diedAfterCommit(server, { key: 'template-1', method: 'POST', path: '/v1/templates', body }, async (ctx) => {
      made = await createTemplate(ctx, {
        principal: principalOf(server),
        document: { bytes: Buffer.from(bytes), filename: 'nda.pdf' },
        name: 'NDA',
        fields: fields as never,
      });
    });
    const form = new FormData();
    form.append('document', new Blob([bytes], { type: 'application/pdf' }), 'nda.pdf');
    form.append('name', 'NDA');
    form.append('fields', JSON.stringify(fields));
    const retry = await server.call('POST', '/v1/templates', { body: form, headers: { 'idempotency-key': 'template-1' } });
    const text = await retry.text();
    assert.equal(retry.status, 201, text);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal((JSON.parse(text) as { id: string }).id, made?.id);
    const listed = (await (await server.call('GET', '/v1/templates')).json()) as { data: unknown[] };
    assert.equal(listed.data.length, 1);
  });
});
