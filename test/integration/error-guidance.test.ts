// The errors a newcomer meets in the first hour say what to do next, with the codes and statuses of the
// API description unchanged: 401 names the header, the loopback refusal names the opt-in, 429 names the
// switch that turns the limits off, 410 says how the content went, a wrong path or Content-Type says
// what the right one is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { revokeApiKey } from '../../src/features/keys/revoke-api-key.js';
import { paraph } from '../helpers/cli.js';
import { expectError } from '../helpers/errors.js';
import { activate, advance, auditOf, createRequest, DAY, postJson } from '../helpers/flows.js';
import { a4Pdf, createForm, payload, rawMultipart } from '../helpers/requests.js';
import { json, useServer, type TestServer } from '../helpers/server.js';

const AUTH_HINT = 'Authorization: Bearer <API key>';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const download = (server: TestServer, id: string, type = 'signed-pdf') => server.call('GET', `/v1/signature-requests/${id}/artifacts/${type}`);

test('every 401 names the header to send, and never repeats the key', async (t) => {
  const server = await useServer(t);
  const revoked = server.newKey(server.accountId);
  revokeApiKey(server.running.ctx, revoked.keyId);
  const unknownKey = `paraph_test_${'Z'.repeat(43)}`;
  const cases: Array<[string, Record<string, string>, RegExp, string | null]> = [
    ['no Authorization header', {}, /missing API key/, null],
    ['the Basic scheme', { authorization: `Basic ${server.apiKey}` }, /Bearer scheme/, server.apiKey],
    ['the key without a scheme', { authorization: server.apiKey }, /Bearer scheme/, server.apiKey],
    ['Bearer and nothing else', { authorization: 'Bearer' }, /no API key after "Bearer"/, null],
    ['something that is no key', { authorization: 'Bearer my-secret-key' }, /keys look like paraph_test_/, 'my-secret-key'],
    ['an unknown key', { authorization: `Bearer ${unknownKey}` }, /unknown API key.*paraph keys create/, unknownKey],
    ['a revoked key', { authorization: `Bearer ${revoked.apiKey}` }, /revoked.*paraph keys create/, revoked.apiKey],
  ];
  for (const [what, headers, detail, secret] of cases) {
    for (const route of ['/v1/signature-requests', '/_sandbox/clock']) {
      const message = await expectError(await server.call('GET', route, { key: null, headers }), 401, 'unauthorized', AUTH_HINT);
      assert.match(message, detail, `${what} on ${route}`);
      if (secret) assert.ok(!message.includes(secret), `${what}: the message must not repeat the key`);
    }
  }
  // The same key, sent as asked, works.
  assert.equal((await server.call('GET', '/v1/signature-requests', { key: null, headers: { authorization: `Bearer ${server.apiKey}` } })).status, 200);
});

test('a loopback callback_url is refused with the flag and the env that allow it; with the flag it is accepted', async (t) => {
  const server = await useServer(t);
  for (const url of ['http://127.0.0.1:9999/hook', 'https://localhost/hook']) {
    const refused = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ callback_url: url })) });
    const message = await expectError(refused, 400, 'invalid_request', /loopback/);
    assert.ok(message.includes('--allow-loopback-webhooks'), message);
    assert.ok(message.includes('WEBHOOKS_ALLOW_LOOPBACK=1'), message);
  }
  // A private address is not something the flag allows: no hint there.
  const privateUrl = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ callback_url: 'https://10.0.0.1/hook' })) });
  assert.ok(!(await expectError(privateUrl, 400, 'invalid_request', /private/)).includes('--allow-loopback-webhooks'));

  const allowed = await useServer(t, { allowLoopbackWebhooks: true });
  const created = await allowed.call('POST', '/v1/signature-requests', { body: await createForm(payload({ callback_url: 'http://127.0.0.1:9999/hook' })) });
  assert.equal(created.status, 201, await created.text());
});

test('a delivery refused at send time because it reaches loopback names the flag', async (t) => {
  const server = await useServer(t);
  const { db } = server.running.ctx;
  const lastErrorOf = async (target: string) => {
    const id = await createRequest(server, { callback_url: 'https://example.com/hook' });
    // As a public name resolving to the address would: the create call saw an acceptable URL.
    db.run(db.q.updateTable('signature_requests').set({ callback_url: target }).where('id', '=', id));
    await activate(server, id);
    for (let i = 0; i < 200; i++) {
      const list = await json<{ data: Array<{ attempt_count: number; last_error: string | null }> }>(
        await server.call('GET', `/v1/webhook-deliveries?signature_request_id=${id}`),
      );
      const delivery = list.data[0];
      if (delivery && delivery.attempt_count >= 1) return delivery.last_error ?? '';
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no attempt to ${target}`);
  };
  const loopback = await lastErrorOf('http://127.0.0.1:9/hook');
  assert.match(loopback, /refused by policy.*loopback/);
  assert.ok(loopback.includes('--allow-loopback-webhooks'), loopback);
  const privateAddress = await lastErrorOf('https://10.0.0.1/hook');
  assert.match(privateAddress, /refused by policy.*private/);
  assert.ok(!privateAddress.includes('--allow-loopback-webhooks'), privateAddress);
});

test('a 429 says that serve --rate-limit off turns the limits off', async (t) => {
  const server = await useServer(t, { rateLimit: 'on' });
  for (let i = 1; i <= 120; i++) assert.equal((await server.call('GET', '/v1/signature-requests?limit=1')).status, 200, `call ${i}`);
  const message = await expectError(await server.call('GET', '/v1/signature-requests?limit=1'), 429, 'rate_limit_exceeded', /120 requests per 10 minutes/);
  assert.ok(message.includes('--rate-limit off'), message);
  assert.ok(message.includes('PARAPH_RATE_LIMIT=off'), message);
});

test('410 says whether the content was purged by hand or at the retention deadline', async (t) => {
  const server = await useServer(t);
  const byHttp = await createRequest(server);
  const byCli = await createRequest(server);
  const byClock = await createRequest(server);

  assert.equal((await postJson(server, `/_sandbox/signature-requests/${byHttp}/purge`)).status, 200);
  const cli = await paraph(['purge', byCli, '--data-dir', server.dataDir]);
  assert.equal(cli.code, 0, cli.stderr);
  for (const id of [byHttp, byCli]) {
    for (const type of ['signed-pdf', 'evidence.pdf', 'evidence.json']) {
      const message = await expectError(await download(server, id, type), 410, 'artifact_not_available', /purged by hand/);
      assert.ok(!/retention deadline/.test(message), `a purge by hand is not the retention deadline: ${message}`);
      assert.match(message, /create a new request/);
    }
  }

  await advance(server, 11 * DAY);
  const message = await expectError(await download(server, byClock), 410, 'artifact_not_available', /purged at its retention deadline/);
  assert.match(message, /10 days after upload/);
  assert.ok(!/by hand/.test(message), message);
  // The requests purged by hand before still say so after the deadline went by.
  await expectError(await download(server, byHttp), 410, 'artifact_not_available', /purged by hand/);

  // The audit trail records the cause the message reports.
  const causeOf = (id: string) => {
    const { db } = server.running.ctx;
    const row = db.first(db.q.selectFrom('audit_events').select('data').where('request_id', '=', id).where('type', '=', 'request_purged'));
    return (JSON.parse(row?.data ?? '{}') as { cause?: string }).cause;
  };
  assert.deepEqual([causeOf(byHttp), causeOf(byCli), causeOf(byClock)], ['by_hand', 'by_hand', 'retention']);
  assert.equal(auditOf(server, byClock).find((a) => a.type === 'request_purged')?.actor_type, 'system');
});

test('a path without /v1, with a trailing slash or outside /v1 answers 404 naming the right one', async (t) => {
  const server = await useServer(t);
  const cases: Array<[string, string, string]> = [
    ['GET', '/signature-requests', 'GET /v1/signature-requests'],
    ['POST', '/templates', 'POST /v1/templates'],
    ['GET', `/signature-requests/${UNKNOWN_ID}?x=1`, `GET /v1/signature-requests/${UNKNOWN_ID}`],
    ['GET', '/openapi.json', 'GET /v1/openapi.json'],
    ['GET', '/v1/healthz', 'GET /healthz'],
    ['POST', '/v1/_sandbox/clock/advance', 'POST /_sandbox/clock/advance'],
    ['GET', '/v1/v1/templates', 'GET /v1/templates'],
    ['GET', '/v1/signature-requests/', 'remove the trailing slash (GET /v1/signature-requests)'],
    ['GET', '/v1/', 'remove the trailing slash (GET /v1)'],
    ['GET', '/v1/nothing-here', 'GET /v1/openapi.json lists every endpoint'],
    ['GET', '/nothing', 'GET /v1/openapi.json lists every endpoint'],
  ];
  for (const [method, route, hint] of cases) {
    await expectError(await server.call(method, route), 404, 'not_found', hint);
  }
  // With another method than the one at /v1: the methods that path answers.
  await expectError(await server.call('DELETE', '/signature-requests'), 404, 'not_found', '/v1/signature-requests (GET, POST)');
});

test('a 404 under a signing link never repeats the token', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  const link = (await activate(server, id)).signers[0]?.signing_url as string;
  const token = new URL(link).pathname.split('/')[2] as string;
  for (const route of [`/sign/${token}/`, `/sign/${token}/api/nothing`, `/embed/${token}/x`, `/v1/sign/${token}`]) {
    const message = await expectError(await server.call('GET', route, { key: null }), 404, 'not_found');
    assert.ok(!message.includes(token), `${route}: ${message}`);
  }
});

test('a method a path does not take is 405 naming the methods it does', async (t) => {
  const server = await useServer(t);
  const response = await server.call('DELETE', '/v1/signature-requests');
  // HEAD is answered wherever GET is.
  assert.equal(response.headers.get('allow'), 'GET, HEAD, POST');
  await expectError(response, 405, 'invalid_request', 'it answers GET, HEAD, POST');
});

test('a malformed path parameter is 404 naming the parameter', async (t) => {
  const server = await useServer(t);
  await expectError(await server.call('GET', '/v1/signature-requests/not-a-uuid'), 404, 'not_found', 'the path parameter id must be a valid uuid');
  const id = await createRequest(server);
  await expectError(await download(server, id, 'signed.pdf'), 404, 'not_found', /type must be one of: signed-pdf, evidence\.pdf, evidence\.json/);
});

test('a JSON body sent with another Content-Type, or none, is 400 saying to send application/json', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  const route = `/v1/signature-requests/${id}/activate`;
  const body = '{"send_emails":false}';
  const cases: Array<[string, RequestInit['body'], Record<string, string>, RegExp]> = [
    // fetch sends a string as text/plain.
    ['fetch with a string body', body, {}, /Content-Type text\/plain;charset=UTF-8 is not accepted/],
    // curl -d sends a form.
    ['curl -d', body, { 'content-type': 'application/x-www-form-urlencoded' }, /Content-Type application\/x-www-form-urlencoded/],
    // fetch sends bytes without a Content-Type.
    ['bytes without a type', new TextEncoder().encode(body), {}, /the body has no Content-Type/],
    [
      'multipart',
      (() => {
        const f = new FormData();
        f.append('send_emails', 'false');
        return f;
      })(),
      {},
      /multipart\/form-data/,
    ],
  ];
  for (const [what, sent, headers, got] of cases) {
    const message = await expectError(await server.call('POST', route, { body: sent, headers }), 400, 'invalid_request', 'Content-Type: application/json');
    assert.match(message, got, what);
  }
  // Nothing happened; sent properly, it works.
  const ok = await server.call('POST', route, { body, headers: { 'content-type': 'application/json' } });
  assert.equal(ok.status, 200, await ok.text());

  await expectError(
    await server.call('POST', `/v1/signature-requests/${UNKNOWN_ID}/cancel`, { body: "{'reason': 'x'}", headers: { 'content-type': 'application/json' } }),
    400,
    'invalid_request',
    /not valid JSON.*double-quoted/,
  );
});

test('the upload calls say how to send their multipart body', async (t) => {
  const server = await useServer(t);
  const pdf = await a4Pdf();
  // The create payload sent as JSON, or as text: multipart with its parts, and a curl line.
  const asJson = await server.call('POST', '/v1/signature-requests', { body: JSON.stringify(payload()), headers: { 'content-type': 'application/json' } });
  assert.match(
    await expectError(asJson, 400, 'invalid_request', 'multipart/form-data'),
    /"document" and "request".*-F "document=@contract\.pdf;type=application\/pdf" -F 'request=…'/,
  );
  const asText = await server.call('POST', '/v1/signature-requests', { body: JSON.stringify(payload()) });
  assert.match(
    await expectError(asText, 400, 'invalid_request', 'Content-Type text/plain'),
    /multipart\/form-data with the parts "document", "request".*-F "document=@/,
  );
  const template = await server.call('POST', '/v1/templates', { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.match(await expectError(template, 400, 'invalid_request', 'multipart/form-data'), /-F 'name=…' -F 'fields=…'/);

  const send = (parts: Parameters<typeof rawMultipart>[0]) => {
    const { body, contentType } = rawMultipart(parts);
    return server.call('POST', '/v1/signature-requests', { body, headers: { 'content-type': contentType } });
  };
  const request = { name: 'request', body: JSON.stringify(payload()) };
  // A PDF part under another name.
  await expectError(
    await send([{ name: 'file', filename: 'contract.pdf', type: 'application/pdf', body: pdf }, request]),
    400,
    'invalid_request',
    'unexpected multipart part "file": this endpoint takes exactly the parts "document" and "request"',
  );
  // The type curl gives a file it does not know, and a file without .pdf.
  await expectError(
    await send([{ name: 'document', filename: 'contract.pdf', type: 'application/octet-stream', body: pdf }, request]),
    400,
    'invalid_document',
    /got application\/octet-stream.*-F "document=@contract\.pdf;type=application\/pdf"/,
  );
  await expectError(
    await send([{ name: 'document', filename: 'contract', type: 'application/pdf', body: pdf }, request]),
    400,
    'invalid_document',
    /\.pdf filename.*-F "document=@contract\.pdf;type=application\/pdf"/,
  );
});

test('the 404 and 409 of the first calls point at the call that helps', async (t) => {
  const server = await useServer(t);
  await expectError(await server.call('GET', `/v1/signature-requests/${UNKNOWN_ID}`), 404, 'not_found', /this API key's account.*GET \/v1\/signature-requests/);
  const other = server.newKey();
  const id = await createRequest(server);
  await expectError(await server.call('GET', `/v1/signature-requests/${id}`, { key: other.apiKey }), 404, 'not_found', /this API key's account/);
  const fromTemplate = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ fields: undefined, template_id: UNKNOWN_ID })) });
  await expectError(fromTemplate, 404, 'template_not_found', /GET \/v1\/templates/);

  // A signer without a field: activation names the call that gives them one.
  const created = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ fields: [] })) });
  assert.equal(created.status, 201, await created.clone().text());
  const bare = (await json<{ id: string }>(created)).id;
  await expectError(
    await postJson(server, `/v1/signature-requests/${bare}/activate`, {}),
    409,
    'request_not_ready',
    `PUT /v1/signature-requests/${bare}/fields`,
  );
});
