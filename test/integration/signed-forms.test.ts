// A signed PDF made from a fillable form (AcroForm): the form's fields are drawn into the page with
// their values, no interactive widget is left (pdf.js and qpdf say so), and the seal is valid (pdfsig).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { activeRequest, signerAction, status } from '../helpers/flows.js';
import { type TestServer, useServer, useTmpDir } from '../helpers/server.js';
import { detectionCorpus } from '../helpers/scans.js';
import { IN_CI, missingTool } from '../helpers/system-tools.js';

const FORM = new URL('../../fixtures/detection/acroform.pdf', import.meta.url);

test('a signed AcroForm document is flattened: values kept, no widget left, seal valid', {
  skip: !IN_CI && (missingTool('pdfsig') || missingTool('qpdf')),
}, async (t) => {
  const dir = useTmpDir(t);
  // The form as a sender would upload it: some fields filled in.
  const original = await PDFDocument.load(fs.readFileSync(FORM));
  original.getForm().getTextField('company_name').setText('Flatland Holdings');
  original.getForm().getTextField('reference_number').setText('REF-20261128');
  const upload = await original.save();
  const widgetsBefore = await widgetCount(upload);
  assert.ok(widgetsBefore >= 8, `the upload is a fillable form (${widgetsBefore} widgets)`);

  const server = await useServer(t);
  const started = await activeRequest(
    server,
    {
      signers: [{ reference: 'applicant', name: 'Flora Field', email: 'flora@example.com', order: 1, locale: 'fr' }],
      fields: [
        { signer_reference: 'applicant', type: 'signature', page: 1, x: 300, y: 760, width: 200, height: 40 },
        { signer_reference: 'applicant', type: 'date', field_key: 'sign_date', page: 1, x: 60, y: 800, width: 120, height: 20 },
      ],
    },
    { signers: 'payload', document: { bytes: upload, filename: 'form.pdf' } },
  );
  const file = await signAndDownload(server, started.id, started.links.applicant!, 'Flora Field', path.join(dir, 'signed-form.pdf'));
  const bytes = fs.readFileSync(file);

  assert.equal(await widgetCount(bytes), 0, 'pdf.js finds no form widget');
  const qpdf = JSON.parse(execFileSync('qpdf', ['--json', '--json-key=acroform', file], { encoding: 'utf8' })) as {
    acroform: { fields: Array<{ fieldtype: string }> };
  };
  // The only field left is paraph's own signature field (invisible, no widget on a page).
  assert.deepEqual(
    qpdf.acroform.fields.map((f) => f.fieldtype),
    ['/Sig'],
    JSON.stringify(qpdf.acroform.fields),
  );
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  assert.ok(text.includes('Flatland Holdings') && text.includes('REF-20261128'), 'the form values are drawn into the page');
  assert.match(text, /\d{4}-\d{2}-\d{2}/, 'the date in ISO 8601');
  const report = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  assert.match(report, /Signature Validation: Signature is Valid\./, report);
});

/** The only signer signs (a typed signature); the signed PDF, once made, is written to `file`. */
async function signAndDownload(server: TestServer, id: string, link: string, name: string, file: string): Promise<string> {
  const signed = await signerAction(link, 'sign', { signature: { type: 'typed', text: name } });
  assert.equal(signed.status, 200, await signed.clone().text());
  for (let i = 0; ; i++) {
    if ((await status(server, id)).artifacts.signed_pdf) break;
    assert.ok(i < 600, 'the signed PDF is made');
    await new Promise((r) => setTimeout(r, 100));
  }
  const response = await server.call('GET', `/v1/signature-requests/${id}/artifacts/signed-pdf`);
  assert.equal(response.status, 200);
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

/** Widget annotations pdf.js finds on every page (the seal's own field has none on a page, or one without rectangle). */
async function widgetCount(bytes: Uint8Array): Promise<number> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  let count = 0;
  for (let n = 1; n <= pdf.numPages; n++) {
    const annotations = (await (await pdf.getPage(n)).getAnnotations()) as Array<{ subtype: string; fieldType?: string; rect: number[] }>;
    count += annotations.filter((a) => a.subtype === 'Widget' && !(a.fieldType === 'Sig' && a.rect.every((v) => v === 0))).length;
  }
  await pdf.destroy();
  return count;
}

test('a signature field the original left outside its form (no /AcroForm) is flattened too: paraph seal is the only signature', {
  skip: (!IN_CI && (missingTool('pdfsig') || missingTool('qpdf'))) || (!detectionCorpus() && 'the detection corpus is not there'),
}, async (t) => {
  const dir = useTmpDir(t);
  // A real contract whose page 1 carries a signed signature widget, listed in no /AcroForm.
  const original = path.join(detectionCorpus() as string, 'arkansas-sample_contract.pdf');
  const upload = fs.readFileSync(original);
  assert.match(execFileSync('pdfsig', [original], { encoding: 'utf8' }), /Signature #1/, 'the upload carries a signature');
  assert.equal((await PDFDocument.load(upload, { ignoreEncryption: true })).catalog.has(PDFName.of('AcroForm')), false, 'no /AcroForm');

  const server = await useServer(t);
  const started = await activeRequest(
    server,
    {
      signers: [{ reference: 'buyer', name: 'Bea Buyer', email: 'bea@example.com', order: 1 }],
      fields: [{ signer_reference: 'buyer', type: 'signature', page: 1, x: 300, y: 700, width: 200, height: 40 }],
    },
    { signers: 'payload', document: { bytes: new Uint8Array(upload), filename: 'contract.pdf' } },
  );
  const file = await signAndDownload(server, started.id, started.links.buyer!, 'Bea Buyer', path.join(dir, 'signed-contract.pdf'));

  const report = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  assert.doesNotMatch(report, /Signature #2/, report);
  assert.match(report, /Signature Validation: Signature is Valid\./, report);
  assert.match(report, /Total document signed/, report);
  assert.equal(await widgetCount(fs.readFileSync(file)), 0, 'no widget of the original left');
  assert.deepEqual(
    (
      JSON.parse(execFileSync('qpdf', ['--json', '--json-key=acroform', file], { encoding: 'utf8' })) as { acroform: { fields: Array<{ fieldtype: string }> } }
    ).acroform.fields.map((f) => f.fieldtype),
    ['/Sig'],
  );
});
