// `paraph webhooks check` against three receivers on loopback: the correct one of examples/ (every
// case right, exit 0), one that accepts everything (wrong on the forged, malformed and stale cases,
// exit 1) and one that verifies signatures but not timestamps (wrong on exactly the timestamp cases).
// The same check runs from the dashboard's API and from startSandbox().checkReceiver().
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { WebhookEvent } from '../../src/contract/webhooks.js';
import { ReceiverCheck as ReceiverCheckSchema, type ReceiverCheck } from '../../src/contract/receiver-check.js';
import { startSandbox } from '../../src/programmatic/index.js';
import { paraph } from '../helpers/cli.js';
import { expectError } from '../helpers/errors.js';
import { useReceiver } from '../helpers/receiver.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { signatureOnlyReceiver, startExampleReceiver } from '../helpers/webhook-receivers.js';

const SIGNATURE_CASES = ['forged-signature', 'wrong-secret', 'body-changed'];
const HEADER_CASES = ['missing-webhook-signature', 'malformed-webhook-signature', 'missing-webhook-id', 'empty-webhook-id', 'missing-webhook-timestamp'];
const TIMESTAMP_CASES = ['stale-timestamp', 'future-timestamp', 'timestamp-in-milliseconds'];

function secretOf(server: TestServer): string {
  const secret = server.running.firstKey?.webhook_secret;
  assert.ok(secret);
  return secret;
}

/** `paraph webhooks check --json` with the server's first key (by the environment, as a user's CI passes it). */
async function check(server: TestServer, url: string, extra: string[] = []): Promise<{ code: number | null; report: ReceiverCheck; stderr: string }> {
  const result = await paraph(['webhooks', 'check', '--url', url, '--json', '--data-dir', server.dataDir, ...extra], { PARAPH_API_KEY: server.apiKey });
  assert.ok(result.stdout.startsWith('{'), `no JSON report (exit ${result.code}): ${result.stderr}`);
  const report = JSON.parse(result.stdout) as ReceiverCheck;
  assert.ok(Value.Check(ReceiverCheckSchema, report), 'the report has the ReceiverCheck shape');
  return { code: result.code, report, stderr: result.stderr };
}

const wrongCases = (report: ReceiverCheck) => report.cases.filter((c) => !c.ok).map((c) => c.id);

function dashboard(server: TestServer, method: string, route: string, body?: unknown): Promise<Response> {
  const token = /#token=(pdash_[0-9A-Za-z]+)$/.exec(server.running.dashboardUrl)?.[1] ?? '';
  const headers: Record<string, string> = { authorization: `Dashboard ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return server.call(method, `/_dashboard/api${route}`, { key: null, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

test('the example receiver is right on every case: exit 0; the test deliveries stay out of the account’s deliveries', { timeout: 60_000 }, async (t) => {
  const server = await useServer(t);
  const receiver = await startExampleReceiver(t, secretOf(server));
  const { code, report, stderr } = await check(server, receiver.url);
  assert.equal(code, 0, stderr);
  assert.equal(
    report.passed,
    true,
    JSON.stringify(
      report.cases.filter((c) => !c.ok),
      null,
      2,
    ),
  );
  assert.deepEqual(wrongCases(report), []);
  assert.equal(report.passed_count, report.case_count);
  assert.equal(report.key_id, server.running.firstKey?.key_id);
  assert.equal(report.tolerance_seconds, 300);
  // One valid delivery per event type, answered 2xx; the retry and the out-of-order pair answered 2xx twice.
  const valid = report.cases.filter((c) => c.group === 'valid');
  assert.deepEqual(
    valid.map((c) => c.deliveries[0]?.event_type),
    WebhookEvent.properties.type.enum,
  );
  for (const id of ['retry-same-webhook-id', 'out-of-order']) {
    const pair = report.cases.find((c) => c.id === id);
    assert.equal(pair?.deliveries.length, 2, id);
    assert.ok(
      pair.deliveries.every((d) => d.status_code !== null && d.status_code < 300),
      `${id}: ${pair.answered}`,
    );
    assert.ok(pair.note, `${id} says what paraph cannot see`);
  }
  const [first, again] = report.cases.find((c) => c.id === 'retry-same-webhook-id')?.deliveries ?? [];
  assert.equal(first?.webhook_id, again?.webhook_id, 'a retry carries the same webhook-id');
  assert.equal(first?.body, again?.body, 'a retry carries the same bytes');
  const order = report.cases.find((c) => c.id === 'out-of-order')?.deliveries.map((d) => d.event_type);
  assert.deepEqual(order, ['signature_request.completed', 'signer.completed']);
  for (const c of report.cases.filter((c) => c.group !== 'timing')) {
    assert.ok(c.risk.length > 20 && c.fix.length > 20, `${c.id} names the risk and a fix`);
  }
  const timing = report.cases.find((c) => c.group === 'timing');
  assert.match(timing?.answered ?? '', /^slowest answer \d+ ms/);
  // The retried event was handled once: the receiver printed one line per event it acted on.
  const handled = receiver
    .output()
    .split('\n')
    .filter((line) => /^\S+\.\S+ /.test(line));
  assert.equal(
    handled.length,
    valid.length + 3,
    `one line per valid event, one for the retried event (not two), two for the out-of-order pair:\n${receiver.output()}`,
  );
  // A generous sanity bound; bench/receiver-check.ts measures it against the 3 s target.
  assert.ok(report.duration_ms < 10_000, `the check took ${report.duration_ms} ms`);

  // Real-looking events of the API's shapes, about no stored request, never among the deliveries.
  const requestIds = new Set<string>();
  for (const d of report.cases.flatMap((c) => c.deliveries)) {
    assert.equal(d.headers['paraph-test-delivery'], 'true');
    const event = JSON.parse(d.body) as WebhookEvent;
    assert.ok(Value.Check(WebhookEvent, event), d.body);
    assert.match(event.id, /^evt_[0-9A-Za-z]{16,}$/);
    requestIds.add(event.data.signature_request_id);
  }
  for (const id of requestIds) assert.equal((await server.call('GET', `/v1/signature-requests/${id}`)).status, 404);
  const deliveries = await json<{ data: unknown[] }>(await server.call('GET', '/v1/webhook-deliveries'));
  assert.deepEqual(deliveries.data, []);
  const stored = server.running.ctx.db.all(server.running.ctx.db.q.selectFrom('receiver_checks').selectAll());
  assert.deepEqual(
    stored.map((row) => [row.id, row.passed, row.url]),
    [[report.id, 1, receiver.url]],
  );
});

test('a receiver that accepts everything is wrong on the forged, malformed and stale cases: exit 1, and the text says why', { timeout: 60_000 }, async (t) => {
  const server = await useServer(t);
  const receiver = await useReceiver(t, '/webhooks');
  const { code, report, stderr } = await check(server, receiver.url);
  assert.equal(code, 1);
  assert.match(stderr, /the receiver answered 11 of 24 cases wrong/);
  assert.deepEqual(wrongCases(report).sort(), [...SIGNATURE_CASES, ...HEADER_CASES, ...TIMESTAMP_CASES].sort());
  assert.ok(receiver.received.every((r) => r.headers['paraph-test-delivery'] === 'true'));
  assert.equal(
    receiver.received.length,
    report.cases.reduce((n, c) => n + c.deliveries.length, 0),
  );
  // What each wrong delivery carried: a forged signature is none the key's secret made, a missing header is missing.
  const sent = (id: string) => report.cases.find((c) => c.id === id)?.deliveries[0]?.headers ?? {};
  assert.equal(sent('missing-webhook-id')['webhook-id'], undefined);
  assert.equal(sent('empty-webhook-id')['webhook-id'], '');
  assert.doesNotMatch(sent('malformed-webhook-signature')['webhook-signature'] ?? 'v1,', /^v1,/);

  const text = await paraph(['webhooks', 'check', '--url', receiver.url, '--data-dir', server.dataDir], { PARAPH_API_KEY: server.apiKey });
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^WRONG\s+a forged webhook-signature/m);
  assert.match(text.stdout, /^ok\s+a valid signer\.completed/m);
  assert.match(
    text.stdout,
    /WRONG: a webhook-timestamp 10 minutes old \(validly signed\) \(expected 4xx, answered 204\)\n {2}in production: .+\n {2}fix: reject a webhook-timestamp more than 5 minutes/,
  );
  assert.match(text.stdout, /11 of 24 cases wrong\.$/m);
});

test('a receiver that verifies signatures but not timestamps is wrong on exactly the timestamp cases', { timeout: 60_000 }, async (t) => {
  const server = await useServer(t);
  const url = await signatureOnlyReceiver(t, secretOf(server));
  const { code, report } = await check(server, url);
  assert.equal(code, 1);
  assert.deepEqual(wrongCases(report).sort(), [...TIMESTAMP_CASES].sort());
  assert.ok(report.cases.filter((c) => c.group === 'timestamp').every((c) => c.answered === '204'));
});

test('--tolerance moves the stale and future stamps; bad options are bad usage (exit 2); an unknown key is an error', { timeout: 60_000 }, async (t) => {
  const server = await useServer(t);
  const receiver = await startExampleReceiver(t, secretOf(server));
  // Assuming 2 minutes, the stamps are 4 minutes off: inside the 5 minutes the example accepts.
  const { code, report } = await check(server, receiver.url, ['--tolerance', '120']);
  assert.equal(code, 1);
  assert.deepEqual(wrongCases(report).sort(), ['future-timestamp', 'stale-timestamp']);
  assert.match(report.cases.find((c) => c.id === 'stale-timestamp')?.title ?? '', /4 minutes old/);

  for (const [args, message] of [
    [['--url', 'ftp://127.0.0.1/hooks'], /--url: .*http or https/],
    [['--url', 'not a url'], /--url: .*http\(s\) URL/],
    [['--url', receiver.url, '--tolerance', '0'], /--tolerance: .*whole number of seconds from 1/],
    [['--url', receiver.url, '--tolerance', '5m'], /--tolerance takes a whole number of seconds, got "5m"/],
    [['--url', receiver.url, '--tolerance', '1.5'], /--tolerance takes a whole number of seconds, got "1.5"/],
    [[], /--url/],
  ] as const) {
    const result = await paraph(['webhooks', 'check', ...args, '--data-dir', server.dataDir]);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message);
  }
  // A well-formed key no account holds, made here.
  const stranger = `paraph_test_${randomBytes(20).toString('hex')}`;
  const unknown = await paraph(['webhooks', 'check', '--url', receiver.url, '--data-dir', server.dataDir, '--key', stranger]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /unknown API key/);
  assert.ok(!unknown.stderr.includes(stranger.slice(0, 20)), 'the key is never repeated');
});

test('the dashboard runs the same check with a key it names, and lists earlier checks', { timeout: 60_000 }, async (t) => {
  const server = await useServer(t);
  const other = server.newKey();
  const receiver = await startExampleReceiver(t, secretOf(server));

  const overview = await json<{ scope: string; data: { keys: Array<{ key_id: string; webhook_secret_hint: string }>; checks: unknown[] } }>(
    await dashboard(server, 'GET', '/receiver-checks'),
  );
  assert.deepEqual(overview.data.keys.map((k) => k.key_id).sort(), [server.running.firstKey?.key_id, other.keyId].sort());
  assert.ok(overview.data.keys.every((k) => /^whsec_…/.test(k.webhook_secret_hint)));
  assert.deepEqual(overview.data.checks, []);

  const right = await dashboard(server, 'POST', '/receiver-checks', { url: receiver.url, key_id: server.running.firstKey?.key_id });
  assert.equal(right.status, 200);
  const rightReport = (await json<{ data: ReceiverCheck }>(right)).data;
  assert.equal(rightReport.passed, true);
  // Signed with another key's secret, every delivery the example should accept is refused.
  const wrong = (await json<{ data: ReceiverCheck }>(await dashboard(server, 'POST', '/receiver-checks', { url: receiver.url, key_id: other.keyId }))).data;
  assert.equal(wrong.passed, false);
  assert.ok(wrong.cases.filter((c) => c.expected === '2xx').every((c) => !c.ok));

  const listed = await json<{ data: { checks: ReceiverCheck[] } }>(await dashboard(server, 'GET', '/receiver-checks'));
  assert.deepEqual(
    listed.data.checks.map((c) => c.id),
    [wrong.id, rightReport.id],
  );

  await expectError(await dashboard(server, 'POST', '/receiver-checks', { url: 'ftp://x' }), 400, 'invalid_request', /http or https/);
  await expectError(
    await dashboard(server, 'POST', '/receiver-checks', { url: receiver.url, key_id: '00000000-0000-4000-8000-000000000000' }),
    404,
    'not_found',
  );
  await expectError(await dashboard(server, 'POST', '/receiver-checks', { url: receiver.url, tolerance_seconds: 0 }), 400, 'invalid_request');
  assert.equal(
    (
      await server.call('POST', '/_dashboard/api/receiver-checks', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url }),
      })
    ).status,
    401,
  );
});

test("the timing case measures the receiver's answers against the delivery timeout of the server that checks", { timeout: 60_000 }, async (t) => {
  const server = await useServer(t, { webhookTimeout: '1' });
  const receiver = await useReceiver(t, '/webhooks');
  const timing = async () => {
    const response = await dashboard(server, 'POST', '/receiver-checks', { url: receiver.url });
    const report = (await json<{ data: ReceiverCheck }>(response)).data;
    assert.equal(report.delivery_timeout_ms, 1000);
    const c = report.cases.find((c) => c.group === 'timing');
    assert.ok(c);
    assert.match(c.note ?? '', /waits 1 s/);
    return c;
  };
  receiver.respond({ status: 204, delayMs: 300 });
  const slowButInTime = await timing();
  assert.equal(slowButInTime.ok, true, slowButInTime.answered);
  const slowest = Number(/slowest answer (\d+) ms/.exec(slowButInTime.answered)?.[1]);
  assert.ok(slowest >= 300 && slowest < 1000, slowButInTime.answered);

  receiver.respond({ status: 204, delayMs: 1500 });
  const tooSlow = await timing();
  assert.equal(tooSlow.ok, false);
  assert.match(tooSlow.answered, /10 of 10 not answered/);
  assert.match(tooSlow.risk, /retried/);
});

test('startSandbox().checkReceiver() answers the report', { timeout: 90_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.stop());
  const receiver = await startExampleReceiver(t, sandbox.webhookSecret);
  const report = await sandbox.checkReceiver(receiver.url);
  assert.equal(report.passed, true, JSON.stringify(report.cases.filter((c) => !c.ok)));
  const stale = await sandbox.checkReceiver(receiver.url, { toleranceSeconds: 120 });
  assert.equal(stale.passed, false);
  // Another key's secret: the receiver, verifying with this key's, refuses what it should accept.
  const other = await sandbox.createKey();
  const foreign = await sandbox.checkReceiver(receiver.url, { apiKey: other.api_key });
  assert.equal(foreign.key_id, other.key_id);
  assert.ok(foreign.cases.filter((c) => c.group === 'valid').every((c) => !c.ok && c.answered === '400'));
  await assert.rejects(sandbox.checkReceiver('ftp://x'), /--url/);
});
