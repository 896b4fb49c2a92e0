/**
 * The field-detection child process (started by detect.ts). It reads untrusted PDFs with pdf.js, OCRs
 * scanned pages with tesseract.js and applies the label rules; a runaway document can only take this
 * process down, which the server replaces. One job at a time; tesseract workers stay loaded between jobs.
 *
 * argv[2]: the directory tesseract.js may cache unpacked language models in.
 */
import { performance } from 'node:perf_hooks';
import { isArabic, matchLabels, splitWord } from './detect-lexicon.js';
import { openPdf, renderPage, scanPage } from './detect-extract.js';
import { buildLines, suggestFields, type PageModel, type Segment, type Suggestion, type Word } from './detect-rules.js';
import { OcrEngine, availableLanguages, type OcrLanguage, type OcrResult } from './ocr.js';
import { rulesFromPixels } from './ocr-lines.js';

export interface DetectJob {
  id: number;
  bytes: Uint8Array;
  /** Pages beyond this many are not analysed. */
  maxPages: number;
  ocr: boolean;
  /** Languages to try first on scanned pages (from the signers' locales). */
  languages: OcrLanguage[];
  /** No new page is OCRed after this many milliseconds; the parent kills the job a little later. */
  ocrDeadlineMs: number;
}

export interface Analysis {
  suggestions: Suggestion[];
  pages: Array<{ page: number; width: number; height: number; rotation: number }>;
  stats: {
    pageCount: number;
    nativeTextPages: number;
    scannedPages: number;
    ocrPages: number;
    extractionMs: number;
    detectionMs: number;
    /** OCR time per OCRed page (rendering included), for the benchmark. */
    ocrMsPerPage: number[];
  };
  ocrStatus: 'enabled' | 'disabled';
  /** The OCR language each OCRed page was read in. */
  ocrLanguages: Array<{ page: number; language: OcrLanguage }>;
}

export type ChildReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; ok: true; analysis: Analysis }
  | { type: 'result'; id: number; ok: false; message: string };

/** Pages with no text layer and at least this share covered by images are scans. */
const SCANNED_COVER = 0.3;
/** A page this much covered by images is a scan, even with a few words over it (a stamp, a page number). */
const IMAGE_BACKED = 0.6;
const STAMP_WORDS = 8;
/** Lines in the image of a scan with a text layer are looked for at this resolution. */
const RULES_DPI = 150;
const OCR_DPI = 200;
const OCR_MAX_PIXELS = 12_000_000;

export async function analyse(bytes: Uint8Array, job: Omit<DetectJob, 'id' | 'bytes'>, ocr: OcrEngine | undefined): Promise<Analysis> {
  const started = performance.now();
  const pdf = await openPdf(bytes);
  try {
    const pageCount = pdf.numPages;
    const analysed = Math.min(pageCount, job.maxPages);
    const languages = ocr && job.ocr ? availableLanguages() : [];
    const out: Analysis = {
      suggestions: [],
      pages: [],
      stats: { pageCount, nativeTextPages: 0, scannedPages: 0, ocrPages: 0, extractionMs: 0, detectionMs: 0, ocrMsPerPage: [] },
      ocrStatus: languages.length > 0 ? 'enabled' : 'disabled',
      ocrLanguages: [],
    };
    const scanned: number[] = [];
    const backed: number[] = [];
    const models: PageModel[] = [];
    const nativeWords: Word[] = [];
    for (let n = 1; n <= analysed; n++) {
      const t = performance.now();
      const page = await pdf.getPage(n);
      const scan = await scanPage(page);
      page.cleanup();
      out.pages.push({ page: n, width: round(scan.width), height: round(scan.height), rotation: scan.rotation });
      const model: PageModel = {
        page: n,
        width: scan.width,
        height: scan.height,
        words: scan.words,
        segments: scan.segments,
        verticals: scan.verticals,
        boxes: scan.boxes,
        widgets: scan.widgets,
        ocr: false,
      };
      const imageBacked = scan.imageCover >= IMAGE_BACKED;
      if (scan.words.length >= (imageBacked ? STAMP_WORDS : 1)) {
        out.stats.nativeTextPages++;
        nativeWords.push(...scan.words.slice(0, 2000));
        // A scan with a text layer: its text is there, its lines are only in the image.
        if (imageBacked) backed.push(n);
      } else if (scan.imageCover >= SCANNED_COVER) {
        // No text layer (or only a stamp such as a page number over a scan): OCR reads the page.
        out.stats.scannedPages++;
        scanned.push(n);
      }
      models.push(model);
      out.stats.extractionMs += performance.now() - t;
    }
    // Scans last: the language of the text pages helps choose the OCR language.
    if (ocr && languages.length > 0) {
      const order = languageOrder(job.languages, nativeWords, languages);
      for (const n of scanned) {
        if (performance.now() - started > job.ocrDeadlineMs) break;
        const t = performance.now();
        const model = models[n - 1] as PageModel;
        try {
          const page = await pdf.getPage(n);
          const bitmap = await renderPage(pdf, page, OCR_DPI, OCR_MAX_PIXELS);
          page.cleanup();
          const rules = rulesFromPixels(bitmap.pixels, bitmap.width, bitmap.height, bitmap.scale);
          const read = await readBest(ocr, bitmap.png, bitmap.scale, order);
          model.words = withoutRules(read.result.words, rules.segments);
          model.segments = [...model.segments, ...rules.segments];
          model.verticals = [...model.verticals, ...rules.verticals];
          model.ocr = true;
          out.stats.ocrPages++;
          out.ocrLanguages.push({ page: n, language: read.language });
          // The next scanned page of the document is most likely in the same language.
          order.splice(order.indexOf(read.language), 1);
          order.unshift(read.language);
        } catch {
          // The page stays unread: it counts as scanned, not as OCRed.
        }
        const ms = performance.now() - t;
        out.stats.extractionMs += ms;
        if (model.ocr) out.stats.ocrMsPerPage.push(Math.round(ms));
      }
    }
    for (const n of backed) {
      if (performance.now() - started > job.ocrDeadlineMs) break;
      const t = performance.now();
      const model = models[n - 1] as PageModel;
      try {
        const page = await pdf.getPage(n);
        const bitmap = await renderPage(pdf, page, RULES_DPI, OCR_MAX_PIXELS);
        page.cleanup();
        const rules = rulesFromPixels(bitmap.pixels, bitmap.width, bitmap.height, bitmap.scale);
        model.segments = [...model.segments, ...rules.segments];
        model.verticals = [...model.verticals, ...rules.verticals];
      } catch {
        // Without its lines the page still has its text.
      }
      out.stats.extractionMs += performance.now() - t;
    }
    const t = performance.now();
    for (const model of models) out.suggestions.push(...suggestFields(model));
    out.stats.detectionMs = round(performance.now() - t);
    out.stats.extractionMs = round(out.stats.extractionMs);
    return out;
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

/**
 * The order in which OCR languages are tried: the signers' languages first, then the script of the
 * document's own text, then English, then the other script.
 */
function languageOrder(hints: OcrLanguage[], words: Word[], available: OcrLanguage[]): OcrLanguage[] {
  const order: OcrLanguage[] = [...hints];
  if (words.length > 0) {
    const arabic = words.filter((w) => isArabic(w.text)).length;
    if (arabic * 2 > words.length) order.push('ara');
    else if (looksFrench(words)) order.push('fra');
    else order.push('eng');
  }
  order.push('eng', 'ara', 'fra');
  return [...new Set(order)].filter((l) => available.includes(l));
}

const FRENCH = new Set(['le', 'la', 'les', 'des', 'du', 'et', 'est', 'une', 'pour', 'dans', 'sur', 'au', 'aux', 'par']);
const ENGLISH = new Set(['the', 'and', 'of', 'to', 'is', 'for', 'in', 'on', 'by', 'with', 'shall', 'this']);
function looksFrench(words: Word[]): boolean {
  let fr = 0;
  let en = 0;
  for (const w of words) {
    for (const t of splitWord(w.text)) {
      if (FRENCH.has(t)) fr++;
      if (ENGLISH.has(t)) en++;
    }
  }
  return fr > en;
}

/**
 * Reads the page in the first language; if that finds no label and reads poorly, tries the other
 * script (Latin or Arabic) and keeps whichever finds more labels, then reads more confidently.
 */
async function readBest(ocr: OcrEngine, png: Buffer, scale: number, order: OcrLanguage[]): Promise<{ result: OcrResult; language: OcrLanguage }> {
  const first = order[0] as OcrLanguage;
  const result = await ocr.read(png, scale, first);
  const labels = countLabels(result.words);
  if ((labels > 0 && result.confidence >= 0.6) || result.confidence >= 0.85) return { result, language: first };
  const otherScript = order.find((l) => (l === 'ara') !== (first === 'ara'));
  if (!otherScript) return { result, language: first };
  const second = await ocr.read(png, scale, otherScript);
  const labels2 = countLabels(second.words);
  const better = labels2 > labels || (labels2 === labels && second.confidence > result.confidence);
  return better ? { result: second, language: otherScript } : { result, language: first };
}

/** OCR reads a drawn line as a word of dashes or tildes: the line is already known, the word goes. */
function withoutRules(words: Word[], segments: Segment[]): Word[] {
  return words.filter((w) => {
    const text = w.text.replace(/\s/g, '');
    const ruleLike = !/[\p{L}\p{N}]/u.test(text) || w.confidence < 0.5;
    if (!ruleLike) return true;
    const width = w.box.x1 - w.box.x0;
    return !segments.some(
      (s) => s.y >= w.box.y0 - 2 && s.y <= w.box.y1 + 3 && Math.min(s.x1, w.box.x1) - Math.max(s.x0, w.box.x0) >= 0.5 * width,
    );
  });
}

function countLabels(words: Word[]): number {
  return buildLines(words.filter((w) => w.confidence >= 0.3)).reduce((n, line) => n + matchLabels(line.tokens).length, 0);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

// ---------------------------------------------------------------------------------------------- process

if (process.send && process.argv[2] !== undefined) {
  const send = process.send.bind(process);
  const engine = new OcrEngine(process.argv[2]);
  let queue: Promise<void> = Promise.resolve();
  process.on('message', (job: DetectJob) => {
    queue = queue.then(async () => {
      let reply: ChildReply;
      try {
        reply = { type: 'result', id: job.id, ok: true, analysis: await analyse(job.bytes, job, engine) };
      } catch (err) {
        reply = { type: 'result', id: job.id, ok: false, message: describe(err) };
      }
      send(reply);
    });
  });
  // The server went away: nothing is left to answer to.
  process.on('disconnect', () => {
    void engine.close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  });
  send({ type: 'ready' } satisfies ChildReply);
}

function describe(err: unknown): string {
  const name = err instanceof Error ? err.name : '';
  if (name === 'InvalidPDFException') return 'the document could not be read as a PDF';
  if (name === 'PasswordException') return 'the document is encrypted';
  return 'the document could not be analysed';
}
