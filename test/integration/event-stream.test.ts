// Every line: server-sent events held open on the HTTP server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { createApiKey } from '../../src/features/keys/create-api-key.js';
import { revokeApiKey } from '../../src/features/keys/revoke-api-key.js';
import type { SseMessage } from '../../src/platform/server-sent-events.js';
import { paraph } from '../helpers/cli.js';
import { openStream } from '../helpers/event-stream.js';
import { activate, createRequest, postJson } from '../helpers/flows.js';
import { createForm, payload } from '../helpers/requests.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { unknownApiKey } from '../helpers/keys.js';

interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: { signature_request_id: string; client_reference: string; status: string; signer?: { reference: string } };
}

/** Create (no callback URL), activate, expire: signature_request.activated, signer.expired, signature_request.expired. */
async function threeEvents(server: TestServer, key = server.apiKey): Promise<string> {
  const created = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload()), key });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = await json<{ id: string }>(created);
  assert.equal((await postJson(server, `/v1/signature-requests/${id}/activate`, {}, key)).status, 200);
  assert.equal((await postJson(server, `/_sandbox/signature-requests/${id}/expire`, undefined, key)).status, 200);
  return id;
}

function storedPayloads(server: TestServer, requestId: string): string[] {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('events').select('payload').where('request_id', '=', requestId).orderBy('seq', 'asc')).map((e) => e.payload);
}

const eventOf = (message: SseMessage) => JSON.parse(message.data ?? '') as WebhookEvent;

test('the stream carries every event of the account as it is recorded, in order, each with signed webhook headers', async (t) => {
  const server = await useServer(t);
  const secret = server.running.firstKey?.webhook_secret as string;
  const stream = await openStream(t, server.url, { key: server.apiKey });
  assert.equal(stream.response.status, 200);
  assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.equal(stream.response.headers.get('cache-control'), 'no-store');
  assert.ok(stream.response.headers.get('x-request-id'));
  assert.equal(stream.response.headers.get('x-ratelimit-limit'), '120');
  // The opening message: no data (no event), the retry hint, and the position the stream starts after.
  assert.equal(stream.messages[0]?.retry, 2000);
  assert.equal(stream.messages[0]?.data, undefined);
  assert.match(stream.messages[0]?.id ?? '', /^\d+$/);

  // A request without a callback URL: its events are recorded, never delivered, and still streamed.
  const id = await threeEvents(server);
  const messages = await stream.events(3);
  assert.deepEqual(
    messages.map((m) => m.event),
    ['signature_request.activated', 'signer.expired', 'signature_request.expired'],
  );
  const ids = messages.map((m) => Number(m.id));
  assert.ok(
    ids.every((n, i) => Number.isInteger(n) && (i === 0 || n > (ids[i - 1] as number))),
    `increasing ids: ${ids}`,
  );
  // data: the exact bytes a webhook delivery sends, which a Standard Webhooks verifier accepts with the headers.
  assert.deepEqual(
    messages.map((m) => m.data),
    storedPayloads(server, id),
  );
  for (const message of messages) {
    const event = eventOf(message);
    assert.equal(event.type, message.event);
    assert.equal(event.data.signature_request_id, id);
    const headers = message.fields as Record<string, string>;
    assert.equal(headers['webhook-id'], event.id);
    assert.match(headers['webhook-signature'] ?? '', /^v1,[A-Za-z0-9+/=]+$/);
    assert.deepEqual(new Webhook(secret).verify(message.data as string, headers), event);
  }
  assert.equal(eventOf(messages[1] as SseMessage).data.signer?.reference, 'client');
});

test('Last-Event-ID and ?after= resume after the last event seen, with nothing lost or doubled', async (t) => {
  const server = await useServer(t);
  const live = await openStream(t, server.url, { key: server.apiKey });
  await threeEvents(server);
  const all = await live.events(3);
  const [first, second, third] = all.map((m) => m.id as string);

  const byHeader = await openStream(t, server.url, { key: server.apiKey, lastEventId: first });
  assert.deepEqual(
    (await byHeader.events(2)).map((m) => m.id),
    [second, third],
  );
  const byQuery = await openStream(t, server.url, { key: server.apiKey, after: second });
  assert.deepEqual(
    (await byQuery.events(1)).map((m) => m.id),
    [third],
  );
  // The header is what an EventSource sends when it reconnects with its first URL: it wins.
  const both = await openStream(t, server.url, { key: server.apiKey, after: '0', lastEventId: second });
  assert.deepEqual(
    (await both.events(1)).map((m) => m.id),
    [third],
  );
  const fromStart = await openStream(t, server.url, { key: server.apiKey, after: '0' });
  assert.deepEqual(
    (await fromStart.events(3)).map((m) => m.id),
    [first, second, third],
  );

  // A resumed stream goes on with what is recorded next, after its backlog.
  await threeEvents(server);
  const next = await live.events(6);
  assert.deepEqual(
    (await byHeader.events(5)).map((m) => m.id),
    next.slice(1).map((m) => m.id),
  );
  assert.deepEqual(
    (await fromStart.events(6)).map((m) => m.data),
    next.map((m) => m.data),
  );

  // Each stream opens with the position it starts after: the cursor it was given, or the latest position.
  assert.deepEqual(
    [byHeader, byQuery, both, fromStart].map((s) => s.messages[0]?.id),
    [first, second, second, '0'],
  );
  assert.equal(live.messages[0]?.data, undefined);

  for (const bad of ['abc', '-1', '1.5']) {
    const response = await server.call('GET', '/v1/events/stream', { headers: { 'last-event-id': bad } });
    assert.equal(response.status, 400, bad);
    assert.match((await json<{ error: { message: string } }>(response)).error.message, /last-event-id/);
    const query = await server.call('GET', `/v1/events/stream?after=${encodeURIComponent(bad)}`);
    assert.equal(query.status, 400, bad);
  }
});

test('a client that reconnects before any event came resumes at the opening position: the events recorded meanwhile arrive', async (t) => {
  const server = await useServer(t);
  await threeEvents(server);
  const first = await openStream(t, server.url, { key: server.apiKey });
  const opening = first.messages[0]?.id as string;
  first.close();
  // Recorded while the client is away; an EventSource reconnects with the opening id as Last-Event-ID.
  const id = await threeEvents(server);
  const again = await openStream(t, server.url, { key: server.apiKey, lastEventId: opening });
  assert.deepEqual(
    (await again.events(3)).map((m) => m.data),
    storedPayloads(server, id),
  );
});

test("a stream never carries another account's events; another key of the account sees them signed as its deliveries are", async (t) => {
  const server = await useServer(t);
  const other = createApiKey(server.running.ctx);
  const sameAccount = server.newKey(server.accountId);
  const mine = await openStream(t, server.url, { key: server.apiKey });
  const theirs = await openStream(t, server.url, { key: other.api_key });
  const colleague = await openStream(t, server.url, { key: sameAccount.apiKey });

  const myRequest = await threeEvents(server);
  const theirRequest = await threeEvents(server, other.api_key);
  const theirEvents = await theirs.events(3);
  assert.deepEqual(new Set(theirEvents.map((m) => eventOf(m).data.signature_request_id)), new Set([theirRequest]));
  assert.deepEqual(
    theirEvents.map((m) => m.data),
    storedPayloads(server, theirRequest),
  );
  for (const message of theirEvents) new Webhook(other.webhook_secret).verify(message.data as string, message.fields as Record<string, string>);

  const myEvents = await mine.events(3);
  // By now every event of both accounts is on its streams: nothing of the other account came through.
  await colleague.events(3);
  assert.equal(mine.messages.filter((m) => m.data !== undefined).length, 3);
  assert.deepEqual(new Set(myEvents.map((m) => eventOf(m).data.signature_request_id)), new Set([myRequest]));
  // Deliveries of a request are signed with the secret of the key that created it; so is the stream, for every key.
  const secret = server.running.firstKey?.webhook_secret as string;
  for (const message of colleague.messages.filter((m) => m.data !== undefined)) {
    new Webhook(secret).verify(message.data as string, message.fields as Record<string, string>);
  }
  // Resuming from 0 with the other key: still only its own account.
  const replay = await openStream(t, server.url, { key: other.api_key, after: '0' });
  assert.deepEqual(
    (await replay.events(3)).map((m) => m.data),
    storedPayloads(server, theirRequest),
  );
});

test('the stream needs a live API key: 401 in the error envelope, and a revoked key ends its stream', async (t) => {
  const server = await useServer(t);
  for (const key of [null, unknownApiKey()]) {
    const response = await server.call('GET', '/v1/events/stream', { key });
    assert.equal(response.status, 401);
    const body = await json<{ error: { code: string; message: string } }>(response);
    assert.equal(body.error.code, 'unauthorized');
    assert.match(body.error.message, /Authorization: Bearer/);
  }
  const doomed = server.newKey(server.accountId);
  const stream = await openStream(t, server.url, { key: doomed.apiKey });
  revokeApiKey(server.running.ctx, doomed.keyId);
  // It ends with nothing to send: not at the next event, nor at the next 15 s heartbeat.
  const heartbeat = new Promise<string>((resolve) => setTimeout(resolve, 10_000, 'still open').unref());
  assert.equal(await Promise.race([stream.ended.then(() => 'ended'), heartbeat]), 'ended');
  await threeEvents(server);
  assert.equal(stream.messages.filter((m) => m.data !== undefined).length, 0);
  assert.equal((await server.call('GET', '/v1/events/stream', { key: doomed.apiKey })).status, 401);
});

test('an event recorded by a CLI process on the same data directory reaches the stream', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  await activate(server, id);
  const stream = await openStream(t, server.url, { key: server.apiKey });
  const expired = await paraph(['expire', id, '--data-dir', server.dataDir]);
  assert.equal(expired.code, 0, expired.stderr);
  const messages = await stream.events(2);
  assert.deepEqual(
    messages.map((m) => m.event),
    ['signer.expired', 'signature_request.expired'],
  );
  assert.deepEqual(
    messages.map((m) => m.data),
    storedPayloads(server, id).slice(1),
  );
});

test('closing the server ends open streams instead of waiting for them', async (t) => {
  const server = await useServer(t);
  const streams = [await openStream(t, server.url, { key: server.apiKey }), await openStream(t, server.url, { key: server.apiKey, after: '0' })];
  await server.running.close();
  await Promise.all(streams.map((s) => s.ended));
});

test('the OpenAPI document describes the stream: text/event-stream, Last-Event-ID and after', async (t) => {
  const server = await useServer(t);
  const doc = await json<Record<string, any>>(await server.call('GET', '/v1/openapi.json', { key: null }));
  const operation = doc.paths['/v1/events/stream'].get;
  assert.deepEqual(operation.security, [{ bearerAuth: [] }]);
  assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '400', '401', '429', '500', '503']);
  const ok = operation.responses['200'];
  assert.deepEqual(Object.keys(ok.content), ['text/event-stream']);
  assert.match(ok.content['text/event-stream'].schema.description, /webhook-signature/);
  assert.deepEqual(
    operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
    ['query:after', 'header:last-event-id'],
  );
  const index = await json<{ links: Record<string, string> }>(await server.call('GET', '/v1', { key: null }));
  assert.equal(index.links.event_stream, '/v1/events/stream');
});
