// The request log (src/http/hooks/request-log.ts): at `--log-level info`, one line per answered request
// with its method, route pattern, status, error code and request id; never the URL (a signing link's
// token), a header or a key. At the default level (warn) there is no such line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { activate, createRequest } from '../helpers/flows.js';
import { useServer } from '../helpers/server.js';

type Line = Record<string, unknown>;

function keptLog(level: string): { log: pino.Logger; lines: () => Line[]; raw: () => string[] } {
  const text: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { log: pino({ level }, sink), lines: () => text.map((line) => JSON.parse(line) as Line), raw: () => [...text] };
}

test('at info: one line per request with method, route pattern, status, error code and request id; no token, no key', async (t) => {
  const { log, lines } = keptLog('info');
  const server = await useServer(t, {}, {}, { log });
  const id = await createRequest(server);
  const { signers } = await activate(server, id);
  const link = signers[0]?.signing_url as string;
  const got = await server.call('GET', `/v1/signature-requests/${id}`);
  assert.equal(got.status, 200);
  const conflict = await server.call('PUT', `/v1/signature-requests/${id}/fields`, {
    body: JSON.stringify({ fields: [] }),
    headers: { 'content-type': 'application/json' },
  });
  assert.ok(conflict.status >= 400);
  const unauthorized = await server.call('GET', '/v1/signature-requests', { key: 'paraph_test_wrong' });
  assert.equal(unauthorized.status, 401);
  assert.equal((await fetch(link)).status, 200);
  const noRoute = await fetch(`${server.url}/v1/nothing-here/${'x'.repeat(40)}`);
  assert.equal(noRoute.status, 404);

  const requests = lines().filter((line) => line.msg === 'request');
  const of = (response: Response) => requests.find((line) => line.reqId === response.headers.get('x-request-id'));
  assert.deepEqual(
    { ...of(got), time: 0, pid: 0, hostname: '', ms: 0 },
    {
      level: 30,
      time: 0,
      pid: 0,
      hostname: '',
      ms: 0,
      msg: 'request',
      reqId: got.headers.get('x-request-id'),
      method: 'GET',
      route: '/v1/signature-requests/:id',
      status: 200,
      code: null,
    },
  );
  const refused = of(conflict);
  assert.equal(refused?.status, conflict.status);
  assert.equal(refused?.code, ((await conflict.json()) as { error: { code: string } }).error.code);
  assert.equal(refused?.route, '/v1/signature-requests/:id/fields');
  assert.deepEqual([of(unauthorized)?.status, of(unauthorized)?.code, of(unauthorized)?.route], [401, 'unauthorized', '/v1/signature-requests']);
  assert.deepEqual([of(noRoute)?.status, of(noRoute)?.code, of(noRoute)?.route], [404, 'not_found', null]);
  // The signing page's request is logged by its pattern: the token is nowhere in the log, nor any key.
  const token = new URL(link).pathname.split('/').filter(Boolean).pop() as string;
  const everything = JSON.stringify(lines());
  assert.ok(requests.some((line) => typeof line.route === 'string' && line.route.startsWith('/sign/')));
  for (const secret of [token, server.apiKey, 'paraph_test_wrong']) assert.ok(!everything.includes(secret), 'a token or a key in the log');
});

test('at the default level (warn) no request is logged', async (t) => {
  const { log, lines } = keptLog('warn');
  const server = await useServer(t, {}, {}, { log });
  assert.equal((await server.call('GET', '/v1/signature-requests')).status, 200);
  assert.equal((await server.call('GET', '/v1/signature-requests/not-an-id')).status, 404);
  assert.deepEqual(
    lines().filter((line) => line.msg === 'request'),
    [],
  );
});

test("a line about one request names its id once: a dropped upload's line is JSON without a repeated key", async (t) => {
  const { log, raw } = keptLog('info');
  const server = await useServer(t, {}, {}, { log });
  const { hostname, port } = new URL(server.url);
  const socket = net.connect(Number(port), hostname);
  t.after(() => socket.destroy());
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    [
      'POST /v1/signature-requests HTTP/1.1',
      `Host: ${hostname}`,
      `Authorization: Bearer ${server.apiKey}`,
      'Content-Type: multipart/form-data; boundary=cut',
      'Content-Length: 100000',
      '',
      '--cut',
      'Content-Disposition: form-data; name="document"; filename="contract.pdf"',
      'Content-Type: application/pdf',
      '',
      '%PDF-1.7 and the rest never comes',
    ].join('\r\n'),
  );
  await sleep(200);
  socket.destroy();
  const dropped = () => raw().find((line) => line.includes('before its upload ended'));
  for (let waited = 0; dropped() === undefined && waited < 10_000; waited += 20) await sleep(20);
  assert.ok(dropped(), 'the dropped upload is logged');
  for (const line of raw()) assert.ok((line.match(/"reqId"/g) ?? []).length <= 1, `a repeated key: ${line}`);
  assert.equal((dropped()?.match(/"reqId":"req_/g) ?? []).length, 1);
});

test("an Idempotency-Key replay's line names the request id the client got (the first call's) and the replayed error's code", async (t) => {
  const { log, lines } = keptLog('info');
  const server = await useServer(t, {}, {}, { log });
  const id = await createRequest(server);
  await activate(server, id);
  // A keyed PUT /fields on an active request: a 409, kept and replayed.
  const call = () =>
    server.call('PUT', `/v1/signature-requests/${id}/fields`, {
      body: JSON.stringify({ fields: [] }),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'log-replay-1' },
    });
  const first = await call();
  const again = await call();
  assert.ok(first.status >= 400);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  const firstId = first.headers.get('x-request-id');
  assert.equal(again.headers.get('x-request-id'), firstId);
  const code = ((await first.json()) as { error: { code: string } }).error.code;
  const logged = lines().filter((line) => line.msg === 'request' && line.route === '/v1/signature-requests/:id/fields');
  assert.deepEqual(
    logged.map((line) => [line.reqId, line.status, line.code]),
    [
      [firstId, first.status, code],
      [firstId, again.status, code],
    ],
  );
});
