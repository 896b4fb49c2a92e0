import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { activate, advance, createRequest, postJson, signerAction, status } from '../helpers/flows.js';
import { expectError } from '../helpers/errors.js';
import { useReceiver } from '../helpers/receiver.js';
import { createForm, payload } from '../helpers/requests.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/crash-loop.js';

type Rule = Record<string, unknown> & { id: string; target: string; count: number; fired: number; created_at: string };

const MINUTE = 60 * 1000;

async function addFault(server: TestServer, rule: Record<string, unknown>, key?: string): Promise<Rule> {
  const response = await postJson(server, '/_sandbox/faults', rule, key);
  assert.equal(response.status, 201, await response.clone().text());
  return json<Rule>(response);
}

async function faults(server: TestServer, key?: string): Promise<Rule[]> {
  const response = await server.call('GET', '/_sandbox/faults', key === undefined ? {} : { key });
  assert.equal(response.status, 200);
  return (await json<{ data: Rule[] }>(response)).data;
}

/** A server whose log lines are kept, to see what a fired fault says. */
async function useLoggedServer(t: TestContext, flags: Record<string, unknown> = {}): Promise<{ server: TestServer; lines: () => Array<Record<string, any>> }> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const server = await useServer(t, flags, {}, { log: pino({ level: 'info' }, sink) });
  return { server, lines: () => lines.map((line) => JSON.parse(line) as Record<string, any>) };
}

/** Activates a one-signer request and signs it through the signer's API: the request completes. */
async function complete(server: TestServer, id: string): Promise<void> {
  const link = (await activate(server, id)).signers[0]?.signing_url as string;
  assert.equal((await signerAction(link, 'view')).status, 200);
  const signed = await signerAction(link, 'sign', { signature: { type: 'typed', text: 'Ada Lovelace' } });
  assert.equal(signed.status, 200, await signed.clone().text());
}

// ---------------------------------------------------------------------------------------------
// The rules themselves

test('a rule is added, listed and removed, one at a time or all at once, within the account', async (t) => {
  const server = await useServer(t);
  const rule = await addFault(server, { target: 'api', method: 'GET', path: '/v1/signature-requests/{id}', status: 503, count: 2 });
  assert.deepEqual(Object.keys(rule).sort(), ['count', 'created_at', 'fired', 'id', 'method', 'path', 'status', 'target']);
  assert.equal(rule.fired, 0);
  assert.equal(rule.count, 2);
  assert.ok(!Number.isNaN(Date.parse(rule.created_at)));
  // count defaults to 1; a webhook status rule to 500.
  const mail = await addFault(server, { target: 'mail' });
  assert.equal(mail.count, 1);
  const hook = await addFault(server, { target: 'webhook', error: 'status' });
  assert.equal(hook.status, 500);
  assert.deepEqual(
    (await faults(server)).map((r) => r.id),
    [rule.id, mail.id, hook.id],
  );

  // Another account sees none of them and cannot remove them.
  const other = server.newKey();
  assert.deepEqual(await faults(server, other.apiKey), []);
  await expectError(await server.call('DELETE', `/_sandbox/faults/${rule.id}`, { key: other.apiKey }), 404, 'not_found');
  assert.equal((await server.call('DELETE', '/_sandbox/faults', { key: other.apiKey })).status, 204);
  assert.equal((await faults(server)).length, 3);

  const removed = await server.call('DELETE', `/_sandbox/faults/${rule.id}`);
  assert.equal(removed.status, 204);
  assert.equal(await removed.text(), '');
  await expectError(await server.call('DELETE', `/_sandbox/faults/${rule.id}`), 404, 'not_found', rule.id);
  await expectError(await server.call('DELETE', '/_sandbox/faults/not-a-uuid'), 404, 'not_found');
  assert.deepEqual(
    (await faults(server)).map((r) => r.id),
    [mail.id, hook.id],
  );
  assert.equal((await server.call('DELETE', '/_sandbox/faults')).status, 204);
  assert.deepEqual(await faults(server), []);

  await expectError(await server.call('GET', '/_sandbox/faults', { key: null }), 401, 'unauthorized');
  await expectError(await postJson(server, '/_sandbox/faults', { target: 'mail' }, 'paraph_test_nope'), 401, 'unauthorized');
});

test('a rule that is not one of the documented shapes is a 400 naming what is wrong', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  const cases: Array<[Record<string, unknown> | unknown[], RegExp]> = [
    [{ target: 'disk', count: 1 }, /body\.target must be one of: api, webhook, mail, artifacts/],
    [{ count: 1 }, /body\.target is required/],
    [[], /body must be an object/],
    [{ target: 'mail', colour: 'red' }, /body has an unknown property "colour"/],
    [{ target: 'mail', count: 0 }, /body\.count must be >= 1/],
    [{ target: 'mail', count: 1001 }, /body\.count must be <= 1000/],
    [{ target: 'mail', count: '2' }, /body\.count must be an integer/],
    [{ target: 'api', path: '/v1/signature-requests', status: 404 }, /body\.status must be one of: 429, 500, 503/],
    [{ target: 'api', path: '/v1/signature-requests', status: 503, delay_ms: 10 }, /exclude each other/],
    [{ target: 'api', path: '/v1/signature-requests' }, /body\.status or body\.delay_ms is required/],
    [{ target: 'api', path: '/v1/signature-requests', delay_ms: 30_001 }, /body\.delay_ms must be <= 30000/],
    [{ target: 'api', path: '/_sandbox/faults', status: 500 }, /body\.path must start with \/v1\//],
    [{ target: 'api', path: '/v1/*/x', status: 500 }, /body\.path has a malformed segment "\*"/],
    [{ target: 'api', path: '/v1/a{id}', status: 500 }, /malformed segment/],
    [{ target: 'api', path: '/v1/signature-requests', method: 'TRACE', status: 500 }, /body\.method must be one of/],
    [{ target: 'webhook', error: 'dns' }, /body\.error must be one of: status, timeout, connection_refused/],
    [{ target: 'webhook', error: 'timeout', status: 500 }, /body\.status goes only with "error": "status"/],
    [{ target: 'webhook', error: 'status', status: 200 }, /body\.status must be >= 300/],
    [{ target: 'webhook', error: 'timeout', signature_request_id: 'abc' }, /body\.signature_request_id must be a valid uuid/],
    [{ target: 'artifacts', mode: 'delay' }, /body\.delay_ms is required with "mode": "delay"/],
    [{ target: 'artifacts', mode: 'fail', delay_ms: 5 }, /body\.delay_ms goes only with "mode": "delay"/],
    [{ target: 'artifacts', mode: 'slow' }, /body\.mode must be one of: fail, delay/],
  ];
  for (const [rule, message] of cases) {
    await expectError(await postJson(server, '/_sandbox/faults', rule), 400, 'invalid_request', message);
  }
  // A request of another account, or none at all, is a 404 (a typo would make a rule that never fires).
  const other = server.newKey();
  await expectError(await postJson(server, '/_sandbox/faults', { target: 'mail', signature_request_id: id }, other.apiKey), 404, 'not_found', id);
  assert.deepEqual(await faults(server), []);
  assert.deepEqual(await faults(server, other.apiKey), []);
});

// ---------------------------------------------------------------------------------------------
// API calls

test('api: the next `count` matching calls answer the status, then calls are served again', async (t) => {
  const { server, lines } = await useLoggedServer(t);
  const id = await createRequest(server);
  const rule = await addFault(server, { target: 'api', method: 'GET', path: '/v1/signature-requests/{id}', status: 503, count: 2 });

  // Another path, another method: not matched.
  assert.equal((await server.call('GET', '/v1/signature-requests')).status, 200);
  assert.equal((await postJson(server, `/v1/signature-requests/${id}/cancel`, { reason: 'x' })).status, 200);
  await expectError(await server.call('GET', `/v1/signature-requests/${id}`), 503, 'temporarily_unavailable', rule.id);
  const second = await server.call('GET', `/v1/signature-requests/${id}`);
  assert.ok(second.headers.get('x-request-id'));
  await expectError(second, 503, 'temporarily_unavailable');
  // Used up: served normally, kept in the list with fired = count.
  assert.equal((await status(server, id)).status, 'cancelled');
  const [listed] = await faults(server);
  assert.equal(listed?.fired, 2);
  assert.equal(listed?.count, 2);

  const fired = lines().filter((line) => line.fault_rule_id === rule.id);
  assert.equal(fired.length, 2);
  assert.equal(fired[0]?.level, 40);
  assert.match(fired[0]?.msg, /sandbox fault fired: GET \/v1\/signature-requests\/\{id\}: answered 503 \(1 of 2\)/);
  assert.equal(fired[0]?.route, '/v1/signature-requests/:id');
  // Never a key: neither the API key nor its hash appears in the log.
  const log = JSON.stringify(lines());
  assert.ok(!log.includes(server.apiKey) && !log.includes('paraph_test_'));
  // Not logged again as an unexpected failure.
  assert.ok(!lines().some((line) => line.msg === 'request failed'));
});

test('api: 429 carries Retry-After, 500 is an internal_error, and `*` matches every /v1 path but never /_sandbox', async (t) => {
  const server = await useServer(t);
  await addFault(server, { target: 'api', path: '*', status: 429, count: 1 });
  const limited = await server.call('GET', '/v1/templates');
  assert.equal(limited.headers.get('retry-after'), '1');
  assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
  await expectError(limited, 429, 'rate_limit_exceeded');

  await addFault(server, { target: 'api', path: '*', status: 500, count: 3 });
  // The sandbox controls stay usable: listing and clearing are never faulted.
  assert.equal((await faults(server)).length, 2);
  await expectError(await server.call('GET', '/v1/webhook-deliveries'), 500, 'internal_error');
  await expectError(await server.call('POST', '/v1/signature-requests', { body: await createForm(payload()) }), 500, 'internal_error');
  assert.equal((await server.call('DELETE', '/_sandbox/faults')).status, 204);
  assert.equal((await server.call('GET', '/v1/webhook-deliveries')).status, 200);
});

test('api: `{id}` matches one segment only, a last `*` any rest, `method` narrows', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  await addFault(server, { target: 'api', path: '/v1/signature-requests/{id}', status: 500, count: 10 });
  // `/v1/signature-requests/{id}/artifacts/{type}` has more segments: not matched.
  await expectError(await server.call('GET', `/v1/signature-requests/${id}/artifacts/signed-pdf`), 409, 'artifact_not_available');
  await expectError(await server.call('GET', `/v1/signature-requests/${id}?x=1`), 500, 'internal_error');
  await server.call('DELETE', '/_sandbox/faults');

  await addFault(server, { target: 'api', method: 'POST', path: '/v1/signature-requests/*', status: 503, count: 10 });
  assert.equal((await server.call('GET', `/v1/signature-requests/${id}`)).status, 200);
  await expectError(await postJson(server, `/v1/signature-requests/${id}/activate`, {}), 503, 'temporarily_unavailable');
  // The create call is `/v1/signature-requests` itself: the `*` needs one segment or more.
  assert.equal((await server.call('POST', '/v1/signature-requests', { body: await createForm(payload()) })).status, 201);
});

test('api: a delayed call is served normally once the delay has passed', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  await addFault(server, { target: 'api', path: '/v1/signature-requests/{id}', delay_ms: 300, count: 1 });
  const delayed = await server.call('GET', `/v1/signature-requests/${id}`);
  assert.equal(delayed.status, 200);
  assert.equal((await json<{ id: string }>(delayed)).id, id);
  assert.equal((await faults(server))[0]?.fired, 1);
});

test("api: only the rule's account is affected", async (t) => {
  const server = await useServer(t);
  const other = server.newKey();
  await addFault(server, { target: 'api', path: '*', status: 503, count: 5 });
  for (let i = 0; i < 3; i++) assert.equal((await server.call('GET', '/v1/signature-requests', { key: other.apiKey })).status, 200);
  // A second key of the same account is affected.
  const sameAccount = server.newKey(server.accountId);
  await expectError(await server.call('GET', '/v1/signature-requests', { key: sameAccount.apiKey }), 503, 'temporarily_unavailable');
  assert.equal((await faults(server))[0]?.fired, 1);
});

test('api: a refused create creates nothing and does not hold its Idempotency-Key', async (t) => {
  const server = await useServer(t);
  await addFault(server, { target: 'api', method: 'POST', path: '/v1/signature-requests', status: 503, count: 1 });
  const body = payload({ client_reference: 'refused-once' });
  const headers = { 'idempotency-key': 'create-1' };
  await expectError(await server.call('POST', '/v1/signature-requests', { body: await createForm(body), headers }), 503, 'temporarily_unavailable');
  const listed = await server.call('GET', '/v1/signature-requests?client_reference=refused-once');
  assert.deepEqual((await json<{ data: unknown[] }>(listed)).data, []);
  // The retry with the same key is the first call that acts.
  const retried = await server.call('POST', '/v1/signature-requests', { body: await createForm(body), headers });
  assert.equal(retried.status, 201, await retried.clone().text());
  assert.equal(retried.headers.get('idempotent-replayed'), null);
  assert.equal((await json<{ idempotent_replay: boolean }>(retried)).idempotent_replay, false);
});

// ---------------------------------------------------------------------------------------------
// Webhooks, mail, artifacts

test('webhook: faulted attempts fail like real ones and follow the retry schedule until one gets through', async (t) => {
  const server = await useServer(t, { allowLoopbackWebhooks: true });
  const receiver = await useReceiver(t);
  const id = await createRequest(server, { callback_url: receiver.url });
  const unrelated = await createRequest(server, { callback_url: receiver.url });
  // One rule per kind of failure, oldest first: the first three attempts of `id` fail in this order.
  await addFault(server, { target: 'webhook', signature_request_id: id, error: 'status', status: 502 });
  await addFault(server, { target: 'webhook', signature_request_id: id, error: 'connection_refused' });
  await addFault(server, { target: 'webhook', signature_request_id: id, error: 'timeout' });
  await activate(server, id);
  await activate(server, unrelated);

  type Delivery = {
    signature_request_id: string;
    status: string;
    attempt_count: number;
    last_status_code: number | null;
    last_error: string | null;
    next_attempt_at: string | null;
  };
  const deliveryOf = async (requestId: string) => {
    const response = await server.call('GET', `/v1/webhook-deliveries?signature_request_id=${requestId}`);
    return (await json<{ data: Delivery[] }>(response)).data[0];
  };
  // The other request's delivery is not affected.
  await receiver.waitFor(1);
  assert.equal(await waitUntil('the unrelated delivery', async () => (await deliveryOf(unrelated))?.status === 'delivered' && true, 60_000), true);

  const expected: Array<[number | null, string, number]> = [
    [502, 'answered 502', 1],
    [null, 'connection failed: ECONNREFUSED', 5],
    [null, 'timed out after 15 s', 30],
  ];
  for (const [index, [code, error, waitMinutes]] of expected.entries()) {
    const delivery = await waitUntil(
      'a failed attempt',
      async () => {
        const d = await deliveryOf(id);
        return d && d.attempt_count === index + 1 && d;
      },
      60_000,
    );
    assert.equal(delivery.status, 'pending');
    assert.equal(delivery.last_status_code, code);
    assert.equal(delivery.last_error, error);
    assert.ok(delivery.next_attempt_at);
    // Due its interval after the attempt (the sandbox clock runs on in real time while the attempt is looked for: the
    // interval is checked against the delivery's own next_attempt_at and the clock's own now, not assumed from them).
    const clockNow = async () => Date.parse((await json<{ now: string }>(await server.call('GET', '/_sandbox/clock'))).now);
    const due = Date.parse(delivery.next_attempt_at);
    const dueIn = due - (await clockNow());
    assert.ok(dueIn > waitMinutes * MINUTE - 20_000 && dueIn <= waitMinutes * MINUTE, `due in ${dueIn} ms, not about ${waitMinutes} min`);
    // Not due 5 s before it; due once it is reached.
    await advance(server, dueIn - 5000);
    assert.equal((await deliveryOf(id))?.attempt_count, index + 1);
    await advance(server, Math.max(1000, due - (await clockNow()) + 1000));
  }
  const delivered = await deliveryOf(id);
  assert.equal(delivered?.status, 'delivered');
  assert.equal(delivered?.attempt_count, 4);
  // The receiver was contacted by the unrelated delivery and by the fourth attempt only.
  assert.equal(receiver.received.length, 2);
  const { db } = server.running.ctx;
  const attempts = db.all(
    db.q
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .select(['webhook_attempts.number', 'webhook_attempts.status_code', 'webhook_attempts.error'])
      .where('webhook_deliveries.request_id', '=', id)
      .orderBy('webhook_attempts.number'),
  );
  assert.deepEqual(
    attempts.map((a) => [a.number, a.status_code, a.error]),
    [
      [1, 502, 'answered 502'],
      [2, null, 'connection failed: ECONNREFUSED'],
      [3, null, 'timed out after 15 s'],
      [4, 204, null],
    ],
  );
  assert.deepEqual(
    (await faults(server)).map((r) => r.fired),
    [1, 1, 1],
  );
});

test('webhook: a replay meets the rule too', async (t) => {
  const server = await useServer(t, { allowLoopbackWebhooks: true });
  const receiver = await useReceiver(t);
  const id = await createRequest(server, { callback_url: receiver.url });
  await activate(server, id);
  await receiver.waitFor(1);
  const list = await server.call('GET', `/v1/webhook-deliveries?signature_request_id=${id}`);
  const delivery = (await json<{ data: Array<{ id: string; status: string }> }>(list)).data[0];
  await addFault(server, { target: 'webhook', error: 'status', status: 503 });
  const replayed = await postJson(server, `/v1/webhook-deliveries/${delivery?.id}/replay`);
  const body = await json<{ status: string; last_status_code: number; last_error: string; attempt_count: number }>(replayed);
  assert.equal(body.last_status_code, 503);
  assert.equal(body.last_error, 'answered 503');
  assert.equal(body.status, 'pending');
  assert.equal(receiver.received.length, 1);
});

test('mail: the next mail of the account fails to send (email_delivery: failed), the one after is sent', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  await addFault(server, { target: 'mail', count: 1 });
  const activated = await json<{ signers: Array<{ email_delivery: string }> }>(
    await postJson(server, `/v1/signature-requests/${id}/activate`, { send_emails: true }),
  );
  assert.equal(activated.signers[0]?.email_delivery, 'failed');
  const caught = async () => (await json<{ data: unknown[] }>(await server.call('GET', `/_sandbox/emails?signature_request_id=${id}`))).data;
  assert.deepEqual(await caught(), []);

  const reminded = await json<{ reminders: Array<{ email_delivery: string }> }>(await postJson(server, `/v1/signature-requests/${id}/reminders`, {}));
  assert.equal(reminded.reminders[0]?.email_delivery, 'sent');
  assert.equal((await caught()).length, 1);
  assert.equal((await faults(server))[0]?.fired, 1);
});

test('artifacts: a failed run is retried and the artifacts arrive', async (t) => {
  const { server, lines } = await useLoggedServer(t);
  const id = await createRequest(server);
  const rule = await addFault(server, { target: 'artifacts', signature_request_id: id, mode: 'fail' });
  await complete(server, id);
  const done = await waitUntil(
    'artifacts after the retry',
    async () => {
      const current = await status(server, id);
      return current.artifacts.signed_pdf && current;
    },
    60_000,
  );
  assert.deepEqual(done.artifacts, { signed_pdf: true, evidence_pdf: true, evidence_json: true });
  assert.equal((await server.call('GET', `/v1/signature-requests/${id}/artifacts/signed-pdf`)).status, 200);
  assert.equal((await faults(server))[0]?.fired, 1);
  // The failure was logged as artifact failures are, naming the rule.
  const failure = lines().find((line) => line.msg?.startsWith('artifact generation failed'));
  assert.match(JSON.stringify(failure?.err), new RegExp(rule.id));
});

test('artifacts: a delayed run leaves the artifacts unavailable (409) until it ends', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  await addFault(server, { target: 'artifacts', mode: 'delay', delay_ms: 4000 });
  await complete(server, id);
  await expectError(await server.call('GET', `/v1/signature-requests/${id}/artifacts/evidence.json`), 409, 'artifact_not_available');
  // The delayed run is the server's background work: awaited, not polled.
  await server.running.ctx.background.idle();
  assert.equal((await status(server, id)).artifacts.evidence_json, true, 'the late artifacts');
  assert.equal((await server.call('GET', `/v1/signature-requests/${id}/artifacts/evidence.json`)).status, 200);
  assert.equal((await faults(server))[0]?.fired, 1);
});

test('the rules live in the database: a rule written by another process is seen at the next call', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  assert.equal((await server.call('GET', `/v1/signature-requests/${id}`)).status, 200);
  const { openDatabase } = await import('../../src/db/database.js');
  const path = await import('node:path');
  const other = await openDatabase(path.join(server.dataDir, 'paraph.db'));
  const { addFaultRule } = await import('../../src/features/faults/add-fault-rule.js');
  addFaultRule({ ...server.running.ctx, db: other }, { accountId: server.accountId, rule: { target: 'api', path: '*', status: 500 }, root: 'rule' });
  other.close();
  await expectError(await server.call('GET', `/v1/signature-requests/${id}`), 500, 'internal_error');
  assert.equal((await server.call('GET', `/v1/signature-requests/${id}`)).status, 200);
});

test('the fault controls are in the OpenAPI document, the rule as a union told apart by `target`', async (t) => {
  const server = await useServer(t);
  const doc = await json<Record<string, any>>(await server.call('GET', '/v1/openapi.json', { key: null }));
  const add = doc.paths['/_sandbox/faults'].post;
  assert.equal(add.requestBody.content['application/json'].schema.$ref, '#/components/schemas/FaultRuleInput');
  assert.deepEqual(Object.keys(add.responses).sort(), ['201', '400', '401', '404', '408', '413', '417', '500', '503']);
  assert.deepEqual(Object.keys(doc.paths['/_sandbox/faults/{id}'].delete.responses).sort(), ['204', '400', '401', '404', '500', '503']);
  const input = doc.components.schemas.FaultRuleInput;
  assert.deepEqual(input.discriminator, { propertyName: 'target' });
  assert.deepEqual(
    input.oneOf.map((branch: { $ref: string }) => branch.$ref.split('/').pop()),
    ['ApiFaultInput', 'WebhookFaultInput', 'MailFaultInput', 'ArtifactsFaultInput'],
  );
  assert.equal(doc.components.schemas.ApiFaultInput.additionalProperties, false);
  assert.equal(doc.components.schemas.ApiFaultInput.properties.count.maximum, 1000);
});
