// OCR of realistic scans, made at test time from the real PDFs of the development corpus
// (test/helpers/scans.ts: pdftoppm, a tilt, grey paper, noise, JPEG, image-only PDF; a phone-photo-like
// one), on the real detection child: the places the detector finds on the text PDF are found on its
// scan too (OCR reads the labels and sees the lines where the text layer has them);
// a page whose text is drawn as the letters' outlines (no text layer, no image) is read by OCR too;
// a scan longer than the time limit answers 200 with the pages read (ocrPages < scannedPages), never
// 503; and the OCR workers' memory is given back after the calls. Speed is measured by the bench
// (bench/ocr.ts), not here. Skipped without the corpus (env PARAPH_DETECTION_CORPUS), but for the outlined
// page, which is built here.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createFieldDetector, residentMb, type FieldDetector } from '../../src/pdf/detect.js';
import { useFieldDetector } from '../../src/features/requests/detect-fields.js';
import { postJson } from '../helpers/flows.js';
import { linesPdf, type TextLine } from '../helpers/pdfs.js';
import { createForm, payload } from '../helpers/requests.js';
import { detectionCorpus, makeScan } from '../helpers/scans.js';
import { json, useServer, useTmpDir } from '../helpers/server.js';
import { IN_CI, missingTool } from '../helpers/system-tools.js';

type Json = Record<string, any>;

const corpus = detectionCorpus();
const skip = (!corpus && 'the detection corpus is not there (set PARAPH_DETECTION_CORPUS)') || (!IN_CI && missingTool('pdftoppm'));

/**
 * What OCR reads is checked here, not how fast: a page's own time limit (2.5 s of an idle machine's time) would cut a
 * scan read by OCR workers just started on a machine busy with other tests, so only the analysis's limit bounds
 * a page (the page limit has its tests in detect-page-limit.test.ts and below).
 */
function useDetector(t: TestContext, options: Partial<Parameters<typeof createFieldDetector>[0]> = {}): FieldDetector {
  const detector = createFieldDetector({ cacheDir: useTmpDir(t), pageMs: 120_000, ...options });
  t.after(() => detector.close());
  return detector;
}

/** A page of a corpus PDF by itself, as its text PDF. */
async function textPage(file: string, page: number): Promise<Uint8Array> {
  const { PDFDocument } = await import('@cantoo/pdf-lib');
  const source = await PDFDocument.load(fs.readFileSync(path.join(corpus as string, file)), { ignoreEncryption: true });
  const doc = await PDFDocument.create();
  const [copy] = await doc.copyPages(source, [page - 1]);
  doc.addPage(copy as never);
  return doc.save();
}

const centre = (s: { x: number; y: number; width: number; height: number }) => ({ x: s.x + s.width / 2, y: s.y + s.height / 2 });

test('a scan and a photo of real signing pages: OCR finds the signature places the text PDF has', { skip, timeout: 300_000 }, async (t) => {
  const detector = useDetector(t);
  for (const [name, file, page, kind] of [
    ['real-estate contract signing page, 1° scan', 'arkansas-sample_contract.pdf', 16, 'scan'],
    ['the same page as a phone photo (2.5°, uneven light)', 'arkansas-sample_contract.pdf', 16, 'photo'],
  ] as const) {
    await t.test(name, async () => {
      const truth = await detector.detect(await textPage(file, page));
      assert.ok(truth.ok, JSON.stringify(truth));
      const expected = truth.analysis.suggestions;
      assert.ok(expected.some((s) => s.type === 'signature') && expected.length >= 2, `the text page has places to fill (${JSON.stringify(expected)})`);
      const scanned = await detector.detect(await makeScan({ file, pages: [page], kind }), { languages: ['eng'] });
      assert.ok(scanned.ok && !scanned.partial, JSON.stringify(scanned).slice(0, 300));
      const { stats, suggestions, ocrLanguages } = scanned.analysis;
      assert.deepEqual([stats.scannedPages, stats.ocrPages, stats.nativeTextPages], [1, 1, 0]);
      assert.deepEqual(ocrLanguages, [{ page: 1, language: 'eng' }]);
      // The scan is turned by a degree or two about its centre and resampled: a place counts as found
      // when a suggestion of its type has its centre within 25 pt of the text PDF's.
      const near = (e: (typeof expected)[number]) =>
        suggestions.some((s) => s.type === e.type && Math.hypot(centre(s).x - centre(e).x, centre(s).y - centre(e).y) <= 25);
      const shown = JSON.stringify({
        text: expected.map((s) => [s.type, Math.round(s.x), Math.round(s.y)]),
        scan: suggestions.map((s) => [s.type, Math.round(s.x), Math.round(s.y)]),
      });
      assert.ok(expected.filter((e) => e.type === 'signature').every(near), `every signature place of the text page is found on the scan: ${shown}`);
      assert.ok(expected.filter(near).length >= Math.ceil(expected.length * 0.6), `most places of the text page are found on the scan: ${shown}`);
      // Every suggestion made on the scan lies on the page.
      for (const s of suggestions) assert.ok(s.x >= -1 && s.y >= -1 && s.x + s.width <= 613 && s.y + s.height <= 793, JSON.stringify(s));
    });
  }
});

test("a page whose text is drawn as outlines (no text layer, no image) is read by OCR: its places are the text page's", { timeout: 300_000 }, async (t) => {
  const detector = useDetector(t);
  const body = 'The tenant agrees to pay the rent on the first day of each month and to keep the premises clean.';
  const lines: TextLine[] = [
    { text: 'RENTAL AGREEMENT', x: 72, baseline: 90, size: 16 },
    ...Array.from({ length: 12 }, (_, i) => ({ text: body, x: 72, baseline: 130 + i * 16, size: 10 })),
    { text: 'Signature of the Tenant', x: 72, baseline: 534, size: 10 },
    { text: 'Date', x: 330, baseline: 534, size: 10 },
  ];
  const rules = [
    { x0: 72, x1: 280, y: 520 },
    { x0: 330, x1: 500, y: 520 },
  ];
  const truth = await detector.detect(await linesPdf(lines, rules, 'text'));
  assert.ok(truth.ok, JSON.stringify(truth));
  const expected = truth.analysis.suggestions.filter((s) => s.type === 'signature' || s.type === 'date');
  assert.deepEqual(expected.map((s) => s.type).sort(), ['date', 'signature'], JSON.stringify(truth.analysis.suggestions));
  const outlined = await detector.detect(await linesPdf(lines, rules, 'outlines'), { languages: ['eng'] });
  assert.ok(outlined.ok && !outlined.partial, JSON.stringify(outlined).slice(0, 300));
  const { stats, suggestions } = outlined.analysis;
  assert.deepEqual([stats.scannedPages, stats.ocrPages, stats.nativeTextPages], [1, 1, 0]);
  for (const e of expected) {
    const near = suggestions.find((s) => s.type === e.type && Math.hypot(centre(s).x - centre(e).x, centre(s).y - centre(e).y) <= 10);
    assert.ok(near, `the ${e.type} at ${JSON.stringify(centre(e))} is found on the outlined page too (${JSON.stringify(suggestions)})`);
  }
});

test('a scan longer than the time limit answers 200 with the pages read (ocrPages < scannedPages), not 503', { skip, timeout: 300_000 }, async (t) => {
  const server = await useServer(t);
  // Six scanned pages cannot all be read in 8 s, even on an idle machine.
  const detector = createFieldDetector({ cacheDir: useTmpDir(t), timeoutMs: 8000 });
  useFieldDetector(server.running.ctx, detector);
  const bytes = await makeScan({ file: 'arkansas-sample_contract.pdf', pages: [1, 2, 3, 14, 15, 16] });
  const created = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ fields: [] }), { bytes, filename: 'scan.pdf' }) });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = await json<{ id: string }>(created);
  const started = Date.now();
  const answer = await postJson(server, `/v1/signature-requests/${id}/detect-fields`);
  const elapsed = Date.now() - started;
  const body = await json<Json>(answer);
  assert.equal(answer.status, 200, JSON.stringify(body));
  assert.equal(body.stats.pageCount, 6);
  assert.equal(body.stats.scannedPages, 6, 'every page was opened and counted before OCR ran out of time');
  assert.ok(body.stats.ocrPages < body.stats.scannedPages, `ocrPages ${body.stats.ocrPages}`);
  assert.equal(body.pages.length, 6);
  assert.ok(elapsed < 8000 + 5000, `answered at the limit (${elapsed} ms)`);
});

test("the OCR workers' memory is given back after the calls; the analysis process stays for the next one", { skip, timeout: 300_000 }, async (t) => {
  const detector = useDetector(t);
  const scan = await makeScan({ file: 'graham28-consent_form.pdf', pages: [2] });
  const before = await detector.detect(await textPage('graham28-consent_form.pdf', 1));
  assert.ok(before.ok);
  const pid = detector.pid as number;
  const withoutOcr = residentMb(pid) as number;
  const read = await detector.detect(scan, { languages: ['eng'] });
  assert.ok(read.ok && read.analysis.stats.ocrPages === 1, JSON.stringify(read).slice(0, 300));
  const afterOcr = residentMb(pid) as number;
  assert.ok(afterOcr > withoutOcr + 50, `OCR workers loaded: ${withoutOcr} -> ${afterOcr} MB`);
  // Ten seconds without a job stop the workers; the process itself is kept for the next document. Their
  // heaps go with them: at least 30 MB and a quarter of what the call added are given back (the rest is
  // the call's own garbage, which the allocator may keep; workers left running give back nothing).
  const givenBack = Math.max(30, (afterOcr - withoutOcr) / 4);
  const until = Date.now() + 60_000;
  let now = afterOcr;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    now = residentMb(pid) as number;
    if (now < afterOcr - givenBack) break;
  }
  assert.equal(detector.pid, pid, 'the same analysis process');
  assert.ok(now < afterOcr - givenBack, `memory given back: ${withoutOcr} MB without OCR, ${afterOcr} MB after it, ${now} MB after the workers stopped`);
  // And the next scan is read again (new workers).
  const again = await detector.detect(scan, { languages: ['eng'] });
  assert.ok(again.ok && again.analysis.stats.ocrPages === 1);
});

test('a searchable scan set askew (its image and text layer turned 1.5°): its lines are found on the page straightened, as on the scan set straight', {
  timeout: 120_000,
}, async (t) => {
  const { PDFDocument, degrees } = await import('@cantoo/pdf-lib');
  const straight = fs.readFileSync(new URL('../../fixtures/detection/scanned-searchable-en.pdf', import.meta.url));
  const source = await PDFDocument.load(straight);
  const doc = await PDFDocument.create();
  const [embedded] = await doc.embedPdf(source, [0]);
  if (!embedded) throw new Error('no page');
  const { width, height } = embedded;
  const page = doc.addPage([width, height]);
  // Turned about the page's centre, as a sheet laid askew on the scanner's glass.
  const turn = 1.5;
  const a = (turn * Math.PI) / 180;
  const [cx, cy] = [width / 2, height / 2];
  page.drawPage(embedded, { x: cx - (cx * Math.cos(a) - cy * Math.sin(a)), y: cy - (cx * Math.sin(a) + cy * Math.cos(a)), rotate: degrees(turn) });
  const askew = await doc.save();
  const detector = useDetector(t, { ocr: false });
  const places = async (bytes: Uint8Array) => {
    const outcome = await detector.detect(bytes);
    assert.ok(outcome.ok);
    assert.equal(outcome.analysis.stats.nativeTextPages, 1, 'a text page: its words from the layer');
    return outcome.analysis.suggestions.filter((s) => s.type === 'signature' || s.type === 'date');
  };
  const level = await places(straight);
  assert.equal(level.length, 4, 'two signatures and two dates on their lines');
  const turned = await places(askew);
  // Each on its line, within the few points the turn moves it.
  assert.equal(turned.length, level.length, JSON.stringify(turned));
  for (const l of level) {
    const s = turned.find((o) => o.type === l.type && Math.abs(o.x - l.x) <= 8 && Math.abs(o.y + o.height - (l.y + l.height)) <= 8);
    assert.ok(s && Math.abs(s.width - l.width) <= 12, JSON.stringify([l, turned]));
  }
});
