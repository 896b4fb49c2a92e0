// The error kind table (src/domain/errors.ts): every kind answers a code of the API description at a
// status documented for it, every code is a kind of its own, and a reason goes out only under a
// signing link (src/http/errors.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { ERROR_KINDS, ERROR_REASONS, ParaphError, type ErrorCode, type ErrorKind } from '../../src/domain/errors.js';
import { sendError, toParaphError } from '../../src/http/errors.js';

const ROOT = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const kinds = Object.entries(ERROR_KINDS) as Array<[ErrorKind, (typeof ERROR_KINDS)[ErrorKind]]>;

/** The codes the API description lists ("`code` values: … Also used: …"), and its statuses by cause. */
function describedErrors(): { codes: Set<string>; statuses: Set<number> } {
  const text = read('docs/api-description.md');
  const section = text.slice(text.indexOf('## Errors'), text.indexOf('## Limits'));
  const line = section.split('\n').find((l) => l.startsWith('`code` values:')) ?? '';
  const codes = new Set([...line.matchAll(/`([a-z_]+)`/g)].map((m) => m[1] as string));
  const statuses = new Set([...section.matchAll(/^\| (\d{3}) \|/gm)].map((m) => Number(m[1])));
  return { codes, statuses };
}

/** paraph's own table of (status, code) pairs (docs/api-decisions.md), for what the description leaves open. */
function decidedPairs(): Set<string> {
  const pairs = new Set<string>();
  for (const [, statuses, code] of read('docs/api-decisions.md').matchAll(/^\| ([\d, ]+) \| `([a-z_]+)` \|/gm)) {
    for (const status of (statuses as string).split(',')) pairs.add(`${status.trim()} ${code}`);
  }
  return pairs;
}

test('every kind answers a code of the API description, at a status documented for that code', () => {
  const { codes, statuses } = describedErrors();
  assert.ok(codes.size >= 14, `the description's codes were found: ${[...codes].join(', ')}`);
  assert.ok(statuses.has(410) && statuses.has(503), "the description's status table was found");
  const pairs = decidedPairs();
  for (const [kind, entry] of kinds) {
    // The description leaves the 422 key-reuse code open ("not shown"); paraph's choice is in its decisions.
    if (entry.code === 'idempotency_key_reused') assert.match(read('docs/api-description.md'), /The `code` value of the 422 key-reuse error: not shown/);
    else assert.ok(codes.has(entry.code), `${kind}: ${entry.code} is a code of the API description`);
    assert.ok(Number.isInteger(entry.status) && entry.status >= 400 && entry.status < 600, `${kind}: ${entry.status} is an error status`);
    // The status is one the description gives a cause for, or one paraph's decisions add for this code.
    const decided = pairs.has(`${entry.status} ${entry.code}`);
    assert.ok(statuses.has(entry.status) || decided, `${kind}: ${entry.status} is documented`);
    // Where paraph's decisions list the code (all but request_expired, which nothing raises), they list this status.
    if ([...pairs].some((pair) => pair.endsWith(` ${entry.code}`))) assert.ok(decided, `${kind}: ${entry.status} ${entry.code} is in docs/api-decisions.md`);
  }
  assert.ok(pairs.has('405 invalid_request') && pairs.has('413 invalid_request') && pairs.has('410 artifact_not_available'), 'the decisions table was found');
  // Every status the description gives a cause for is answered by some kind.
  const answered = new Set<number>(kinds.map(([, entry]) => entry.status));
  for (const status of statuses) assert.ok(answered.has(status), `some kind answers ${status}`);
});

test('every code is a kind of its own at its usual status; the other kinds change only the status or add a reason', () => {
  const codes = new Set(kinds.map(([, entry]) => entry.code));
  for (const code of codes) {
    const own = ERROR_KINDS[code as ErrorKind] as { code: ErrorCode; status: number; reason?: string } | undefined;
    assert.equal(own?.code, code, `${code} is a kind`);
    assert.equal(own?.reason, undefined, `${code} carries no reason`);
  }
  assert.deepEqual(
    kinds.filter(([kind]) => !codes.has(kind as ErrorCode)).map(([kind, e]) => [kind, e.code, e.status]),
    [
      ['artifact_purged', 'artifact_not_available', 410],
      ['method_not_allowed', 'invalid_request', 405],
      ['body_too_large', 'invalid_request', 413],
      ['request_timeout', 'invalid_request', 408],
      ['expectation_failed', 'invalid_request', 417],
      ['head_too_large', 'invalid_request', 431],
      ['otp_locked', 'conflict', 409],
      ['otp_code_expired', 'conflict', 409],
    ],
  );
});

test('an error takes its code, status and reason from its kind only', () => {
  const purged = new ParaphError('artifact_purged', 'gone');
  assert.deepEqual([purged.code, purged.status, purged.reason, purged.message], ['artifact_not_available', 410, undefined, 'gone']);
  const refused = new ParaphError('method_not_allowed', 'no', { headers: { allow: 'GET' } });
  assert.deepEqual([refused.code, refused.status, refused.headers], ['invalid_request', 405, { allow: 'GET' }]);
  const locked = new ParaphError('otp_locked', 'locked', { details: { locked_until: '2026-01-02T00:00:00.000Z' } });
  assert.deepEqual([locked.code, locked.status, locked.reason], ['conflict', 409, 'otp_locked']);
  // A framework error is mapped by its code property, whatever its message says.
  const tooLarge = toParaphError(Object.assign(new Error('anything'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }));
  assert.deepEqual([tooLarge.kind, tooLarge.code, tooLarge.status], ['body_too_large', 'invalid_request', 413]);
  const fileTooLarge = toParaphError(Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE', statusCode: 413 }));
  assert.deepEqual([fileTooLarge.code, fileTooLarge.status], ['invalid_document', 400]);
});

test("reasons: each documented for the signing page, sent only on a signing link's API, never on /v1", async (t) => {
  const documented = read('docs/signer.md');
  assert.deepEqual([...ERROR_REASONS], ['otp_locked', 'otp_code_expired']);
  for (const reason of ERROR_REASONS) assert.ok(documented.includes(`| \`${reason}\` |`), `${reason} is in docs/signer.md`);

  const app = Fastify();
  t.after(() => app.close());
  app.setErrorHandler((error, request, reply) => sendError(request, reply, toParaphError(error, request)));
  const locked = () => {
    throw new ParaphError('otp_locked', 'too many wrong codes', { details: { locked_until: '2026-01-02T00:00:00.000Z' } });
  };
  app.post('/sign/:token/api/otp', locked);
  app.post('/v1/signature-requests', locked);
  app.post('/sign/:token/api/sign', () => {
    throw new ParaphError('conflict', 'signing is sequential');
  });

  const underLink = await app.inject({ method: 'POST', url: '/sign/abc/api/otp' });
  assert.equal(underLink.statusCode, 409);
  assert.deepEqual(underLink.json(), {
    error: {
      code: 'conflict',
      message: 'too many wrong codes',
      request_id: underLink.headers['x-request-id'],
      reason: 'otp_locked',
      locked_until: '2026-01-02T00:00:00.000Z',
    },
  });
  const api = await app.inject({ method: 'POST', url: '/v1/signature-requests' });
  assert.equal(api.statusCode, 409);
  assert.deepEqual(Object.keys(api.json().error).sort(), ['code', 'message', 'request_id']);
  const plain = await app.inject({ method: 'POST', url: '/sign/abc/api/sign' });
  assert.deepEqual(Object.keys(plain.json().error).sort(), ['code', 'message', 'request_id']);
});
