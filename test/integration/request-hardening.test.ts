// The last bad inputs a hostile client can send, each answered in the error envelope and acting on
// nothing: a body that trickles in (408 after --request-timeout), a JSON `null` body, unknown query
// parameters on routes that take none, repeated Authorization / Idempotency-Key headers, CONNECT.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino } from 'pino';
import { createForm, payload } from '../helpers/requests.js';
import { listTemplates, makeTemplate } from '../helpers/templates.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { sleep } from '../helpers/crash-loop.js';
import { createRequest } from '../helpers/flows.js';

type Json = Record<string, any>;

interface RawAnswer {
  status: number;
  head: string;
  body: Json;
}

/** One request written as bytes on a fresh connection; answers the parsed response once the server closes or answers. */
function raw(server: TestServer, request: string, options: { trickle?: { bytes: number; everyMs: number } } = {}): Promise<RawAnswer> {
  const port = Number(new URL(server.url).port);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(timer);
      const at = data.indexOf('\r\n\r\n');
      if (at < 0) return reject(new Error(`no answer: ${JSON.stringify(data.slice(0, 200))}`));
      const head = data.slice(0, at);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? -1);
      const body = data.slice(at + 4, length >= 0 ? at + 4 + length : undefined);
      resolve({ status: Number(head.split(' ')[1]), head, body: body === '' ? {} : (JSON.parse(body) as Json) });
    };
    socket.on('data', (d: Buffer) => {
      data += d.toString('latin1');
      const at = data.indexOf('\r\n\r\n');
      if (at < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(data.slice(0, at))?.[1] ?? -1);
      if (length >= 0 && data.length >= at + 4 + length) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.write(request);
    if (options.trickle) {
      let sent = 0;
      timer = setInterval(() => {
        if (sent++ < options.trickle!.bytes && !socket.destroyed) socket.write(' ');
      }, options.trickle.everyMs);
    }
  });
}

function assertEnvelope(answer: RawAnswer, status: number, message: RegExp): void {
  assert.equal(answer.status, status, `${answer.head}\n${JSON.stringify(answer.body)}`);
  assert.deepEqual(Object.keys(answer.body.error ?? {}).sort(), ['code', 'message', 'request_id']);
  assert.match(answer.body.error.message as string, message);
  assert.match(answer.head, /x-request-id: req_/i);
  // Every 4xx carries Date (RFC 9110 6.6.1), those written before any route too.
  assert.match(answer.head, /^date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r?$/im);
}

async function prepared(server: TestServer, reference: string): Promise<string> {
  const created = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ client_reference: reference })) });
  assert.equal(created.status, 201, await created.clone().text());
  return (await json<Json>(created)).id as string;
}

test('a request body that trickles in is cut off after --request-timeout: 408 in the envelope', async (t) => {
  const server = await useServer(t, { requestTimeout: '2' });
  const started = Date.now();
  const head = [
    'POST /v1/signature-requests HTTP/1.1',
    'Host: 127.0.0.1',
    `Authorization: Bearer ${server.apiKey}`,
    'Content-Type: multipart/form-data; boundary=x',
    `Content-Length: ${8 * 1024 * 1024}`,
    '',
    '',
  ].join('\r\n');
  const answer = await raw(server, head, { trickle: { bytes: 1000, everyMs: 300 } });
  const took = Date.now() - started;
  assertEnvelope(answer, 408, /did not arrive in time/);
  assert.equal(answer.body.error.code, 'invalid_request');
  // A /v1 answer: the key's general bucket, this call counted in it (the first of the key).
  assert.match(answer.head, /x-ratelimit-limit: 120\r\n/i);
  assert.match(answer.head, /x-ratelimit-remaining: 119\r\n/i);
  // A generous bound: the limit is 2 s, checked every second.
  assert.ok(took < 15_000, `cut off after ${took} ms`);
  assert.equal((await server.call('GET', '/v1/signature-requests')).status, 200, 'the server still answers');
});

test('a call in flight when paraph stops is answered, and its keep-alive connection closed with it', async (t) => {
  const server = await useServer(t);
  const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
  t.after(() => socket.destroy());
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  // The head and half of the body: the call has started when the stop comes.
  socket.write(
    [
      'POST /v1/signature-requests/00000000-0000-4000-8000-000000000000/cancel HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${server.apiKey}`,
      'Content-Type: application/json',
      'Content-Length: 2',
      'Connection: keep-alive',
      '',
      '{',
    ].join('\r\n'),
  );
  await sleep(200);
  const stopped = server.running.close();
  await sleep(200);
  socket.write('}');
  await closed;
  await stopped;
  const head = data.slice(0, data.indexOf('\r\n\r\n'));
  assert.match(head, /^HTTP\/1\.1 404 /, head);
  assert.match(head, /\r\nconnection: close\r\n/i, 'the answer ends its connection');
});

test('a JSON body `null` is refused with 400 and the call does not act', async (t) => {
  const server = await useServer(t);
  const id = await prepared(server, 'null-body');
  const headers = { 'content-type': 'application/json' };
  for (const route of [
    `/v1/signature-requests/${id}/activate`,
    `/v1/signature-requests/${id}/cancel`,
    `/v1/signature-requests/${id}/reminders`,
    '/_sandbox/api-keys',
  ]) {
    const answer = await server.call('POST', route, { body: 'null', headers });
    const body = await json<Json>(answer);
    assert.equal(answer.status, 400, `${route}: ${JSON.stringify(body)}`);
    assert.equal(body.error.code, 'invalid_request');
    assert.match(body.error.message as string, /body is null/);
  }
  const current = await json<Json>(await server.call('GET', `/v1/signature-requests/${id}`));
  assert.equal(current.status, 'prepared', 'neither activated nor cancelled');
  const { db } = server.running.ctx;
  assert.equal(db.all(db.q.selectFrom('api_keys').select('id')).length, 1, 'no key made');
});

test('unknown query parameters are refused on every route, not only on the list', async (t) => {
  const server = await useServer(t);
  const id = await prepared(server, 'query');
  for (const [method, route] of [
    ['GET', '/v1/templates?foo=1'],
    ['GET', `/v1/signature-requests/${id}?foo=1`],
    ['GET', `/v1/signature-requests/${id}?expand=signers`],
    ['POST', `/v1/signature-requests/${id}/cancel?force=1`],
    ['GET', '/_sandbox/clock?x=1'],
    ['GET', '/v1?x=1'],
  ] as const) {
    const answer = await server.call(method, route);
    const body = await json<Json>(answer);
    assert.equal(answer.status, 400, `${method} ${route}: ${JSON.stringify(body)}`);
    assert.equal(body.error.code, 'invalid_request');
    assert.match(body.error.message as string, /query/);
  }
  assert.equal((await json<Json>(await server.call('GET', `/v1/signature-requests/${id}`))).status, 'prepared');
});

test('a route that takes no body refuses one that says something (a property, an array, a string), and does not act; {} passes', async (t) => {
  const server = await useServer(t);
  const template = await makeTemplate(server);
  const send = (method: string, route: string, body: string) => server.call(method, route, { headers: { 'content-type': 'application/json' }, body });
  for (const [method, route] of [
    ['DELETE', `/v1/templates/${template.id}`],
    ['DELETE', '/_sandbox/faults'],
    ['POST', '/v1/webhook-deliveries/00000000-0000-4000-8000-000000000000/replay'],
  ] as const) {
    for (const [body, message] of [
      ['{"a":1}', /body has an unknown property "a": this endpoint takes no body/],
      ['[]', /this endpoint takes no body/],
      ['"x"', /this endpoint takes no body/],
    ] as const) {
      const answer = await send(method, route, body);
      const refused = await json<Json>(answer);
      assert.equal(answer.status, 400, `${method} ${route} ${body}: ${JSON.stringify(refused)}`);
      assert.equal(refused.error.code, 'invalid_request');
      assert.match(refused.error.message as string, message);
    }
  }
  assert.deepEqual(
    (await listTemplates(server)).map((listed) => listed.id),
    [template.id],
    'the template is not archived',
  );
  assert.equal((await send('DELETE', `/v1/templates/${template.id}`, '{}')).status, 204);
  assert.deepEqual(await listTemplates(server), [], 'archived by the call with {}');
});

test('a body sent with a Content-Encoding (gzip, br) is refused with 400 naming it, and nothing acts: compressed or not', async (t) => {
  const server = await useServer(t);
  const id = await prepared(server, 'encoded');
  const cancel = JSON.stringify({ reason: 'encoded' });
  for (const [coding, body] of [
    ['gzip', gzipSync(cancel)],
    ['br', Buffer.from(cancel)],
    ['GZIP, identity', Buffer.from(cancel)],
  ] as const) {
    const answer = await server.call('POST', `/v1/signature-requests/${id}/cancel`, {
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
      body: body,
    });
    const refused = await json<Json>(answer);
    assert.equal(answer.status, 400, `${coding}: ${JSON.stringify(refused)}`);
    assert.equal(refused.error.code, 'invalid_request');
    assert.match(refused.error.message as string, new RegExp(`Content-Encoding ${coding} is not taken: send the body unencoded`));
  }
  const form = await createForm(payload({ client_reference: 'encoded-create' }));
  const encodedForm = new Request('http://x/', { method: 'POST', body: form });
  const create = await server.call('POST', '/v1/signature-requests', {
    headers: { 'content-type': encodedForm.headers.get('content-type') as string, 'content-encoding': 'gzip' },
    body: await encodedForm.arrayBuffer(),
  });
  assert.equal(create.status, 400, await create.clone().text());
  const list = await json<{ data: Json[] }>(await server.call('GET', '/v1/signature-requests'));
  assert.deepEqual(
    list.data.map((r) => r.client_reference),
    ['encoded'],
    'no request made',
  );
  assert.equal((await json<Json>(await server.call('GET', `/v1/signature-requests/${id}`))).status, 'prepared', 'not cancelled');
  // `identity` is no coding: taken as it is.
  const plain = await server.call('POST', `/v1/signature-requests/${id}/cancel`, {
    headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    body: cancel,
  });
  assert.equal(plain.status, 200, await plain.clone().text());
});

test('repeated Authorization or Idempotency-Key headers are refused with 400, and nothing acts', async (t) => {
  const server = await useServer(t);
  const id = await prepared(server, 'twice');
  const other = server.newKey(server.accountId).apiKey;
  const get = (extra: string[]) => ['GET /v1/signature-requests HTTP/1.1', 'Host: 127.0.0.1', ...extra, 'Connection: close', '', ''].join('\r\n');
  assertEnvelope(
    await raw(server, get([`Authorization: Bearer ${server.apiKey}`, 'Authorization: Bearer paraph_test_wrong'])),
    400,
    /Authorization header is repeated/,
  );
  assertEnvelope(await raw(server, get([`Authorization: Bearer ${server.apiKey}`, `Authorization: Bearer ${other}`])), 400, /Authorization header is repeated/);
  const activate = [
    `POST /v1/signature-requests/${id}/activate HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${server.apiKey}`,
    'Idempotency-Key: k1',
    'Idempotency-Key: k2',
    'Content-Type: application/json',
    'Content-Length: 2',
    'Connection: close',
    '',
    '{}',
  ].join('\r\n');
  assertEnvelope(await raw(server, activate), 400, /Idempotency-Key header is repeated/);
  assert.equal((await json<Json>(await server.call('GET', `/v1/signature-requests/${id}`))).status, 'prepared', 'not activated');
  // One of each is fine.
  assert.equal((await raw(server, get([`Authorization: Bearer ${server.apiKey}`]))).status, 200);
});

test('CONNECT is answered 405 in the envelope, not by a closed connection', async (t) => {
  const server = await useServer(t);
  for (const target of ['example.com:443', '127.0.0.1:22']) {
    const answer = await raw(server, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    assertEnvelope(answer, 405, /CONNECT is not supported/);
    assert.equal(answer.body.error.code, 'invalid_request');
    assert.match(answer.head, /allow: /i);
  }
  assert.equal((await server.call('GET', '/v1/signature-requests')).status, 200);
});

test("requests Node's HTTP parser refuses (a header over 16 KiB, a space in the path) are answered in the envelope, with Date", async (t) => {
  const server = await useServer(t);
  assertEnvelope(await raw(server, `GET /v1/signature-requests HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`), 431, /header/i);
  assertEnvelope(await raw(server, 'GET /v1/signature requests HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), 400, /./);
});

test('a body its head did not announce (no Content-Length): the call is answered first, with its headers, then the 400 for the bytes left', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  const port = Number(new URL(server.url).port);
  const socket = net.connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
  // What Node's http.request sends for `req.end(body)` on a DELETE or POST: the body without a length.
  socket.write(
    `POST /v1/signature-requests/${id}/cancel HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.apiKey}\r\n` +
      'Content-Type: application/json\r\n\r\n{}',
  );
  await once(socket, 'close');
  const answers = data.split(/(?=HTTP\/1\.1 )/);
  assert.equal(answers.length, 2, data.slice(0, 300));
  assert.match(answers[0] as string, /^HTTP\/1\.1 200 /);
  assert.match(answers[0] as string, /\r\nx-ratelimit-remaining: \d+\r\n/i);
  assert.match(answers[0] as string, /"status":"cancelled"/);
  assert.match(answers[1] as string, /^HTTP\/1\.1 400 /);
  assert.match(answers[1] as string, /"code":"invalid_request"/);
  assert.equal((await json(await server.call('GET', `/v1/signature-requests/${id}`))).status, 'cancelled');
});

test('a client that drops its upload midway is logged at info in one line, never as an error with a stack', async (t) => {
  const lines: Array<{ level: number; msg: string; err?: unknown }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  const server = await useServer(t, {}, {}, { log: pino({ level: 'info' }, sink) });
  const port = Number(new URL(server.url).port);
  for (let i = 0; i < 3; i++) {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      [
        'POST /v1/signature-requests HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${server.apiKey}`,
        'Content-Type: multipart/form-data; boundary=xyz',
        `Content-Length: ${4 * 1024 * 1024}`,
        '',
        '--xyz\r\nContent-Disposition: form-data; name="document"; filename="c.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n',
      ].join('\r\n'),
    );
    socket.write(Buffer.alloc(256 * 1024, 0x20));
    await sleep(300);
    socket.destroy();
  }
  await sleep(1000);
  assert.equal((await server.call('GET', '/v1/signature-requests')).status, 200);
  const bad = lines.filter((l) => l.level >= 40);
  assert.deepEqual(
    bad.map((l) => l.msg),
    [],
    'nothing at warn or error',
  );
  const dropped = lines.filter((l) => /upload/.test(l.msg));
  assert.equal(dropped.length, 3, JSON.stringify(lines));
  for (const line of dropped) {
    assert.equal(line.level, 30, 'info');
    assert.equal(line.err, undefined, 'no error object, no stack');
    assert.doesNotMatch(JSON.stringify(line), /\\n\s+at /);
  }
});
