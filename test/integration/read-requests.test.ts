import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createdRequest } from '../helpers/flows.js';
import { json, useServer } from '../helpers/server.js';
import { STATUS_KEYS } from '../helpers/answer-keys.js';

test('GET one request answers SignatureRequestStatus exactly, with nothing secret in it', async (t) => {
  const server = await useServer(t);
  const { id } = await createdRequest(server, {
    client_reference: 'status-1',
    sequential_signing: true,
    return_url: 'https://app.example.com/done',
    signers: [
      { reference: 'buyer', name: 'Bea', email: 'bea@example.com', order: 1, locale: 'ar', verification: 'email_otp' },
      { reference: 'seller', email: 'sam@example.com', order: 2 },
    ],
    fields: [
      { signer_reference: 'buyer', type: 'signature', page: 1, x: 10, y: 10, width: 100, height: 40 },
      { signer_reference: 'buyer', type: 'date', field_key: 'sign_date', page: 1, x: 10, y: 60, width: 100, height: 20 },
      { signer_reference: 'seller', type: 'text', name: 'company', value: 'ACME', read_only: true, page: 1, x: 10, y: 90, width: 100, height: 20 },
      { signer_reference: 'seller', type: 'initials', page: 1, x: 10, y: 120, width: 40, height: 20 },
    ],
  });
  const response = await server.call('GET', `/v1/signature-requests/${id}`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('x-ratelimit-limit'), '120');
  const status = await json<Record<string, any>>(response);
  assert.deepEqual(Object.keys(status).sort(), STATUS_KEYS);
  assert.equal(status.id, id);
  assert.equal(status.environment, 'sandbox');
  assert.equal(status.status, 'prepared');
  assert.equal(status.sequential_signing, true);
  assert.equal(status.return_url, 'https://app.example.com/done');
  assert.equal(Date.parse(status.retention_expires_at) - Date.parse(status.created_at), 10 * 24 * 3600 * 1000);
  assert.deepEqual(status.artifacts, { signed_pdf: false, evidence_pdf: false, evidence_json: false });

  assert.equal(status.signers.length, 2);
  const [buyer, seller] = status.signers;
  assert.deepEqual(Object.keys(buyer).sort(), [
    'email',
    'expires_at',
    'id',
    'locale',
    'name',
    'order',
    'reference',
    'signed_at',
    'status',
    'verification',
    'verified_at',
  ]);
  assert.match(buyer.id, /^[0-9a-f-]{36}$/);
  assert.deepEqual(
    { ...buyer, id: undefined },
    {
      id: undefined,
      reference: 'buyer',
      name: 'Bea',
      email: 'bea@example.com',
      order: 1,
      status: 'pending',
      locale: 'ar',
      verification: 'email_otp',
      signed_at: null,
      expires_at: null,
      verified_at: null,
    },
  );
  assert.equal(seller.locale, '');
  assert.equal(seller.verification, '');
  assert.equal(seller.name, '');

  // Only text and date fields are listed, with their current value.
  assert.deepEqual(
    status.fields.map((f: Record<string, unknown>) => ({ ...f, id: typeof f.id })),
    [
      { id: 'string', name: '', type: 'date', field_key: 'sign_date', signer_reference: 'buyer', value: '', read_only: false, completed: false },
      { id: 'string', name: 'company', type: 'text', field_key: '', signer_reference: 'seller', value: 'ACME', read_only: true, completed: false },
    ],
  );
  const text = JSON.stringify(status);
  assert.doesNotMatch(text, /paraph_test_|whsec_|token|127\.0\.0\.1|user_agent|ip_address/i);
});

test('the list is newest first, filtered by status and client_reference, paged by an opaque cursor', async (t) => {
  const server = await useServer(t);
  const ids: string[] = [];
  for (let i = 0; i < 5; i += 1) ids.push((await createdRequest(server, { client_reference: `list-${i}` }, { signers: 'payload' })).id);
  const newestFirst = [...ids].reverse();

  const all = await json<{ data: Array<Record<string, unknown>>; next_cursor: string }>(await server.call('GET', '/v1/signature-requests'));
  assert.deepEqual(
    all.data.map((r) => r.id),
    newestFirst,
  );
  assert.equal(all.next_cursor, '');
  assert.deepEqual(Object.keys(all.data[0] ?? {}).sort(), ['client_reference', 'created_at', 'id', 'retention_expires_at', 'status', 'updated_at']);

  const seen: string[] = [];
  let cursor = '';
  let pages = 0;
  do {
    const query = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await json<{ data: Array<{ id: string }>; next_cursor: string }>(await server.call('GET', `/v1/signature-requests${query}`));
    assert.ok(page.data.length <= 2);
    seen.push(...page.data.map((r) => r.id));
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor !== '' && pages < 10);
  assert.deepEqual(seen, newestFirst);
  assert.equal(pages, 3);

  const one = await json<{ data: Array<{ id: string }> }>(await server.call('GET', '/v1/signature-requests?client_reference=list-3'));
  assert.deepEqual(
    one.data.map((r) => r.id),
    [ids[3]],
  );
  const prepared = await json<{ data: unknown[] }>(await server.call('GET', '/v1/signature-requests?status=prepared&limit=100'));
  assert.equal(prepared.data.length, 5);
  const active = await json<{ data: unknown[]; next_cursor: string }>(await server.call('GET', '/v1/signature-requests?status=active'));
  assert.deepEqual(active, { data: [], next_cursor: '' });
  // The cursor is the account's own and tells nothing of the rows: not another account's, nor readable.
  const first = await json<{ next_cursor: string }>(await server.call('GET', '/v1/signature-requests?limit=1'));
  assert.doesNotMatch(Buffer.from(first.next_cursor, 'base64url').toString('latin1'), /sr1|:\d/);
  const other = server.newKey();
  const elsewhere = await server.call('GET', `/v1/signature-requests?limit=1&cursor=${first.next_cursor}`, { key: other.apiKey });
  assert.equal(elsewhere.status, 400);
  assert.match((await json<{ error: { message: string } }>(elsewhere)).error.message, /cursor is not a cursor this API returned/);
  // A page exactly as long as what is left has no next page.
  const exact = await json<{ next_cursor: string }>(await server.call('GET', '/v1/signature-requests?limit=5'));
  assert.equal(exact.next_cursor, '');
});

test('bad filters, limits and cursors answer 400 invalid_request', async (t) => {
  const server = await useServer(t);
  for (const query of ['status=done', 'limit=0', 'limit=101', 'limit=abc', 'limit=2.5', 'cursor=not-a-cursor', 'cursor=c3IxOi0x', 'unknown=1']) {
    const response = await server.call('GET', `/v1/signature-requests?${query}`);
    assert.equal(response.status, 400, query);
    const body = await json<{ error: { code: string; message: string } }>(response);
    assert.equal(body.error.code, 'invalid_request', query);
  }
  const limit = await json<{ error: { message: string } }>(await server.call('GET', '/v1/signature-requests?limit=0'));
  assert.match(limit.error.message, /limit/);
  assert.equal((await server.call('GET', '/v1/signature-requests?limit=100&cursor=')).status, 200);
  // An integer in decimal digits only, on every list: not hexadecimal, an exponent, a sign or spaces.
  for (const route of ['/v1/signature-requests', '/v1/webhook-deliveries']) {
    for (const written of ['0x10', '1e1', '100.0', '0.5e1', '+5', '%2010', '5%20', '']) {
      const response = await server.call('GET', `${route}?limit=${written}`);
      assert.equal(response.status, 400, `${route}?limit=${written}`);
      assert.match((await json<{ error: { message: string } }>(response)).error.message, /limit must be an integer/, `${route} ${written}`);
    }
    assert.equal((await server.call('GET', `${route}?limit=010`)).status, 200);
  }
});

test('an id in capitals names the same resource (UUIDs are read whatever their case)', async (t) => {
  const server = await useServer(t);
  const { id } = await createdRequest(server, { client_reference: 'capitals-1' });
  const lower = await server.call('GET', `/v1/signature-requests/${id}`);
  const upper = await server.call('GET', `/v1/signature-requests/${id.toUpperCase()}`);
  assert.equal(upper.status, 200, await upper.clone().text());
  assert.deepEqual(await json(upper), await json(lower));
  // A call that acts on it too: the answer names it in lower case, as every answer does.
  const cancelled = await server.call('POST', `/v1/signature-requests/${id.toUpperCase()}/cancel`, {
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(cancelled.status, 200, await cancelled.clone().text());
  assert.equal((await json<{ id: string; status: string }>(cancelled)).id, id);
  // Still not a UUID: 404, as before.
  assert.equal((await server.call('GET', `/v1/signature-requests/${id.toUpperCase()}X`)).status, 404);
});
