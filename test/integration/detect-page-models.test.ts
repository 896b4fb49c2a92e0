// The page models field detection's analysis tells as it goes (AnalysisProgress.page) are those its rules ran on:
// the rules run again on them give the analysis's suggestions, page for page. The wide corpus's stored page models
// (fixtures/detection-real/wide/page-models.ts) and their replay (suggestionsOf, which replay.ts runs) rely on it.
// Runs the child's analysis in this process with real pdf.js and tesseract.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { analyse } from '../../src/pdf/detect-child.js';
import type { PageModel } from '../../src/pdf/detect/page-model.js';
import { parsedModel, storedModel, suggestionsOf } from '../../fixtures/detection-real/wide/page-models.js';
import { OcrEngine } from '../../src/pdf/detect/ocr-engine.js';
import { availableLanguages } from '../../src/pdf/detect/ocr-languages.js';
import { useTmpDir } from '../helpers/server.js';

const fixture = (name: string) => new Uint8Array(fs.readFileSync(new URL(`../../fixtures/detection/${name}`, import.meta.url)));
const skip = availableLanguages().includes('eng') ? false : 'no OCR language data installed';

/** The analysis of a document, and the rules run again on the last model told of each page (as the stored models keep them). */
async function analysedAndReplayed(bytes: Uint8Array, ocr?: OcrEngine) {
  const models = new Map<number, PageModel>();
  const told: number[] = [];
  const job = { maxPages: 10, ocr: ocr !== undefined, languages: [], deadlineMs: 100_000, pageMs: 100_000 };
  const analysis = await analyse(bytes, job, ocr, {
    opened: () => {},
    page: (done, model) => {
      assert.equal(model.page, done.page.page, 'the model told is the page told');
      told.push(model.page);
      // (Stored and read back as page-models.ts stores them.)
      models.set(model.page, parsedModel(storedModel(model)));
    },
  });
  const replayed = suggestionsOf([...models.values()].sort((a, b) => a.page - b.page));
  return { analysis, replayed, told, models };
}

test('text pages: the rules run again on the page models told give the analysis its suggestions', async () => {
  for (const name of ['en-buyer-seller.pdf', 'fr-paraphes.pdf', 'en-table.pdf', 'acroform.pdf', 'ar-contract.pdf']) {
    const { analysis, replayed, told } = await analysedAndReplayed(fixture(name));
    assert.ok(analysis.suggestions.length > 0, `${name}: something to compare`);
    assert.deepEqual(
      told,
      analysis.pages.map((p) => p.page),
      `${name}: each page told once, in order`,
    );
    assert.deepEqual(replayed, analysis.suggestions, name);
  }
});

test('a scanned page is told again after OCR, with the words OCR read: its last model gives its suggestions', { skip, timeout: 120_000 }, async (t) => {
  const ocr = new OcrEngine(useTmpDir(t));
  t.after(() => ocr.close());
  const { analysis, replayed, told, models } = await analysedAndReplayed(fixture('scanned-en.pdf'), ocr);
  assert.deepEqual(told, [1, 1], 'before OCR and after it');
  const ink = models.get(1)?.ink;
  assert.ok(ink && ink.on instanceof Uint8Array && ink.on.some((v) => v === 1), 'its ink grid read back as stored');
  assert.ok(analysis.suggestions.length > 0, 'OCR read its places to sign');
  assert.deepEqual(replayed, analysis.suggestions);
});
