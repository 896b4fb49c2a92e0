// POST /v1/signature-requests/{id}/detect-fields end to end, over real HTTP against the real server (spec:
// DetectionResult, the detect-fields row of the endpoint table, "States and transitions", the detection
// rate limit; sandbox contract: field geometry). The analysis runs in the server's detection child process:
// pdf.js for text, drawings and AcroForm widgets, tesseract.js offline for scanned pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { PDFDocument, PDFHexString, PDFName, PDFSignature, StandardFonts } from '@cantoo/pdf-lib';
import { DetectionResult } from '../../src/contract/detection.js';
import { createFieldDetector } from '../../src/pdf/detect.js';
import { fieldDetectorFor, useFieldDetector } from '../../src/features/requests/detect-fields.js';
import { fontBomb, formFanout, rootNotCatalog } from '../helpers/hostile-pdfs.js';
import { createRequest } from '../helpers/flows.js';
import { json, useServer, useTmpDir, type TestServer } from '../helpers/server.js';

const ROUTE = '/v1/signature-requests';
const FIXTURES = new URL('../../fixtures/', import.meta.url);
const fixture = (name: string) => new Uint8Array(fs.readFileSync(new URL(name, FIXTURES)));

type Result = DetectionResult;
interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormatsPlugin.default(ajv);
const validateResult: ValidateFunction = ajv.compile(DetectionResult);

function assertDetectionResult(body: unknown): asserts body is Result {
  assert.ok(validateResult(body), JSON.stringify(validateResult.errors));
}

/** Requests made here have no fields yet: detection proposes them. */
const NO_FIELDS = { fields: undefined };

async function detect(server: TestServer, id: string, init: { key?: string; body?: string } = {}): Promise<Answer> {
  const response = await server.call('POST', `${ROUTE}/${id}/detect-fields`, {
    ...(init.body === undefined ? {} : { body: init.body, headers: { 'content-type': 'application/json' } }),
    ...(init.key ? { key: init.key } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

function assertError(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.deepEqual(Object.keys(answer.body), ['error']);
  assert.equal(answer.body.error.code, code);
  assert.equal(answer.body.error.request_id, answer.headers.get('x-request-id'));
}

/** The suggestions as the fields PUT wants them: each for the signer its role names. */
function fieldsFrom(result: Result, referenceOf: (role: string | undefined) => string) {
  return result.suggestions.map((s) => ({
    signer_reference: referenceOf(s.roleHint),
    type: s.type,
    page: s.page,
    x: s.x,
    y: s.y,
    width: s.width,
    height: s.height,
    ...(s.fieldKey ? { field_key: s.fieldKey } : {}),
  }));
}

async function putJson(server: TestServer, route: string, method: string, body: unknown): Promise<Answer> {
  const response = await server.call(method, route, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

async function manyPages(count: number, lastPageText: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= count; i++) {
    const page = doc.addPage([300, 400]);
    page.drawText(i === count ? lastPageText : `Page ${i}`, { x: 30, y: 340, size: 11, font });
  }
  return doc.save();
}

async function healthy(server: TestServer): Promise<void> {
  const health = await fetch(`${server.url}/healthz`);
  assert.equal(health.status, 200);
}

// ------------------------------------------------------------------------------------------------------------

test('detect-fields on one server: results, the flow to activation, OCR, refusals and isolation', async (t) => {
  // The isolation subtests provoke detection failures (memory, a kill, the time limit), each a 503 logged as a failed request.
  const server = await useServer(t, {}, {}, { expectedErrors: /^request failed: field detection could not finish/ });

  await t.test("contract.pdf: a DetectionResult exactly, with both parties' signature, name and date; the request stays prepared", async () => {
    const id = await createRequest(server, NO_FIELDS, {
      document: { bytes: fixture('contract.pdf') },
      signers: [{ reference: 'client' }, { reference: 'provider' }],
    });
    const answer = await detect(server, id);
    assert.equal(answer.status, 200, answer.text);
    assertDetectionResult(answer.body);
    const result = answer.body;
    assert.deepEqual(result.pages, [
      { page: 1, width: 595.28, height: 841.89, rotation: 0 },
      { page: 2, width: 595.28, height: 841.89, rotation: 0 },
    ]);
    assert.equal(result.ocrStatus, 'enabled');
    assert.equal(result.stats.pageCount, 2);
    assert.equal(result.stats.totalSuggestions, result.suggestions.length);
    assert.deepEqual([result.stats.nativeTextPages, result.stats.scannedPages, result.stats.ocrPages], [2, 0, 0]);
    assert.ok((result.stats.extractionMs ?? -1) >= 0 && (result.stats.detectionMs ?? -1) >= 0);
    const summary = result.suggestions.map((s) => `${s.page} ${s.type} ${s.roleHint} ${s.fieldKey ?? '-'} ${s.reason}`).sort();
    assert.deepEqual(summary, [
      '2 date client sign_date label_with_geometry',
      '2 date provider sign_date label_with_geometry',
      '2 signature client - label_with_geometry',
      '2 signature provider - label_with_geometry',
      '2 text client signer_name label_with_geometry',
      '2 text provider signer_name label_with_geometry',
    ]);
    assert.equal(new Set(result.suggestions.map((s) => s.id)).size, result.suggestions.length);
    // The client's signature stands on the first line of the left block (x 64, 200 pt wide).
    const signature = result.suggestions.find((s) => s.type === 'signature' && s.roleHint === 'client');
    assert.ok(signature && Math.abs(signature.x - 64) < 1 && Math.abs(signature.width - 200) < 1 && signature.height >= 30);
    for (const s of result.suggestions) assert.ok(s.confidence >= 0.65 && s.confidence <= 1);

    const after = await server.call('GET', `${ROUTE}/${id}`);
    const status = await json<{ status: string; signers: Array<{ status: string; expires_at: string | null }> }>(after);
    assert.equal(status.status, 'prepared');
    assert.ok(
      status.signers.every((s) => s.status === 'pending' && s.expires_at === null),
      'no link was made',
    );
    const { db } = server.running.ctx;
    assert.equal(db.all(db.q.selectFrom('signing_links').select('id').where('request_id', '=', id)).length, 0);
  });

  await t.test('detect -> PUT /fields with the suggestions -> activate', async () => {
    const id = await createRequest(server, NO_FIELDS, {
      document: { bytes: fixture('contract.pdf') },
      signers: [{ reference: 'client' }, { reference: 'provider' }],
    });
    const detected = await detect(server, id);
    assert.equal(detected.status, 200, detected.text);
    const fields = fieldsFrom(detected.body, (role) => (role === 'provider' ? 'provider' : 'client'));
    const put = await putJson(server, `${ROUTE}/${id}/fields`, 'PUT', { fields });
    assert.equal(put.status, 200, put.text);
    const activated = await putJson(server, `${ROUTE}/${id}/activate`, 'POST', {});
    assert.equal(activated.status, 200, activated.text);
    assert.equal(activated.body.status, 'active');
    // Once active, detection is over: 409.
    assertError(await detect(server, id), 409, 'conflict');
  });

  await t.test('AcroForm widgets through the API: signature and text fields with reason acroform and field keys', async () => {
    const id = await createRequest(server, NO_FIELDS, { document: { bytes: fixture('detection/acroform.pdf') }, signers: [{ reference: 'applicant' }] });
    const answer = await detect(server, id);
    assert.equal(answer.status, 200, answer.text);
    assertDetectionResult(answer.body);
    const acro = answer.body.suggestions;
    assert.ok(acro.length >= 9 && acro.every((s) => s.reason === 'acroform'));
    assert.deepEqual(
      acro
        .filter((s) => s.type === 'signature')
        .map((s) => s.roleHint)
        .sort(),
      ['applicant', 'bank'],
    );
    assert.deepEqual(
      acro
        .map((s) => s.fieldKey)
        .filter(Boolean)
        .sort(),
      ['company', 'initials', 'job_title', 'sign_date', 'signer_email', 'signer_name'],
    );
    for (const s of acro) assert.ok(s.confidence >= 0.88);
  });

  await t.test("a signature field signed already (its value a signature dictionary) is no place to sign; the form's other one still is", async () => {
    const doc = await PDFDocument.load(fixture('detection/acroform.pdf'));
    const field = doc.getForm().getField('applicant_signature');
    assert.ok(field instanceof PDFSignature);
    const signature = doc.context.obj({
      Type: 'Sig',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'ETSI.CAdES.detached',
      ByteRange: [0, 0, 0, 0],
      Contents: PDFHexString.of('00'),
    });
    field.acroField.dict.set(PDFName.of('V'), doc.context.register(signature));
    const id = await createRequest(server, NO_FIELDS, { document: { bytes: await doc.save() }, signers: [{ reference: 'bank' }] });
    const answer = await detect(server, id);
    assert.equal(answer.status, 200, answer.text);
    assertDetectionResult(answer.body);
    const signatures = answer.body.suggestions.filter((s) => s.type === 'signature' && s.reason === 'acroform');
    assert.deepEqual(
      signatures.map((s) => s.roleHint),
      ['bank'],
    );
    // The text widgets are all still there.
    assert.ok(answer.body.suggestions.filter((s) => s.reason === 'acroform' && s.type !== 'signature').length >= 7);
  });

  await t.test('a /Rotate 90 page is described as displayed; suggestions are in displayed coordinates', async () => {
    const plain = await detect(
      server,
      await createRequest(server, NO_FIELDS, { document: { bytes: fixture('rotated.pdf') }, signers: [{ reference: 'client' }] }),
    );
    assert.equal(plain.status, 200, plain.text);
    assertDetectionResult(plain.body);
    assert.deepEqual(plain.body.pages, [{ page: 1, width: 841.89, height: 595.28, rotation: 90 }]);
    assert.deepEqual(plain.body.suggestions, []);

    const block = await detect(
      server,
      await createRequest(server, NO_FIELDS, { document: { bytes: fixture('detection/rotated-90.pdf') }, signers: [{ reference: 'client' }] }),
    );
    assert.equal(block.status, 200, block.text);
    const sig = block.body.suggestions.find((s: Result['suggestions'][number]) => s.type === 'signature' && s.roleHint === 'client');
    // Drawn on the stored portrait page, shown landscape: where the generator put the line as displayed.
    const expected = JSON.parse(fs.readFileSync(new URL('detection/expected.json', FIXTURES), 'utf8'))['rotated-90.pdf'].expected[0];
    assert.ok(sig, block.text);
    assert.equal(expected.roleHint, 'client');
    for (const k of ['x', 'y', 'width', 'height'] as const) assert.ok(Math.abs(sig[k] - expected[k]) < 1, `${k}: ${JSON.stringify(sig)}`);
  });

  // The OCR subtests check what is read, not how fast: a scanned page is not cut at its own time limit (2.5 s) on a
  // machine busy with other test files (detect-limits and detect-page-limit test the cut).
  useFieldDetector(server.running.ctx, createFieldDetector({ cacheDir: useTmpDir(t), pageMs: 120_000 }));

  await t.test('a document with two text pages and a scanned signature page: OCR, page counts, then PUT and activate', async () => {
    const id = await createRequest(server, NO_FIELDS, {
      document: { bytes: fixture('detection/mixed-scanned-signature-page.pdf') },
      signers: [{ reference: 'seller' }, { reference: 'buyer' }],
    });
    const answer = await detect(server, id);
    assert.equal(answer.status, 200, answer.text);
    assertDetectionResult(answer.body);
    const result = answer.body;
    assert.deepEqual(
      {
        pageCount: result.stats.pageCount,
        nativeTextPages: result.stats.nativeTextPages,
        scannedPages: result.stats.scannedPages,
        ocrPages: result.stats.ocrPages,
      },
      { pageCount: 3, nativeTextPages: 2, scannedPages: 1, ocrPages: 1 },
    );
    assert.deepEqual(result.suggestions.map((s) => `${s.page} ${s.type} ${s.roleHint}`).sort(), ['3 signature buyer', '3 signature seller']);
    const put = await putJson(server, `${ROUTE}/${id}/fields`, 'PUT', { fields: fieldsFrom(result, (role) => role ?? 'seller') });
    assert.equal(put.status, 200, put.text);
    assert.equal((await putJson(server, `${ROUTE}/${id}/activate`, 'POST', {})).status, 200);
  });

  await t.test("a scanned Arabic page, with the signers' locale: read right to left, both parties", async () => {
    const id = await createRequest(server, NO_FIELDS, {
      document: { bytes: fixture('detection/scanned-ar.pdf') },
      signers: [
        { reference: 'first', locale: 'ar' },
        { reference: 'second', locale: 'ar' },
      ],
    });
    const answer = await detect(server, id);
    assert.equal(answer.status, 200, answer.text);
    assertDetectionResult(answer.body);
    assert.deepEqual([answer.body.stats.scannedPages, answer.body.stats.ocrPages, answer.body.stats.nativeTextPages], [1, 1, 0]);
    assert.deepEqual(answer.body.suggestions.map((s) => `${s.type} ${s.roleHint} ${s.fieldKey ?? '-'}`).sort(), [
      'date party_1 sign_date',
      'date party_2 sign_date',
      'signature party_1 -',
      'signature party_2 -',
      'text party_1 signer_name',
      'text party_2 signer_name',
    ]);
  });

  await t.test('409 once cancelled; 404 for an unknown id, a malformed id and another account; 400 for a body with properties', async () => {
    const id = await createRequest(server, NO_FIELDS, { document: { bytes: fixture('contract.pdf') }, signers: [{ reference: 'client' }] });
    assertError(await detect(server, id, { body: '{"pages":[1]}' }), 400, 'invalid_request');
    assert.equal((await detect(server, id, { body: '{}' })).status, 200);
    const other = server.newKey();
    assertError(await detect(server, id, { key: other.apiKey }), 404, 'not_found');
    assertError(await detect(server, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    assertError(await detect(server, 'not-a-uuid'), 404, 'not_found');
    assert.equal((await putJson(server, `${ROUTE}/${id}/cancel`, 'POST', {})).status, 200);
    assertError(await detect(server, id), 409, 'conflict');
  });

  await t.test('a document accepted at upload that the analysis cannot open: no suggestions, and no reason to retry', async () => {
    const id = await createRequest(server, NO_FIELDS, { document: { bytes: rootNotCatalog() }, signers: [{ reference: 'client' }] });
    const answer = await detect(server, id);
    assert.equal(answer.status, 200, answer.text);
    assertDetectionResult(answer.body);
    assert.deepEqual(answer.body.suggestions, []);
    assert.deepEqual(answer.body.pages, []);
    assert.equal(answer.body.stats.pageCount, 1);
    assert.equal(answer.body.ocrStatus, 'enabled');
  });

  await t.test('at most 200 pages are analysed; pageCount tells the truth', async () => {
    const id = await createRequest(server, NO_FIELDS, {
      document: { bytes: await manyPages(203, 'Signature: ______________________') },
      signers: [{ reference: 'client' }],
    });
    const answer = await detect(server, id);
    assert.equal(answer.status, 200, answer.text);
    assertDetectionResult(answer.body);
    assert.equal(answer.body.stats.pageCount, 203);
    assert.equal(answer.body.pages.length, 200);
    assert.equal(answer.body.stats.nativeTextPages, 200);
    assert.deepEqual(answer.body.suggestions, [], 'the label on page 203 was not read');
  });

  await t.test(
    'isolation: a decompression bomb and a forced kill answer 503, the time limit a partial result (503 when nothing was read), and the server keeps serving',
    async () => {
      const id = await createRequest(server, NO_FIELDS, { document: { bytes: fixture('contract.pdf') }, signers: [{ reference: 'client' }] });
      // A memory limit small enough for a quick test (the default is 1536 MB), and a time limit far enough that the bomb
      // meets the memory limit first even on a slow machine (it took 20 to 23 s on one); the scan below is read whole.
      const tight = createFieldDetector({ cacheDir: useTmpDir(t), maxMemoryMb: 900, timeoutMs: 60_000, pageMs: 120_000 });
      useFieldDetector(server.running.ctx, tight);

      const bombId = await createRequest(server, NO_FIELDS, { document: { bytes: fontBomb(3072) }, signers: [{ reference: 'client' }] });
      const started = Date.now();
      const bombed = await detect(server, bombId);
      assertError(bombed, 503, 'temporarily_unavailable');
      assert.match(bombed.body.error.message, /memory/);
      assert.ok(Date.now() - started < 60_000, 'stopped by the memory limit, not the clock');
      await healthy(server);
      assert.equal((await detect(server, id)).status, 200, 'a new child took over');

      // Killed from outside while it reads a scanned page.
      const scanId = await createRequest(server, NO_FIELDS, { document: { bytes: fixture('detection/scanned-en.pdf') }, signers: [{ reference: 'client' }] });
      const pending = detect(server, scanId);
      const detector = fieldDetectorFor(server.running.ctx);
      const until = Date.now() + 10_000;
      while (!detector.busy && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      assert.ok(detector.busy && detector.pid !== undefined);
      process.kill(detector.pid, 'SIGKILL');
      const killed = await pending;
      assertError(killed, 503, 'temporarily_unavailable');
      await healthy(server);
      const again = await detect(server, scanId);
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.stats.ocrPages, 1);

      // At the wall-clock limit: the pages read by then are the answer (5000 pages take pdf.js several
      // seconds even on a fast machine) ...
      useFieldDetector(server.running.ctx, createFieldDetector({ cacheDir: useTmpDir(t), timeoutMs: 3000, maxPages: 10_000 }));
      const first = await detect(
        server,
        await createRequest(server, NO_FIELDS, { document: { bytes: await manyPages(1, 'Date:') }, signers: [{ reference: 'client' }] }),
      );
      assert.equal(first.status, 200, `the child is started: ${first.text}`);
      const partial = await detect(
        server,
        await createRequest(server, NO_FIELDS, { document: { bytes: await manyPages(5000, 'Date:') }, signers: [{ reference: 'client' }] }),
      );
      assert.equal(partial.status, 200, partial.text);
      assertDetectionResult(partial.body);
      assert.equal(partial.body.stats.pageCount, 5000);
      assert.ok(partial.body.pages.length >= 1 && partial.body.pages.length < 5000, `${partial.body.pages.length} pages read`);
      assert.deepEqual(
        partial.body.pages.map((p) => p.page),
        Array.from({ length: partial.body.pages.length }, (_, i) => i + 1),
      );
      // ... and with no page read by then (stuck in the first one), 503.
      const stuck = await detect(server, await createRequest(server, NO_FIELDS, { document: { bytes: formFanout(40) }, signers: [{ reference: 'client' }] }));
      assertError(stuck, 503, 'temporarily_unavailable');
      assert.match(stuck.body.error.message, /longer than 3 s/);
      await healthy(server);
      useFieldDetector(server.running.ctx, createFieldDetector({ cacheDir: useTmpDir(t) }));
      assert.equal((await detect(server, id)).status, 200);
    },
  );
});

test('a request made without fields starts the analysis process, which then reads its document; one made with fields starts none', async (t) => {
  const server = await useServer(t);
  const detector = fieldDetectorFor(server.running.ctx);
  await createRequest(server, {}, { document: { bytes: fixture('contract.pdf') } });
  assert.equal(detector.pid, undefined, 'a request made with its fields starts nothing');
  const id = await createRequest(server, NO_FIELDS, { document: { bytes: fixture('contract.pdf') } });
  const started = detector.pid;
  assert.notEqual(started, undefined, 'started when the request was made');
  const answer = await detect(server, id);
  assert.equal(answer.status, 200, answer.text);
  assert.ok(answer.body.suggestions.length > 0);
  assert.equal(detector.pid, started, 'the process started with the request read its document');
});

test("12 detections per hour per key and IP: the 13th answers 429 with the detection bucket's headers", async (t) => {
  const server = await useServer(t, { rateLimit: 'on' });
  const id = await createRequest(server, NO_FIELDS, { document: { bytes: fixture('contract.pdf') }, signers: [{ reference: 'client' }] });
  for (let i = 1; i <= 12; i++) {
    const answer = await detect(server, id);
    assert.equal(answer.status, 200, `call ${i}: ${answer.text}`);
    // Successful answers carry the general bucket.
    assert.equal(answer.headers.get('x-ratelimit-limit'), '120');
  }
  const refused = await detect(server, id);
  assertError(refused, 429, 'rate_limit_exceeded');
  assert.equal(refused.headers.get('x-ratelimit-limit'), '12');
  assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
  const retryAfter = Number(refused.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 3600, `retry-after ${retryAfter}`);
  // Another key has its own bucket; other calls of this key still work.
  const other = server.newKey(server.accountId);
  assert.equal((await detect(server, id, { key: other.apiKey })).status, 200);
  assert.equal((await server.call('GET', `${ROUTE}/${id}`)).status, 200);
  // An hour later (sandbox clock) the key may detect again.
  const advanced = await putJson(server, '/_sandbox/clock/advance', 'POST', { seconds: 3601 });
  assert.equal(advanced.status, 200, advanced.text);
  assert.equal((await detect(server, id)).status, 200);
});

test('the detection bucket counts analyses: replays of an Idempotency-Key, 400s, 404s and 409s use none of the 12', async (t) => {
  const server = await useServer(t, { rateLimit: 'on' });
  const id = await createRequest(server, NO_FIELDS, { document: { bytes: fixture('contract.pdf') }, signers: [{ reference: 'client' }] });
  const keyed = () => server.call('POST', `${ROUTE}/${id}/detect-fields`, { headers: { 'idempotency-key': 'detect-once' } });
  const first = await keyed();
  assert.equal(first.status, 200, await first.clone().text());
  await first.arrayBuffer();
  const active = await createRequest(server, {}, { document: { bytes: fixture('contract.pdf') } });
  assert.equal((await server.call('POST', `${ROUTE}/${active}/activate`, { headers: { 'content-type': 'application/json' }, body: '{}' })).status, 200);
  for (let i = 0; i < 12; i++) {
    const replay = await keyed();
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    await replay.arrayBuffer();
    assertError(await detect(server, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    assertError(await detect(server, id, { body: '{"a":1}' }), 400, 'invalid_request');
    assertError(await detect(server, active), 409, 'conflict');
  }
  // One analysis so far: eleven more are allowed, the one after them is not.
  for (let i = 2; i <= 12; i++) assert.equal((await detect(server, id)).status, 200, `analysis ${i}`);
  const refused = await detect(server, id);
  assertError(refused, 429, 'rate_limit_exceeded');
  assert.equal(refused.headers.get('x-ratelimit-limit'), '12');
});
