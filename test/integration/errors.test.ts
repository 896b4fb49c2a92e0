import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { a4Pdf, createForm, payload, rawMultipart } from '../helpers/requests.js';
import { json, useServer } from '../helpers/server.js';

type Envelope = { error: { code: string; message: string; request_id: string } };

async function expectError(response: Response, status: number, code: string): Promise<Envelope['error']> {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = await json<Envelope>(response);
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'request_id']);
  assert.equal(body.error.code, code);
  assert.ok(body.error.message.length > 0);
  assert.match(body.error.request_id, /^req_[0-9A-Za-z]+$/);
  assert.equal(response.headers.get('x-request-id'), body.error.request_id);
  return body.error;
}

test('unknown routes answer 404 not_found, a known path with another method 405 invalid_request', async (t) => {
  const server = await useServer(t);
  await expectError(await server.call('GET', '/v1/nothing-here'), 404, 'not_found');
  await expectError(await server.call('GET', '/nothing'), 404, 'not_found');
  const wrong = await server.call('DELETE', '/v1/signature-requests');
  await expectError(wrong, 405, 'invalid_request');
  assert.match(wrong.headers.get('allow') ?? '', /GET/);
  await expectError(await server.call('PATCH', '/v1/signature-requests/00000000-0000-4000-8000-000000000000'), 405, 'invalid_request');
});

test('a malformed id in a path is 404 not_found; a well-formed unknown one too', async (t) => {
  const server = await useServer(t);
  await expectError(await server.call('GET', '/v1/signature-requests/not-a-uuid'), 404, 'not_found');
  await expectError(await server.call('GET', '/v1/signature-requests/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
  // Longer than the router's default parameter limit (100 characters): still a malformed id.
  for (const length of [101, 1_000, 12_000]) {
    const id = 'x'.repeat(length);
    await expectError(await server.call('GET', `/v1/signature-requests/${id}`), 404, 'not_found');
    await expectError(await server.call('DELETE', `/v1/templates/${id}`), 404, 'not_found');
    await expectError(await server.call('POST', `/v1/signature-requests/${id}/activate`), 404, 'not_found');
  }
});

test('a multipart boundary longer than the 70 characters of RFC 2046 is 400 invalid_request naming the boundary', async (t) => {
  const server = await useServer(t);
  const pdf = await a4Pdf();
  const create = (boundary: string) => {
    const { body, contentType } = rawMultipart(
      [
        { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: pdf },
        { name: 'request', body: JSON.stringify(payload()) },
      ],
      boundary,
    );
    return server.call('POST', '/v1/signature-requests', { body, headers: { 'content-type': contentType } });
  };
  for (const length of [71, 257, 1_000]) {
    const error = await expectError(await create('b'.repeat(length)), 400, 'invalid_request');
    assert.match(error.message, new RegExp(`boundary .*${length} characters.*1 to 70`));
  }
  await expectError(
    await server.call('POST', '/v1/signature-requests', { body: 'x', headers: { 'content-type': 'multipart/form-data' } }),
    400,
    'invalid_request',
  );
  // 70 characters is the longest allowed, and works.
  assert.equal((await create('b'.repeat(70))).status, 201);
});

test('bad JSON and unsupported content types answer 400, oversized bodies 413, in the envelope', async (t) => {
  const server = await useServer(t);
  const create = (body: RequestInit['body'], type: string) => server.call('POST', '/v1/signature-requests', { body, headers: { 'content-type': type } });
  await expectError(await create('{"client_reference":', 'application/json'), 400, 'invalid_request');
  await expectError(await create('hello', 'text/plain'), 400, 'invalid_request');
  await expectError(await create('x'.repeat(2 * 1024 * 1024), 'application/json'), 413, 'invalid_request');
  await expectError(await create('--broken\r\nnot multipart', 'multipart/form-data; boundary=broken'), 400, 'invalid_request');
});

test('an unexpected failure answers a generic 500 internal_error and stores nothing', async (t) => {
  const server = await useServer(t, {}, {}, { expectedErrors: /^request failed: ENOTDIR/ });
  // Make the blob store unwritable: its directory becomes a plain file.
  const blobs = path.join(server.dataDir, 'blobs');
  fs.rmSync(blobs, { recursive: true, force: true });
  fs.writeFileSync(blobs, 'not a directory');
  const error = await expectError(
    await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ client_reference: 'boom' })) }),
    500,
    'internal_error',
  );
  assert.equal(error.message, 'the request could not be completed');
  assert.doesNotMatch(error.message, /ENOTDIR|blobs/);
  const list = await json<{ data: unknown[] }>(await server.call('GET', '/v1/signature-requests'));
  assert.deepEqual(list.data, []);
});

/** Sends a request over a raw socket, writing the whole body before reading; answers what came back. */
function rawExchange(port: number, head: string, bodySize: number): Promise<{ answer: string; writeError: string | null; written: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let writeError: string | null = null;
    let written = 0;
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (writeError = e.code ?? e.message));
    socket.on('close', () => resolve({ answer, writeError, written }));
    socket.write(head);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (written < bodySize) {
        const n = Math.min(chunk.length, bodySize - written);
        written += n;
        if (!socket.write(chunk.subarray(0, n))) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

test('a 12 MB JSON body from a client that writes it all before reading: the client reads a 413 envelope, no EPIPE', async (t) => {
  const server = await useServer(t);
  const port = Number(new URL(server.url).port);
  const size = 12 * 1024 * 1024;
  for (const route of ['/v1/signature-requests/00000000-0000-4000-8000-000000000000/activate', '/v1/signature-requests']) {
    const head = [
      `POST ${route} HTTP/1.1`,
      'Host: 127.0.0.1',
      `Authorization: Bearer ${server.apiKey}`,
      'Content-Type: application/json',
      `Content-Length: ${size}`,
      '',
      '',
    ].join('\r\n');
    const { answer, writeError, written } = await rawExchange(port, head, size);
    assert.equal(writeError, null, `${route}: the client could not finish writing`);
    assert.equal(written, size);
    assert.match(answer, /^HTTP\/1\.1 413 /, route);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Envelope;
    assert.equal(body.error.code, 'invalid_request');
    assert.match(body.error.message, /too large/);
  }
  // The server still answers.
  assert.equal((await server.call('GET', '/v1/signature-requests')).status, 200);
});
