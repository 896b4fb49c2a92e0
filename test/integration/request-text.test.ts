// Text and ids at their encoding edges: what a request carries is what paraph stores and compares. Text that is not
// well-formed (a lone surrogate, bytes that are not UTF-8) is refused instead of being stored as U+FFFD, where two
// different values would become one; a UUID in a body or a query is read whatever its case, as in a path; an email's
// parts keep RFC 5321's limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { expectError } from '../helpers/errors.js';
import { postCreate } from '../helpers/flows.js';
import { payload, rawMultipart, a4Pdf } from '../helpers/requests.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { CLIENT, makeTemplate, postJson, WITNESS } from '../helpers/templates.js';

const REQUESTS = '/v1/signature-requests';

async function requestCount(server: TestServer): Promise<number> {
  const listed = await json<{ data: unknown[] }>(await server.call('GET', `${REQUESTS}?limit=100`));
  return listed.data.length;
}

/** A create call whose `request` part is these exact bytes (FormData would re-encode them). */
async function createWithRequestBytes(server: TestServer, bytes: Buffer): Promise<Response> {
  const { body, contentType } = rawMultipart([
    { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: await a4Pdf() },
    { name: 'request', filename: 'request.json', type: 'application/json', body: bytes },
  ]);
  return server.call('POST', REQUESTS, { body, headers: { 'content-type': contentType } });
}

test('a lone surrogate is refused wherever text goes: two different values never become one stored value', async (t) => {
  const server = await useServer(t);
  // JSON escapes that decode to a lone UTF-16 surrogate: valid JSON, not well-formed text.
  const loneHigh = `{"client_reference":"x-\\ud800",${JSON.stringify(payload())
    .slice(1)
    .replace(/"client_reference":"[^"]*",/, '')}`;
  for (const [label, response] of [
    ['client_reference', await createWithRequestBytes(server, Buffer.from(loneHigh))],
    [
      'signer references',
      await postCreate(server, {
        ...payload(),
        signers: [
          { reference: 'r\ud800', name: 'Ada Lovelace', email: 'ada@example.com' },
          { reference: 'r\udbff', name: 'Bob Witness', email: 'bob@example.com' },
        ],
        fields: [{ signer_reference: 'r\ud800', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 }],
      }),
    ],
  ] as const) {
    const message = await expectError(response, 400, 'invalid_request');
    assert.match(message, /^request\.(client_reference|signers\[0\]\.reference) is not well-formed text: it holds a lone UTF-16 surrogate/, label);
  }
  assert.equal(await requestCount(server), 0, 'nothing was created');

  // In a JSON body: the cancel reason of a real request.
  const created = await postCreate(server, payload());
  assert.equal(created.status, 201);
  const { id } = await json<{ id: string }>(created);
  const cancel = await server.call('POST', `${REQUESTS}/${id}/cancel`, {
    body: '{"reason":"\\udfff"}',
    headers: { 'content-type': 'application/json' },
  });
  assert.match(await expectError(cancel, 400, 'invalid_request'), /^body\.reason is not well-formed text/);
  const after = await json<{ status: string }>(await server.call('GET', `${REQUESTS}/${id}`));
  assert.equal(after.status, 'prepared', 'the refused cancel changed nothing');
});

test('bytes that are not UTF-8 are refused, in a JSON body and in a multipart JSON part', async (t) => {
  const server = await useServer(t);
  const created = await postCreate(server, payload());
  const { id } = await json<{ id: string }>(created);
  const latin1 = Buffer.concat([Buffer.from('{"reason":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
  const cancel = await server.call('POST', `${REQUESTS}/${id}/cancel`, { body: latin1, headers: { 'content-type': 'application/json' } });
  assert.match(await expectError(cancel, 400, 'invalid_request'), /^body is not valid UTF-8/);

  // Two different invalid bytes in a client_reference: without the check both were stored as U+FFFD, and the second
  // create was answered as a replay of the first.
  for (const byte of [0xff, 0xfe]) {
    const bytes = Buffer.from(JSON.stringify(payload({ client_reference: 'y-@' })).replace('y-@', `y-${String.fromCharCode(byte)}`), 'latin1');
    const message = await expectError(await createWithRequestBytes(server, bytes), 400, 'invalid_request');
    assert.match(message, /^request\.client_reference is not well-formed text/);
  }
  assert.equal(await requestCount(server), 1);
  // Text that is UTF-8 passes, whatever its script.
  const accents = await postCreate(server, payload({ client_reference: 'café-東京-🖋' }));
  assert.equal(accents.status, 201, await accents.clone().text());
  assert.equal((await json<{ client_reference: string }>(accents)).client_reference, 'café-東京-🖋');
});

test('a UUID written in capitals in a body or a query names the same resource, as in a path', async (t) => {
  const server = await useServer(t);
  const template = await makeTemplate(server);
  const upper = template.id.toUpperCase();
  const fromTemplate = await postCreate(server, { client_reference: 'tpl-upper', template_id: upper, signers: [CLIENT, WITNESS] });
  assert.equal(fromTemplate.status, 201, await fromTemplate.clone().text());
  const created = await json<{ id: string; template_id: string }>(fromTemplate);
  assert.equal(created.template_id, template.id, 'answered as stored, in lower case');

  const bulk = await postJson(server, '/v1/bulk-sends', { template_id: upper, recipients: [{ client_reference: 'bulk-upper', signers: [CLIENT, WITNESS] }] });
  assert.equal(bulk.status, 200, await bulk.clone().text());
  const batch = await json<{ template_id: string; created: number }>(bulk);
  assert.deepEqual([batch.template_id, batch.created], [template.id, 1]);

  await server.call('POST', `${REQUESTS}/${created.id}/activate`, { body: '{}', headers: { 'content-type': 'application/json' } });
  const list = async (requestId: string) =>
    (await json<{ data: Array<{ id: string }> }>(await server.call('GET', `/v1/webhook-deliveries?signature_request_id=${requestId}`))).data.length;
  assert.equal(await list(created.id.toUpperCase()), await list(created.id));
  // A client_reference shaped like a UUID is the caller's text: kept as sent.
  const shaped = await postCreate(server, payload({ client_reference: upper }));
  assert.equal((await json<{ client_reference: string }>(shaped)).client_reference, upper);
});

test("an email's local part and domain labels keep RFC 5321's limits (64 and 63)", async (t) => {
  const server = await useServer(t);
  const withEmail = (email: string) => postCreate(server, payload({ signers: [{ reference: 'client', name: 'Ada Lovelace', email, order: 1 }] }));
  for (const email of [`${'a'.repeat(64)}@example.com`, `a@${'b'.repeat(63)}.com`]) {
    const response = await withEmail(email);
    assert.equal(response.status, 201, `${email}: ${await response.clone().text()}`);
  }
  for (const email of [`${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(64)}.com`]) {
    assert.match(await expectError(await withEmail(email), 400, 'invalid_request'), /request\.signers\[0\]\.email must (be|match) .*email/);
  }
});

test('a path whose percent-escapes do not decode to UTF-8 text is a 400 that says so', async (t) => {
  const server = await useServer(t);
  for (const [method, route] of [
    ['GET', `${REQUESTS}/%FF`],
    ['GET', `${REQUESTS}/%ZZ`],
    ['POST', `${REQUESTS}/00000000-0000-4000-8000-000000000000/signers/%ED%A0%80/replace`],
  ] as const) {
    const response = await server.call(method, route, method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {});
    assert.match(
      await expectError(response, 400, 'invalid_request'),
      /^the path does not decode: a percent-escape in it is incomplete or is not UTF-8 text/,
      route,
    );
  }
});

test('a page file path that leaves its folder or holds a NUL byte is a 400 that says so', async (t) => {
  const server = await useServer(t);
  // (node:http sends the path as written: fetch would resolve the dots first.)
  const get = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get(`${server.url}${path}`, { path }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
  for (const path of ['/signing-ui/./../package.json', '/vendor/%2e%2e/%2e%2e/package.json', '/vendor/pdf.min.mjs%00.js']) {
    const { status, body } = await get(path);
    assert.equal(status, 400, path);
    assert.match(JSON.parse(body).error.message, /^this file path cannot be served: it leaves its folder, or holds a NUL byte/, path);
  }
  assert.equal((await get('/signing-ui/app.js')).status, 200);
});
