// POST /_sandbox/api-keys: `paraph keys create` over HTTP, for clients that only speak HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postJson } from '../helpers/flows.js';
import { expectError } from '../helpers/errors.js';
import { json, useServer } from '../helpers/server.js';

type Created = { account_id: string; key_id: string; api_key: string; webhook_secret: string };

test("a new key in a new account by default, or in the caller's account; each one works at once", async (t) => {
  const server = await useServer(t);
  for (const body of [undefined, {}, { account: 'new' }]) {
    const response = await postJson(server, '/_sandbox/api-keys', body);
    assert.equal(response.status, 201);
    const created = await json<Created>(response);
    assert.notEqual(created.account_id, server.accountId);
    assert.match(created.api_key, /^paraph_test_[0-9A-Za-z]{40,}$/);
    assert.match(created.webhook_secret, /^whsec_/);
    const list = await server.call('GET', '/v1/signature-requests', { key: created.api_key });
    assert.equal(list.status, 200);
  }
  const same = await json<Created>(await postJson(server, '/_sandbox/api-keys', { account: 'same' }));
  assert.equal(same.account_id, server.accountId);
  // paraph keeps only the key's hash: the answer is the one place it is shown.
  const stored = server.running.ctx.db.all(server.running.ctx.db.q.selectFrom('api_keys').selectAll());
  assert.ok(stored.every((row) => !JSON.stringify(row).includes(same.api_key)));
});

test('bad input is a 400, no key a 401', async (t) => {
  const server = await useServer(t);
  await expectError(await postJson(server, '/_sandbox/api-keys', { account: 'other' }), 400, 'invalid_request');
  await expectError(await postJson(server, '/_sandbox/api-keys', { accounts: 'new' }), 400, 'invalid_request');
  await expectError(await postJson(server, '/_sandbox/api-keys', {}, ''), 401, 'unauthorized');
});
