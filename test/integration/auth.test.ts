import { test } from 'node:test';
import assert from 'node:assert/strict';
import { revokeApiKey } from '../../src/features/keys/revoke-api-key.js';
import { createForm, payload } from '../helpers/requests.js';
import { json, useServer } from '../helpers/server.js';

type Envelope = { error: { code: string; message: string; request_id: string } };

async function expectUnauthorized(response: Response) {
  assert.equal(response.status, 401);
  const body = await json<Envelope>(response);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'request_id']);
  assert.equal(body.error.code, 'unauthorized');
  assert.equal(body.error.request_id, response.headers.get('x-request-id'));
}

test('every /v1 route needs a live bearer key: missing, malformed, unknown, revoked all answer 401', async (t) => {
  const server = await useServer(t);
  await expectUnauthorized(await server.call('GET', '/v1/signature-requests', { key: null }));
  await expectUnauthorized(await server.call('GET', '/v1/signature-requests', { headers: { authorization: `Basic ${server.apiKey}` }, key: null }));
  await expectUnauthorized(await server.call('GET', '/v1/signature-requests', { headers: { authorization: 'Bearer' }, key: null }));
  await expectUnauthorized(await server.call('GET', '/v1/signature-requests', { key: `${server.apiKey}x` }));
  await expectUnauthorized(await server.call('GET', '/v1/signature-requests', { key: `paraph_test_${'0'.repeat(43)}` }));
  await expectUnauthorized(await server.call('GET', '/v1/signature-requests/00000000-0000-4000-8000-000000000000', { key: null }));
  // Authentication comes before body parsing: a bad body without a key is still a 401.
  await expectUnauthorized(await server.call('POST', '/v1/signature-requests', { key: null, body: await createForm(payload()) }));

  const ok = await server.call('GET', '/v1/signature-requests');
  assert.equal(ok.status, 200);

  const second = server.newKey(server.accountId);
  assert.equal((await server.call('GET', '/v1/signature-requests', { key: second.apiKey })).status, 200);
  revokeApiKey(server.running.ctx, second.keyId);
  await expectUnauthorized(await server.call('GET', '/v1/signature-requests', { key: second.apiKey }));
  // Revoking one key leaves the account's other keys working.
  assert.equal((await server.call('GET', '/v1/signature-requests')).status, 200);
});

test("another account's request answers 404, exactly like a missing one", async (t) => {
  const server = await useServer(t);
  const created = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload()) });
  assert.equal(created.status, 201);
  const { id } = await json<{ id: string }>(created);

  const other = server.newKey();
  assert.notEqual(other.accountId, server.accountId);
  const foreign = await server.call('GET', `/v1/signature-requests/${id}`, { key: other.apiKey });
  assert.equal(foreign.status, 404);
  assert.equal((await json<Envelope>(foreign)).error.code, 'not_found');
  const list = await json<{ data: unknown[] }>(await server.call('GET', '/v1/signature-requests', { key: other.apiKey }));
  assert.deepEqual(list.data, []);

  // A key added to the same account sees the request.
  const sameAccount = server.newKey(server.accountId);
  assert.equal((await server.call('GET', `/v1/signature-requests/${id}`, { key: sameAccount.apiKey })).status, 200);
});

test('healthz and the OpenAPI document need no key', async (t) => {
  const server = await useServer(t);
  const health = await server.call('GET', '/healthz', { key: null });
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { status: 'ok' });
  assert.equal((await server.call('GET', '/v1/openapi.json', { key: null })).status, 200);
});

test('--brand changes the API key prefix, and keys made later by another process follow it', async (t) => {
  const server = await useServer(t, { brand: 'acme' });
  assert.match(server.apiKey, /^acme_test_[0-9A-Za-z]{43}$/);
  assert.equal((await server.call('GET', '/v1/signature-requests')).status, 200);
  const { createContext } = await import('../../src/context.js');
  const { createLog } = await import('../../src/platform/log.js');
  const { createApiKey } = await import('../../src/features/keys/create-api-key.js');
  const cli = await createContext({ dataDir: server.dataDir, log: createLog('silent') });
  t.after(() => cli.close());
  const key = createApiKey(cli);
  assert.match(key.api_key, /^acme_test_/);
  assert.equal((await server.call('GET', '/v1/signature-requests', { key: key.api_key })).status, 200);
});
