// PDFs encrypted with an owner password only (printing or editing restricted, an empty user password:
// every viewer opens them without asking), as government forms often are. Encrypted here by qpdf, as
// other software does (RC4 128-bit, AES-128, AES-256), they are accepted for create, templates,
// detection, the signing page and sealing: paraph keeps a decrypted re-saved copy (docs/detection.md,
// "Encrypted PDFs"). A PDF that needs a password to open stays 400 invalid_document.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from '@cantoo/pdf-lib';
import { latestOtpCode } from '../../src/features/mail/caught-emails.js';
import { activate, createRequest, postCreate, postJson, signerAction, status } from '../helpers/flows.js';
import { payload } from '../helpers/requests.js';
import { json, useServer, useTmpDir, type TestServer } from '../helpers/server.js';
import { detectionCorpus } from '../helpers/scans.js';
import { IN_CI, missingTool } from '../helpers/system-tools.js';
import { CLIENT, makeTemplate, sigOf } from '../helpers/templates.js';

type Json = Record<string, any>;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONTRACT = path.join(ROOT, 'fixtures/contract.pdf');
const skip = !IN_CI && (missingTool('qpdf') || missingTool('pdfsig'));

/** fixtures/contract.pdf encrypted by qpdf with `args` (after --encrypt USER OWNER BITS). */
function encrypted(t: TestContext, name: string, user: string, bits: string, ...extra: string[]): Uint8Array {
  const out = path.join(useTmpDir(t, 'paraph-encrypted-'), `${name}.pdf`);
  execFileSync('qpdf', ['--allow-weak-crypto', '--encrypt', user, 'owner-secret', bits, ...extra, '--', CONTRACT, out]);
  const bytes = new Uint8Array(fs.readFileSync(out));
  // qpdf's file is one pdf-lib refuses as encrypted: what paraph refused before.
  assert.match(Buffer.from(bytes).toString('latin1'), /\/Encrypt/);
  return bytes;
}

const OWNER_ONLY: ReadonlyArray<[string, string, string[]]> = [
  ['RC4 128-bit, no printing or changes', '128', ['--use-aes=n', '--print=none', '--modify=none']],
  ['AES-128, no changes', '128', ['--use-aes=y', '--modify=none']],
  ['AES-256, no printing, no copying', '256', ['--print=none', '--extract=n']],
];

/** The create call's document: an uploaded form. */
const FORM = (bytes: Uint8Array) => ({ document: { bytes, filename: 'form.pdf' } });

async function sign(server: TestServer, link: string): Promise<void> {
  const view = await json<Json>(await signerAction(link, 'view'));
  assert.equal(view.state, 'open', JSON.stringify(view));
  if (view.verification_required) {
    assert.equal((await signerAction(link, 'otp')).status, 200);
    const code = latestOtpCode(server.running.ctx, view.request.id, view.signer.reference);
    assert.ok(code);
    assert.equal((await json<Json>(await signerAction(link, 'otp/verify', { code }))).verified, true);
  }
  const response = await signerAction(link, 'sign', { signature: { type: 'typed', text: 'Ada Lovelace' } });
  assert.equal(response.status, 200, await response.clone().text());
}

async function completed(server: TestServer, id: string): Promise<Buffer> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const current = await status(server, id);
    if (Object.values(current.artifacts).every(Boolean)) break;
    if (Date.now() > deadline) assert.fail(`no artifacts for ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal((await status(server, id)).status, 'completed');
  const response = await server.call('GET', `/v1/signature-requests/${id}/artifacts/signed-pdf`);
  assert.equal(response.status, 200);
  return Buffer.from(await response.arrayBuffer());
}

/** poppler's verdict on paraph's seal: the last signature, valid and covering the whole file (and the only one unless `before` others were there). */
function assertValidSeal(t: TestContext, signed: Buffer, before = 0): void {
  const file = path.join(useTmpDir(t, 'paraph-signed-'), 'signed.pdf');
  fs.writeFileSync(file, signed);
  let text: string;
  try {
    text = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  } catch (error) {
    text = String((error as { stdout?: string }).stdout ?? '');
  }
  const blocks = text.split(/^Signature #\d+:$/m).slice(1);
  assert.equal(blocks.length, before + 1, text);
  const seal = blocks.at(-1) as string;
  assert.match(seal, /Signer Certificate Common Name: paraph sandbox TEST ONLY/, text);
  assert.match(seal, /Signature Validation: Signature is Valid\./, text);
  assert.match(seal, /Total document signed/, text);
}

/** The signed or served copy: a plain PDF, the contract's two pages and its text. */
async function assertDecryptedContract(bytes: Uint8Array): Promise<void> {
  const doc = await PDFDocument.load(bytes);
  assert.equal(doc.isEncrypted, false);
  assert.equal(doc.getPageCount(), 2);
  // pdftotext reads the text from stdin's file: the decrypted content streams are in clear.
  const text = execFileSync('pdftotext', ['-', '-'], { input: bytes, encoding: 'utf8' });
  assert.match(text, /Service agreement/);
}

test('owner-password PDFs: create, detect, signing page, sign, seal valid for pdfsig', { skip, timeout: 300_000 }, async (t) => {
  const server = await useServer(t);
  for (const [name, bits, extra] of OWNER_ONLY) {
    await t.test(name, async () => {
      const bytes = encrypted(t, name.replace(/\W+/g, '-'), '', bits, ...extra);
      const response = await postCreate(server, payload(), FORM(bytes));
      assert.equal(response.status, 201, await response.clone().text());
      const { id } = await json<{ id: string }>(response);
      // The stored document is the decrypted copy: detection reads it like any PDF.
      const detected = await postJson(server, `/v1/signature-requests/${id}/detect-fields`);
      assert.equal(detected.status, 200, await detected.clone().text());
      const analysis = await json<Json>(detected);
      assert.equal(analysis.stats.pageCount, 2);
      assert.equal(analysis.stats.nativeTextPages, 2);
      assert.ok(
        analysis.suggestions.some((s: Json) => s.type === 'signature'),
        JSON.stringify(analysis.suggestions),
      );
      const { signers } = await activate(server, id);
      const link = signers[0]?.signing_url as string;
      // The signing page shows the decrypted copy.
      const view = await json<Json>(await signerAction(link, 'view'));
      assert.equal(view.verification_required, false);
      const url = new URL(link);
      url.pathname = `${url.pathname}/api/document`;
      url.search = '';
      const served = await fetch(url);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'application/pdf');
      await assertDecryptedContract(new Uint8Array(await served.arrayBuffer()));
      await sign(server, link);
      const signed = await completed(server, id);
      assertValidSeal(t, signed);
      await assertDecryptedContract(signed);
    });
  }
});

test('a real form encrypted with AES and an owner password (the development corpus) completes with a valid seal', {
  skip: skip || (!detectionCorpus() && 'the detection corpus is not there'),
  timeout: 180_000,
}, async (t) => {
  const server = await useServer(t);
  // 17 pages, AES-128, changes restricted, three incremental updates with cross-reference streams.
  const bytes = new Uint8Array(fs.readFileSync(path.join(detectionCorpus() as string, 'arkansas-test_contract2.pdf')));
  assert.match(Buffer.from(bytes).toString('latin1'), /\/Encrypt \d+ 0 R/);
  const response = await postCreate(
    server,
    payload({ fields: [{ signer_reference: 'client', type: 'signature', page: 17, x: 50, y: 600, width: 200, height: 50 }] }),
    FORM(bytes),
  );
  assert.equal(response.status, 201, await response.clone().text());
  const { id } = await json<{ id: string }>(response);
  const { signers } = await activate(server, id);
  await sign(server, signers[0]?.signing_url as string);
  const signed = await completed(server, id);
  // The form carries a signature of its own (a DocuSign envelope), which the decrypted copy could not
  // keep valid: its field is flattened with the others (docs/api-decisions.md), so paraph's seal over
  // the copy is the one signature left, and valid.
  assertValidSeal(t, signed);
  const doc = await PDFDocument.load(signed);
  assert.equal(doc.getPageCount(), 17);
  assert.match(execFileSync('pdftotext', ['-f', '17', '-l', '17', '-', '-'], { input: signed, encoding: 'utf8' }), /Real Estate Contract/);
});

test('an owner-password PDF as a template: requests made from it complete with a valid seal', { skip, timeout: 180_000 }, async (t) => {
  const server = await useServer(t);
  const bytes = encrypted(t, 'template', '', '256', '--print=none', '--modify=none');
  const template = await makeTemplate(server, { document: { bytes, filename: 'form.pdf' }, fields: [sigOf('client')] });
  const id = await createRequest(server, { client_reference: 'from-template', template_id: template.id, signers: [CLIENT], fields: undefined });
  const { signers } = await activate(server, id);
  await sign(server, signers[0]?.signing_url as string);
  const signed = await completed(server, id);
  assertValidSeal(t, signed);
  await assertDecryptedContract(signed);
});

test('a PDF that needs a password to open stays 400 invalid_document, for create and templates', { skip }, async (t) => {
  const server = await useServer(t);
  for (const [bits, extra] of [
    ['256', []],
    ['128', ['--use-aes=n']],
  ] as const) {
    const bytes = encrypted(t, `user-${bits}`, 'user-secret', bits, ...extra);
    for (const response of [
      await postCreate(server, payload(), FORM(bytes)),
      await server.call('POST', '/v1/templates', {
        body: await (async () => {
          const form = new FormData();
          form.append('document', new Blob([bytes], { type: 'application/pdf' }), 'locked.pdf');
          form.append('name', 'Locked');
          form.append('fields', JSON.stringify([sigOf('client')]));
          return form;
        })(),
      }),
    ]) {
      const body = await json<Json>(response);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(body.error.code, 'invalid_document');
      assert.match(body.error.message, /encrypted with a password needed to open it/);
    }
  }
  // Nothing was stored for the refused uploads.
  const { db } = server.running.ctx;
  assert.equal(db.all(db.q.selectFrom('documents').selectAll()).length, 0);
  assert.equal(db.all(db.q.selectFrom('templates').selectAll()).length, 0);
});
