// The field detector's limits, on the real detection child process (src/pdf/detect.ts): at the time limit
// it answers with the pages it has read (README "Isolation and limits"), a damaged page leaves the others
// readable, and a child left large by a document is replaced before the next one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { PDFDocument } from '@cantoo/pdf-lib';
import { createFieldDetector, residentMb, type FieldDetector } from '../../src/pdf/detect.js';
import { annotationFlood, formFanout } from '../helpers/hostile-pdfs.js';
import { rawPdf, stream } from '../helpers/pdfs.js';
import { childrenOf } from '../helpers/processes.js';
import { useTmpDir } from '../helpers/server.js';

const fixture = (name: string) => new Uint8Array(fs.readFileSync(new URL(`../../fixtures/detection/${name}`, import.meta.url)));

function useDetector(t: import('node:test').TestContext, options: Parameters<typeof createFieldDetector>[0]): FieldDetector {
  const detector = createFieldDetector(options);
  t.after(() => detector.close());
  return detector;
}

/** `copies` copies of the one-page scan `name`, as one document. */
async function scans(name: string, copies: number): Promise<Uint8Array> {
  const source = await PDFDocument.load(fixture(name));
  const doc = await PDFDocument.create();
  for (let i = 0; i < copies; i++) for (const page of await doc.copyPages(source, [0])) doc.addPage(page);
  return doc.save();
}

test('OCR still running at the time limit: the answer comes in time, with the scanned pages counted and the read ones read', async (t) => {
  // Arabic first on an English scan: a poor first reading, then a second one in Latin script, each with a
  // cold tesseract worker: a second or more of work per page. The limit is 5 s, of which the child keeps
  // 4 s for reading and 1 s to wind down and answer (on a 2-core machine whose page faults are slow, half
  // a second was not always enough: the answer came from the hard limit, 4 ms after it).
  const detector = useDetector(t, { cacheDir: useTmpDir(t), timeoutMs: 5000 });
  // The child is started by a first document (its own start is not part of a job's time). On a machine
  // busy enough for that one page to outlast the 4 s the child gives itself, it answers 503 (nothing
  // read): the warm-up is tried again, up to three times.
  let warm = await detector.detect(fixture('en-underscores.pdf'));
  for (let tries = 1; !warm.ok && warm.reason === 'timeout' && tries < 3; tries++) warm = await detector.detect(fixture('en-underscores.pdf'));
  assert.ok(warm.ok, `the warm-up document: ${JSON.stringify(warm)}`);
  const reader = detector.pid;
  // The scans are made first: the time asserted below is the detector's alone.
  // Ten pages: more than a warm worker reads in the 4 s on a 2-core machine (about 1.2 s a page).
  const scanned = await scans('scanned-en.pdf', 10);
  const started = Date.now();
  const outcome = await detector.detect(scanned, { languages: ['ara'] });
  const elapsed = Date.now() - started;
  assert.ok(outcome.ok, `expected a partial result, got ${JSON.stringify(outcome)}`);
  assert.equal(outcome.partial, true);
  const { stats, pages } = outcome.analysis;
  assert.equal(stats.pageCount, 10);
  assert.equal(pages.length, 10, 'every page was opened before OCR began');
  assert.equal(stats.scannedPages, 10);
  assert.ok(stats.ocrPages < 10, `OCR cannot have read ten pages in time (read ${stats.ocrPages})`);
  t.diagnostic(`read ${stats.ocrPages} of 10 scanned pages in ${elapsed} ms`);
  assert.ok(elapsed < 5000, `answered before the hard limit (${elapsed} ms)`);
  // The abandoned OCR is not left running in the child: the next job has a new one, started at once.
  assert.ok(detector.pid !== undefined && detector.pid !== reader, `a new child (${reader} → ${detector.pid})`);
});

test('a page that never finishes (forms drawing each other 2^40 times): the pages before it are the answer', async (t) => {
  // A budget a fresh child keeps for a small document even on a loaded machine (it starts pdf.js).
  const detector = useDetector(t, { cacheDir: useTmpDir(t), timeoutMs: 6000 });
  const started = Date.now();
  const outcome = await detector.detect(formFanout(40, 2));
  const elapsed = Date.now() - started;
  assert.ok(outcome.ok, `expected a partial result, got ${JSON.stringify(outcome)}`);
  assert.equal(outcome.partial, true);
  assert.equal(outcome.analysis.stats.pageCount, 3);
  assert.deepEqual(
    outcome.analysis.pages.map((p) => p.page),
    [1, 2],
  );
  assert.deepEqual(
    outcome.analysis.suggestions.map((s) => [s.page, s.type]),
    [
      [1, 'signature'],
      [2, 'signature'],
    ],
  );
  assert.ok(elapsed >= 6000 && elapsed < 12000, `stopped at the limit (${elapsed} ms)`);
  // Stuck in pdf.js, the child was killed; the detector serves the next document with a new one.
  const next = await detector.detect(formFanout(1, 1));
  assert.ok(next.ok && !next.partial, JSON.stringify(next).slice(0, 300));
  assert.deepEqual(
    next.analysis.pages.map((p) => p.page),
    [1, 2],
  );
});

test('a page pdf.js cannot open leaves the other pages analysed', async (t) => {
  const detector = useDetector(t, { cacheDir: useTmpDir(t) });
  // The second kid of the page tree is a number, not a page.
  const damaged = rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream('', 'BT /F1 12 Tf 72 720 Td (Signature: ________________) Tj ET'),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '42',
  ]);
  const outcome = await detector.detect(damaged);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  assert.deepEqual(
    outcome.analysis.pages.map((p) => p.page),
    [1],
  );
  assert.deepEqual(
    outcome.analysis.suggestions.map((s) => [s.page, s.type]),
    [[1, 'signature']],
  );
});

test('a child left over its recycling size by a job is replaced; a small one is kept for the next job', async (t) => {
  // Thresholds around what this machine's child weighs after reading a text page and after OCR.
  // (A scanned page is read whole however busy the machine: its own time limit is lifted.)
  const probe = useDetector(t, { cacheDir: useTmpDir(t), pageMs: 120_000 });
  assert.ok((await probe.detect(fixture('en-underscores.pdf'))).ok);
  const textRss = residentMb(probe.pid as number) as number;
  assert.ok((await probe.detect(fixture('scanned-en.pdf'))).ok);
  const ocrRss = residentMb(probe.pid as number) as number;
  assert.ok(ocrRss > textRss + 50, `OCR leaves the child larger (${Math.round(textRss)} → ${Math.round(ocrRss)} MB)`);

  const detector = useDetector(t, { cacheDir: useTmpDir(t), recycleMb: (textRss + ocrRss) / 2, pageMs: 120_000 });
  assert.ok((await detector.detect(fixture('en-underscores.pdf'))).ok);
  const kept = detector.pid;
  assert.notEqual(kept, undefined, 'kept after a text page');
  assert.ok((await detector.detect(fixture('en-underscores.pdf'))).ok);
  assert.equal(detector.pid, kept, 'the same child read the next document');
  assert.ok((await detector.detect(fixture('scanned-en.pdf'))).ok);
  assert.ok(detector.pid !== undefined && detector.pid !== kept, 'replaced after OCR grew it, by a child started at once');
  const again = await detector.detect(fixture('scanned-en.pdf'));
  assert.ok(again.ok && again.analysis.stats.ocrPages === 1, 'a new child reads the next scan');
});

test('a child that read a large document (60,000 annotations, 9 MB) is replaced by one started while it read it; one that read a small one is kept', async (t) => {
  // The default settings: no memory threshold is lowered for the test.
  const detector = useDetector(t, { cacheDir: useTmpDir(t) });
  assert.ok((await detector.detect(fixture('en-underscores.pdf'))).ok);
  const kept = detector.pid;
  assert.notEqual(kept, undefined, 'kept after a small document');
  const flood = annotationFlood(60_000);
  assert.ok(flood.byteLength > 2 * 1024 * 1024);
  const reading = detector.detect(flood);
  // While the large document is read, its successor starts beside the child reading it.
  const seen = new Set<number>();
  let answered = false;
  void reading.finally(() => {
    answered = true;
  });
  while (!answered) {
    for (const pid of childrenOf(process.pid)) seen.add(pid);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const outcome = await reading;
  assert.ok(outcome.ok, JSON.stringify(outcome).slice(0, 300));
  const ahead = detector.pid;
  assert.ok(ahead !== undefined && ahead !== kept, 'replaced after the large document');
  assert.ok(seen.has(ahead), `the child that follows ran while the large document was read (${[...seen].join(', ')})`);
  const next = await detector.detect(fixture('en-underscores.pdf'));
  assert.ok(next.ok && next.analysis.suggestions.length > 0, 'a new child reads the next document');
  assert.equal(detector.pid, ahead, 'the child started ahead read it');
});

test("the detector's own page limit (pageMs) is the child's: a scan cut at 1 ms is partial, its page unread; a limit of 0 is refused", async (t) => {
  assert.throws(() => createFieldDetector({ cacheDir: useTmpDir(t), pageMs: 0 }), /pageMs must be positive/);
  const detector = useDetector(t, { cacheDir: useTmpDir(t), pageMs: 1 });
  const outcome = await detector.detect(fixture('scanned-en.pdf'));
  assert.ok(outcome.ok, JSON.stringify(outcome));
  assert.equal(outcome.partial, true);
  assert.deepEqual([outcome.analysis.stats.scannedPages, outcome.analysis.stats.ocrPages], [1, 0]);
  // With a limit only the analysis's deadline reaches, the same page is read.
  const whole = await useDetector(t, { cacheDir: useTmpDir(t), pageMs: 120_000 }).detect(fixture('scanned-en.pdf'));
  assert.ok(whole.ok && !whole.partial && whole.analysis.stats.ocrPages === 1, JSON.stringify(whole).slice(0, 300));
});

/** A one-page scan of grey noise, 3200 × 4200 pixels: decoding its image takes the text pass a second or more here. */
async function noiseScan(): Promise<Uint8Array> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(3200, 4200);
  const ctx = canvas.getContext('2d');
  const tile = ctx.createImageData(256, 256);
  let seed = 7;
  for (let i = 0; i < tile.data.length; i += 4) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    tile.data.fill(128 + (seed % 128), i, i + 3);
    tile.data[i + 3] = 255;
  }
  for (let y = 0; y < 4200; y += 256) for (let x = 0; x < 3200; x += 256) ctx.putImageData(tile, x, y);
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(canvas.toBuffer('image/jpeg', 90));
  doc.addPage([612, 803]).drawImage(image, { x: 0, y: 0, width: 612, height: 803 });
  return doc.save();
}

test("a scanned page's text pass (its image decoded and kept) counts in its limit: a page whose pass took longer is cut before OCR reads", {
  timeout: 120_000,
}, async (t) => {
  // The text pass decodes the scan's 13 million pixels (over a second on a 2-core machine), more than the page's 500 ms:
  // the page has no time left when OCR would begin, and is cut at once. Were the pass not counted, the page could not be
  // cut before 500 ms of its own time.
  const outcome = await useDetector(t, { cacheDir: useTmpDir(t), pageMs: 500 }).detect(await noiseScan(), { languages: ['eng'] });
  assert.ok(outcome.ok && outcome.partial, JSON.stringify(outcome).slice(0, 300));
  const { stats } = outcome.analysis;
  assert.equal(stats.ocrPages, 0);
  assert.equal(stats.ocrMsPerPage.length, 1);
  assert.ok((stats.ocrMsPerPage[0] as number) < 350, `cut when OCR would begin (${stats.ocrMsPerPage[0]} ms)`);
});
