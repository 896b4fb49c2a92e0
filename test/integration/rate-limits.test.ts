// Rate limits end to end, over real HTTP against the real server (spec "Limits", "Errors"; sandbox contract:
// `--rate-limit on/off`, the general bucket's headers on every /v1 answer, a narrower bucket's on its 429).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type TestServer } from '../helpers/server.js';
import { payload } from '../helpers/requests.js';
import { unknownApiKey } from '../helpers/keys.js';
import { activeRequest, postCreate } from '../helpers/flows.js';
import { revokeApiKey } from '../../src/features/keys/revoke-api-key.js';

const ROUTE = '/v1/signature-requests';
const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type Json = Record<string, unknown>;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function call(server: TestServer, method: string, route: string, options: { body?: Json; apiKey?: string | null } = {}): Promise<Answer> {
  const res = await server.call(method, route, {
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body), headers: { 'content-type': 'application/json' } }),
    ...(options.apiKey === undefined ? {} : { key: options.apiKey }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A cheap authenticated GET. */
const list = (server: TestServer, apiKey?: string) => call(server, 'GET', `${ROUTE}?limit=1`, apiKey === undefined ? {} : { apiKey });

const limitOf = (answer: Answer) => answer.headers.get('x-ratelimit-limit');
const remainingOf = (answer: Answer) => answer.headers.get('x-ratelimit-remaining');

function assertHeaders(answer: Answer, limit: number, remaining: number, what = ''): void {
  assert.equal(limitOf(answer), String(limit), `x-ratelimit-limit ${what}`);
  assert.equal(remainingOf(answer), String(remaining), `x-ratelimit-remaining ${what}`);
}

/** A 429 rate_limit_exceeded in the envelope, with the bucket's headers; answers its Retry-After in seconds. */
function assertRefused(answer: Answer, limit: number, maxRetryAfter: number): number {
  assert.equal(answer.status, 429, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  const body = JSON.parse(answer.text) as { error: { code: string; message: string; request_id: string } };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'request_id']);
  assert.equal(body.error.code, 'rate_limit_exceeded');
  assert.ok(body.error.message.length > 0);
  assert.equal(body.error.request_id, answer.headers.get('x-request-id'));
  assertHeaders(answer, limit, 0, 'of the 429');
  const retryAfter = answer.headers.get('retry-after') ?? '';
  assert.match(retryAfter, /^\d+$/, 'retry-after is whole seconds');
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= maxRetryAfter, `retry-after ${retryAfter}`);
  return Number(retryAfter);
}

function linkCount(server: TestServer, requestId: string): number {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('signing_links').select('id').where('request_id', '=', requestId)).length;
}

// ------------------------------------------------------------------------------------------------------------

test('every /v1 answer carries x-ratelimit-limit 120 and a decreasing x-ratelimit-remaining, errors too', async (t) => {
  const server = await useServer(t, { rateLimit: 'on' });
  const answers: Array<[string, Answer, number]> = [];
  answers.push(['list', await list(server), 200]);
  answers.push(['unknown request (404)', await call(server, 'GET', `${ROUTE}/${UNKNOWN_ID}`), 404]);
  answers.push(['malformed id (404)', await call(server, 'GET', `${ROUTE}/not-a-uuid`), 404]);
  // A path or a method no endpoint answers: counted like any call of the key.
  answers.push(['unknown path (404)', await call(server, 'GET', '/v1/nope'), 404]);
  answers.push(['method not allowed (405)', await call(server, 'DELETE', `${ROUTE}/${UNKNOWN_ID}`), 405]);
  // A call without a valid key is counted in no bucket: the whole limit remains.
  for (const [what, apiKey] of [
    ['no key', null],
    ['an unknown key', unknownApiKey()],
    ['not a key', 'nope'],
  ] as const) {
    for (const route of [`${ROUTE}?limit=1`, '/v1/nope']) {
      const refused = await call(server, 'GET', route, { apiKey });
      assert.equal(refused.status, route === '/v1/nope' ? 404 : 401, `${what} on ${route}: ${refused.text}`);
      assertHeaders(refused, 120, 120, `${what} on ${route}`);
    }
  }
  answers.push(['bad filter (400)', await call(server, 'GET', `${ROUTE}?limit=1000`), 400]);
  answers.push(['activate unknown (404)', await call(server, 'POST', `${ROUTE}/${UNKNOWN_ID}/activate`, { body: {} }), 404]);
  const created = await postCreate(server, payload());
  answers.push(['create (201)', { status: created.status, headers: created.headers, text: await created.text() }, 201]);
  answers.push(['list again', await list(server), 200]);

  answers.forEach(([what, answer, status], i) => {
    assert.equal(answer.status, status, `${what}: ${answer.text}`);
    assertHeaders(answer, 120, 119 - i, what);
  });
});

test('the 121st call within 10 minutes is refused with 429 rate_limit_exceeded; the limit is per API key', async (t) => {
  const server = await useServer(t, { rateLimit: 'on' });
  for (let i = 1; i <= 120; i++) {
    const answer = await list(server);
    assert.equal(answer.status, 200, `call ${i}: ${answer.text}`);
    assertHeaders(answer, 120, 120 - i, `call ${i}`);
  }
  const refused = await list(server);
  const retryAfter = assertRefused(refused, 120, 600);
  // Refused on every endpoint, not only the one that was counted.
  assertRefused(await call(server, 'GET', `${ROUTE}/${UNKNOWN_ID}`), 120, 600);
  assertRefused(await call(server, 'POST', `${ROUTE}/${UNKNOWN_ID}/activate`, { body: {} }), 120, 600);

  // Another key of the same account has its own window.
  const other = server.newKey(server.accountId);
  const otherAnswer = await list(server, other.apiKey);
  assert.equal(otherAnswer.status, 200, otherAnswer.text);
  assertHeaders(otherAnswer, 120, 119, 'of another key');

  // The window slides on the sandbox clock: not open before Retry-After, open after 10 minutes.
  const { clock } = server.running.ctx;
  clock.advance(Math.max(0, retryAfter - 5) * 1000);
  assertRefused(await list(server), 120, 5 + 1);
  clock.advance(10 * MINUTE_MS);
  const again = await list(server);
  assert.equal(again.status, 200, again.text);
  assertHeaders(again, 120, 119, 'after the window');
});

test("the reminders bucket: the 21st reminder within an hour is 429 with the bucket's limit, other calls still pass", async (t) => {
  const server = await useServer(t, { rateLimit: 'on' });
  const { id } = await activeRequest(server); // create and activate: two calls of the general bucket
  const route = `${ROUTE}/${id}/reminders`;
  for (let i = 1; i <= 20; i++) {
    const answer = await call(server, 'POST', route, { body: {} });
    assert.equal(answer.status, 200, `reminder ${i}: ${answer.text}`);
    // A reminder that passes reports the general bucket: create, activate and i reminders so far.
    assertHeaders(answer, 120, 120 - 2 - i, `reminder ${i}`);
  }
  const links = linkCount(server, id);

  const refused = await call(server, 'POST', route, { body: {} });
  assertRefused(refused, 20, 3600);
  assert.equal(linkCount(server, id), links, 'the refused reminder issued no link');

  // The bucket is per API key: another key of the account may still remind.
  const other = server.newKey(server.accountId);
  const otherAnswer = await call(server, 'POST', route, { body: {}, apiKey: other.apiKey });
  assert.equal(otherAnswer.status, 200, otherAnswer.text);
  assert.equal(linkCount(server, id), links + 1);

  // The refused key keeps working on other endpoints, under the general bucket.
  const read = await call(server, 'GET', `${ROUTE}/${id}`);
  assert.equal(read.status, 200, read.text);
  assert.equal(limitOf(read), '120');
  assert.ok(Number(remainingOf(read)) > 0, `remaining ${remainingOf(read)}`);
  const cancelled = await call(server, 'POST', `${ROUTE}/${id}/cancel`, { body: {} });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(limitOf(cancelled), '120');
  // ...but not on reminders.
  assertRefused(await call(server, 'POST', route, { body: {} }), 20, 3600);
});

test('the reminders bucket opens again after an hour on the sandbox clock', async (t) => {
  const server = await useServer(t, { rateLimit: 'on' });
  const { id } = await activeRequest(server); // create and activate: two calls of the general bucket
  const route = `${ROUTE}/${id}/reminders`;
  for (let i = 1; i <= 20; i++) assert.equal((await call(server, 'POST', route, { body: {} })).status, 200);
  assertRefused(await call(server, 'POST', route, { body: {} }), 20, 3600);
  server.running.ctx.clock.advance(HOUR_MS);
  const again = await call(server, 'POST', route, { body: {} });
  assert.equal(again.status, 200, again.text);
  assert.equal(limitOf(again), '120');
});

test('with --rate-limit off nothing is refused, and the headers are still sent', async (t) => {
  const server = await useServer(t, { rateLimit: 'off' });
  for (let i = 1; i <= 130; i++) {
    const answer = await list(server);
    assert.equal(answer.status, 200, `call ${i}: ${answer.text}`);
    assertHeaders(answer, 120, Math.max(0, 120 - i), `call ${i}`);
  }
  const { id } = await activeRequest(server); // create and activate: two calls of the general bucket
  for (let i = 1; i <= 25; i++) {
    const answer = await call(server, 'POST', `${ROUTE}/${id}/reminders`, { body: {} });
    assert.equal(answer.status, 200, `reminder ${i}: ${answer.text}`);
    assert.equal(limitOf(answer), '120');
  }
});

test('unauthenticated calls (401) carry the whole general limit as remaining and consume nothing', async (t) => {
  const server = await useServer(t, { rateLimit: 'on' });
  const revoked = server.newKey(server.accountId);
  revokeApiKey(server.running.ctx, revoked.keyId);
  const unauthenticated: Array<[string, Answer]> = [];
  for (let i = 0; i < 130; i++) {
    const which = i % 3;
    if (which === 0) unauthenticated.push(['no key', await call(server, 'GET', ROUTE, { apiKey: null })]);
    if (which === 1) unauthenticated.push(['unknown key', await call(server, 'GET', `${ROUTE}/${UNKNOWN_ID}`, { apiKey: 'paraph_test_nope' })]);
    if (which === 2) unauthenticated.push(['revoked key', await call(server, 'POST', `${ROUTE}/${UNKNOWN_ID}/activate`, { body: {}, apiKey: revoked.apiKey })]);
  }
  for (const [what, answer] of unauthenticated) {
    assert.equal(answer.status, 401, `${what}: ${answer.text}`);
    assert.equal((JSON.parse(answer.text) as { error: { code: string } }).error.code, 'unauthorized');
    assertHeaders(answer, 120, 120, what);
    assert.equal(answer.headers.get('retry-after'), null, what);
  }
  // 130 refused calls later, the first key's window is untouched (and never refused: 130 > 120).
  const first = await list(server);
  assert.equal(first.status, 200, first.text);
  assertHeaders(first, 120, 119, 'of the first authenticated call');
});
