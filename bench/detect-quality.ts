/**
 * Field detection quality, with the compiled detector (dist/): precision and recall on the synthetic
 * fixtures (fixtures/detection, written together with the rules) and, separately, on the real-document
 * corpus (fixtures/detection-real labels; the PDFs in PARAPH_DETECTION_CORPUS, by default
 * ../shared/corpus/detection beside the checkout) and on real fillable forms with AcroForm widgets
 * (fixtures/detection-forms), and on the wide real-document corpus (fixtures/detection-real/wide; the PDFs in
 * PARAPH_DETECTION_WIDE, by default ~/.cache/paraph-detection-real), its development and held-out parts
 * apart, per language and per layout. Run by bench/run.ts (scenario `quality`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  corpusDir,
  describe,
  match,
  measureForms,
  measureRealCorpus,
  reportLines,
  type FoundField,
  type QualityReport,
  type Score,
} from '../fixtures/detection-real/measure.js';
import {
  PARTS,
  loadWideLabels,
  measureWide,
  wideDir,
  allPresent,
  wideReportLines,
  type Part,
  type PartReport,
} from '../fixtures/detection-real/measure-wide.js';
import { sampleRepositories } from '../fixtures/detection-real/wide/sample.js';
import { valueRow, type Row } from './report.js';
import { ROOT } from './serve.js';

export interface QualityResult {
  synthetic: Score;
  real: Omit<QualityReport, 'rows' | 'misses'> | null;
  /** Real fillable forms with AcroForm widgets (fixtures/detection-forms). */
  forms: Omit<QualityReport, 'rows' | 'misses'>;
  /** The wide corpus, per part whose PDFs are all there (null when neither part's are). */
  wide: Partial<Record<Part, Omit<PartReport, 'rows' | 'misses'>>> | null;
}

interface Detector {
  detect(
    bytes: Uint8Array,
  ): Promise<{ ok: true; partial?: boolean; analysis: { suggestions: FoundField[]; stats: { ocrMsPerPage: number[] } } } | { ok: false; message: string }>;
  close(): Promise<void>;
}

export async function benchDetectionQuality(): Promise<QualityResult> {
  const { createFieldDetector } = (await import(pathToFileURL(path.join(ROOT, 'dist', 'pdf', 'detect.js')).href)) as {
    createFieldDetector(o: { cacheDir: string }): Detector;
  };
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-bench-quality-'));
  const detector = createFieldDetector({ cacheDir });
  const suggestions = async (bytes: Uint8Array): Promise<FoundField[]> => {
    const outcome = await detector.detect(bytes);
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.analysis.suggestions;
  };
  try {
    const dir = path.join(ROOT, 'fixtures', 'detection');
    const corpus = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Record<string, { expected: Array<FoundField> }>;
    let found = 0;
    let suggested = 0;
    let expected = 0;
    for (const [file, doc] of Object.entries(corpus)) {
      const got = await suggestions(fs.readFileSync(path.join(dir, file)));
      found += match(doc.expected, got).length;
      suggested += got.length;
      expected += doc.expected.length;
    }
    const synthetic: Score = { found, suggested, expected, precision: suggested ? found / suggested : null, recall: expected ? found / expected : null };
    console.log(`field detection quality, synthetic fixtures (${Object.keys(corpus).length} documents, all field types): ${describe(synthetic)}`);
    const formsReport = await measureForms(suggestions);
    console.log(`field detection quality, AcroForm forms (${formsReport.documents} real fillable forms, fixtures/detection-forms):`);
    for (const line of reportLines(formsReport)) console.log(`  ${line}`);
    const { rows: _formRows, misses: _formMisses, ...forms } = formsReport;
    const report = await measureRealCorpus(suggestions);
    let real: QualityResult['real'] = null;
    if (!report) {
      console.log(`field detection quality, real documents: skipped, no corpus at ${corpusDir()} (set PARAPH_DETECTION_CORPUS)`);
    } else {
      console.log(`field detection quality, real documents (${report.documents} documents in ${corpusDir()}):`);
      for (const line of reportLines(report)) console.log(`  ${line}`);
      const { rows: _rows, misses: _misses, ...rest } = report;
      real = rest;
    }
    // Each part whose PDFs are all there is measured; a part with PDFs missing is not (a partial figure
    // would not compare with the others), unless PARAPH_BENCH_WIDE_SAMPLE names a fixed sample ("300,196",
    // fixtures/detection-real/wide/sample.ts) whose PDFs are all there: then that sample of each part.
    const parts: Partial<Record<Part, Omit<PartReport, 'rows' | 'misses'>>> = {};
    const sampleCounts = process.env.PARAPH_BENCH_WIDE_SAMPLE;
    const sample = sampleCounts ? new Set(sampleRepositories(sampleCounts)) : undefined;
    for (const part of PARTS) {
      const docs = loadWideLabels(part).filter((d) => sample === undefined || sample.has(d.repository));
      if (!allPresent(docs)) {
        const which = sample ? `the PDFs of the sample ${sampleCounts}` : 'its PDFs';
        console.log(
          `field detection quality, wide corpus, ${part} part: skipped, ${which} are not all in ${wideDir()} (set PARAPH_DETECTION_WIDE; fixtures/detection-real/wide/fetch.ts)`,
        );
        continue;
      }
      const r = await measureWide(
        async (bytes) => {
          const started = performance.now();
          const outcome = await detector.detect(bytes);
          const ms = performance.now() - started;
          if (!outcome.ok) throw new Error(outcome.message);
          return {
            suggestions: outcome.analysis.suggestions,
            ms,
            slowestOcrPageMs: Math.max(0, ...outcome.analysis.stats.ocrMsPerPage),
            partial: outcome.partial === true,
          };
        },
        part,
        undefined,
        docs,
      );
      console.log(`field detection quality, wide corpus (${wideDir()}), ${part} part${sample ? ` (the sample ${sampleCounts})` : ''}:`);
      for (const line of wideReportLines(r)) console.log(`  ${line}`);
      const { rows: _rows, misses: _misses, ...rest } = r;
      parts[part] = rest;
    }
    const wide = Object.keys(parts).length > 0 ? parts : null;
    return { synthetic, real, forms, wide };
  } finally {
    await detector.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** The summary's rows of the detection figures, with their targets. */
export function detectionQualityRows(quality: QualityResult): Row[] {
  const rows: Row[] = [];
  const pr = (measure: string, s: { precision: number | null; recall: number | null }, p: number, r: number) => {
    rows.push({ ...valueRow(`${measure} precision`, s.precision ?? Number.NaN, '', { atLeast: p }, 2), target: `>= ${p}` });
    rows.push({ ...valueRow(`${measure} recall`, s.recall ?? Number.NaN, '', { atLeast: r }, 2), target: `>= ${r}` });
  };
  pr('detection, synthetic fixtures:', quality.synthetic, 0.9, 0.85);
  // Real fillable forms (fixtures/detection-forms): the AcroForm target of the real-document figures;
  // signatures and signing dates there are reported without a target of their own.
  pr('detection, AcroForm forms: text widgets', quality.forms.acroformText, 0.98, 0.98);
  for (const [measure, s] of [
    ['signatures', quality.forms.signatures],
    ['signing dates', quality.forms.signingDates],
  ] as const) {
    rows.push(valueRow(`detection, AcroForm forms: ${measure} precision`, s.precision ?? Number.NaN, '', null, 2));
    rows.push(valueRow(`detection, AcroForm forms: ${measure} recall`, s.recall ?? Number.NaN, '', null, 2));
  }
  // The wide corpus: targets on its held-out part; every page, scans included, within 3 s (a scanned
  // page that would take longer is cut short, and the document counts as cut).
  for (const [part, r] of Object.entries(quality.wide ?? {})) {
    const held = part === 'held-out';
    for (const [measure, s, p, rc] of [
      ['signatures', r.signatures, 0.9, 0.85],
      ['signing dates', r.signingDates, 0.85, 0.85],
    ] as const) {
      if (held) pr(`detection, wide ${part}: ${measure}`, s, p, rc);
      else
        for (const [k, v] of [
          ['precision', s.precision],
          ['recall', s.recall],
        ] as const)
          rows.push(valueRow(`detection, wide ${part}: ${measure} ${k}`, v ?? Number.NaN, '', null, 2));
    }
    rows.push(valueRow(`detection, wide ${part}: slowest page (${r.partial.length} cut short)`, r.slowestPageMs, 'ms', { atMost: 3000 }));
  }
  if (!quality.real) return rows;
  pr('detection, real docs: signatures', quality.real.signatures, 0.9, 0.85);
  pr('detection, real docs: signing dates', quality.real.signingDates, 0.85, 0.8);
  const none = quality.real.noPlaceToSign;
  rows.push(valueRow('detection, real docs with no place to sign', none.withSuggestions.length, `of ${none.documents} with a suggestion`, { atMost: 0 }));
  return rows;
}
