/**
 * OCR of realistic scans through the real binary: POST /detect-fields on image-only PDFs made from the
 * real PDFs of the development corpus (test/helpers/scans.ts: pdftoppm, a tilt, grey paper, noise,
 * JPEG; and a phone-photo-like one). Per scan: the first call of a fresh serve (it starts the analysis
 * process and the OCR workers: cold) and the median of the next calls (warm), in wall time end to end
 * per page, with the OCR time per page the analysis reports; the analysis process's resident memory
 * after the calls, and a few seconds later. Run by bench/run.ts (`PARAPH_BENCH_ONLY=ocr npm run bench`);
 * skipped when the corpus (env PARAPH_DETECTION_CORPUS, default ../shared/corpus/detection) is not there.
 */
import fs from 'node:fs';
import { SCANS, detectionCorpus, makeScan } from '../test/helpers/scans.js';
import { descendants, sleep } from './proc.js';
import { startServe } from './serve.js';
import { median } from './stats.js';

interface Stats {
  pageCount: number;
  ocrPages: number;
  scannedPages: number;
  extractionMs: number;
}

export interface OcrScanResult {
  name: string;
  pages: number;
  /** Wall time per page of the first call of a fresh serve. */
  coldMsPerPage: number;
  /** Median wall time per page of the next calls. */
  warmMsPerPage: number;
  /** Median OCR time per page (rendering, image work and tesseract) the analysis reports, warm. */
  warmOcrMsPerPage: number;
  suggestions: number;
  /** Pages OCR read before the time limit: on the cold call, and the fewest of the warm ones. */
  readCold: number;
  readWarm: number;
}

export interface OcrResult {
  scans: OcrScanResult[];
  /** The analysis process's resident memory right after the last call, and after a pause. */
  childMb: { afterCalls: number | null; afterPause: number | null };
}

const WARM_RUNS = Number(process.env.PARAPH_BENCH_OCR_RUNS ?? 3);
const PAUSE_MS = 15_000;

function residentMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1];
    return kb === undefined ? null : Math.round(Number(kb) / 1024);
  } catch {
    return null;
  }
}

export async function benchOcr(): Promise<OcrResult | null> {
  if (!detectionCorpus()) {
    console.log('OCR: skipped, the detection corpus is not there (set PARAPH_DETECTION_CORPUS)');
    return null;
  }
  const documents = await Promise.all(SCANS.map(async (s) => ({ name: s.name, bytes: await makeScan(s.options), pages: (s.options.pages ?? [1]).length })));
  const results: OcrScanResult[] = [];
  let childMb: OcrResult['childMb'] = { afterCalls: null, afterPause: null };
  for (const [index, doc] of documents.entries()) {
    // A fresh serve per scan: its first call is the cold one.
    const serve = await startServe({ scenario: `OCR ${index + 1}` });
    try {
      const auth = { authorization: `Bearer ${serve.key}` };
      const detect = async (): Promise<{ stats: Stats; wallMs: number; suggestions: number }> => {
        const form = new FormData();
        form.append('document', new Blob([doc.bytes], { type: 'application/pdf' }), 'scan.pdf');
        form.append(
          'request',
          JSON.stringify({
            client_reference: `bench-ocr-${Math.random()}`,
            signers: [{ reference: 'client', email: 'client@example.com', order: 1, locale: 'en' }],
          }),
        );
        const created = await fetch(`${serve.api}/signature-requests`, { method: 'POST', headers: auth, body: form });
        if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
        const { id } = (await created.json()) as { id: string };
        const started = performance.now();
        const answer = await fetch(`${serve.api}/signature-requests/${id}/detect-fields`, { method: 'POST', headers: auth });
        if (answer.status !== 200) throw new Error(`detect-fields answered ${answer.status}: ${await answer.text()}`);
        const body = (await answer.json()) as { stats: Stats; suggestions: unknown[] };
        return { stats: body.stats, wallMs: performance.now() - started, suggestions: body.suggestions.length };
      };
      const cold = await detect();
      const warm = [];
      for (let i = 0; i < WARM_RUNS; i++) warm.push(await detect());
      const result: OcrScanResult = {
        name: doc.name,
        pages: doc.pages,
        coldMsPerPage: Math.round(cold.wallMs / doc.pages),
        warmMsPerPage: Math.round(median(warm.map((w) => w.wallMs)) / doc.pages),
        warmOcrMsPerPage: Math.round(median(warm.map((w) => w.stats.extractionMs)) / doc.pages),
        suggestions: cold.suggestions,
        readCold: cold.stats.ocrPages,
        readWarm: Math.min(...warm.map((w) => w.stats.ocrPages)),
      };
      const unread =
        result.readCold < doc.pages || result.readWarm < doc.pages
          ? ` (OCR read ${result.readCold} of ${doc.pages} cold, ${result.readWarm} warm, before the time limit)`
          : '';
      results.push(result);
      console.log(
        `OCR, ${doc.name} (${doc.pages} page${doc.pages > 1 ? 's' : ''}): ${result.warmMsPerPage} ms per page warm end to end ` +
          `(${result.warmOcrMsPerPage} ms reading it), ${result.coldMsPerPage} ms per page on a fresh serve; ${result.suggestions} suggestions${unread}`,
      );
      if (index === documents.length - 1) {
        const child = descendants(serve.pid).find((c) => c.name.includes('detect-child'));
        if (child) {
          const afterCalls = residentMb(child.pid);
          await sleep(PAUSE_MS);
          childMb = { afterCalls, afterPause: residentMb(child.pid) };
          console.log(`OCR, analysis process memory: ${afterCalls} MB after the calls, ${childMb.afterPause ?? 'stopped'} MB ${PAUSE_MS / 1000} s later`);
        }
      }
    } finally {
      await serve.stop();
    }
  }
  return { scans: results, childMb };
}
