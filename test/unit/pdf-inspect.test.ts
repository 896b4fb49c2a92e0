import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PDFDocument, PDFName, PDFNumber } from '@cantoo/pdf-lib';
import { createPdfInspector } from '../../src/pdf/inspect.js';
import type { PdfInspection } from '../../src/pdf/inspect.js';
import { makeEncryptedPdf, makePdf, truncate } from '../helpers/pdfs.js';

const root = new URL('../../', import.meta.url);
const run = promisify(execFile);
const ascii = (text: string) => new TextEncoder().encode(text);
const contract = () => new Uint8Array(readFileSync(new URL('fixtures/contract.pdf', root)));

// One inspector for the plain cases; the tests with their own limits make their own.
const shared = createPdfInspector();
test.after(() => shared.close());

function reason(result: PdfInspection): string {
  return result.ok ? 'ok' : result.reason;
}

// Many small objects: slow to parse and heavy in memory, with a single page.
function heavyPdf(objects: number): Uint8Array {
  const parts = [
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n',
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n',
  ];
  for (let i = 4; i < objects + 4; i++) parts.push(`${i} 0 obj\n<< /A [${i} 1 2 3] /B (x) >>\nendobj\n`);
  parts.push('trailer\n<< /Root 1 0 R >>\n%%EOF\n');
  return ascii(parts.join(''));
}

test('bytes without a %PDF- header in the first 1024 bytes are not_pdf', async () => {
  const result = await shared.inspect(ascii('PK\u0003\u0004 this is a zip file\n%%EOF\n'));
  assert.deepEqual(result, { ok: false, reason: 'not_pdf', message: 'document is not a PDF (missing %PDF- header)' });
  assert.equal(reason(await shared.inspect(new Uint8Array(0))), 'not_pdf');
  const pdf = await makePdf();
  const junk = (n: number) => new Uint8Array(n).fill(0x20);
  assert.equal(reason(await shared.inspect(new Uint8Array([...junk(1000), ...pdf]))), 'ok');
  assert.equal(reason(await shared.inspect(new Uint8Array([...junk(1024), ...pdf]))), 'not_pdf');
});

test('a truncated upload (no %%EOF near the end) is incomplete', async () => {
  const pdf = contract();
  const result = await shared.inspect(truncate(pdf, pdf.length - 200));
  assert.equal(reason(result), 'incomplete');
  assert.match(result.ok ? '' : result.message, /truncated/);
  // Readers accept a little trailing junk after %%EOF.
  assert.equal(reason(await shared.inspect(new Uint8Array([...pdf, ...new Uint8Array(2000).fill(0x0a)]))), 'ok');
  assert.equal(reason(await shared.inspect(new Uint8Array([...pdf, ...new Uint8Array(2100).fill(0x0a)]))), 'incomplete');
});

test('a document that needs a password to open is reported as encrypted', async () => {
  const encrypted = makeEncryptedPdf({ userPassword: 'user-secret' });
  // The helper's file must be one that pdf-lib itself refuses as encrypted.
  await assert.rejects(PDFDocument.load(encrypted), /is encrypted/);
  const result = await shared.inspect(encrypted);
  assert.equal(reason(result), 'encrypted');
  assert.match(result.ok ? '' : result.message, /encrypted with a password needed to open it/);
});

test('a document encrypted with an empty user password is accepted, with its decrypted copy', async () => {
  const encrypted = makeEncryptedPdf();
  await assert.rejects(PDFDocument.load(encrypted), /is encrypted/);
  const result = await shared.inspect(encrypted);
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(result.pages, [{ width: 612, height: 792, rotation: 0 }]);
  assert.ok(result.decrypted, 'the decrypted copy comes with the answer');
  // The copy opens as a plain PDF, and its content stream reads in clear.
  const copy = await PDFDocument.load(result.decrypted);
  assert.equal(copy.isEncrypted, false);
  assert.doesNotMatch(Buffer.from(result.decrypted).toString('latin1'), /\/Encrypt/);
  assert.match(Buffer.from(result.decrypted).toString('latin1'), /\(Secret document\) Tj/);
  // A plain upload comes back without a copy: it is stored as it is.
  const plain = await shared.inspect(await makePdf());
  assert.ok(plain.ok && plain.decrypted === undefined);
});

test('encryption declared by a trailer is found even where pdf-lib misses it', async () => {
  // The /Encrypt reference dangles, so pdf-lib considers the file unencrypted.
  const dangling = Buffer.from(makeEncryptedPdf()).toString('latin1').replace('\n6 0 obj', '\n7 0 obj');
  assert.equal((await PDFDocument.load(ascii(dangling), { ignoreEncryption: true })).isEncrypted, false);
  assert.equal(reason(await shared.inspect(Buffer.from(dangling, 'latin1'))), 'encrypted');
  // Same with a cross-reference stream in a file pdf-lib cannot read at all.
  const body = '%PDF-1.5\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n';
  const xref = '9 0 obj\n<< /Type /XRef /Size 10 /W [1 2 1] /Root 1 0 R /Encrypt 8 0 R /Length 0 >>\nstream\n\nendstream\nendobj\n';
  assert.equal(reason(await shared.inspect(ascii(`${body}${xref}startxref\n0\n%%EOF\n`))), 'encrypted');
  assert.equal(reason(await shared.inspect(ascii(`${body}${xref.replace(' /Encrypt 8 0 R', '')}startxref\n0\n%%EOF\n`))), 'unreadable');
});

test('bytes pdf-lib cannot make a document of are unreadable', async () => {
  const result = await shared.inspect(ascii('%PDF-1.7\nthis is not really a PDF\n%%EOF\n'));
  assert.deepEqual(result, {
    ok: false,
    reason: 'unreadable',
    message: 'document is damaged or malformed and cannot be read as a PDF',
  });
});

test('a document with zero pages is no_pages', async () => {
  const doc = await PDFDocument.create();
  const result = await shared.inspect(await doc.save({ addDefaultPage: false }));
  assert.deepEqual(result, { ok: false, reason: 'no_pages', message: 'document has no pages' });
});

test('counts pages and reports each page size in points', async () => {
  assert.deepEqual(await shared.inspect(contract()), {
    ok: true,
    pageCount: 2,
    pages: [
      { width: 595.28, height: 841.89, rotation: 0 },
      { width: 595.28, height: 841.89, rotation: 0 },
    ],
  });
  const mixed = await makePdf([
    { width: 612, height: 792 },
    { width: 100.12345, height: 200.9876 },
    { width: 300, height: 300 },
  ]);
  const result = await shared.inspect(mixed);
  assert.ok(result.ok);
  assert.equal(result.pageCount, 3);
  assert.deepEqual(
    result.pages.map((p) => [p.width, p.height]),
    [
      [612, 792],
      [100.123, 200.988],
      [300, 300],
    ],
  );
});

test('the CropBox, clipped to the MediaBox, is the page size', async () => {
  const pdf = await makePdf([
    { width: 600, height: 800, cropBox: { x: 50, y: 100, width: 300, height: 400 } },
    // Sticks out of the MediaBox on the right and at the top.
    { width: 600, height: 800, cropBox: { x: 500, y: 700, width: 300, height: 300 } },
    // Entirely outside: readers fall back to the MediaBox.
    { width: 600, height: 800, cropBox: { x: 700, y: 900, width: 50, height: 50 } },
  ]);
  const result = await shared.inspect(pdf);
  assert.ok(result.ok);
  assert.deepEqual(
    result.pages.map((p) => [p.width, p.height]),
    [
      [300, 400],
      [100, 100],
      [600, 800],
    ],
  );
});

test('/Rotate 90 and 270 swap width and height; angles are normalised', async () => {
  const pdf = await makePdf([0, 90, 180, 270, -90, 450, 720].map((rotate) => ({ width: 200, height: 500, rotate })));
  const result = await shared.inspect(pdf);
  assert.ok(result.ok);
  assert.deepEqual(result.pages, [
    { width: 200, height: 500, rotation: 0 },
    { width: 500, height: 200, rotation: 90 },
    { width: 200, height: 500, rotation: 180 },
    { width: 500, height: 200, rotation: 270 },
    { width: 500, height: 200, rotation: 270 },
    { width: 500, height: 200, rotation: 90 },
    { width: 200, height: 500, rotation: 0 },
  ]);
  const fixture = await shared.inspect(readFileSync(new URL('fixtures/rotated.pdf', root)));
  assert.deepEqual(fixture, { ok: true, pageCount: 1, pages: [{ width: 841.89, height: 595.28, rotation: 90 }] });
});

test('/Rotate inherited from the page tree counts, and a page value overrides it', async () => {
  const doc = await PDFDocument.load(
    await makePdf([
      { width: 200, height: 500 },
      { width: 200, height: 500, rotate: 180 },
    ]),
  );
  doc.catalog.Pages().set(PDFName.of('Rotate'), PDFNumber.of(270));
  const result = await shared.inspect(await doc.save());
  assert.ok(result.ok);
  assert.deepEqual(result.pages, [
    { width: 500, height: 200, rotation: 270 },
    { width: 200, height: 500, rotation: 180 },
  ]);
});

test('the caller keeps a usable buffer, and views into larger buffers work', async () => {
  const pdf = await makePdf();
  const before = Uint8Array.from(pdf);
  assert.equal(reason(await shared.inspect(pdf)), 'ok');
  assert.equal(pdf.byteLength, before.byteLength);
  assert.deepEqual(pdf, before);
  const padded = Buffer.concat([Buffer.from('0123456789'), Buffer.from(pdf), Buffer.from('tail')]);
  const view = padded.subarray(10, 10 + pdf.length);
  assert.equal(reason(await shared.inspect(view)), 'ok');
  assert.equal(padded.length, pdf.length + 14);
  assert.equal(padded.subarray(0, 10).toString(), '0123456789');
});

test('concurrent inspections are queued and each gets its own answer', async () => {
  const docs = await Promise.all([1, 2, 3, 4, 5].map((n) => makePdf(Array.from({ length: n }, () => ({ width: 100 * n, height: 100 })))));
  const results = await Promise.all(docs.map((d) => shared.inspect(d)));
  assert.deepEqual(
    results.map((r) => (r.ok ? [r.pageCount, r.pages[0]?.width] : r.reason)),
    [
      [1, 100],
      [2, 200],
      [3, 300],
      [4, 400],
      [5, 500],
    ],
  );
});

test('running past the time budget is too_complex, and the next job gets a fresh child', async () => {
  const inspector = createPdfInspector({ timeoutMs: 250, maxMemoryMb: 1024 });
  try {
    const [slow, next] = await Promise.all([inspector.inspect(heavyPdf(200_000)), inspector.inspect(await makePdf())]);
    assert.deepEqual(slow, {
      ok: false,
      reason: 'too_complex',
      message: 'document is too complex to inspect (reading it took longer than 250 ms)',
    });
    assert.equal(reason(next), 'ok');
    assert.equal(reason(await inspector.inspect(contract())), 'ok');
  } finally {
    await inspector.close();
  }
});

test('documents sent ahead to a child that runs past its budget are read again by the next child', async () => {
  // Under 2 MiB, so the two documents after it are sent to the same child before it is answered.
  const slow = heavyPdf(40_000);
  assert.ok(slow.byteLength < 2 * 1024 * 1024);
  // The slow one takes 250 ms to seconds to read (more on a loaded machine); the others a few ms.
  const inspector = createPdfInspector({ timeoutMs: 150 });
  try {
    const results = await Promise.all([
      inspector.inspect(slow),
      inspector.inspect(await makePdf([{ width: 300, height: 400 }])),
      inspector.inspect(contract()),
    ]);
    assert.deepEqual(results[0], {
      ok: false,
      reason: 'too_complex',
      message: 'document is too complex to inspect (reading it took longer than 150 ms)',
    });
    assert.deepEqual(results[1], { ok: true, pageCount: 1, pages: [{ width: 300, height: 400, rotation: 0 }] });
    assert.equal(reason(results[2]), 'ok');
  } finally {
    await inspector.close();
  }
});

test('running out of the memory budget is too_complex, and the next job gets a fresh child', async () => {
  const inspector = createPdfInspector({ maxMemoryMb: 64 });
  try {
    const heavy = await inspector.inspect(heavyPdf(200_000));
    assert.deepEqual(heavy, {
      ok: false,
      reason: 'too_complex',
      message: 'document is too complex to inspect (reading it needs more than 64 MB of memory)',
    });
    assert.equal(reason(await inspector.inspect(contract())), 'ok');
  } finally {
    await inspector.close();
  }
});

test('a page tree nested too deeply is too_complex', async () => {
  const depth = 50_000;
  const parts = ['%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'];
  for (let k = 2; k < depth; k++) parts.push(`${k} 0 obj\n<< /Type /Pages /Kids [${k + 1} 0 R] /Count 1 >>\nendobj\n`);
  parts.push(`${depth} 0 obj\n<< /Type /Page /Parent ${depth - 1} 0 R /MediaBox [0 0 100 100] >>\nendobj\n`);
  parts.push('trailer\n<< /Root 1 0 R >>\n%%EOF\n');
  assert.equal(reason(await shared.inspect(ascii(parts.join('')))), 'too_complex');
});

test('budgets must be positive and fit a timer', () => {
  assert.throws(() => createPdfInspector({ timeoutMs: 0 }), RangeError);
  assert.throws(() => createPdfInspector({ timeoutMs: 2 ** 31 }), RangeError);
  assert.throws(() => createPdfInspector({ maxMemoryMb: -1 }), RangeError);
});

test('close() answers pending jobs with an error and refuses new ones', async () => {
  const inspector = createPdfInspector();
  assert.equal(reason(await inspector.inspect(contract())), 'ok');
  const pending = assert.rejects(inspector.inspect(heavyPdf(100_000)), /closed/);
  await inspector.close();
  await pending;
  await assert.rejects(inspector.inspect(contract()), /closed/);
  await inspector.close();
});

test('an idle child does not keep the process alive, a busy one does', async () => {
  const inspect = new URL('src/pdf/inspect.ts', root).href;
  const pdf = fileURLToPath(new URL('fixtures/contract.pdf', root));
  const script = `
    import { readFileSync } from 'node:fs';
    const { createPdfInspector } = await import(${JSON.stringify(inspect)});
    const inspector = createPdfInspector();
    const pdf = readFileSync(${JSON.stringify(pdf)});
    // The second job runs on a child that was idle (unref'd) in between.
    for (const _ of [1, 2]) {
      const result = await inspector.inspect(pdf);
      console.log(result.ok ? result.pageCount : result.reason);
    }`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(root),
    timeout: 20_000,
  });
  assert.equal(stdout, '2\n2\n');
});

const compiled = new URL('dist/pdf/inspect.js', root);
test('the compiled module starts its compiled child', { skip: !existsSync(compiled) && 'dist/ not built' }, async () => {
  const pdf = fileURLToPath(new URL('fixtures/rotated.pdf', root));
  const script = `
    import { readFileSync } from 'node:fs';
    const { createPdfInspector } = await import(${JSON.stringify(compiled.href)});
    const result = await createPdfInspector().inspect(readFileSync(${JSON.stringify(pdf)}));
    console.log(JSON.stringify(result));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 });
  assert.deepEqual(JSON.parse(stdout), { ok: true, pageCount: 1, pages: [{ width: 841.89, height: 595.28, rotation: 90 }] });
});
