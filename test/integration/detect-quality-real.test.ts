// Field detection measured on real documents (fixtures/detection-real: third-party PDFs of the development
// corpus, read from PARAPH_DETECTION_CORPUS or ../shared/corpus/detection beside the checkout, labelled
// with the fields a person would place). Holds a regression floor at the figures reached; the targets are
// in docs/detection.md. Runs the real detector: the child process and pdf.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createFieldDetector } from '../../src/pdf/detect.js';
import { corpusDir, loadLabels, measureRealCorpus, readDocument, reportLines } from '../../fixtures/detection-real/measure.js';
import { useTmpDir } from '../helpers/server.js';

const DIR = corpusDir();
const absent = fs.existsSync(DIR) ? false : `the real-document corpus is not at ${DIR} (set PARAPH_DETECTION_CORPUS to its folder)`;

/** The floor: what the rules reach on this corpus; a change that loses any of it fails. */
const FLOOR = {
  signatures: { precision: 1, recall: 1 },
  initials: { precision: 1, recall: 1 },
  signingDates: { precision: 1, recall: 1 },
};

test('real-document labels: each names a corpus file (sha256 checked), fields inside their pages', { skip: absent }, (t) => {
  const labels = loadLabels();
  assert.ok(labels.length >= 13, 'the labelled documents');
  const pdfs = fs.readdirSync(DIR).filter((f) => f.toLowerCase().endsWith('.pdf'));
  // A PDF added to the corpus is measured once it is labelled.
  for (const f of pdfs) if (!labels.some((l) => l.file === f)) t.diagnostic(`${f}: in the corpus, not labelled yet`);
  for (const doc of labels) {
    assert.ok(readDocument(doc, DIR), doc.file);
    for (const e of doc.expected) {
      assert.ok(e.page >= 1 && e.page <= doc.pages, `${doc.file}: page ${e.page}`);
      assert.ok(e.width > 0 && e.height > 0 && e.x >= 0 && e.y >= 0, `${doc.file}: ${JSON.stringify(e)}`);
    }
    if (doc.noPlaceToSign) assert.deepEqual(doc.expected, [], `${doc.file}: no place to sign, nothing expected`);
  }
});

test('real-document corpus: precision and recall hold their floor; nothing suggested where there is no place to sign', { skip: absent }, async (t) => {
  const detector = createFieldDetector({ cacheDir: useTmpDir(t) });
  t.after(() => detector.close());
  const report = await measureRealCorpus(async (bytes) => {
    const outcome = await detector.detect(bytes);
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
    assert.ok(!outcome.partial, 'a whole analysis');
    return outcome.analysis.suggestions;
  }, DIR);
  assert.ok(report);
  for (const row of report.rows) t.diagnostic(row);
  for (const line of reportLines(report)) t.diagnostic(line);
  for (const miss of report.misses) t.diagnostic(`  ${miss}`);
  for (const kind of ['signatures', 'initials', 'signingDates'] as const) {
    const s = report[kind];
    const floor = FLOOR[kind];
    assert.ok((s.precision ?? 1) >= floor.precision, `${kind}: precision ${s.precision} below its floor ${floor.precision}`);
    assert.ok((s.recall ?? 1) >= floor.recall, `${kind}: recall ${s.recall} below its floor ${floor.recall}`);
  }
  assert.deepEqual(report.noPlaceToSign.withSuggestions, [], 'documents with no place to sign get no suggestion');
});
