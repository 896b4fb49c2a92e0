// Every line: detection's analysis on the line (in this process): pdf.js, OCR in WebAssembly, OCR workers stopped at a page's time limit.
// The per-page time limit of field detection (src/pdf/detect-child.ts, DetectJob.pageMs; 2.5 s by default, the time the
// page would take on an idle machine, from wall-clock and the process's CPU time):
// a scanned page whose OCR would take longer is cut short, stays unread, and the analysis goes on with
// the next page and answers partial, with every page counted, long before the analysis's own limit.
// Runs the child's analysis in this process with real pdf.js and tesseract.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { PDFDocument } from '@cantoo/pdf-lib';
import { analyse } from '../../src/pdf/detect-child.js';
import type { PageDone } from '../../src/pdf/detect/analysis.js';
import { OcrEngine } from '../../src/pdf/detect/ocr-engine.js';
import { availableLanguages } from '../../src/pdf/detect/ocr-languages.js';
import { useTmpDir } from '../helpers/server.js';

const fixture = (name: string) => new Uint8Array(fs.readFileSync(new URL(`../../fixtures/detection/${name}`, import.meta.url)));
const skip = availableLanguages().includes('eng') ? false : 'no OCR language data installed';

/** `copies` copies of the one-page scan `name`, as one document. */
async function scans(name: string, copies: number): Promise<Uint8Array> {
  const source = await PDFDocument.load(fixture(name));
  const doc = await PDFDocument.create();
  for (let i = 0; i < copies; i++) for (const page of await doc.copyPages(source, [0])) doc.addPage(page);
  return doc.save();
}

test('a scanned page over its time limit is cut short: unread, the next page still tried, the answer partial and early', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const ocr = new OcrEngine(useTmpDir(t));
  t.after(() => ocr.close());
  const bytes = await scans('scanned-en.pdf', 2);
  // The same pages with the default limit: both read, nothing cut (a sanity run, and the workers warm).
  const whole = await analyse(bytes, { maxPages: 10, ocr: true, languages: ['eng'], deadlineMs: 100_000, pageMs: 100_000 }, ocr);
  assert.equal(whole.abandoned, false);
  assert.equal(whole.cut, false);
  assert.equal(whole.stats.ocrPages, 2);
  assert.ok(whole.suggestions.length > 0, 'the scan has places to sign');

  // No OCR reading of a page finishes within 50 ms of wall-clock and CPU time: each is cut, and the analysis does not wait its 100 s.
  const started = performance.now();
  const cut = await analyse(bytes, { maxPages: 10, ocr: true, languages: ['eng'], deadlineMs: 100_000, pageMs: 50 }, ocr);
  const elapsed = performance.now() - started;
  assert.equal(cut.cut, true, 'partial: the detector answers `partial: true` with it');
  assert.equal(cut.abandoned, false, 'nothing is left running: the child serves the next document');
  assert.equal(cut.stats.pageCount, 2);
  assert.deepEqual(
    cut.pages.map((p) => p.page),
    [1, 2],
    'both pages are listed (their geometry was read)',
  );
  assert.equal(cut.stats.scannedPages, 2);
  assert.equal(cut.stats.ocrPages, 0, 'no page was read past its limit');
  assert.equal(cut.stats.ocrMsPerPage.length, 2, 'the second page was tried after the first was cut');
  assert.deepEqual(cut.suggestions, []);
  assert.equal(ocr.loaded, false, 'no workers were started after the last scanned page was cut: the answer does not wait for them');
  assert.equal(cut.retryLanguage, 'eng', 'the analysis process starts them once it has answered, in the language the cut page was read in');
  // A generous bound: two cut pages and a restart of the OCR workers, far from the analysis's limit.
  assert.ok(elapsed < 60_000, `answered early (${Math.round(elapsed)} ms)`);

  // The engine stopped for the cut serves the next document.
  const after = await analyse(bytes, { maxPages: 1, ocr: true, languages: ['eng'], deadlineMs: 100_000, pageMs: 100_000 }, ocr);
  assert.equal(after.stats.ocrPages, 1);
  assert.equal(after.retryLanguage, undefined, 'nothing cut: no workers to start again');
  assert.deepEqual(
    after.suggestions,
    whole.suggestions.filter((s) => s.page === 1),
  );
});

test('a scan with a text layer whose lines are looked for on its image past its time limit keeps its text alone: the answer partial, nothing left running', {
  timeout: 120_000,
}, async () => {
  const bytes = fixture('scanned-searchable-en.pdf');
  const whole = await analyse(bytes, { maxPages: 10, ocr: false, languages: [], deadlineMs: 100_000, pageMs: 100_000 }, undefined);
  assert.equal(whole.cut, false);
  assert.equal(whole.stats.nativeTextPages, 1, 'a scan with a text layer');
  // (Rendering the page for its lines takes more than 1 ms: its text pass used the page's time already.)
  // (What its text pass found is told as soon as the pass ends, before its lines are looked for.)
  const told: PageDone[] = [];
  const cut = await analyse(bytes, { maxPages: 10, ocr: false, languages: [], deadlineMs: 100_000, pageMs: 1 }, undefined, {
    opened: () => {},
    page: (done) => told.push(done),
  });
  assert.equal(cut.cut, true, 'partial: the detector answers `partial: true` with it');
  assert.equal(cut.abandoned, false, 'nothing is left running: the child serves the next document');
  assert.deepEqual(
    cut.pages.map((p) => p.page),
    [1],
  );
  assert.equal(cut.stats.nativeTextPages, 1, 'the page keeps its text');
  // (Its suggestions are those of its text alone, as its text pass told them.)
  assert.equal(told.length, 1);
  assert.deepEqual(cut.suggestions, (told[0] as PageDone).suggestions);
});

test('OCR workers still starting are stopped without waiting for their start (an answer after a cut page does not wait 0.4 s)', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const ocr = new OcrEngine(useTmpDir(t));
  t.after(() => ocr.close());
  ocr.start('eng');
  const events: string[] = [];
  const started = ocr.ready('eng').then(() => events.push('started'));
  await ocr.close();
  events.push('closed');
  await started;
  assert.deepEqual(events, ['closed', 'started']);
  assert.equal(ocr.loaded, false);
  // The engine still serves a page after it.
  await ocr.ready('eng');
  assert.equal(ocr.loaded, true);
});
