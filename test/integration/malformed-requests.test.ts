// Every line: the line's HTTP parser on raw sockets (malformed requests, headers, methods, bodies).
// Malformed requests against the real server, over raw sockets: some 3,400 generated requests (see
// helpers/bad-requests.ts) covering multipart shapes, JSON bodies of wrong types, depth, keys and
// encodings, bodies of other content types, ids and paths, methods, query strings, headers, credentials,
// Idempotency-Keys, the signer's API under made-up links, the /_sandbox controls, requests Node's own
// parser refuses, every host spelling in the URL fields, and random changes to valid bodies.
//
// For every answer: it arrives within 10 s, its status is below 500 (so never 503 either), it is one of
// the statuses its case allows, an error answer is the contract's envelope — exactly
// {"error": {"code", "message", "request_id"}} with a known code that fits the status and the request id
// also in X-Request-Id — and an accepted URL is one the contract allows. Afterwards paraph still answers,
// and nothing it had stored has changed: the existing requests, the template, the clock, the caught mail,
// the audit trails and the blob files; the only new requests are those answered 201, and they read back.
//
// The seed is fixed so every run sends the same requests; set PARAPH_FUZZ_SEED to try others, and
// PARAPH_FUZZ_REPORT=file.jsonl to keep one line per request (labels and masked answers, no keys).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  generateBadRequests,
  SPARES,
  TEMPLATE_FIELDS,
  validPayload,
  type BadRequest,
  type Category,
  type Targets,
  type Wire,
} from '../helpers/bad-requests.js';
import { activate, auditOf, createRequest } from '../helpers/flows.js';
import { a4Pdf } from '../helpers/requests.js';
import { json, useServer, type TestServer } from '../helpers/server.js';

const SEED = Number(process.env.PARAPH_FUZZ_SEED ?? 20_261_124);
const CONCURRENCY = 6;
const ANSWER_TIMEOUT_MS = 10_000;
const ROUTE = '/v1/signature-requests';

/** Every error code of the API description and the sandbox contract, with the statuses each may carry. */
const CODES_BY_STATUS: Readonly<Record<number, readonly string[]>> = {
  400: ['invalid_request', 'invalid_document'],
  401: ['unauthorized'],
  404: ['not_found', 'template_not_found'],
  405: ['invalid_request'],
  409: ['conflict', 'request_not_ready', 'request_expired', 'template_not_ready', 'idempotency_request_in_progress', 'artifact_not_available'],
  410: ['artifact_not_available'],
  413: ['invalid_request'],
  422: ['idempotency_key_reused'],
  429: ['rate_limit_exceeded'],
};
const KNOWN_CODES = new Set([...Object.values(CODES_BY_STATUS).flat(), 'internal_error', 'temporarily_unavailable']);
/** Codes for a client error the contract names no code for (a 415 or a 431, say). */
const OTHER_CLIENT_ERROR_CODES = ['invalid_request'];

// ------------------------------------------------------------------------------------------------------------
// A raw HTTP/1.1 client: one connection per request, bytes exactly as the case says

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

type Outcome =
  | { kind: 'answer'; answer: Answer; ms: number }
  | { kind: 'hang'; ms: number; receivedBytes: number }
  | { kind: 'no-answer'; ms: number; receivedBytes: number; error: string | null };

const CRLF = Buffer.from('\r\n');

function bytesOf(value: string | Buffer): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
}

/** The request's bytes: request line, Host, the case's headers, Content-Length, Connection: close, body. */
function serialize(wire: Wire): { head: Buffer; body: Buffer } {
  const lines: Buffer[] = [Buffer.concat([bytesOf(`${wire.method} `), bytesOf(wire.target), bytesOf(` ${wire.version ?? 'HTTP/1.1'}`)])];
  if (!wire.noHost) lines.push(bytesOf('Host: 127.0.0.1'));
  for (const [name, value] of wire.headers) {
    lines.push(name === '' ? bytesOf(value) : Buffer.concat([bytesOf(`${name}: `), bytesOf(value)]));
  }
  const body = wire.body ?? Buffer.alloc(0);
  if (!wire.manualLength && wire.body !== undefined) lines.push(bytesOf(`Content-Length: ${body.length}`));
  lines.push(bytesOf('Connection: close'));
  const head = Buffer.concat([...lines.flatMap((line) => [line, CRLF]), CRLF]);
  return { head, body };
}

/** A complete answer in `bytes`, or null while more is needed (interim 1xx answers are skipped). */
function parseAnswer(bytes: Buffer, isHead: boolean, closed: boolean): Answer | null {
  let start = 0;
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', start);
    if (end < 0) return null;
    const lines = bytes.subarray(start, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!match) return closed ? { status: 0, headers: {}, body: bytes } : null;
    const status = Number(match[1]);
    if (status >= 100 && status < 200) {
      start = end + 4;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const rest = bytes.subarray(end + 4);
    if (isHead || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const body = dechunk(rest);
      return body ? { status, headers, body } : closed ? { status, headers, body: rest } : null;
    }
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      return rest.length >= length ? { status, headers, body: rest.subarray(0, length) } : closed ? { status, headers, body: rest } : null;
    }
    return closed ? { status, headers, body: rest } : null;
  }
}

/** A chunked body once its last chunk has arrived, else null. */
function dechunk(bytes: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (Number.isNaN(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < eol + 2 + size + 2) return null;
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** Sends one request on a fresh connection and waits for its answer, at most ANSWER_TIMEOUT_MS. */
function exchange(port: number, wire: Wire): Promise<Outcome> {
  const { head, body } = serialize(wire);
  const isHead = wire.method === 'HEAD';
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let error: string | null = null;
    let settled = false;
    const socket = net.connect(port, '127.0.0.1');
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'hang', ms: performance.now() - started, receivedBytes: received }), ANSWER_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      const answer = parseAnswer(Buffer.concat(chunks), isHead, false);
      if (answer) finish({ kind: 'answer', answer, ms: performance.now() - started });
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      const answer = received > 0 ? parseAnswer(Buffer.concat(chunks), isHead, true) : null;
      const ms = performance.now() - started;
      finish(answer ? { kind: 'answer', answer, ms } : { kind: 'no-answer', ms, receivedBytes: received, error });
    });
    socket.write(head);
    if (wire.sendBodyBytes !== undefined) {
      socket.write(body.subarray(0, wire.sendBodyBytes));
      socket.end();
    } else if (body.length > 0) {
      socket.write(body);
    }
  });
}

// ------------------------------------------------------------------------------------------------------------
// Judging answers

type ProblemKind = 'hang' | 'no answer' | '5xx' | 'status' | 'envelope' | 'leak' | 'check';

interface Result {
  request: BadRequest;
  outcome: Outcome;
  status: number | null;
  problems: Array<{ kind: ProblemKind; detail: string }>;
}

/** What is wrong with an error answer's body and headers, or null when it is the contract's envelope. */
function envelopeProblem(answer: Answer, isHead: boolean): string | null {
  const type = answer.headers['content-type'] ?? '';
  if (!/^application\/json/.test(type)) return `content-type ${JSON.stringify(type)}, body ${snippet(answer.body)}`;
  const requestId = answer.headers['x-request-id'];
  if (!requestId) return `no X-Request-Id header, body ${snippet(answer.body)}`;
  if (isHead) return null;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return `body is not JSON: ${snippet(answer.body)}`;
  }
  const envelope = body as { error?: Record<string, unknown> };
  if (body === null || typeof body !== 'object' || Object.keys(body).join() !== 'error' || typeof envelope.error !== 'object' || envelope.error === null) {
    return `not {"error": {...}}: ${snippet(answer.body)}`;
  }
  const error = envelope.error;
  if (Object.keys(error).sort().join() !== 'code,message,request_id') return `error keys ${Object.keys(error).join(', ')}`;
  if (typeof error.code !== 'string' || !KNOWN_CODES.has(error.code)) return `unknown code ${JSON.stringify(error.code)}`;
  const fitting = CODES_BY_STATUS[answer.status] ?? OTHER_CLIENT_ERROR_CODES;
  if (!fitting.includes(error.code)) return `code ${error.code} with status ${answer.status}`;
  if (typeof error.message !== 'string' || error.message.length === 0) return 'message is not a non-empty string';
  if (typeof error.request_id !== 'string' || !/^req_[0-9A-Za-z]+$/.test(error.request_id)) return `request_id ${JSON.stringify(error.request_id)}`;
  if (error.request_id !== requestId) return 'request_id differs from X-Request-Id';
  return null;
}

function judge(request: BadRequest, outcome: Outcome): Result {
  const problems: Result['problems'] = [];
  if (outcome.kind === 'hang') {
    problems.push({ kind: 'hang', detail: `no complete answer in ${ANSWER_TIMEOUT_MS} ms (${outcome.receivedBytes} bytes received)` });
    return { request, outcome, status: null, problems };
  }
  if (outcome.kind === 'no-answer') {
    problems.push({ kind: 'no answer', detail: `connection closed without an answer (${outcome.error ?? 'clean close'}, ${outcome.receivedBytes} bytes)` });
    return { request, outcome, status: null, problems };
  }
  const { answer } = outcome;
  if (answer.status === 0) {
    problems.push({ kind: 'no answer', detail: `bytes that are not an HTTP answer: ${snippet(answer.body)}` });
    return { request, outcome, status: null, problems };
  }
  const text = answer.body.toString('latin1');
  if (answer.status >= 500) problems.push({ kind: '5xx', detail: `${answer.status} ${snippet(answer.body)}` });
  else if (!request.allow.includes(answer.status))
    problems.push({ kind: 'status', detail: `${answer.status}, expected ${allowed(request.allow)}: ${snippet(answer.body)}` });
  if (answer.status >= 400) {
    const problem = envelopeProblem(answer, request.wire.method === 'HEAD');
    if (problem) problems.push({ kind: 'envelope', detail: `${answer.status}: ${problem}` });
  }
  if (request.leak?.test(text)) problems.push({ kind: 'leak', detail: `answer ${answer.status} holds file content: ${snippet(answer.body)}` });
  if (answer.status >= 200 && answer.status < 300 && request.check) {
    let body: unknown;
    try {
      body = JSON.parse(answer.body.toString('utf8'));
    } catch {
      body = undefined;
    }
    const problem = body === undefined ? `answer is not JSON: ${snippet(answer.body)}` : request.check(body);
    if (problem) problems.push({ kind: 'check', detail: problem });
  }
  return { request, outcome, status: answer.status, problems };
}

function allowed(statuses: readonly number[]): string {
  return statuses.length > 10 ? `${Math.min(...statuses)}-${Math.max(...statuses)}` : statuses.join('/');
}

/** The start of a body for a failure message, with anything key- or token-like masked. */
function snippet(body: Buffer): string {
  const text = body
    .toString('utf8')
    .slice(0, 200)
    .replace(/paraph_test_\w+|whsec_[\w+/=]+|\/(sign|embed)\/[A-Za-z0-9_-]{20,}/g, '[masked]');
  return JSON.stringify(text);
}

async function runAll(port: number, requests: BadRequest[]): Promise<Result[]> {
  const results: Result[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      results[request.index] = judge(request, await exchange(port, request.wire));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

// ------------------------------------------------------------------------------------------------------------
// Reporting

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function summaryLine(name: string, results: readonly Result[]): string {
  const statuses = [...countBy(results, (r) => (r.status === null ? 'none' : String(r.status))).entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  const count = (kind: ProblemKind) => results.filter((r) => r.problems.some((p) => p.kind === kind)).length;
  return (
    `${name.padEnd(16)} sent ${String(results.length).padStart(4)} | hangs ${count('hang')} | no answer ${count('no answer')} | 5xx ${count('5xx')} | ` +
    `non-envelope ${count('envelope')} | unexpected status ${count('status')} | leaks ${count('leak')} | checks ${count('check')} | ${statuses}`
  );
}

/** One JSON line per request (label, status, problems; no keys or tokens), for PARAPH_FUZZ_REPORT. */
function writeReport(file: string, results: readonly Result[]): void {
  const lines = results.map((r) =>
    JSON.stringify({
      index: r.request.index,
      category: r.request.category,
      label: r.request.label,
      method: r.request.wire.method,
      allow: allowed(r.request.allow),
      outcome: r.outcome.kind,
      status: r.status,
      ms: Math.round(r.outcome.ms),
      problems: r.problems,
      body: r.outcome.kind === 'answer' ? snippet(r.outcome.answer.body) : null,
    }),
  );
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

/** The requests that creates among the cases said they made (answers 201), as their CreateResponse. */
function createdRequests(results: readonly Result[]): Array<{ id: string; client_reference: string }> {
  return results.flatMap((r) => {
    if (r.outcome.kind !== 'answer' || r.request.wire.target !== ROUTE || r.request.wire.method !== 'POST') return [];
    if (r.outcome.answer.status !== 201) return [];
    return [JSON.parse(r.outcome.answer.body.toString('utf8')) as { id: string; client_reference: string }];
  });
}

/** A query-string value, or null for a string that has no UTF-8 form (a lone surrogate). */
function queryValue(text: string): string | null {
  try {
    return encodeURIComponent(text);
  } catch {
    return null;
  }
}

/** The wrong answers, one line per kind of case and problem (with how many times it came), for a failure message. */
function failureReport(results: readonly Result[], max = 30): string {
  const failing = results.filter((r) => r.problems.length > 0);
  const groups = new Map<string, { first: Result; count: number }>();
  for (const r of failing) {
    const key = `${r.request.label}|${r.status}|${r.problems.map((p) => p.kind).join()}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { first: r, count: 1 });
  }
  const lines = [...groups.values()].slice(0, max).map(({ first: r, count }) => {
    const times = count > 1 ? ` (×${count})` : '';
    return `  #${r.request.index} [${r.request.category}] ${r.request.label}${times}: ${r.problems.map((p) => `${p.kind}: ${p.detail}`).join('; ')}`;
  });
  if (groups.size > max) lines.push(`  … and ${groups.size - max} more kinds (PARAPH_FUZZ_REPORT=file.jsonl lists every answer)`);
  return `${failing.length} of ${results.length} answers are wrong (seed ${SEED}):\n${lines.join('\n')}`;
}

// ------------------------------------------------------------------------------------------------------------
// What the server holds before and after

interface Holdings {
  prepared: unknown;
  active: unknown;
  spare: unknown[];
  templates: unknown;
  requestIds: string[];
  clockOffset: number;
  emailCount: number;
  audit: { prepared: unknown[]; active: unknown[] };
  blobs: string[];
  objectPrototype: string[];
}

async function getJson<T = unknown>(server: TestServer, route: string): Promise<T> {
  const response = await server.call('GET', route);
  assert.equal(response.status, 200, `${route}: ${await response.clone().text()}`);
  return json<T>(response);
}

/** Every request id of the account, page after page. */
async function allRequestIds(server: TestServer): Promise<string[]> {
  const ids: string[] = [];
  let cursor = '';
  do {
    const page = await getJson<{ data: Array<{ id: string }>; next_cursor: string }>(server, `${ROUTE}?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    ids.push(...page.data.map((item) => item.id));
    cursor = page.next_cursor;
  } while (cursor);
  return ids.sort();
}

async function holdings(server: TestServer, targets: Targets): Promise<Holdings> {
  return {
    prepared: await getJson(server, `${ROUTE}/${targets.preparedId}`),
    active: await getJson(server, `${ROUTE}/${targets.activeId}`),
    spare: await Promise.all([...targets.spare.prepared, ...targets.spare.active].map((id) => getJson(server, `${ROUTE}/${id}`))),
    templates: await getJson(server, '/v1/templates'),
    requestIds: await allRequestIds(server),
    clockOffset: (await getJson<{ offset_seconds: number }>(server, '/_sandbox/clock')).offset_seconds,
    // Mail of the spare requests is left out: a reminder on one of them would mail its signer.
    emailCount: (await getJson<{ data: Array<{ signature_request_id: string | null }> }>(server, '/_sandbox/emails')).data.filter(
      (mail) => !mail.signature_request_id || ![...targets.spare.prepared, ...targets.spare.active].includes(mail.signature_request_id),
    ).length,
    audit: { prepared: auditOf(server, targets.preparedId), active: auditOf(server, targets.activeId) },
    blobs: fs.readdirSync(path.join(server.dataDir, 'blobs')).sort(),
    objectPrototype: Object.getOwnPropertyNames(Object.prototype).sort(),
  };
}

/** Prepared and active requests (with a signing link), spare ones, and a template, all made through the API. */
async function makeTargets(server: TestServer): Promise<Targets> {
  const preparedId = await createRequest(server, validPayload('malformed-prepared'));
  const activeId = await createRequest(server, validPayload('malformed-active'));
  const signingUrl = (await activate(server, activeId)).signers[0]!.signing_url;
  const spare = { prepared: [] as string[], active: [] as string[] };
  for (let i = 0; i < SPARES.prepared; i++) spare.prepared.push(await createRequest(server, validPayload(`malformed-spare-prepared-${i}`)));
  for (let i = 0; i < SPARES.active; i++) {
    const id = await createRequest(server, validPayload(`malformed-spare-active-${i}`));
    await activate(server, id);
    spare.active.push(id);
  }
  const form = new FormData();
  form.append('document', new Blob([await a4Pdf()], { type: 'application/pdf' }), 'template.pdf');
  form.append('name', 'Malformed-requests template');
  form.append('fields', JSON.stringify(TEMPLATE_FIELDS));
  const template = await server.call('POST', '/v1/templates', { body: form });
  assert.equal(template.status, 201, await template.clone().text());
  return {
    apiKey: server.apiKey,
    preparedId,
    activeId,
    signingPath: new URL(signingUrl).pathname,
    templateId: (await json<{ id: string }>(template)).id,
    pdf: await a4Pdf(),
    spare,
  };
}

// ------------------------------------------------------------------------------------------------------------

const CATEGORY_TITLES: Record<Category, string> = {
  multipart: 'multipart shapes of the create and template uploads',
  'json-body': 'JSON bodies of wrong types, depth, keys and encodings',
  'content-type': 'multipart, form and text bodies on activate, cancel and reminders, whose JSON input is optional',
  path: 'ids, path traversal and path shapes',
  method: 'methods a path does not take',
  query: 'query strings: limit, cursor, filters, unknown and polluting parameters',
  header: 'header values paraph reads',
  auth: 'bad Authorization headers, also on calls that would act',
  'idempotency-key': 'bad Idempotency-Key values on calls that would act',
  signer: 'the signer API under made-up links, and bad bodies under a real one',
  sandbox: 'the /_sandbox controls with bad bodies and ids',
  protocol: "requests Node's HTTP parser refuses (oversized heads, control characters, framing)",
  url: 'every host spelling in callback_url, return_url, embed_origin and logo_url',
  random: 'random byte changes to valid bodies, random values in valid payloads, odd URLs',
};

test('malformed requests: every answer is prompt, below 500, expected and in the envelope; nothing stored changes', {
  timeout: 240_000,
}, async (t: TestContext) => {
  // A body cut off by its client (it went away) is logged as a failed request: expected here.
  const server = await useServer(t, {}, {}, { expectedErrors: /^request failed: aborted$/ });
  const port = Number(new URL(server.url).port);
  const targets = await makeTargets(server);
  const before = await holdings(server, targets);

  const requests = generateBadRequests(targets, SEED);
  const started = performance.now();
  const results = await runAll(port, requests);
  const seconds = (performance.now() - started) / 1000;

  const categories = Object.keys(CATEGORY_TITLES) as Category[];
  const byCategory = (category: Category) => results.filter((r) => r.request.category === category);
  t.diagnostic(`Node ${process.version}, seed ${SEED} (PARAPH_FUZZ_SEED), concurrency ${CONCURRENCY}, timeout ${ANSWER_TIMEOUT_MS} ms per answer`);
  t.diagnostic(`${results.length} requests in ${seconds.toFixed(1)} s (${Math.round(results.length / seconds)}/s)`);
  for (const category of categories) t.diagnostic(summaryLine(category, byCategory(category)));
  t.diagnostic(summaryLine('all', results));
  const accepted = createdRequests(results);
  const created = accepted.map((request) => request.id);
  t.diagnostic(`${created.length} odd-shaped or randomly changed but valid uploads were accepted as new requests`);
  if (process.env.PARAPH_FUZZ_REPORT) writeReport(process.env.PARAPH_FUZZ_REPORT, results);

  assert.ok(results.length >= 1000, `only ${results.length} requests were generated`);
  for (const category of categories) {
    await t.test(`${category}: ${CATEGORY_TITLES[category]}`, () => {
      const mine = byCategory(category);
      assert.ok(mine.length > 0);
      const failing = mine.filter((r) => r.problems.length > 0);
      assert.equal(failing.length, 0, failureReport(mine));
    });
  }

  const after = await holdings(server, targets);

  await t.test('afterwards paraph answers /healthz and a normal create', async () => {
    const health = await server.call('GET', '/healthz', { key: null });
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const id = await createRequest(server, validPayload('malformed-after'));
    assert.equal((await getJson<{ status: string }>(server, `${ROUTE}/${id}`)).status, 'prepared');
  });

  await t.test('the prepared and active requests, the template and the audit trails are unchanged', () => {
    assert.deepEqual(after.prepared, before.prepared, 'the prepared request changed');
    assert.deepEqual(after.active, before.active, 'the active request changed');
    assert.deepEqual(after.templates, before.templates, 'the templates changed');
    assert.deepEqual(after.audit, before.audit, 'an audit trail changed');
  });

  await t.test('a body of another content type on activate, cancel or reminders changed nothing', () => {
    const changed = after.spare.flatMap((request, i) => {
      const was = before.spare[i] as { client_reference: string; status: string; updated_at: string };
      const now = request as { status: string; updated_at: string };
      return isDeepStrictEqual(request, was)
        ? []
        : [`${was.client_reference}: ${was.status} -> ${now.status}, updated_at ${was.updated_at} -> ${now.updated_at}`];
    });
    assert.deepEqual(changed, [], 'spare requests changed');
  });

  await t.test('only the uploads answered 201 were stored; the clock, mail and Object.prototype are untouched', () => {
    assert.deepEqual(after.requestIds, [...before.requestIds, ...created].sort(), 'the requests stored are not the earlier ones plus those answered 201');
    assert.ok(
      before.blobs.every((name) => after.blobs.includes(name)),
      'a stored blob is gone',
    );
    assert.equal(after.blobs.length, before.blobs.length + created.length, 'a refused upload left a file in the blob directory');
    assert.equal(after.clockOffset, before.clockOffset, 'the sandbox clock moved');
    assert.equal(after.emailCount, before.emailCount, 'mail was sent');
    assert.deepEqual(after.objectPrototype, before.objectPrototype, 'Object.prototype was polluted');
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
  });

  await t.test('requests made by odd but valid uploads read back as created, and their client_reference finds them', async () => {
    const problems: string[] = [];
    for (const request of accepted) {
      const stored = await getJson<{ client_reference: string }>(server, `${ROUTE}/${request.id}`);
      if (stored.client_reference !== request.client_reference) {
        problems.push(`${request.id}: created as ${JSON.stringify(request.client_reference)}, reads back as ${JSON.stringify(stored.client_reference)}`);
      }
      const value = queryValue(request.client_reference);
      if (value === null || request.client_reference.length > 160) continue;
      const found = await getJson<{ data: Array<{ id: string }> }>(server, `${ROUTE}?client_reference=${value}`);
      if (!found.data.some((item) => item.id === request.id)) problems.push(`${request.id}: the filter client_reference=${value} does not find it`);
    }
    assert.deepEqual(problems, []);
  });

  await t.test('the real signing link still opens', async () => {
    // Made-up links and refused bodies under the real one did not close it.
    const view = await fetch(`${server.url}${targets.signingPath}/api/view`, { method: 'POST' });
    assert.equal(view.status, 200);
    assert.equal((await json<{ state: string }>(view)).state, 'open');
  });
});
