// Field detection quality, measured on the corpus of fixtures/detection (made by its generate.ts, with the
// fields a person would place in expected.json): an expected field is found when a suggestion on its page
// has its type and an IoU of at least 0.5 with it. Precision must be >= 0.9 and recall >= 0.85 overall.
// Runs the real detector: the child process, pdf.js, and tesseract.js offline for the scanned pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { match, type ExpectedField } from '../../fixtures/detection-real/measure.js';
import { createFieldDetector, type Analysis } from '../../src/pdf/detect.js';
import { useTmpDir } from '../helpers/server.js';

const DIR = new URL('../../fixtures/detection/', import.meta.url);
const corpus = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as Record<
  string,
  { language: string; about: string; pages: number; expected: ExpectedField[] }
>;

test('detection corpus: precision >= 0.9 and recall >= 0.85; page counts, roles, keys and geometry per document', async (t) => {
  assert.ok(Object.keys(corpus).length >= 12, 'at least 12 documents');
  // Quality, not speed: a scanned page is not cut at its own time limit on a machine busy with other tests.
  const detector = createFieldDetector({ cacheDir: useTmpDir(t), pageMs: 120_000 });
  t.after(() => detector.close());
  let truePositives = 0;
  let suggested = 0;
  let expectedCount = 0;
  let rolesRight = 0;
  let rolesExpected = 0;
  const rows: string[] = [];
  const analyses = new Map<string, Analysis>();
  for (const [file, doc] of Object.entries(corpus)) {
    const started = performance.now();
    const outcome = await detector.detect(fs.readFileSync(new URL(file, DIR)));
    assert.ok(outcome.ok, `${file}: ${outcome.ok ? '' : outcome.message}`);
    const analysis = outcome.analysis;
    analyses.set(file, analysis);
    const pairs = match(doc.expected, analysis.suggestions);
    truePositives += pairs.length;
    suggested += analysis.suggestions.length;
    expectedCount += doc.expected.length;
    for (const [e, s] of pairs) {
      if (e.roleHint) {
        rolesExpected++;
        if (s.roleHint === e.roleHint) rolesRight++;
      }
      if (e.fieldKey) assert.equal(s.fieldKey, e.fieldKey, `${file}: fieldKey of the ${e.type} at ${e.x},${e.y}`);
    }
    assert.equal(analysis.stats.pageCount, doc.pages, `${file}: pageCount`);
    for (const s of analysis.suggestions) {
      const page = analysis.pages[s.page - 1];
      assert.ok(page, `${file}: suggestion on page ${s.page}`);
      assert.ok(s.x >= 0 && s.y >= 0 && s.x + s.width <= page.width + 0.01 && s.y + s.height <= page.height + 0.01, `${file}: inside the page`);
      assert.ok(s.confidence >= 0.65 && s.confidence <= 1, `${file}: confidence ${s.confidence}`);
    }
    rows.push(
      `${file.padEnd(36)} expected ${String(doc.expected.length).padStart(2)}  suggested ${String(analysis.suggestions.length).padStart(2)}  found ${String(pairs.length).padStart(2)}  ${Math.round(performance.now() - started)} ms`,
    );
  }
  const precision = truePositives / suggested;
  const recall = truePositives / expectedCount;
  for (const row of rows) t.diagnostic(row);
  t.diagnostic(`precision ${precision.toFixed(3)}  recall ${recall.toFixed(3)}  roles ${rolesRight}/${rolesExpected}`);
  assert.ok(precision >= 0.9, `precision ${precision.toFixed(3)} < 0.9`);
  assert.ok(recall >= 0.85, `recall ${recall.toFixed(3)} < 0.85`);
  assert.ok(rolesRight >= 0.85 * rolesExpected, `role hints ${rolesRight}/${rolesExpected}`);

  const stats = (file: string) => (analyses.get(file) as Analysis).stats;
  // Scanned pages are OCRed in their own language: English, French, Arabic.
  for (const file of ['scanned-en.pdf', 'scanned-fr.pdf', 'scanned-ar.pdf']) {
    assert.deepEqual(
      { native: stats(file).nativeTextPages, scanned: stats(file).scannedPages, ocr: stats(file).ocrPages },
      { native: 0, scanned: 1, ocr: 1 },
      file,
    );
  }
  assert.deepEqual((analyses.get('scanned-ar.pdf') as Analysis).ocrLanguages, [{ page: 1, language: 'ara' }]);
  assert.deepEqual(
    {
      native: stats('mixed-scanned-signature-page.pdf').nativeTextPages,
      scanned: stats('mixed-scanned-signature-page.pdf').scannedPages,
      ocr: stats('mixed-scanned-signature-page.pdf').ocrPages,
    },
    { native: 2, scanned: 1, ocr: 1 },
  );
  assert.deepEqual(stats('fr-paraphes.pdf').ocrPages, 0);
  // A scan with an invisible text layer needs no OCR: its words come from the layer, its lines from the image.
  assert.deepEqual(
    {
      native: stats('scanned-searchable-en.pdf').nativeTextPages,
      scanned: stats('scanned-searchable-en.pdf').scannedPages,
      ocr: stats('scanned-searchable-en.pdf').ocrPages,
    },
    { native: 1, scanned: 0, ocr: 0 },
  );
  assert.equal((analyses.get('scanned-en.pdf') as Analysis).ocrStatus, 'enabled');
  // A page stored portrait with /Rotate 90 is described as displayed: landscape.
  assert.deepEqual((analyses.get('rotated-90.pdf') as Analysis).pages, [{ page: 1, width: 841.89, height: 595.28, rotation: 90 }]);
  // AcroForm: every widget is a suggestion with reason acroform; labels printed next to them add nothing.
  const acro = (analyses.get('acroform.pdf') as Analysis).suggestions;
  assert.ok(
    acro.every((s) => s.reason === 'acroform'),
    JSON.stringify(acro.map((s) => s.reason)),
  );
  assert.equal(acro.filter((s) => s.type === 'signature').length, 2);
  // The letter uses the lexicon's words in sentences and has a filled-in date: nothing to suggest.
  assert.deepEqual((analyses.get('en-letter-no-fields.pdf') as Analysis).suggestions, []);
});
