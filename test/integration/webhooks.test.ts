import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { resolveConfig } from '../../src/platform/config.js';
import { createLog } from '../../src/platform/log.js';
import { startParaph } from '../../src/server.js';
import { webhookSecretOf } from '../../src/features/keys/create-api-key.js';
import { activate, advance, createRequest, DAY, dispatcherCaughtUp, eventsOf, postCreate, postJson } from '../helpers/flows.js';
import { sleep, waitUntil as waitFor } from '../helpers/wait.js';
import { closedPort, useReceiver, type Received } from '../helpers/receiver.js';
import { createForm, payload } from '../helpers/requests.js';
import { json, useServer, useTmpDir, type TestServer } from '../helpers/server.js';
import { DELIVERY_KEYS } from '../helpers/answer-keys.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const LADDER = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR];

interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, any>;
}

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  signature_request_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  payload: WebhookEvent;
}

const waitUntil = <T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000) =>
  waitFor(what, probe, timeoutMs, 25);

async function list(server: TestServer, query: string, key?: string): Promise<{ status: number; body: any }> {
  const response = await server.call('GET', `/v1/webhook-deliveries${query ? `?${query}` : ''}`, key === undefined ? {} : { key });
  return { status: response.status, body: await response.json() };
}

async function deliveriesOf(server: TestServer, requestId: string, key?: string): Promise<Delivery[]> {
  const { status, body } = await list(server, `signature_request_id=${requestId}&limit=100`, key);
  assert.equal(status, 200, JSON.stringify(body));
  return (body as { data: Delivery[] }).data;
}

/** The request's only delivery (for requests with one event so far). */
async function onlyDelivery(server: TestServer, requestId: string): Promise<Delivery> {
  const all = await deliveriesOf(server, requestId);
  assert.equal(all.length, 1, JSON.stringify(all));
  return all[0] as Delivery;
}

async function replay(server: TestServer, deliveryId: string, key?: string): Promise<{ status: number; body: any }> {
  const response = await postJson(server, `/v1/webhook-deliveries/${deliveryId}/replay`, undefined, key);
  return { status: response.status, body: await response.json() };
}

function headersOf(received: Received): Record<string, string> {
  return Object.fromEntries(Object.entries(received.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Verifies with the Standard Webhooks library (signature and timestamp tolerance) and answers the event. */
function verify(received: Received, secret: string): WebhookEvent {
  return new Webhook(secret).verify(received.body, headersOf(received)) as WebhookEvent;
}

function storedPayload(server: TestServer, eventId: string): string {
  const { db } = server.running.ctx;
  const row = db.first(db.q.selectFrom('events').select('payload').where('id', '=', eventId));
  assert.ok(row, `event ${eventId} is stored`);
  return row.payload;
}

function secretOfKey(server: TestServer, keyId: string): string {
  const { db } = server.running.ctx;
  const row = db.first(db.q.selectFrom('api_keys').select(['id', 'webhook_secret_sealed']).where('id', '=', keyId));
  assert.ok(row);
  return webhookSecretOf(server.running.ctx, row);
}

function attemptsOf(server: TestServer, deliveryId: string) {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('number', 'asc'));
}

const sandboxNow = (server: TestServer) => server.running.ctx.clock.now();

function near(actual: number, expected: number, slackMs: number, what: string) {
  assert.ok(
    Math.abs(actual - expected) <= slackMs,
    `${what}: ${new Date(actual).toISOString()} is not within ${slackMs} ms of ${new Date(expected).toISOString()}`,
  );
}

async function expectError(response: { status: number; body: any }, status: number, code: string) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.error?.code, code, JSON.stringify(response.body));
}

/** A request with this callback URL, activated: its one delivery once the first attempt is recorded. */
async function firstAttempt(server: TestServer, callbackUrl: string): Promise<Delivery> {
  const id = await createRequest(server, { callback_url: callbackUrl });
  await activate(server, id);
  return waitUntil('the attempt to be recorded', async () => {
    const d = await onlyDelivery(server, id);
    return d.attempt_count === 1 && d;
  });
}

async function loopbackServer(t: TestContext, flags: Record<string, string | boolean> = {}) {
  // Warmed at start, as serve is: the tests time deliveries right after activation, which warms it otherwise.
  return useServer(t, { allowLoopbackWebhooks: true, ...flags }, {}, { warmUp: true });
}

// Each test has its own server and receivers; most of their time is spent waiting on receivers and
// timeouts, so they run side by side.
describe('webhooks', { concurrency: 4 }, () => {
  // ---------------------------------------------------------------------------------------------
  // Signing, headers, bytes, event types

  test('every event type is delivered once, signed with the secret of the key that created the request, as the stored bytes', async (t) => {
    const server = await loopbackServer(t);
    const receiver = await useReceiver(t);
    const first = server.running.firstKey;
    assert.ok(first);
    const firstSecret = first.webhook_secret;
    // K2: another account. K3: a second key of the first account, which creates R1 (the first key then drives it).
    const k2 = server.newKey();
    const k3 = server.newKey(server.accountId);
    const k2Secret = secretOfKey(server, k2.keyId);
    const k3Secret = secretOfKey(server, k3.keyId);
    assert.match(k2Secret, /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);
    assert.equal(new Set([firstSecret, k2Secret, k3Secret]).size, 3);

    const r1 = await createRequest(server, { callback_url: receiver.url, client_reference: 'wh-r1' }, { key: k3.apiKey, signers: 2 });
    const activated = await activate(server, r1, {}, server.apiKey);
    const oldS1 = activated.signers.find((s) => s.reference === 's1');
    assert.ok(oldS1);
    const replaced = await postJson(server, `/v1/signature-requests/${r1}/signers/s1/replace`, { email: 'new.s1@example.com', name: 'New One' });
    assert.equal(replaced.status, 200, await replaced.clone().text());
    const newS1 = (await json<{ signer: { id: string } }>(replaced)).signer;
    const cancelled = await postJson(server, `/v1/signature-requests/${r1}/cancel`, { reason: 'testing' });
    assert.equal(cancelled.status, 200, await cancelled.clone().text());

    const r2 = await createRequest(server, { callback_url: receiver.url, client_reference: 'wh-r2' }, { key: k2.apiKey, signers: 2 });
    const r2Signers = (await activate(server, r2, {}, k2.apiKey)).signers;
    await receiver.waitFor(4);
    // Expiry events are written and sent during the advance, before it answers.
    await advance(server, 8 * DAY);
    assert.equal(receiver.received.length, 7, 'the three expiry events were sent before the advance answered');
    await dispatcherCaughtUp(server, await useReceiver(t, '/marker'));
    assert.equal(receiver.received.length, 7, 'each event is sent once');

    const secretOfRequest: Record<string, { mine: string; others: string[] }> = {
      [r1]: { mine: k3Secret, others: [firstSecret, k2Secret] },
      [r2]: { mine: k2Secret, others: [firstSecret, k3Secret] },
    };
    const byRequest: Record<string, WebhookEvent[]> = { [r1]: [], [r2]: [] };
    for (const received of receiver.received) {
      const body = JSON.parse(received.body) as WebhookEvent;
      const requestId = body.data.signature_request_id as string;
      const secrets = secretOfRequest[requestId];
      assert.ok(secrets, `unexpected request ${requestId}`);
      const event = verify(received, secrets.mine);
      for (const other of secrets.others) assert.throws(() => verify(received, other), /signature/i, 'another key’s secret must not verify');
      // Headers.
      const id = received.headers['webhook-id'];
      const timestamp = received.headers['webhook-timestamp'];
      const signature = received.headers['webhook-signature'];
      assert.equal(id, event.id);
      assert.match(event.id, /^evt_/);
      assert.match(String(timestamp), /^\d+$/);
      assert.ok(Math.abs(Number(timestamp) - received.at / 1000) <= 5, `webhook-timestamp ${timestamp} is real time (even after the clock moved 8 days)`);
      assert.match(String(signature), /^v1,[A-Za-z0-9+/]{43}=$/);
      const key = Buffer.from(secrets.mine.slice('whsec_'.length), 'base64');
      const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`).digest('base64');
      assert.equal(signature, `v1,${expected}`);
      assert.equal(received.headers['content-type'], 'application/json');
      // The body is exactly the stored event.
      assert.equal(received.body, storedPayload(server, event.id));
      assert.deepEqual(Object.keys(event).sort(), ['created_at', 'data', 'id', 'type']);
      assert.ok(!Number.isNaN(Date.parse(event.created_at)));
      byRequest[requestId]?.push(event);
    }

    // The webhook-id is the delivery's event_id.
    const r1Deliveries = await deliveriesOf(server, r1);
    const r2Deliveries = await deliveriesOf(server, r2, k2.apiKey);
    for (const d of [...r1Deliveries, ...r2Deliveries]) {
      assert.equal(d.status, 'delivered');
      assert.equal(d.payload.id, d.event_id);
      assert.ok(receiver.received.some((r) => r.headers['webhook-id'] === d.event_id));
    }
    // Every recorded event was delivered exactly once.
    const sorted = (ids: string[]) => [...ids].sort();
    for (const requestId of [r1, r2]) {
      const { db } = server.running.ctx;
      const stored = db.all(db.q.selectFrom('events').select('id').where('request_id', '=', requestId)).map((e) => e.id);
      assert.deepEqual(sorted((byRequest[requestId] ?? []).map((e) => e.id)), sorted(stored));
    }

    const one = (requestId: string, type: string) => {
      const found = (byRequest[requestId] ?? []).filter((e) => e.type === type);
      assert.equal(found.length, 1, `${type} once`);
      return found[0] as WebhookEvent;
    };
    const base1 = { signature_request_id: r1, client_reference: 'wh-r1' };
    const base2 = { signature_request_id: r2, client_reference: 'wh-r2' };
    assert.deepEqual(one(r1, 'signature_request.activated').data, { ...base1, status: 'active' });
    assert.deepEqual(one(r1, 'signer.replaced').data, {
      ...base1,
      status: 'active',
      signer: { id: newS1.id, reference: 's1', email: 'new.s1@example.com', status: 'pending' },
      replaced_signer: { id: oldS1.id, reference: 's1', email: 's1@example.com', status: 'pending' },
    });
    assert.deepEqual(one(r1, 'signature_request.cancelled').data, { ...base1, status: 'cancelled' });
    assert.deepEqual(one(r2, 'signature_request.activated').data, { ...base2, status: 'active' });
    const expiredSigners = (byRequest[r2] ?? []).filter((e) => e.type === 'signer.expired');
    assert.equal(expiredSigners.length, 2);
    assert.deepEqual(
      expiredSigners.map((e) => e.data.signer).sort((a, b) => a.reference.localeCompare(b.reference)),
      r2Signers.map((s) => ({ id: s.id, reference: s.reference, email: `${s.reference}@example.com`, status: 'expired' })),
    );
    for (const e of expiredSigners) {
      assert.deepEqual(Object.keys(e.data).sort(), ['client_reference', 'signature_request_id', 'signer', 'status']);
      assert.equal(e.data.signature_request_id, r2);
      // Both links expired in the change that expired the request: each signer.expired carries the status the
      // request has after it, as the last signer.completed carries `completed` (the request's own event follows).
      assert.equal(e.data.status, 'expired');
    }
    assert.deepEqual(one(r2, 'signature_request.expired').data, { ...base2, status: 'expired' });
  });

  test('a request without callback_url records its events but has no delivery and sends nothing', async (t) => {
    const server = await loopbackServer(t);
    const receiver = await useReceiver(t);
    const quiet = await createRequest(server, {});
    const loud = await createRequest(server, { callback_url: receiver.url });
    await activate(server, quiet);
    await postJson(server, `/v1/signature-requests/${quiet}/cancel`, {});
    await activate(server, loud);
    // The loud request's event is due after the quiet one's would be: once it arrived and the attempts
    // in flight are done (an advance answers only then), anything sent for the quiet one has arrived too.
    await receiver.waitFor(1);
    await advance(server, SECOND);
    assert.deepEqual(
      eventsOf(server, quiet).map((e) => e.type),
      ['signature_request.activated', 'signature_request.cancelled'],
    );
    const { db } = server.running.ctx;
    assert.equal(db.all(db.q.selectFrom('webhook_deliveries').select('id').where('request_id', '=', quiet)).length, 0);
    assert.deepEqual(await deliveriesOf(server, quiet), []);
    assert.equal(receiver.received.length, 1, 'only the request with a callback was sent');
    assert.equal(JSON.parse(receiver.received[0]?.body ?? '{}').data.signature_request_id, loud);
  });

  // ---------------------------------------------------------------------------------------------
  // Retries

  /** Moves the clock to just before `at` (nothing may be sent), then just past it; answers the new sandbox time. */
  async function stepOver(server: TestServer, at: number, received: () => number, label: string): Promise<void> {
    const count = received();
    const gap = at - sandboxNow(server);
    const short = Math.floor(gap / SECOND) - 2;
    assert.ok(short > 0, `${label}: ${gap} ms left`);
    // The advance sends every attempt due by its new time, and waits for those in flight, before it answers.
    await advance(server, short * SECOND);
    assert.equal(received(), count, `${label}: nothing is sent before the retry is due`);
    await advance(server, 3 * SECOND);
    assert.equal(received(), count + 1, `${label}: the retry is sent during the advance that reaches it`);
  }

  test('retry ladder on the sandbox clock: +1 min, +5 min, +30 min, +2 h, then failed', async (t) => {
    const server = await loopbackServer(t);
    const receiver = await useReceiver(t);
    receiver.respond({ status: 500 });
    const id = await createRequest(server, { callback_url: receiver.url });
    const activatedAt = Date.now();
    await activate(server, id);
    await receiver.waitFor(1, 2000);
    assert.ok((receiver.received[0]?.at ?? Infinity) - activatedAt < 1500, 'the first attempt is sent within about a second');
    let delivery = await waitUntil('the first attempt to be recorded', async () => {
      const d = await onlyDelivery(server, id);
      return d.attempt_count === 1 && d;
    });
    assert.equal(delivery.status, 'pending');
    assert.equal(delivery.last_status_code, 500);
    assert.equal(typeof delivery.last_error, 'string');
    assert.match(delivery.last_error ?? '', /500/);
    assert.equal(delivery.delivered_at, null);
    const attemptSandboxTime = (receiver.received[0]?.at ?? 0) + server.running.ctx.clock.offsetMs();
    near(Date.parse(delivery.next_attempt_at ?? ''), attemptSandboxTime + MINUTE, 1500, 'next attempt one minute after the first');

    const secret = server.running.firstKey?.webhook_secret ?? '';
    const count = () => receiver.received.length;
    for (const [i, wait] of LADDER.entries()) {
      const attempts = attemptsOf(server, delivery.id);
      const last = attempts[attempts.length - 1];
      assert.ok(last);
      assert.equal(Date.parse(delivery.next_attempt_at ?? ''), last.attempted_at + wait, `retry ${i + 1} is ${wait / MINUTE} min after attempt ${i + 1}`);
      await stepOver(server, Date.parse(delivery.next_attempt_at ?? ''), count, `retry ${i + 1}`);
      delivery = await onlyDelivery(server, id);
      assert.equal(delivery.attempt_count, i + 2);
      assert.equal(delivery.last_status_code, 500);
    }
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.next_attempt_at, null);
    assert.equal(delivery.delivered_at, null);
    await advance(server, DAY); // a sixth attempt would fall due within the day: sent before the advance answers
    assert.equal(receiver.received.length, 5, 'nothing after the fifth attempt');
    assert.equal((await onlyDelivery(server, id)).attempt_count, 5);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    assert.deepEqual([...ids], [delivery.event_id], 'the same webhook-id on every attempt');
    for (const r of receiver.received) verify(r, secret);
  });

  test('one advance of 3 h runs every remaining retry, in order, before it answers', async (t) => {
    const server = await loopbackServer(t);
    const receiver = await useReceiver(t);
    receiver.respond({ status: 503 });
    const id = await createRequest(server, { callback_url: receiver.url });
    await activate(server, id);
    await receiver.waitFor(1);
    const first = await waitUntil('the first attempt to be recorded', async () => {
      const d = await onlyDelivery(server, id);
      return d.attempt_count === 1 && d;
    });
    await advance(server, 3 * HOUR);
    assert.equal(receiver.received.length, 5, 'every retry ran before the advance answered');
    const delivery = await onlyDelivery(server, id);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempt_count, 5);
    assert.equal(delivery.next_attempt_at, null);
    const attempts = attemptsOf(server, first.id);
    assert.deepEqual(
      attempts.map((a) => a.trigger),
      ['automatic', 'automatic', 'automatic', 'automatic', 'automatic'],
    );
    for (const [i, wait] of LADDER.entries()) {
      const gap = (attempts[i + 1]?.attempted_at ?? 0) - (attempts[i]?.attempted_at ?? 0);
      assert.ok(gap >= wait && gap < wait + 2000, `attempt ${i + 2} came ${gap} ms after attempt ${i + 1}, expected ${wait}`);
    }
    assert.deepEqual([...new Set(receiver.received.map((r) => r.headers['webhook-id']))], [delivery.event_id]);
    const secret = server.running.firstKey?.webhook_secret ?? '';
    for (const r of receiver.received) verify(r, secret);
  });

  test('a 2xx answer stops the retries', async (t) => {
    const server = await loopbackServer(t);
    const receiver = await useReceiver(t);
    receiver.respond({ status: 500 });
    const id = await createRequest(server, { callback_url: receiver.url });
    await activate(server, id);
    await receiver.waitFor(1);
    await waitUntil('the first attempt to be recorded', async () => (await onlyDelivery(server, id)).attempt_count === 1);
    await advance(server, MINUTE + 2 * SECOND);
    assert.equal(receiver.received.length, 2);
    assert.equal((await onlyDelivery(server, id)).status, 'pending');
    receiver.respond({ status: 200 });
    await advance(server, 5 * MINUTE + 2 * SECOND);
    assert.equal(receiver.received.length, 3);
    const delivery = await onlyDelivery(server, id);
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.attempt_count, 3);
    assert.equal(delivery.last_status_code, 200);
    assert.equal(delivery.last_error, null);
    assert.equal(delivery.next_attempt_at, null);
    const attempts = attemptsOf(server, delivery.id);
    assert.deepEqual(
      attempts.map((a) => a.status_code),
      [500, 500, 200],
    );
    assert.equal(delivery.delivered_at, new Date(attempts[2]?.attempted_at ?? 0).toISOString(), 'delivered_at is the sandbox time of the 2xx');
    await advance(server, DAY); // a further attempt would fall due within the day: sent before the advance answers
    assert.equal(receiver.received.length, 3, 'no attempt after a 2xx');
  });

  test('a redirect is not followed and counts as a failure', async (t) => {
    const server = await loopbackServer(t);
    const receiver = await useReceiver(t);
    const elsewhere = await useReceiver(t, '/elsewhere');
    receiver.respond({ status: 302, location: elsewhere.url });
    const id = await createRequest(server, { callback_url: receiver.url });
    await activate(server, id);
    await receiver.waitFor(1);
    const delivery = await waitUntil('the attempt to be recorded', async () => {
      const d = await onlyDelivery(server, id);
      return d.attempt_count === 1 && d;
    });
    assert.equal(delivery.status, 'pending');
    assert.equal(delivery.last_status_code, 302);
    assert.match(delivery.last_error ?? '', /redirect/);
    assert.notEqual(delivery.next_attempt_at, null);
    await advance(server, MINUTE + 2 * SECOND);
    assert.equal(receiver.received.length, 2, 'a redirect is retried like any failure');
    // Both attempts are recorded (the second before the advance answered): a followed redirect would
    // have reached `elsewhere` during them.
    assert.equal(elsewhere.received.length, 0, 'the Location was never requested');
  });

  test('no answer within --webhook-timeout counts as a failure without a status code', async (t) => {
    const server = await loopbackServer(t, { webhookTimeout: '1' });
    const receiver = await useReceiver(t);
    receiver.respond({ status: 204, delayMs: 3000 });
    const id = await createRequest(server, { callback_url: receiver.url });
    await activate(server, id);
    await receiver.waitFor(1);
    const delivery = await waitUntil(
      'the attempt to time out',
      async () => {
        const d = await onlyDelivery(server, id);
        return d.attempt_count === 1 && d;
      },
      2500,
    );
    assert.equal(delivery.status, 'pending');
    assert.equal(delivery.last_status_code, null);
    assert.match(delivery.last_error ?? '', /time/i);
    assert.notEqual(delivery.next_attempt_at, null);
    const [attempt] = attemptsOf(server, delivery.id);
    assert.ok(attempt && attempt.duration_ms >= 900 && attempt.duration_ms < 2500, `the attempt lasted ${attempt?.duration_ms} ms, not 1 s`);
  });

  test('a receiver that answers 101 Switching Protocols has refused the attempt: recorded, retried, never left hanging', async (t) => {
    const server = await loopbackServer(t, { webhookTimeout: '5' });
    // A raw socket: Node's own server never answers a POST with a protocol switch.
    const switching = net.createServer((socket) => {
      socket.once('data', () => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => switching.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => switching.close(resolve)));
    const delivery = await firstAttempt(server, `http://127.0.0.1:${(switching.address() as AddressInfo).port}/hooks`);
    assert.equal(delivery.status, 'pending');
    assert.equal(delivery.last_status_code, 101);
    assert.equal(delivery.last_error, 'answered 101');
    assert.notEqual(delivery.next_attempt_at, null);
    // A replay answers with its own outcome, at once.
    const replayed = await replay(server, delivery.id);
    assert.equal(replayed.status, 200, JSON.stringify(replayed.body));
    assert.deepEqual([replayed.body.attempt_count, replayed.body.last_status_code], [2, 101]);
  });

  test('a scheduled attempt that fails after a replay was accepted leaves the delivery delivered: nothing more is sent', async (t) => {
    const server = await loopbackServer(t, { webhookTimeout: '2' });
    // The first POST is never answered (the scheduled attempt hangs until its time limit); the next ones get 200.
    const posts: number[] = [];
    const receiver = http.createServer((request, response) => {
      posts.push(Date.now());
      request.resume();
      if (posts.length > 1) request.on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => receiver.close(resolve)));
    t.after(() => receiver.closeAllConnections());
    const id = await createRequest(server, { callback_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` });
    await activate(server, id);
    await waitUntil('the scheduled attempt to reach the receiver', () => posts.length === 1);
    const { id: deliveryId } = await onlyDelivery(server, id);
    const replayed = await replay(server, deliveryId);
    assert.equal(replayed.body.status, 'delivered', JSON.stringify(replayed.body));
    // The scheduled attempt times out after the replay's 200.
    await waitUntil('the scheduled attempt to be recorded', () => attemptsOf(server, deliveryId).length === 2 && true, 5000);
    const after = await onlyDelivery(server, id);
    assert.deepEqual([after.status, after.next_attempt_at, after.last_status_code], ['delivered', null, 200]);
    assert.match(attemptsOf(server, deliveryId).find((a) => a.trigger === 'automatic')?.error ?? '', /timed out/);
    await advance(server, 2 * 60 * 60 * 1000);
    assert.equal(posts.length, 2, 'no attempt after the delivery was accepted');
  });

  test('a 2xx status line is the answer even when its body never ends: delivered, the connection closed at the time limit', async (t) => {
    const server = await loopbackServer(t, { webhookTimeout: '1' });
    // A receiver that answers 200 and a first piece of its body, then never ends it.
    let hits = 0;
    let closed = false;
    const endless = http.createServer((request, response) => {
      hits += 1;
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('accepted, and more to come');
      });
      request.socket.on('close', () => {
        closed = true;
      });
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => endless.close(() => resolve())));
    const { port } = endless.address() as AddressInfo;
    const delivery = await firstAttempt(server, `http://127.0.0.1:${port}/hooks`);
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.last_status_code, 200);
    assert.equal(delivery.last_error, null);
    assert.equal(delivery.next_attempt_at, null);
    await waitUntil('paraph to close the connection whose body never ended', () => closed, 5000);
    assert.equal(hits, 1);
  });

  test('a refused connection counts as a failure with an error', async (t) => {
    const server = await loopbackServer(t);
    const port = await closedPort();
    const id = await createRequest(server, { callback_url: `http://127.0.0.1:${port}/hook` });
    await activate(server, id);
    const delivery = await waitUntil('the attempt to be recorded', async () => {
      const d = await onlyDelivery(server, id);
      return d.attempt_count === 1 && d;
    });
    assert.equal(delivery.status, 'pending');
    assert.equal(delivery.last_status_code, null);
    assert.match(delivery.last_error ?? '', /ECONNREFUSED|connect/i);
    near(Date.parse(delivery.next_attempt_at ?? ''), sandboxNow(server) + MINUTE, 3000, 'retried after a minute');
  });

  // ---------------------------------------------------------------------------------------------
  // SSRF at send time

  test('at send time a callback that reaches a loopback or private address is refused by policy', async (t) => {
    const server = await useServer(t); // loopback webhooks NOT allowed
    assert.equal(server.running.ctx.policy.allowLoopbackWebhooks, false);
    const receiver = await useReceiver(t);
    const port = new URL(receiver.url).port;
    // Refused already at create.
    const refused = await postCreate(server, payload({ callback_url: `http://127.0.0.1:${port}/hook` }));
    assert.equal(refused.status, 400);

    const targets: Array<[string, RegExp]> = [
      [`http://127.0.0.1:${port}/hook`, /loopback/],
      [`http://[::ffff:127.0.0.1]:${port}/hook`, /loopback/],
      [`http://localhost:${port}/hook`, /loopback/],
      ['https://10.0.0.1/hook', /private/],
      ['https://169.254.169.254/latest/meta-data', /link-local/],
    ];
    const { db } = server.running.ctx;
    for (const [url, kind] of targets) {
      // A URL the create call accepts, swapped in the database for one that reaches a refused address
      // (as a public name that resolves to it would), before the activation writes the delivery.
      const id = await createRequest(server, { callback_url: 'https://example.com/hook' });
      db.run(db.q.updateTable('signature_requests').set({ callback_url: url }).where('id', '=', id));
      await activate(server, id);
      const delivery = await waitUntil(`the attempt to ${url}`, async () => {
        const d = await onlyDelivery(server, id);
        return d.attempt_count === 1 && d;
      });
      assert.equal(delivery.status, 'pending', url);
      assert.equal(delivery.last_status_code, null, url);
      assert.match(delivery.last_error ?? '', /refused by policy/, url);
      assert.match(delivery.last_error ?? '', kind, url);
      // A replay goes through the same guard.
      const again = await replay(server, delivery.id);
      assert.equal(again.status, 200);
      assert.equal(again.body.attempt_count, 2);
      assert.match(again.body.last_error ?? '', /refused by policy/, url);
    }
    // Every attempt and replay above is recorded, so whatever they sent has arrived by now.
    assert.equal(receiver.received.length, 0, 'no request reached the receiver');
  });

  // ---------------------------------------------------------------------------------------------
  // Replay

  test('replay sends now with the same webhook-id and a fresh signature, and restarts the schedule when refused', async (t) => {
    const server = await loopbackServer(t);
    const receiver = await useReceiver(t);
    const secret = server.running.firstKey?.webhook_secret ?? '';
    const id = await createRequest(server, { callback_url: receiver.url });
    await activate(server, id);
    await receiver.waitFor(1);
    const delivered = await waitUntil('the delivery', async () => {
      const d = await onlyDelivery(server, id);
      return d.status === 'delivered' && d;
    });
    await sleep(1100 - (Date.now() % 1000) + 50); // into the next second: a fresh timestamp gives a fresh signature

    // Replay of a delivered delivery.
    const first = await replay(server, delivered.id);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(receiver.received.length, 2, 'sent before the replay answered');
    assert.deepEqual(Object.keys(first.body).sort(), DELIVERY_KEYS);
    assert.equal(first.body.id, delivered.id);
    assert.equal(first.body.attempt_count, 2);
    assert.equal(first.body.status, 'delivered');
    assert.equal(first.body.last_status_code, 204);
    assert.equal(first.body.next_attempt_at, null);
    const [original, replayed] = receiver.received as [Received, Received];
    assert.equal(replayed.headers['webhook-id'], original.headers['webhook-id']);
    assert.equal(replayed.headers['webhook-id'], delivered.event_id);
    assert.equal(replayed.body, original.body);
    assert.ok(Number(replayed.headers['webhook-timestamp']) > Number(original.headers['webhook-timestamp']), 'a fresh timestamp');
    assert.notEqual(replayed.headers['webhook-signature'], original.headers['webhook-signature']);
    verify(replayed, secret);

    // Replay refused: pending again, next attempt one minute later.
    receiver.respond({ status: 500 });
    const refused = await replay(server, delivered.id);
    assert.equal(refused.status, 200);
    assert.equal(refused.body.status, 'pending');
    assert.equal(refused.body.attempt_count, 3);
    assert.equal(refused.body.last_status_code, 500);
    assert.ok(refused.body.last_error);
    near(Date.parse(refused.body.next_attempt_at), sandboxNow(server) + MINUTE, 2000, 'the schedule restarts at +1 min');
    // The restarted schedule runs its four retries, then fails.
    await advance(server, 3 * HOUR);
    assert.equal(receiver.received.length, 7);
    const failed = await onlyDelivery(server, id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempt_count, 7);
    assert.equal(failed.next_attempt_at, null);

    // Replay of a failed delivery, refused again: pending with a retry one minute later.
    const revived = await replay(server, delivered.id);
    assert.equal(revived.status, 200);
    assert.equal(revived.body.status, 'pending');
    assert.equal(revived.body.attempt_count, 8);
    near(Date.parse(revived.body.next_attempt_at), sandboxNow(server) + MINUTE, 2000, 'a failed delivery gets a new schedule');
    receiver.respond({ status: 204 });
    await advance(server, MINUTE + 2 * SECOND);
    assert.equal(receiver.received.length, 9);
    const end = await onlyDelivery(server, id);
    assert.equal(end.status, 'delivered');
    assert.equal(end.attempt_count, 9);
    assert.deepEqual(
      attemptsOf(server, delivered.id).map((a) => a.trigger),
      ['automatic', 'replay', 'replay', 'automatic', 'automatic', 'automatic', 'automatic', 'replay', 'automatic'],
    );
    assert.deepEqual([...new Set(receiver.received.map((r) => r.headers['webhook-id']))], [delivered.event_id]);
    for (const r of receiver.received) verify(r, secret);

    // Not found: another account's delivery, an unknown id, a malformed id.
    const other = server.newKey();
    await expectError(await replay(server, delivered.id, other.apiKey), 404, 'not_found');
    await expectError(await replay(server, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    await expectError(await replay(server, 'not-a-uuid'), 404, 'not_found');
    assert.equal(receiver.received.length, 9, 'nothing sent for a 404');
  });

  // ---------------------------------------------------------------------------------------------
  // GET /v1/webhook-deliveries

  test('GET /v1/webhook-deliveries: shape, newest first, filters, paging, errors, account scope', async (t) => {
    const server = await loopbackServer(t);
    const ok = await useReceiver(t);
    const failing = await useReceiver(t);
    failing.respond({ status: 500 });
    const { db } = server.running.ctx;

    const a = await createRequest(server, { callback_url: ok.url });
    await activate(server, a);
    await postJson(server, `/v1/signature-requests/${a}/cancel`, {});
    const b = await createRequest(server, { callback_url: failing.url });
    await activate(server, b);
    const c = await createRequest(server, { callback_url: ok.url });
    await activate(server, c);
    const other = server.newKey();
    const d = await createRequest(server, { callback_url: ok.url }, { key: other.apiKey });
    await activate(server, d, {}, other.apiKey);
    await ok.waitFor(4);
    await failing.waitFor(1);
    await waitUntil('every delivery to be attempted', () =>
      db.all(db.q.selectFrom('webhook_deliveries').select('attempt_count')).every((r) => r.attempt_count === 1),
    );

    const all = await list(server, '');
    assert.equal(all.status, 200);
    assert.deepEqual(Object.keys(all.body).sort(), ['data', 'next_cursor']);
    assert.equal(all.body.next_cursor, '');
    const data = all.body.data as Delivery[];
    // Newest first, only the first account's deliveries.
    const events = (id: string) => eventsOf(server, id).map((e) => e.type);
    assert.deepEqual(events(a), ['signature_request.activated', 'signature_request.cancelled']);
    assert.deepEqual(
      data.map((x) => [x.signature_request_id, x.event_type]),
      [
        [c, 'signature_request.activated'],
        [b, 'signature_request.activated'],
        [a, 'signature_request.cancelled'],
        [a, 'signature_request.activated'],
      ],
    );
    for (const x of data) {
      assert.deepEqual(Object.keys(x).sort(), DELIVERY_KEYS);
      assert.match(x.id, /^[0-9a-f-]{36}$/);
      assert.deepEqual(x.payload, JSON.parse(storedPayload(server, x.event_id)), 'payload is the event');
      assert.equal(x.payload.id, x.event_id);
      assert.equal(x.payload.type, x.event_type);
      assert.equal(x.payload.data.signature_request_id, x.signature_request_id);
      assert.equal(x.created_at, x.payload.created_at);
      assert.equal(x.attempt_count, 1);
    }
    const [dc, db_, dca, da] = data as [Delivery, Delivery, Delivery, Delivery];
    for (const x of [dc, dca, da]) {
      assert.equal(x.status, 'delivered');
      assert.equal(x.last_status_code, 204);
      assert.equal(x.last_error, null);
      assert.equal(x.next_attempt_at, null);
      assert.ok(!Number.isNaN(Date.parse(x.delivered_at ?? '')));
    }
    assert.equal(db_.status, 'pending');
    assert.equal(db_.last_status_code, 500);
    assert.equal(typeof db_.last_error, 'string');
    assert.ok(!Number.isNaN(Date.parse(db_.next_attempt_at ?? '')));
    assert.equal(db_.delivered_at, null);

    // Filters.
    const ids = async (query: string, key?: string) => {
      const r = await list(server, query, key);
      assert.equal(r.status, 200, `${query}: ${JSON.stringify(r.body)}`);
      return (r.body.data as Delivery[]).map((x) => x.id);
    };
    assert.deepEqual(await ids(`signature_request_id=${a}`), [dca.id, da.id]);
    assert.deepEqual(await ids('event_type=signature_request.cancelled'), [dca.id]);
    assert.deepEqual(await ids('event_type=signature_request.activated'), [dc.id, db_.id, da.id]);
    assert.deepEqual(await ids('status=pending'), [db_.id]);
    assert.deepEqual(await ids('status=delivered'), [dc.id, dca.id, da.id]);
    assert.deepEqual(await ids('status=failed'), []);
    assert.deepEqual(await ids(`signature_request_id=${a}&event_type=signature_request.activated&status=delivered`), [da.id]);
    assert.deepEqual(
      await ids('cursor='),
      data.map((x) => x.id),
      'an empty cursor is the first page',
    );

    // Paging.
    for (const limit of [1, 3]) {
      const seen: string[] = [];
      let cursor = '';
      let pages = 0;
      do {
        const page = await list(server, `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(page.status, 200);
        assert.ok(page.body.data.length <= limit);
        seen.push(...(page.body.data as Delivery[]).map((x) => x.id));
        cursor = page.body.next_cursor;
        pages += 1;
        assert.ok(pages <= 5);
      } while (cursor !== '');
      assert.deepEqual(
        seen,
        data.map((x) => x.id),
        `limit ${limit}`,
      );
      assert.equal(pages, Math.ceil(4 / limit));
    }
    const firstPage = await list(server, 'status=delivered&limit=2');
    assert.deepEqual(
      (firstPage.body.data as Delivery[]).map((x) => x.id),
      [dc.id, dca.id],
    );
    const secondPage = await list(server, `status=delivered&limit=2&cursor=${firstPage.body.next_cursor}`);
    assert.deepEqual(
      (secondPage.body.data as Delivery[]).map((x) => x.id),
      [da.id],
    );
    assert.equal(secondPage.body.next_cursor, '');

    // Errors.
    const requestsCursor = (await (await server.call('GET', '/v1/signature-requests?limit=1')).json()) as { next_cursor: string };
    assert.notEqual(requestsCursor.next_cursor, '');
    for (const query of [
      'status=sent',
      'event_type=nope',
      'limit=0',
      'limit=101',
      'limit=ten',
      'cursor=not!a!cursor',
      `cursor=${Buffer.from('wd1:abc').toString('base64url')}`,
      `cursor=${requestsCursor.next_cursor}`,
      'signature_request_id=not-a-uuid',
      'unknown=1',
    ]) {
      const r = await list(server, query);
      await expectError(r, 400, 'invalid_request');
    }
    assert.equal((await server.call('GET', '/v1/webhook-deliveries', { key: null })).status, 401);

    // Account scope.
    const mine = await ids('', other.apiKey);
    assert.equal(mine.length, 1);
    const theirs = (await list(server, '', other.apiKey)).body.data[0] as Delivery;
    assert.equal(theirs.signature_request_id, d);
    assert.deepEqual(await ids(`signature_request_id=${d}`), [], "another account's request shows nothing");
    assert.deepEqual(await ids(`signature_request_id=${a}`, other.apiKey), []);
  });

  // ---------------------------------------------------------------------------------------------
  // Leases

  test('an attempt slower than the 30 s lease is not sent a second time while it is still in flight', async (t) => {
    let skew = 0;
    const config = resolveConfig(
      { port: '0', smtpPort: '0', rateLimit: 'off', logLevel: 'silent', dataDir: useTmpDir(t), allowLoopbackWebhooks: true, webhookTimeout: '60' },
      {},
      process.cwd(),
    );
    // Real time seen by the server jumps 31 s ahead while the receiver still holds the first attempt.
    const running = await startParaph(config, { log: createLog('silent'), realNow: () => Date.now() + skew });
    t.after(() => running.close());
    const key = running.firstKey?.api_key ?? '';
    const receiver = await useReceiver(t);
    receiver.respond({ status: 204, delayMs: 2500 });
    const headers = { authorization: `Bearer ${key}` };
    const created = await fetch(`${running.url}/v1/signature-requests`, {
      method: 'POST',
      headers,
      body: await createForm(payload({ callback_url: receiver.url })),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    assert.equal((await fetch(`${running.url}/v1/signature-requests/${id}/activate`, { method: 'POST', headers })).status, 200);
    await receiver.waitFor(1);
    skew = 31_000;
    // The first attempt is recorded once its 2.5 s answer came: ten dispatcher ticks had the chance to resend it meanwhile.
    const { db } = running.ctx;
    await waitUntil('the first attempt to be recorded', async () => db.all(db.q.selectFrom('webhook_attempts').select('number')).length >= 1, 15_000);
    assert.equal(receiver.received.length, 1, 'one attempt in flight, sent once');
    assert.equal(db.all(db.q.selectFrom('webhook_attempts').select('number')).length, 1);
  });

  // Advances that start while the dispatcher holds a delivery in flight (a client that activates and at
  // once advances the clock): advanceClock sees the leased delivery as due, runs nothing, and breaks
  // out of its in-order loop, then jumps straight to the target time.

  test('an advance that starts while a delivery is in flight still meets every other deadline at its own time', async (t) => {
    const server = await loopbackServer(t);
    const slow = await useReceiver(t);
    slow.respond({ status: 204, delayMs: 1000 });
    const quiet = await createRequest(server, {});
    const start = sandboxNow(server);
    await activate(server, quiet);
    const loud = await createRequest(server, { callback_url: slow.url });
    await activate(server, loud);
    await slow.waitFor(1); // the activation webhook is in flight
    await advance(server, 8 * DAY);
    const expired = eventsOf(server, quiet).filter((e) => e.type === 'signer.expired');
    assert.equal(expired.length, 1);
    near(expired[0]?.created_at ?? 0, start + 7 * DAY, 5000, 'the link expired at day 7');
  });

  test('an advance that starts while the first attempt is in flight runs the retries that fall due before it answers', async (t) => {
    const server = await loopbackServer(t);
    const slow = await useReceiver(t);
    slow.respond({ status: 500, delayMs: 600 });
    const id = await createRequest(server, { callback_url: slow.url });
    await activate(server, id);
    await slow.waitFor(1); // the first attempt is in flight
    await advance(server, 3 * HOUR);
    const delivery = await onlyDelivery(server, id);
    assert.equal(delivery.attempt_count, 5, `${delivery.attempt_count} attempt(s) when the advance answered, next at ${delivery.next_attempt_at}`);
    assert.equal(delivery.status, 'failed');
  });
});
