// POST /v1/signature-requests end to end, over real HTTP against the real server: every rule of the
// create call (spec "CreateRequestPayload", "SignerInput", "FieldInput", "EmailBranding", limits, errors)
// and every decision of the sandbox contract that touches it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { a4Pdf, createForm, payload, rawMultipart } from '../helpers/requests.js';
import { postCreate, status } from '../helpers/flows.js';
import { expectError as expectEnvelope } from '../helpers/errors.js';
import { makeEncryptedPdf, makePdf, truncate } from '../helpers/pdfs.js';
import { CREATE_RESPONSE_KEYS } from '../helpers/answer-keys.js';

const ROUTE = '/v1/signature-requests';
const MIB8 = 8 * 1024 * 1024;
const TEN_DAYS_MS = 10 * 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SIGNER_STATUS_KEYS = ['email', 'expires_at', 'id', 'locale', 'name', 'order', 'reference', 'signed_at', 'status', 'verification', 'verified_at'];
const FIELD_STATUS_KEYS = ['completed', 'field_key', 'id', 'name', 'read_only', 'signer_reference', 'type', 'value'];

type Json = Record<string, unknown>;
type Payload = Record<string, unknown>;
type Doc = { bytes?: Uint8Array; filename?: string; type?: string } | null;

interface CreateResponse {
  id: string;
  client_reference: string;
  template_id: string;
  status: string;
  environment: string;
  retention_expires_at: string;
  sequential_signing: boolean;
  return_url: string;
  idempotent_replay: boolean;
}

interface StatusResponse {
  id: string;
  created_at: string;
  retention_expires_at: string | null;
  status: string;
  signers: Json[];
  fields: Json[];
}

// ------------------------------------------------------------------------------------------------------------
// Helpers

const str = (n: number, c = 'a') => c.repeat(n);

function create(server: TestServer, body: Payload | string, doc?: Doc, key?: string): Promise<Response> {
  return postCreate(server, body, { ...(doc === undefined ? {} : { document: doc }), ...(key ? { key } : {}) });
}

function postRaw(server: TestServer, parts: Parameters<typeof rawMultipart>[0]): Promise<Response> {
  const { body, contentType } = rawMultipart(parts);
  return server.call('POST', ROUTE, { body: new Uint8Array(body), headers: { 'content-type': contentType } });
}

/** A create that must succeed with 201; answers its CreateResponse. */
async function created(res: Response): Promise<CreateResponse> {
  const text = await res.text();
  assert.equal(res.status, 201, `expected 201, got ${res.status}: ${text}`);
  return JSON.parse(text) as CreateResponse;
}

/**
 * An error answer in the envelope (see helpers/errors.ts), which on /v1 also reports the general
 * rate-limit bucket, errors included.
 */
async function expectError(res: Response, status: number, code: string, message?: RegExp | string): Promise<string> {
  assert.equal(res.headers.get('x-ratelimit-limit'), '120');
  assert.match(res.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/);
  return expectEnvelope(res, status, code, message);
}

/** GET one request as this file's StatusResponse (the shared `status` of helpers/flows.ts). */
const getStatus = async (server: TestServer, id: string, key?: string) => (await status(server, id, key)) as unknown as StatusResponse;

function blobFiles(server: TestServer): string[] {
  const dir = path.join(server.dataDir, 'blobs');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.blob'))
    .map((name) => path.join(dir, name));
}

/** Every file in the blob directory (temporary ones included), to catch leftovers of losing creates. */
function allBlobDirEntries(server: TestServer): string[] {
  return fs.readdirSync(path.join(server.dataDir, 'blobs'));
}

/** One encrypted blob file per request the server's first account holds, nothing else in the directory. */
async function assertOneBlobPerRequest(server: TestServer, expected?: number): Promise<void> {
  let count = 0;
  let cursor = '';
  do {
    const res = await server.call('GET', `${ROUTE}?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.status, 200);
    const page = await json<{ data: Json[]; next_cursor: string }>(res);
    count += page.data.length;
    cursor = page.next_cursor;
  } while (cursor);
  if (expected !== undefined) assert.equal(count, expected);
  const blobs = blobFiles(server);
  assert.equal(blobs.length, count, `${blobs.length} blob files for ${count} requests`);
  assert.deepEqual(allBlobDirEntries(server).sort(), blobs.map((b) => path.basename(b)).sort());
  for (const file of blobs) assert.equal(fs.readFileSync(file).includes('%PDF-'), false, `${file} holds a plain PDF`);
}

/** A signature field of signer `client` on page 1 (A4). */
const sig = (over: Json = {}): Json => ({ signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50, ...over });
const text = (over: Json = {}): Json => ({ signer_reference: 'client', type: 'text', page: 1, x: 50, y: 100, width: 200, height: 20, ...over });
const signer = (over: Json = {}): Json => ({ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1, ...over });

/** A valid PDF of exactly `size` bytes: the A4 document with a long comment line inserted after its header. */
async function pdfOfSize(size: number): Promise<Uint8Array> {
  const base = Buffer.from(await a4Pdf());
  const headerEnd = base.indexOf('\n') + 1;
  // pdf-lib writes a binary-marker comment as the second line; insert after it.
  const secondEnd = base.indexOf('\n', headerEnd) + 1;
  const padding = size - base.length - 2; // "%" + filler + "\n"
  assert.ok(padding > 0);
  const comment = Buffer.concat([Buffer.from('%'), Buffer.alloc(padding, 0x78), Buffer.from('\n')]);
  const out = Buffer.concat([base.subarray(0, secondEnd), comment, base.subarray(secondEnd)]);
  assert.equal(out.length, size);
  return new Uint8Array(out);
}

// ------------------------------------------------------------------------------------------------------------
// 201

test('create answers 201 with exactly the CreateResponse keys, rate-limit headers and a 10-day retention', async (t) => {
  const server = await useServer(t);
  const body = payload({ client_reference: 'first-contract' });
  const res = await create(server, body);
  assert.equal(res.status, 201);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(res.headers.get('x-ratelimit-limit'), '120');
  const remaining = res.headers.get('x-ratelimit-remaining');
  assert.match(remaining ?? '', /^\d+$/);
  assert.ok(Number(remaining) < 120);
  const response = await json<CreateResponse>(res);
  assert.deepEqual(Object.keys(response).sort(), CREATE_RESPONSE_KEYS);
  assert.match(response.id, UUID);
  assert.equal(response.client_reference, 'first-contract');
  assert.equal(response.template_id, '');
  assert.equal(response.status, 'prepared');
  assert.equal(response.environment, 'sandbox');
  assert.equal(response.sequential_signing, false);
  assert.equal(response.return_url, '');
  assert.equal(response.idempotent_replay, false);

  const status = await getStatus(server, response.id);
  assert.equal(status.id, response.id);
  assert.equal(status.status, 'prepared');
  assert.equal(status.retention_expires_at, response.retention_expires_at);
  assert.equal(Date.parse(response.retention_expires_at) - Date.parse(status.created_at), TEN_DAYS_MS);

  // The general bucket counts this call too.
  const again = await create(server, payload({ sequential_signing: true }));
  const second = await created(again);
  assert.equal(second.sequential_signing, true);
  assert.equal(again.headers.get('x-ratelimit-limit'), '120');
  assert.equal(Number(again.headers.get('x-ratelimit-remaining')), Number(remaining) - 2); // GET in between
});

// ------------------------------------------------------------------------------------------------------------
// Idempotency on client_reference

test('client_reference: replay answers 200 with the same request, scoped to the account, safe under concurrency', async (t) => {
  const server = await useServer(t);
  const body = payload({ client_reference: 'order-42' });
  const first = await created(await create(server, body));

  const replayRes = await create(server, body);
  assert.equal(replayRes.status, 200);
  const replay = await json<CreateResponse>(replayRes);
  assert.deepEqual(Object.keys(replay).sort(), CREATE_RESPONSE_KEYS);
  assert.deepEqual(replay, { ...first, idempotent_replay: true });
  assert.equal(replay.status, 'prepared');

  // Another account may use the same client_reference: its own request.
  const other = server.newKey();
  const theirs = await created(await create(server, body, undefined, other.apiKey));
  assert.notEqual(theirs.id, first.id);
  assert.equal(theirs.idempotent_replay, false);
  assert.equal((await server.call('GET', `${ROUTE}/${first.id}`, { key: other.apiKey })).status, 404);
  assert.equal((await getStatus(server, theirs.id, other.apiKey)).id, theirs.id);

  // 50 concurrent identical creates on a fresh account: one 201, 49 replays, one id.
  const racer = server.newKey();
  const raceBody = payload({ client_reference: 'race-1' });
  const responses = await Promise.all(Array.from({ length: 50 }, () => create(server, raceBody, undefined, racer.apiKey)));
  const bodies = await Promise.all(responses.map((r) => json<CreateResponse>(r)));
  const statuses = responses.map((r) => r.status);
  assert.ok(
    statuses.every((s) => s < 500),
    `no 5xx: ${statuses.join(',')}`,
  );
  assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
  assert.equal(statuses.filter((s) => s === 200).length, 49, statuses.join(','));
  assert.equal(new Set(bodies.map((b) => b.id)).size, 1);
  for (const [i, b] of bodies.entries()) assert.equal(b.idempotent_replay, statuses[i] === 200);
  const list = await json<{ data: Json[] }>(await server.call('GET', ROUTE, { key: racer.apiKey }));
  assert.equal(list.data.length, 1);
  assert.equal(list.data[0]?.id, bodies[0]?.id);

  // One blob per created request (3), none left by the replays or the 49 losers, none in plain text.
  const blobs = blobFiles(server);
  assert.equal(blobs.length, 3);
  assert.deepEqual(allBlobDirEntries(server).sort(), blobs.map((b) => path.basename(b)).sort());
  for (const file of blobs) assert.equal(fs.readFileSync(file).includes('%PDF-'), false, `${file} holds a plain PDF`);
});

// ------------------------------------------------------------------------------------------------------------
// Multipart

test('multipart body', async (t) => {
  const server = await useServer(t);
  const pdf = await a4Pdf();

  await t.test('a JSON body is refused', async () => {
    const res = await server.call('POST', ROUTE, { body: JSON.stringify(payload()), headers: { 'content-type': 'application/json' } });
    await expectError(res, 400, 'invalid_request', /multipart/);
  });

  await t.test('missing document part', async () => {
    await expectError(await create(server, payload(), null), 400, 'invalid_request', '"document"');
  });

  await t.test('missing request part', async () => {
    const form = new FormData();
    form.append('document', new Blob([pdf], { type: 'application/pdf' }), 'contract.pdf');
    await expectError(await server.call('POST', ROUTE, { body: form }), 400, 'invalid_request', '"request"');
  });

  await t.test('an extra part', async () => {
    const form = await createForm(payload());
    form.append('extra', 'x');
    await expectError(await server.call('POST', ROUTE, { body: form }), 400, 'invalid_request', '"extra"');
  });

  await t.test('an extra part before the others', async () => {
    const res = await postRaw(server, [
      { name: 'comment', body: 'hello' },
      { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: pdf },
      { name: 'request', body: JSON.stringify(payload()) },
    ]);
    await expectError(res, 400, 'invalid_request', '"comment"');
  });

  await t.test('request given twice', async () => {
    const form = await createForm(payload());
    form.append('request', JSON.stringify(payload()));
    await expectError(await server.call('POST', ROUTE, { body: form }), 400, 'invalid_request', /"request".*more than once/);
  });

  await t.test('document given twice', async () => {
    const res = await postRaw(server, [
      { name: 'document', filename: 'a.pdf', type: 'application/pdf', body: pdf },
      { name: 'document', filename: 'b.pdf', type: 'application/pdf', body: pdf },
      { name: 'request', body: JSON.stringify(payload()) },
    ]);
    await expectError(res, 400, 'invalid_request', /"document".*more than once/);
  });

  await t.test('request as a plain text field is accepted', async () => {
    const form = new FormData();
    form.append('document', new Blob([pdf], { type: 'application/pdf' }), 'contract.pdf');
    form.append('request', JSON.stringify(payload({ client_reference: 'plain-field' })));
    const response = await created(await server.call('POST', ROUTE, { body: form }));
    assert.equal(response.client_reference, 'plain-field');
  });

  await t.test('request as a field with Content-Type application/json is accepted', async () => {
    const res = await postRaw(server, [
      { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: pdf },
      { name: 'request', type: 'application/json', body: JSON.stringify(payload({ client_reference: 'json-field' })) },
    ]);
    assert.equal((await created(res)).client_reference, 'json-field');
  });

  await t.test('request before document is accepted', async () => {
    const res = await postRaw(server, [
      { name: 'request', filename: 'request.json', type: 'application/json', body: JSON.stringify(payload()) },
      { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: pdf },
    ]);
    await created(res);
  });

  await t.test('request that is not JSON, as a file part', async () => {
    await expectError(await create(server, '{"client_reference": '), 400, 'invalid_request', /request.*JSON|JSON.*request/);
  });

  await t.test('request that is not JSON, as an application/json field', async () => {
    const res = await postRaw(server, [
      { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: pdf },
      { name: 'request', type: 'application/json', body: '{not json' },
    ]);
    await expectError(res, 400, 'invalid_request', /request.*JSON|JSON.*request/);
  });

  await t.test('request over 1 MiB, as an application/json field: too large, not said to be invalid JSON alone', async () => {
    const res = await postRaw(server, [
      { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: pdf },
      { name: 'request', type: 'application/json', body: JSON.stringify(payload({ client_reference: 'big-part' })) + ' '.repeat(1024 * 1024) },
    ]);
    await expectError(res, 400, 'invalid_request', /^the request part is not valid JSON, or is larger than 1 MiB/);
  });

  await t.test('request that is not JSON, as a plain text field', async () => {
    const res = await postRaw(server, [
      { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: pdf },
      { name: 'request', body: 'client_reference=x' },
    ]);
    await expectError(res, 400, 'invalid_request', /request.*JSON|JSON.*request/);
  });

  await t.test('request that is JSON but not an object', async () => {
    await expectError(await create(server, '[1, 2]'), 400, 'invalid_request', /^request must be an object/);
  });

  await t.test('an application/json request field holding a JSON string is not decoded twice', async () => {
    const res = await postRaw(server, [
      { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: pdf },
      { name: 'request', type: 'application/json', body: JSON.stringify(JSON.stringify(payload())) },
    ]);
    await expectError(res, 400, 'invalid_request', /^request must be an object/);
  });

  await t.test('blobs: one per created request', async () => {
    await assertOneBlobPerRequest(server);
  });
});

// ------------------------------------------------------------------------------------------------------------
// Document

test('document', async (t) => {
  const server = await useServer(t);
  const pdf = await a4Pdf();
  let createdCount = 0;

  await t.test('content type other than application/pdf', async () => {
    await expectError(await create(server, payload(), { type: 'text/plain' }), 400, 'invalid_document', /application\/pdf/);
  });

  await t.test('filename not ending in .pdf', async () => {
    await expectError(await create(server, payload(), { filename: 'contract.txt' }), 400, 'invalid_document', /\.pdf/);
  });

  await t.test('a filename of 255 characters is taken; 256, or one holding a control character, is refused', async () => {
    await created(await create(server, payload(), { filename: `${'é'.repeat(251)}.pdf` }));
    createdCount++;
    await expectError(await create(server, payload(), { filename: `${'é'.repeat(252)}.pdf` }), 400, 'invalid_document', /256 characters long: at most 255/);
    for (const name of ['a\u0000b.pdf', 'a\tb.pdf', 'a\u0085b.pdf']) {
      await expectError(await create(server, payload(), { filename: name }), 400, 'invalid_document', /control character/);
    }
  });

  await t.test('a document sent as a plain field, not a file', async () => {
    const res = await postRaw(server, [
      { name: 'document', body: pdf },
      { name: 'request', body: JSON.stringify(payload()) },
    ]);
    await expectError(res, 400, 'invalid_document', '"document"');
  });

  await t.test('.PDF in capitals is a PDF filename', async () => {
    await created(await create(server, payload(), { filename: 'CONTRACT.PDF' }));
    createdCount++;
  });

  await t.test('bytes that are not a PDF', async () => {
    const bytes = new TextEncoder().encode('Hello, this is plain text and certainly not a PDF.\n');
    await expectError(await create(server, payload(), { bytes }), 400, 'invalid_document', /not a PDF/);
  });

  await t.test('an empty document', async () => {
    await expectError(await create(server, payload(), { bytes: new Uint8Array(0) }), 400, 'invalid_document', /empty/);
  });

  await t.test('a truncated PDF', async () => {
    await expectError(await create(server, payload(), { bytes: truncate(pdf, Math.floor(pdf.length / 2)) }), 400, 'invalid_document', /incomplete|truncated/);
  });

  await t.test('a PDF that needs a password to open', async () => {
    const locked = makeEncryptedPdf({ userPassword: 'user-secret' });
    await expectError(await create(server, payload(), { bytes: locked }), 400, 'invalid_document', /encrypted with a password needed to open it/);
  });

  await t.test('exactly 8388608 bytes is accepted', async () => {
    const bytes = await pdfOfSize(MIB8);
    const res = await create(server, payload(), { bytes });
    if (res.status !== 201) {
      // Whatever else happens, it must not be the size.
      const message = await expectError(res, 400, 'invalid_document');
      assert.doesNotMatch(message, /8 MiB|8388608|too large|exceeds/);
      assert.fail(`an exactly 8 MiB valid PDF was refused: ${message}`);
    }
    await res.text();
    createdCount++;
  });

  await t.test('8388609 bytes is refused for its size', async () => {
    const bytes = await pdfOfSize(MIB8 + 1);
    await expectError(await create(server, payload(), { bytes }), 400, 'invalid_document', /8 MiB/);
  });

  await t.test('the server still answers after the oversized upload', async () => {
    await created(await create(server, payload()));
    createdCount++;
  });

  await t.test('a refused document leaves no blob', async () => {
    await assertOneBlobPerRequest(server, createdCount);
  });
});

// ------------------------------------------------------------------------------------------------------------
// Payload schema: 400 invalid_request naming the path; boundaries accepted

interface SchemaCase {
  name: string;
  body: Payload;
  /** Text the message must contain: the offending path. */
  at: string;
  /** Further text the message must match (the rule), when useful. */
  rule?: RegExp;
}

const elevenSigners = Array.from({ length: 11 }, (_, i) => signer({ reference: `s${i}`, email: `s${i}@example.com`, order: 1 }));
const tenSigners = elevenSigners.slice(0, 10);
const fieldsFor = (signers: Json[]) => signers.map((s) => sig({ signer_reference: s.reference }));
/** https://<valid DNS name>.com of exactly `length` characters. */
function originOf(length: number): string {
  const last = length - 'https://'.length - 3 * 64 - '.com'.length;
  const origin = `https://${str(63)}.${str(63)}.${str(63)}.${str(last, 'b')}.com`;
  assert.equal(origin.length, length);
  return origin;
}

const SCHEMA_REJECTS: SchemaCase[] = [
  { name: 'unknown top-level property', body: payload({ priority: 'high' }), at: 'request', rule: /unknown property "priority"/ },
  { name: 'unknown signer property', body: payload({ signers: [signer({ phone: '+33' })] }), at: 'request.signers[0]', rule: /"phone"/ },
  { name: 'unknown field property', body: payload({ fields: [sig({ color: 'red' })] }), at: 'request.fields[0]', rule: /"color"/ },
  { name: 'unknown email property', body: payload({ email: { footer: 'x' } }), at: 'request.email', rule: /"footer"/ },
  { name: 'client_reference empty', body: payload({ client_reference: '' }), at: 'request.client_reference' },
  { name: 'client_reference 161 characters', body: payload({ client_reference: str(161) }), at: 'request.client_reference', rule: /160/ },
  { name: 'client_reference missing', body: payload({ client_reference: undefined }), at: 'request.client_reference', rule: /required/ },
  { name: 'signers empty', body: payload({ signers: [], fields: [] }), at: 'request.signers', rule: /at least 1/ },
  { name: 'signers 11', body: payload({ signers: elevenSigners, fields: fieldsFor(elevenSigners) }), at: 'request.signers', rule: /at most 10/ },
  { name: 'signer reference empty', body: payload({ signers: [signer({ reference: '' })], fields: [] }), at: 'request.signers[0].reference' },
  {
    name: 'signer reference 101 characters',
    body: payload({ signers: [signer({ reference: str(101) })], fields: [] }),
    at: 'request.signers[0].reference',
    rule: /100/,
  },
  { name: 'signer name 201 characters', body: payload({ signers: [signer({ name: str(201) })] }), at: 'request.signers[0].name', rule: /200/ },
  { name: 'signer email malformed', body: payload({ signers: [signer({ email: 'not-an-email' })] }), at: 'request.signers[0].email', rule: /email/ },
  { name: 'signer email missing', body: payload({ signers: [signer({ email: undefined })] }), at: 'request.signers[0].email', rule: /required/ },
  { name: 'signer order 0', body: payload({ signers: [signer({ order: 0 })] }), at: 'request.signers[0].order', rule: />= 1/ },
  { name: 'signer order 11', body: payload({ signers: [signer({ order: 11 })] }), at: 'request.signers[0].order', rule: /<= 10/ },
  { name: 'signer order 1.5', body: payload({ signers: [signer({ order: 1.5 })] }), at: 'request.signers[0].order', rule: /integer/ },
  { name: 'signer order "1" (no coercion)', body: payload({ signers: [signer({ order: '1' })] }), at: 'request.signers[0].order', rule: /integer/ },
  { name: 'signer locale de', body: payload({ signers: [signer({ locale: 'de' })] }), at: 'request.signers[0].locale' },
  { name: 'signer verification sms', body: payload({ signers: [signer({ verification: 'sms' })] }), at: 'request.signers[0].verification', rule: /email_otp/ },
  { name: 'field type checkbox', body: payload({ fields: [sig({ type: 'checkbox' })] }), at: 'request.fields[0].type' },
  { name: 'field field_key foo', body: payload({ fields: [text({ field_key: 'foo' })] }), at: 'request.fields[0].field_key' },
  { name: 'field page 0', body: payload({ fields: [sig({ page: 0 })] }), at: 'request.fields[0].page', rule: />= 1/ },
  { name: 'field page 10001', body: payload({ fields: [sig({ page: 10001 })] }), at: 'request.fields[0].page', rule: /<= 10000/ },
  { name: 'field page 1.5', body: payload({ fields: [sig({ page: 1.5 })] }), at: 'request.fields[0].page', rule: /integer/ },
  { name: 'field x -1', body: payload({ fields: [sig({ x: -1 })] }), at: 'request.fields[0].x', rule: />= 0/ },
  { name: 'field y -1', body: payload({ fields: [sig({ y: -1 })] }), at: 'request.fields[0].y', rule: />= 0/ },
  { name: 'field x "50" (no coercion)', body: payload({ fields: [sig({ x: '50' })] }), at: 'request.fields[0].x', rule: /number/ },
  { name: 'field width 0', body: payload({ fields: [sig({ width: 0 })] }), at: 'request.fields[0].width', rule: /> 0/ },
  { name: 'field width 5001', body: payload({ fields: [sig({ width: 5001 })] }), at: 'request.fields[0].width', rule: /<= 5000/ },
  { name: 'field height 0', body: payload({ fields: [sig({ height: 0 })] }), at: 'request.fields[0].height', rule: /> 0/ },
  { name: 'field height 5001', body: payload({ fields: [sig({ height: 5001 })] }), at: 'request.fields[0].height', rule: /<= 5000/ },
  { name: 'field name Bad-Name', body: payload({ fields: [sig(), text({ name: 'Bad-Name' })] }), at: 'request.fields[1].name', rule: /pattern/ },
  {
    name: 'field name of 65 characters',
    body: payload({ fields: [sig(), text({ name: `a${str(64, 'b')}` })] }),
    at: 'request.fields[1].name',
    rule: /pattern/,
  },
  { name: 'field value 501 characters', body: payload({ fields: [sig(), text({ value: str(501) })] }), at: 'request.fields[1].value', rule: /500/ },
  // With a value, a coerced "true" would pass every other rule: only the type check refuses it.
  {
    name: 'field read_only "true" (no coercion)',
    body: payload({ fields: [sig(), text({ value: 'v', read_only: 'true' })] }),
    at: 'request.fields[1].read_only',
    rule: /boolean/,
  },
  { name: 'fields 101 items', body: payload({ fields: Array.from({ length: 101 }, () => sig()) }), at: 'request.fields', rule: /at most 100/ },
  { name: 'callback_url not a URI', body: payload({ callback_url: 'not a uri' }), at: 'request.callback_url' },
  { name: 'embed_origin 256 characters', body: payload({ embed_origin: originOf(256) }), at: 'request.embed_origin', rule: /255/ },
  { name: 'return_url 2049 characters', body: payload({ return_url: `https://example.com/${str(2049 - 20)}` }), at: 'request.return_url', rule: /2048/ },
  { name: 'sequential_signing "true" (no coercion)', body: payload({ sequential_signing: 'true' }), at: 'request.sequential_signing', rule: /boolean/ },
  {
    name: 'email.sender_name with a line break',
    body: payload({ email: { sender_name: 'Acme\nBcc: x@evil.test' } }),
    at: 'request.email.sender_name',
    rule: /line break/,
  },
  { name: 'email.subject with U+2028', body: payload({ email: { subject: 'Sign this\u2028now' } }), at: 'request.email.subject', rule: /line break/ },
  { name: 'email.subject with \\r', body: payload({ email: { subject: 'Sign this\rnow' } }), at: 'request.email.subject', rule: /line break/ },
  // (Every line break Unicode knows, and other control characters: a vertical tab, a form feed, NEL, NUL, ESC.)
  ...['\u000b', '\u000c', '\u0085', '\u0000', '\u001b'].flatMap((c) => [
    {
      name: `email.subject with U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      body: payload({ email: { subject: `Sign this${c}now` } }),
      at: 'request.email.subject',
      rule: /line breaks or control characters/,
    },
    {
      name: `email.sender_name with U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      body: payload({ email: { sender_name: `Acme${c}Corp` } }),
      at: 'request.email.sender_name',
      rule: /line breaks or control characters/,
    },
  ]),
  { name: 'email.sender_name 121 characters', body: payload({ email: { sender_name: str(121) } }), at: 'request.email.sender_name', rule: /120/ },
  { name: 'email.subject 201 characters', body: payload({ email: { subject: str(201) } }), at: 'request.email.subject', rule: /200/ },
  { name: 'email.message 2001 characters', body: payload({ email: { message: str(2001) } }), at: 'request.email.message', rule: /2000/ },
  { name: 'email.logo_url over http', body: payload({ email: { logo_url: 'http://example.com/logo.png' } }), at: 'request.email.logo_url' },
  {
    name: 'email.logo_url 513 characters',
    body: payload({ email: { logo_url: `https://example.com/${str(513 - 20)}` } }),
    at: 'request.email.logo_url',
    rule: /512/,
  },
  {
    name: 'field_values entry of 501 characters',
    body: payload({ fields: [sig(), text({ name: 'company_name' })], field_values: { company_name: str(501) } }),
    at: 'request.field_values.company_name',
    rule: /500/,
  },
  {
    name: 'field_values entry not a string',
    body: payload({ fields: [sig(), text({ name: 'company_name' })], field_values: { company_name: 5 } }),
    at: 'request.field_values.company_name',
    rule: /string/,
  },
  { name: 'template_id not a uuid', body: payload({ fields: undefined, template_id: 'tpl-1' }), at: 'request.template_id', rule: /uuid/ },
  // A misspelt property is named as unknown, with the one it looks like, instead of "email is required".
  {
    name: 'a misspelt signer email',
    body: payload({ signers: [signer({ email: undefined, emial: 'ada@example.com' })] }),
    at: 'request.signers[0] has an unknown property "emial" (did you mean "email"?)',
    rule: /^(?!.*email is required)/,
  },
  // Every problem of a body is told in one answer, each with its path.
  {
    name: 'three mistakes in one body',
    body: payload({ priority: 'high', signers: [signer({ order: 0 })], fields: [sig({ page: 0 })] }),
    at: 'request has an unknown property "priority"',
    rule: /(?=.*request\.signers\[0\]\.order must be >= 1)(?=.*request\.fields\[0\]\.page must be >= 1)/,
  },
];

const SCHEMA_ACCEPTS: Array<{ name: string; body: Payload }> = [
  { name: 'client_reference 160 characters', body: payload({ client_reference: str(160) }) },
  { name: '10 signers', body: payload({ signers: tenSigners, fields: fieldsFor(tenSigners) }) },
  {
    name: 'signer reference 100 characters, name 200',
    body: payload({ signers: [signer({ reference: str(100), name: str(200) })], fields: [sig({ signer_reference: str(100) })] }),
  },
  {
    name: 'signer without name, with every locale and verification',
    body: payload({ signers: [signer({ name: undefined, locale: 'ar', verification: 'email_otp', order: 10 })] }),
  },
  { name: 'fields omitted', body: payload({ fields: undefined }) },
  { name: 'fields empty', body: payload({ fields: [] }) },
  { name: '100 fields', body: payload({ fields: Array.from({ length: 100 }, () => sig()) }) },
  { name: 'field name of 64 characters, value of 500', body: payload({ fields: [sig(), text({ name: `a${str(63, 'b')}`, value: str(500) })] }) },
  {
    name: 'every field type and key',
    body: payload({ fields: [sig(), sig({ type: 'initials' }), text({ field_key: 'company' }), text({ type: 'date', field_key: 'sign_date', y: 130 })] }),
  },
  { name: 'read_only with a value', body: payload({ fields: [sig(), text({ value: 'fixed', read_only: true })] }) },
  {
    name: 'email branding at its limits',
    body: payload({
      email: { sender_name: str(120), subject: str(200), message: `${str(1000)}\n${str(999)}`, logo_url: `https://example.com/${str(512 - 20)}` },
    }),
  },
  { name: 'return_url of 2048 characters', body: payload({ return_url: `https://example.com/${str(2048 - 20)}` }) },
  { name: 'embed_origin of 255 characters', body: payload({ embed_origin: originOf(255) }) },
  {
    name: 'field_values entry of 500 characters',
    body: payload({ fields: [sig(), text({ name: 'company_name' })], field_values: { company_name: str(500) } }),
  },
];

test('payload schema', async (t) => {
  const server = await useServer(t);
  for (const c of SCHEMA_REJECTS) {
    await t.test(`refuses ${c.name}`, async () => {
      const message = await expectError(await create(server, c.body), 400, 'invalid_request', c.at);
      if (c.rule) assert.match(message, c.rule);
    });
  }
  for (const c of SCHEMA_ACCEPTS) {
    await t.test(`accepts ${c.name}`, async () => {
      await created(await create(server, c.body));
    });
  }
  await t.test('blobs: only for the accepted ones', async () => {
    await assertOneBlobPerRequest(server, SCHEMA_ACCEPTS.length);
  });
});

// ------------------------------------------------------------------------------------------------------------
// Rules across the payload and against the document

test('semantic rules', async (t) => {
  const server = await useServer(t);
  const ada = signer();
  const bob = signer({ reference: 'witness', name: 'Bob', email: 'bob@example.com', order: 2 });
  const bothFields = [sig(), sig({ signer_reference: 'witness', y: 600 })];
  let accepted = 0;

  await t.test('duplicate signer reference', async () => {
    const body = payload({ signers: [ada, { ...bob, reference: 'client' }] });
    await expectError(await create(server, body), 400, 'invalid_request', /request\.signers\[1\]\.reference "client"/);
  });

  await t.test('duplicate signer email, case-insensitive', async () => {
    const body = payload({ signers: [ada, { ...bob, email: 'ADA@Example.COM' }], fields: bothFields });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.signers[1].email');
  });

  await t.test('duplicate order is allowed without sequential_signing', async () => {
    const body = payload({ signers: [ada, { ...bob, order: 1 }], fields: bothFields });
    await created(await create(server, body));
    const explicit = payload({ signers: [ada, { ...bob, order: 1 }], fields: bothFields, sequential_signing: false });
    await created(await create(server, explicit));
    accepted += 2;
  });

  await t.test('duplicate order is refused with sequential_signing', async () => {
    const body = payload({ signers: [ada, { ...bob, order: 1 }], fields: bothFields, sequential_signing: true });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.signers[1].order');
  });

  await t.test('distinct orders with sequential_signing', async () => {
    const response = await created(await create(server, payload({ signers: [ada, bob], fields: bothFields, sequential_signing: true })));
    assert.equal(response.sequential_signing, true);
    accepted++;
  });

  await t.test('field signer_reference matching no signer', async () => {
    const body = payload({ fields: [sig(), sig({ signer_reference: 'nobody' })] });
    await expectError(await create(server, body), 400, 'invalid_request', /request\.fields\[1\]\.signer_reference "nobody"/);
  });

  await t.test('duplicate field name', async () => {
    const body = payload({ fields: [sig({ name: 'sign_here' }), text({ name: 'sign_here' })] });
    await expectError(await create(server, body), 400, 'invalid_request', /request\.fields\[1\]\.name "sign_here"/);
  });

  await t.test('read_only without value', async () => {
    const body = payload({ fields: [sig(), text({ read_only: true })] });
    await expectError(await create(server, body), 400, 'invalid_request', /request\.fields\[1\]\.read_only requires a value/);
  });

  await t.test('value on a signature field', async () => {
    const body = payload({ fields: [sig({ value: 'Ada' })] });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.fields[0].value');
  });

  await t.test('value on an initials field', async () => {
    const body = payload({ fields: [sig(), sig({ type: 'initials', value: 'AL' })] });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.fields[1].value');
  });

  await t.test('value on a field with an identity field_key', async () => {
    const body = payload({ fields: [sig(), text({ field_key: 'signer_name', value: 'Someone else' })] });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.fields[1].value');
  });

  await t.test('field_key on a signature field', async () => {
    const body = payload({ fields: [sig({ field_key: 'signer_name' })] });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.fields[0].field_key');
  });

  await t.test('field page beyond the document', async () => {
    const twoPages = await makePdf([
      { width: 595.28, height: 841.89 },
      { width: 595.28, height: 841.89 },
    ]);
    await created(await create(server, payload({ fields: [sig({ page: 2 })] }), { bytes: twoPages }));
    accepted++;
    const body = payload({ fields: [sig(), sig({ page: 3 })] });
    await expectError(await create(server, body, { bytes: twoPages }), 400, 'invalid_request', /request\.fields\[1\]\.page 3.*2 pages/);
  });

  await t.test('field outside the page', async () => {
    // A4 is 595.28 x 841.89 points.
    await expectError(
      await create(server, payload({ fields: [sig({ x: 400, width: 196 })] })),
      400,
      'invalid_request',
      /request\.fields\[0\] lies outside page 1/,
    );
    await expectError(
      await create(server, payload({ fields: [sig({ y: 800, height: 42 })] })),
      400,
      'invalid_request',
      /request\.fields\[0\] lies outside page 1/,
    );
    await expectError(
      await create(server, payload({ fields: [sig(), sig({ x: 600, width: 1 })] })),
      400,
      'invalid_request',
      /request\.fields\[1\] lies outside/,
    );
  });

  await t.test('field exactly on the page edge is accepted', async () => {
    const edge = sig({ x: 395.28, width: 200, y: 791.89, height: 50 });
    await created(await create(server, payload({ fields: [edge] })));
    await created(await create(server, payload({ fields: [sig({ x: 0, y: 0, width: 595.28, height: 841.89 })] })));
    accepted += 2;
  });

  await t.test('template_id with fields', async () => {
    const body = payload({ template_id: '5b0f6d1e-2a4c-4c1e-9d7b-0f5e4b1a2c3d', fields: [sig()] });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.template_id');
  });

  await t.test('template_id of no template', async () => {
    const body = payload({ template_id: '5b0f6d1e-2a4c-4c1e-9d7b-0f5e4b1a2c3d', fields: undefined });
    await expectError(await create(server, body), 404, 'template_not_found', '5b0f6d1e-2a4c-4c1e-9d7b-0f5e4b1a2c3d');
  });

  await t.test('field_values naming an unknown field', async () => {
    const body = payload({ fields: [sig(), text({ name: 'company_name' })], field_values: { company: 'Acme' } });
    await expectError(await create(server, body), 400, 'invalid_request', /request\.field_values\.company does not name any field/);
  });

  await t.test('field_values without any fields', async () => {
    const body = payload({ fields: undefined, field_values: { company: 'Acme' } });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.field_values.company');
  });

  await t.test("a date field's value, the sender's or in field_values, is a calendar date YYYY-MM-DD", async () => {
    const date = (over: Json) => text({ type: 'date', ...over });
    for (const [value, readOnly] of [
      ['31/01/2025', true],
      ['2026-02-30', false],
      ['next Friday', false],
      ['2026-1-5', true],
    ] as const) {
      const body = payload({ fields: [sig(), date({ name: 'due', value, read_only: readOnly })] });
      await expectError(await create(server, body), 400, 'invalid_request', /request\.fields\[1\]\.value is a date field: give its value as YYYY-MM-DD/);
    }
    const named = payload({ fields: [sig(), date({ name: 'due' })], field_values: { due: 'next Friday' } });
    await expectError(await create(server, named), 400, 'invalid_request', /request\.field_values\.due is a date field/);
    const valid = payload({
      fields: [sig(), date({ name: 'due', value: '2026-02-28', read_only: true }), date({ name: 'start' })],
      field_values: { start: '2024-02-29' },
    });
    await created(await create(server, valid));
    accepted++;
  });

  await t.test('field_values for a read_only field', async () => {
    const body = payload({ fields: [sig(), text({ name: 'company_name', value: 'Acme', read_only: true })], field_values: { company_name: 'Other' } });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.field_values.company_name');
  });

  await t.test('field_values for a signature field', async () => {
    const body = payload({ fields: [sig({ name: 'client_signature' })], field_values: { client_signature: 'Ada' } });
    await expectError(await create(server, body), 400, 'invalid_request', 'request.field_values.client_signature');
  });

  await t.test('a signer without any field is accepted at create', async () => {
    const body = payload({ signers: [ada, bob], fields: [sig()] });
    const response = await created(await create(server, body));
    const status = await getStatus(server, response.id);
    assert.deepEqual(
      status.signers.map((s) => s.reference),
      ['client', 'witness'],
    );
    accepted++;
  });

  await t.test('no signer with any field is accepted at create too', async () => {
    await created(await create(server, payload({ fields: undefined })));
    accepted++;
  });

  await t.test('a refused payload leaves no blob', async () => {
    await assertOneBlobPerRequest(server, accepted);
  });
});

// ------------------------------------------------------------------------------------------------------------
// URLs

test('callback_url, return_url and embed_origin', async (t) => {
  const server = await useServer(t);

  const refusedCallbacks: Array<[string, RegExp]> = [
    ['http://example.com/hook', /https on port 443/],
    ['https://example.com:8443/hook', /https on port 443/],
    ['https://10.0.0.1/hook', /private/],
    ['https://127.0.0.1/hook', /loopback/],
    ['https://localhost/hook', /loopback/],
    ['https://[::ffff:127.0.0.1]/hook', /loopback|IPv4-mapped/],
    ['https://[::1]/hook', /loopback/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://100.64.0.1/hook', /carrier-grade NAT/],
    ['https://192.168.1.10/hook', /private/],
    ['http://127.0.0.1:9999/hook', /loopback.*WEBHOOKS_ALLOW_LOOPBACK/],
  ];
  for (const [url, rule] of refusedCallbacks) {
    await t.test(`callback_url ${url} is refused`, async () => {
      const message = await expectError(await create(server, payload({ callback_url: url })), 400, 'invalid_request', 'request.callback_url');
      assert.match(message, rule);
    });
  }

  await t.test('callback_url https://example.com/hook is accepted', async () => {
    await created(await create(server, payload({ callback_url: 'https://example.com/hook' })));
    await created(await create(server, payload({ callback_url: 'https://example.com:443/hook' })));
  });

  await t.test('return_url http://example.com is refused', async () => {
    const message = await expectError(await create(server, payload({ return_url: 'http://example.com/done' })), 400, 'invalid_request', 'request.return_url');
    assert.match(message, /https/);
  });

  await t.test('return_url http://localhost:3000/done is accepted', async () => {
    const response = await created(await create(server, payload({ return_url: 'http://localhost:3000/done' })));
    assert.equal(response.return_url, 'http://localhost:3000/done');
  });

  await t.test('return_url http://127.0.0.1 and http://[::1] are accepted', async () => {
    await created(await create(server, payload({ return_url: 'http://127.0.0.1:8080/done' })));
    await created(await create(server, payload({ return_url: 'http://[::1]:8080/done' })));
  });

  await t.test('return_url https://example.com/done is accepted, echoed and stored', async () => {
    const response = await created(await create(server, payload({ return_url: 'https://example.com/done' })));
    assert.equal(response.return_url, 'https://example.com/done');
    const status = (await getStatus(server, response.id)) as unknown as Json;
    assert.equal(status.return_url, 'https://example.com/done');
  });

  for (const origin of [
    'https://app.example.com/',
    'https://app.example.com/embed',
    'https://app.example.com?x=1',
    'http://app.example.com',
    'https://*.example.com',
  ]) {
    await t.test(`embed_origin ${origin} is refused`, async () => {
      await expectError(await create(server, payload({ embed_origin: origin })), 400, 'invalid_request', 'request.embed_origin');
    });
  }

  await t.test('embed_origin https://app.example.com:8443 is accepted', async () => {
    await created(await create(server, payload({ embed_origin: 'https://app.example.com:8443' })));
    await created(await create(server, payload({ embed_origin: 'https://app.example.com' })));
  });
});

test('callback_url http://127.0.0.1:9999 is accepted by a server started with loopback webhooks allowed', async (t) => {
  const server = await useServer(t, { allowLoopbackWebhooks: true });
  await created(await create(server, payload({ callback_url: 'http://127.0.0.1:9999/hook' })));
  await created(await create(server, payload({ callback_url: 'http://localhost:9999/hook' })));
  // Only loopback is opened: private and plain-HTTP public destinations stay refused.
  await expectError(await create(server, payload({ callback_url: 'https://10.0.0.1/hook' })), 400, 'invalid_request', 'request.callback_url');
  await expectError(await create(server, payload({ callback_url: 'http://example.com/hook' })), 400, 'invalid_request', 'request.callback_url');
});

// ------------------------------------------------------------------------------------------------------------
// What is stored

test('stored data: field values, signers in payload order, PDF encrypted at rest', async (t) => {
  const server = await useServer(t);
  const signers = [
    signer({ reference: 'buyer', name: 'Bea Buyer', email: 'bea@example.com', order: 3, locale: 'ar', verification: 'email_otp' }),
    signer({ reference: 'seller', name: undefined, email: 'sam@example.com', order: 1 }),
    signer({ reference: 'witness', name: 'Will', email: 'will@example.com', order: 2, locale: 'fr' }),
  ];
  const fields = [
    sig({ signer_reference: 'buyer' }),
    text({ signer_reference: 'buyer', name: 'company_name', value: 'Acme SAS' }),
    text({ signer_reference: 'seller', type: 'date', name: 'start_date', y: 130 }),
    text({ signer_reference: 'seller', name: 'notes', y: 160, value: 'Fixed note', read_only: true }),
    text({ signer_reference: 'witness', field_key: 'company', y: 190 }),
    text({ signer_reference: 'witness', type: 'date', field_key: 'sign_date', y: 220 }),
    sig({ signer_reference: 'witness', type: 'initials', y: 600 }),
  ];
  const body = payload({ signers, fields, field_values: { start_date: '2025-01-31' } });
  const response = await created(await create(server, body));
  const status = await getStatus(server, response.id);

  // Signers: payload order (not `order`), every SignerStatus key, '' for absent locale/verification/name.
  assert.deepEqual(
    status.signers.map((s) => s.reference),
    ['buyer', 'seller', 'witness'],
  );
  for (const s of status.signers) {
    assert.deepEqual(Object.keys(s).sort(), SIGNER_STATUS_KEYS);
    assert.match(String(s.id), UUID);
    assert.equal(s.status, 'pending');
    assert.equal(s.signed_at, null);
    assert.equal(s.expires_at, null);
    assert.equal(s.verified_at, null);
  }
  const [buyer, seller, witness] = status.signers;
  assert.deepEqual(
    { ...buyer, id: undefined },
    {
      id: undefined,
      reference: 'buyer',
      name: 'Bea Buyer',
      email: 'bea@example.com',
      order: 3,
      status: 'pending',
      locale: 'ar',
      verification: 'email_otp',
      signed_at: null,
      expires_at: null,
      verified_at: null,
    },
  );
  assert.deepEqual(
    { ...seller, id: undefined },
    {
      id: undefined,
      reference: 'seller',
      name: '',
      email: 'sam@example.com',
      order: 1,
      status: 'pending',
      locale: '',
      verification: '',
      signed_at: null,
      expires_at: null,
      verified_at: null,
    },
  );
  assert.equal(witness?.locale, 'fr');
  assert.equal(witness?.verification, '');
  assert.equal(new Set(status.signers.map((s) => s.id)).size, 3);

  // Fields: text and date only, in payload order, values from `value` and from `field_values`.
  assert.equal(status.fields.length, 5);
  for (const f of status.fields) {
    assert.deepEqual(Object.keys(f).sort(), FIELD_STATUS_KEYS);
    assert.match(String(f.id), UUID);
    assert.equal(f.completed, false);
  }
  assert.deepEqual(
    status.fields.map(({ id: _id, ...rest }) => rest),
    [
      { name: 'company_name', type: 'text', field_key: '', signer_reference: 'buyer', value: 'Acme SAS', read_only: false, completed: false },
      { name: 'start_date', type: 'date', field_key: '', signer_reference: 'seller', value: '2025-01-31', read_only: false, completed: false },
      { name: 'notes', type: 'text', field_key: '', signer_reference: 'seller', value: 'Fixed note', read_only: true, completed: false },
      { name: '', type: 'text', field_key: 'company', signer_reference: 'witness', value: '', read_only: false, completed: false },
      { name: '', type: 'date', field_key: 'sign_date', signer_reference: 'witness', value: '', read_only: false, completed: false },
    ],
  );

  // A replay changes nothing, even with another payload.
  const replay = await create(
    server,
    payload({ client_reference: body.client_reference, signers: [signer({ reference: 'other', email: 'o@example.com' })], fields: [] }),
  );
  assert.equal(replay.status, 200);
  assert.equal((await json<CreateResponse>(replay)).id, response.id);
  assert.deepEqual(await getStatus(server, response.id), status);

  // The PDF is encrypted at rest: one blob, no plain PDF bytes in it.
  const blobs = blobFiles(server);
  assert.equal(blobs.length, 1);
  const sealed = fs.readFileSync(blobs[0]!);
  assert.equal(sealed.includes('%PDF-'), false);
  assert.equal(sealed.includes('Test document'), false);
  assert.ok(sealed.length >= (await a4Pdf()).length);
});

test("sender values the signed PDF's fonts cannot draw are refused at create and at PUT /fields; other scripts pass", async (t) => {
  const server = await useServer(t);
  const field = (value: string) => ({ signer_reference: 'client', type: 'text', name: 'note', value, page: 1, x: 50, y: 600, width: 300, height: 20 });
  const signature = { signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 };
  const drawable = 'Ünïcödé Ελληνικά Привет مرحبا שלום 😀';
  const created = await postCreate(server, payload({ fields: [signature, field(drawable)] }));
  assert.equal(created.status, 201, await created.clone().text());
  await expectEnvelope(
    await postCreate(server, payload({ fields: [signature, field('東京タワー')] })),
    400,
    'invalid_request',
    /^request\.fields\[1\]\.value holds characters the signed PDF's fonts cannot draw \(東 京 タ ワ ー\)/,
  );
  await expectEnvelope(
    await postCreate(server, payload({ fields: [signature, { ...field(''), value: undefined }], field_values: { note: '한국어' } })),
    400,
    'invalid_request',
    /^request\.field_values\.note holds characters/,
  );
  const { id } = await json<{ id: string }>(created);
  const put = await server.call('PUT', `/v1/signature-requests/${id}/fields`, {
    body: JSON.stringify({ fields: [signature, field('中文')] }),
    headers: { 'content-type': 'application/json' },
  });
  await expectEnvelope(put, 400, 'invalid_request', /^fields\[1\]\.value holds characters the signed PDF's fonts cannot draw \(中 文\)/);
});
