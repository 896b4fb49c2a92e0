// Field detection measured on the wide real-document corpus (fixtures/detection-real/wide: 1,438 labelled
// documents from 1,121 public sources, the PDFs read from PARAPH_DETECTION_WIDE or ~/.cache/paraph-detection-real,
// rebuilt by fixtures/detection-real/wide/fetch.ts). Holds floors on the held-out part, whose sources were set
// apart before anything was measured and never used to write a rule; the development part is reported
// (diagnostics) but holds no floor of its own. Runs the real detector: the child process, pdf.js and OCR.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createFieldDetector } from '../../src/pdf/detect.js';
import { loadWideLabels, measureWide, wideDir, widePresent, wideReportLines } from '../../fixtures/detection-real/measure-wide.js';
import { sampleRepositories } from '../../fixtures/detection-real/wide/sample.js';
import { useTmpDir } from '../helpers/server.js';

const DIR = wideDir();
// Its PDFs are not redistributable and CI reaches only the npm registry and Debian's packages: a machine
// without the corpus (CI among them) skips, saying so; the labels are checked everywhere.
const absent = widePresent('held-out') ? false : `the wide corpus is not in ${DIR} (set PARAPH_DETECTION_WIDE, or run fixtures/detection-real/wide/fetch.ts)`;

/**
 * The floors on the held-out part: what the rules reach there, less a margin for the scans (their OCR
 * varies with the machine's load). Reached (2-core AMD EPYC, Node 24) on its 471 documents: signatures
 * 0.87 (591/682) / 0.73, signing dates 0.89 (365/409) / 0.78, AcroForm text widgets
 * 0.99 (1575/1594) / 0.99 (1575/1584). The targets for signatures (0.9 / 0.85) and signing dates
 * (0.85 / 0.85) are not reached; AcroForm text's (0.98 / 0.98) is: docs/detection.md.
 */
const FLOOR = {
  signatures: { precision: 0.72, recall: 0.58 },
  signingDates: { precision: 0.8, recall: 0.63 },
  acroformText: { precision: 0.97, recall: 0.97 },
};

test('the fixed samples of the wide corpus: D development and H held-out repositories, a larger sample holding a smaller one', () => {
  const small = sampleRepositories('30,20');
  const large = sampleRepositories('70,20');
  const partOf = new Map(loadWideLabels().map((l) => [l.repository, l.part]));
  assert.equal(small.length, 50);
  assert.equal(new Set(small).size, 50);
  assert.deepEqual(
    small.map((r) => partOf.get(r)),
    [...Array<string>(30).fill('development'), ...Array<string>(20).fill('held-out')],
  );
  assert.deepEqual(large.slice(0, 30), small.slice(0, 30));
  assert.deepEqual(large.slice(70), small.slice(30));
  for (const bad of ['300', '300,', 'a,b', '-1,2', '1.5,2']) assert.throws(() => sampleRepositories(bad), /a sample is D,H/, bad);
});

test('wide corpus labels: 80+ documents from 30+ sources in 5+ languages, the held-out part chosen by source, fields inside their pages', () => {
  const labels = loadWideLabels();
  assert.ok(labels.length >= 80, `${labels.length} documents`);
  assert.ok(new Set(labels.map((l) => l.repository)).size >= 30, 'sources');
  assert.ok(new Set(labels.map((l) => l.language)).size >= 5, 'languages');
  for (const layout of ['scan', 'photo', 'acroform', 'no-place'])
    assert.ok(
      labels.some((l) => l.layout === layout),
      layout,
    );
  for (const doc of labels) {
    // Whole sources: a repository whose SHA-256 starts with a byte divisible by 3 is held out.
    const byte = crypto.createHash('sha256').update(doc.repository).digest()[0] as number;
    assert.equal(doc.part, byte % 3 === 0 ? 'held-out' : 'development', `${doc.file}: part`);
    assert.match(doc.sha256, /^[0-9a-f]{64}$/, doc.file);
    assert.match(doc.commit, /^[0-9a-f]{40}$/, doc.file);
    assert.ok(doc.licence.length > 0, `${doc.file}: licence note`);
    if (doc.derivedFrom)
      assert.ok(
        labels.some((l) => l.file === doc.derivedFrom && l.part === doc.part),
        `${doc.file}: derived from a labelled document of its part`,
      );
    for (const e of doc.expected) {
      assert.ok(e.page >= 1 && e.page <= doc.pages, `${doc.file}: page ${e.page}`);
      assert.ok(e.width > 0 && e.height > 0 && e.x >= 0 && e.y >= 0, `${doc.file}: ${JSON.stringify(e)}`);
      if (e.type === 'date') assert.equal(e.fieldKey, 'sign_date', `${doc.file}: a date expected is a signing date`);
    }
    if (doc.noPlaceToSign)
      assert.ok(!doc.expected.some((e) => e.type === 'signature' || e.type === 'initials' || e.type === 'date'), `${doc.file}: nothing to sign expected`);
  }
  const held = labels.filter((l) => l.part === 'held-out');
  assert.ok(held.length >= labels.length / 4 && held.length <= labels.length / 2, `${held.length} held-out documents`);
});

test('wide corpus, held-out part: precision and recall hold their floors; no signature where there is no place to sign', { skip: absent }, async (t) => {
  assert.ok(widePresent('held-out'), `the held-out PDFs must be in ${DIR} (fixtures/detection-real/wide/fetch.ts)`);
  const detector = createFieldDetector({ cacheDir: useTmpDir(t) });
  t.after(() => detector.close());
  const report = await measureWide(async (bytes) => {
    const started = performance.now();
    const outcome = await detector.detect(bytes);
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
    return { suggestions: outcome.analysis.suggestions, ms: performance.now() - started, partial: outcome.partial === true };
  }, 'held-out');
  for (const line of wideReportLines(report)) t.diagnostic(line);
  for (const row of report.rows) t.diagnostic(row);
  for (const kind of ['signatures', 'signingDates', 'acroformText'] as const) {
    const s = report[kind];
    const floor = FLOOR[kind];
    assert.ok((s.precision ?? 1) >= floor.precision, `${kind}: precision ${s.precision} below its floor ${floor.precision}`);
    assert.ok((s.recall ?? 1) >= floor.recall, `${kind}: recall ${s.recall} below its floor ${floor.recall}`);
  }
  assert.ok(report.noPlaceToSign.documents >= 5, 'documents with no place to sign');
  // The target itself, not a floor: none. One or two signatures are suggested on the held-out part's 77 documents with no
  // place to sign (471 documents): reported here as not met until rules written from the development part alone remove them.
  await t.test('no signature where there is no place to sign', { todo: 'signatures on the 77 held-out documents with no place to sign' }, () => {
    assert.equal(report.noPlaceToSign.signatures, 0, 'no signature suggested where there is no place to sign');
  });
});
