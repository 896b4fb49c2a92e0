import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeFault, faultMatches, faultRuleMistake, pathMatches, webhookFaultOutcome, withDefaults, type FaultSpec } from '../../src/domain/fault-rules.js';
import type { FaultRuleInput } from '../../src/contract/faults.js';

const ID = '7f3c9a52-1b2d-4c3e-8f4a-5b6c7d8e9f01';
const OTHER = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';

test('pathMatches: `{name}` is one whole segment, a last `*` any rest, `*` alone any /v1 path', () => {
  const cases: Array<[string, string, boolean]> = [
    ['/v1/signature-requests/{id}', `/v1/signature-requests/${ID}`, true],
    ['/v1/signature-requests/{id}', `/v1/signature-requests/${ID}?x=1`, true],
    ['/v1/signature-requests/{id}', `/v1/signature-requests/${ID}/`, true],
    ['/v1/signature-requests/{id}', '/v1/signature-requests', false],
    ['/v1/signature-requests/{id}', '/v1/signature-requests/', false],
    ['/v1/signature-requests/{id}', `/v1/signature-requests/${ID}/activate`, false],
    ['/v1/signature-requests/{id}/activate', `/v1/signature-requests/${ID}/activate`, true],
    ['/v1/signature-requests/{id}/activate', `/v1/signature-requests/${ID}/cancel`, false],
    ['/v1/signature-requests', '/v1/signature-requests?limit=5', true],
    ['/v1/signature-requests', '/v1/templates', false],
    ['/v1/signature-requests/*', `/v1/signature-requests/${ID}/signers/a/replace`, true],
    ['/v1/signature-requests/*', `/v1/signature-requests/${ID}`, true],
    ['/v1/signature-requests/*', '/v1/signature-requests', false],
    ['*', '/v1/templates', true],
    ['*', '/_sandbox/faults', false],
    ['*', '/sign/abc', false],
  ];
  for (const [pattern, path, expected] of cases) assert.equal(pathMatches(pattern, path), expected, `${pattern} vs ${path}`);
});

test('faultMatches: method and path for API calls, the request for the other targets', () => {
  const api = withDefaults({ target: 'api', method: 'GET', path: '/v1/signature-requests/{id}', status: 503 });
  assert.equal(faultMatches(api, { target: 'api', method: 'GET', path: `/v1/signature-requests/${ID}` }), true);
  assert.equal(faultMatches(api, { target: 'api', method: 'get', path: `/v1/signature-requests/${ID}` }), true);
  assert.equal(faultMatches(api, { target: 'api', method: 'POST', path: `/v1/signature-requests/${ID}` }), false);
  assert.equal(faultMatches(api, { target: 'webhook', signatureRequestId: ID }), false);
  const anyMethod = withDefaults({ target: 'api', path: '*', delay_ms: 5 });
  assert.equal(faultMatches(anyMethod, { target: 'api', method: 'DELETE', path: `/v1/templates/${ID}` }), true);

  const mail = withDefaults({ target: 'mail' });
  assert.equal(faultMatches(mail, { target: 'mail', signatureRequestId: ID }), true);
  assert.equal(faultMatches(mail, { target: 'webhook', signatureRequestId: ID }), false);
  const oneRequest = withDefaults({ target: 'webhook', error: 'timeout', signature_request_id: ID });
  assert.equal(faultMatches(oneRequest, { target: 'webhook', signatureRequestId: ID }), true);
  assert.equal(faultMatches(oneRequest, { target: 'webhook', signatureRequestId: OTHER }), false);
  const artifacts = withDefaults({ target: 'artifacts', mode: 'fail', signature_request_id: OTHER });
  assert.equal(faultMatches(artifacts, { target: 'artifacts', signatureRequestId: OTHER }), true);
  assert.equal(faultMatches(artifacts, { target: 'artifacts', signatureRequestId: ID }), false);
});

test('faultRuleMistake: what the schema cannot say', () => {
  const mistakes: Array<[FaultRuleInput, RegExp | null]> = [
    [{ target: 'api', path: '*', status: 503 }, null],
    [{ target: 'api', path: '/v1/signature-requests/{id}/artifacts/{type}', delay_ms: 10 }, null],
    [{ target: 'api', path: '/v1/signature-requests/*', status: 500 }, null],
    [{ target: 'api', path: '*', status: 503, delay_ms: 10 }, /exclude each other/],
    [{ target: 'api', path: '*' }, /body\.status or body\.delay_ms is required/],
    [{ target: 'api', path: '/_sandbox/faults', status: 500 }, /must start with \/v1\//],
    [{ target: 'api', path: '/v1', status: 500 }, /must start with \/v1\//],
    [{ target: 'api', path: '/v1//x', status: 500 }, /malformed segment ""/],
    [{ target: 'api', path: '/v1/*/x', status: 500 }, /malformed segment "\*"/],
    [{ target: 'api', path: '/v1/x*', status: 500 }, /malformed segment "x\*"/],
    [{ target: 'api', path: '/v1/{id', status: 500 }, /malformed segment "\{id"/],
    [{ target: 'api', path: '/v1/x?y=1', status: 500 }, /malformed segment/],
    [{ target: 'webhook', error: 'status', status: 502 }, null],
    [{ target: 'webhook', error: 'timeout', status: 502 }, /goes only with "error": "status"/],
    [{ target: 'mail', count: 3 }, null],
    [{ target: 'artifacts', mode: 'delay' }, /delay_ms is required/],
    [{ target: 'artifacts', mode: 'fail', delay_ms: 10 }, /goes only with "mode": "delay"/],
    [{ target: 'artifacts', mode: 'delay', delay_ms: 10 }, null],
  ];
  for (const [rule, expected] of mistakes) {
    const mistake = faultRuleMistake(rule, 'body');
    if (expected === null) assert.equal(mistake, null, JSON.stringify(rule));
    else assert.match(mistake ?? '', expected, JSON.stringify(rule));
  }
});

test('withDefaults: one operation, a refusing webhook answers 500', () => {
  assert.deepEqual(withDefaults({ target: 'mail' }), { target: 'mail', count: 1 });
  assert.deepEqual(withDefaults({ target: 'webhook', error: 'status' }), { target: 'webhook', error: 'status', status: 500, count: 1 });
  assert.deepEqual(withDefaults({ target: 'webhook', error: 'timeout', count: 4 }), { target: 'webhook', error: 'timeout', count: 4 });
});

test('webhookFaultOutcome: recorded exactly as the real failure of that kind', () => {
  const rule = (r: Partial<FaultSpec>) =>
    withDefaults({ target: 'webhook', error: 'status', ...r } as FaultRuleInput) as Extract<FaultSpec, { target: 'webhook' }>;
  assert.deepEqual(webhookFaultOutcome(rule({ status: 502 }), 15_000), { statusCode: 502, error: 'answered 502', durationMs: 0 });
  assert.deepEqual(webhookFaultOutcome(rule({ status: 302 }), 15_000), { statusCode: 302, error: 'answered 302: redirects are not followed', durationMs: 0 });
  assert.deepEqual(webhookFaultOutcome(rule({ error: 'timeout' }), 15_000), { statusCode: null, error: 'timed out after 15 s', durationMs: 15_000 });
  assert.deepEqual(webhookFaultOutcome(rule({ error: 'connection_refused' }), 15_000), {
    statusCode: null,
    error: 'connection failed: ECONNREFUSED',
    durationMs: 0,
  });
});

test('describeFault: one line per rule', () => {
  assert.equal(
    describeFault(withDefaults({ target: 'api', method: 'GET', path: '/v1/signature-requests/{id}', status: 503 })),
    'GET /v1/signature-requests/{id}: answered 503',
  );
  assert.equal(describeFault(withDefaults({ target: 'api', path: '*', delay_ms: 2000 })), 'calls to any /v1 path: delayed 2000 ms');
  assert.equal(
    describeFault(withDefaults({ target: 'webhook', error: 'timeout', signature_request_id: ID })),
    `webhook attempts of request ${ID} fail: time out`,
  );
  assert.equal(describeFault(withDefaults({ target: 'mail' })), 'mails fail to send');
  assert.equal(describeFault(withDefaults({ target: 'artifacts', mode: 'fail' })), 'artifact generation fails');
});
