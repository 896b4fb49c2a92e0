// Field detection measured on real fillable forms with AcroForm widgets (fixtures/detection-forms: three
// public-domain IRS 1040 forms kept there, and the HR form shipped by the fill-pdf devDependency), labelled
// with the fields a person would place: every editable text widget, the signature widget, the signature and
// date cells of the "Sign Here" blocks. Holds a regression floor at the figures reached (minus a small
// margin). Runs the real detector: the child process and pdf.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFieldDetector } from '../../src/pdf/detect.js';
import { FORMS_DIR, loadLabels, measureForms, readDocument, reportLines } from '../../fixtures/detection-real/measure.js';
import { useTmpDir } from '../helpers/server.js';

/**
 * The floor: what the rules reach on these forms, minus a small margin; a change that loses more fails.
 * Measured: signatures 1.00 (10/10) / 1.00 (10/10), signing dates 1.00 (9/9) / 1.00 (9/9), AcroForm text
 * widgets 1.00 (426/426) / 1.00 (426/426).
 */
const FLOOR = {
  signatures: { precision: 0.9, recall: 0.9 },
  signingDates: { precision: 0.9, recall: 0.9 },
  acroformText: { precision: 0.99, recall: 0.99 },
};

test('AcroForm form labels: each names its PDF (sha256 checked), fields inside their pages, widgets marked', () => {
  const labels = loadLabels(FORMS_DIR);
  assert.equal(labels.length, 4, 'the labelled forms');
  for (const doc of labels) {
    assert.ok(readDocument(doc, FORMS_DIR), doc.file);
    assert.equal(doc.noPlaceToSign, false, doc.file);
    assert.ok(
      doc.expected.some((e) => e.acroform && e.type === 'text'),
      `${doc.file}: text widgets`,
    );
    assert.ok(
      doc.expected.some((e) => e.type === 'signature'),
      `${doc.file}: a place to sign`,
    );
    for (const e of doc.expected) {
      assert.ok(e.page >= 1 && e.page <= doc.pages, `${doc.file}: page ${e.page}`);
      assert.ok(e.width > 0 && e.height > 0 && e.x >= 0 && e.y >= 0, `${doc.file}: ${JSON.stringify(e)}`);
      if (e.type === 'date') assert.equal(e.fieldKey, 'sign_date', `${doc.file}: a date expected is a signing date`);
    }
  }
});

test('AcroForm forms: precision and recall hold their floor', async (t) => {
  const detector = createFieldDetector({ cacheDir: useTmpDir(t) });
  t.after(() => detector.close());
  const report = await measureForms(async (bytes) => {
    const outcome = await detector.detect(bytes);
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
    assert.ok(!outcome.partial, 'a whole analysis');
    return outcome.analysis.suggestions;
  });
  for (const row of report.rows) t.diagnostic(row);
  for (const line of reportLines(report)) t.diagnostic(line);
  for (const miss of report.misses) t.diagnostic(`  ${miss}`);
  assert.equal(report.documents, 4);
  for (const kind of ['signatures', 'signingDates', 'acroformText'] as const) {
    const s = report[kind];
    const floor = FLOOR[kind];
    assert.ok(s.expected > 0, `${kind}: something expected`);
    assert.ok((s.precision ?? 0) >= floor.precision, `${kind}: precision ${s.precision} below its floor ${floor.precision}`);
    assert.ok((s.recall ?? 0) >= floor.recall, `${kind}: recall ${s.recall} below its floor ${floor.recall}`);
  }
});
