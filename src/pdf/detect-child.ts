/**
 * The field-detection child process (started by detect.ts). It reads untrusted PDFs with pdf.js, OCRs
 * scanned pages with tesseract.js and applies the label rules; a runaway document can only take this
 * process down, which the server replaces. One job at a time; tesseract workers stay loaded between jobs
 * that follow each other, and are stopped (their memory returned) after 10 s without one, or at once
 * when a job left the process over 640 MB. A process started ahead of documents is sent a note once ready:
 * it then reads a small document of its own until the first one comes (detect/warm-up.ts).
 *
 * Its argument: the directory tesseract.js may cache unpacked language models in.
 */
import { performance } from 'node:perf_hooks';
// First: without OCR's canvas, pdf.js needs a stand-in to load.
import './detect/ocr-canvas.js';
import { serveCalls, workerArguments } from '../platform/worker-entry.js';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdf, scanPage, textPageModel, type PageScan } from './detect/page-scan.js';
import { assemble, round, type Analysis, type PageDone } from './detect/analysis.js';
import { pageSuggestions, type PageModel, type Widget, type Word } from './detect/continued-tables.js';
import { DETECT_ENTRY, type DetectJob, type DetectProgress, type DetectReply } from './detect-messages.js';
import { availableLanguages, type OcrLanguage } from './detect/ocr-languages.js';
import { OcrEngine } from './detect/ocr-engine.js';
import { languageOrder, readBest } from './detect/ocr-script.js';
import { binarise, pointsBack, renderGrey, skewDegrees, straighten, textHeight, type InkPage, type Unrotate } from './detect/ocr-image.js';
import { labelRegions } from './detect/ocr-regions.js';
import { rulesBack, rulesFromInk } from './detect/ocr-drawn-lines.js';
import { inkGrid } from './detect/ink-grid.js';
import { withoutMarks } from './detect/ocr-without-lines.js';
import { EXPIRED, PageGate, stepMs, stepStart, until, untilPage, waitedMs } from './detect/time-limits.js';
import { blanksApart, blanksOnRows, withTyped, withoutRules, withoutSpecks, wordBack } from './detect/ocr-words.js';
import { keepImages, type KeptScan } from './detect/scan-image.js';
import { pageKind, unreadable } from './detect/page-kinds.js';
import { warmUp } from './detect/warm-up.js';

/** Lines in the image of a scan with a text layer are looked for at this resolution. */
const RULES_DPI = 150;
/**
 * Scanned pages are read at 175 dpi: the 8 pt print of forms reads as well as at 200 dpi (at 150 dpi
 * it does not), in three quarters of the pixels. A page whose lines of text are smaller than
 * SMALL_TEXT_PT is read again at FINE_DPI.
 */
const OCR_DPI = 175;
const FINE_DPI = 250;
const SMALL_TEXT_PT = 6.5;
/** In points: ink this near a drawn rule crowds it, and OCR reads the page without the rule. */
const CROWDED_PT = 2;
const OCR_MAX_PIXELS = 12_000_000;
/** The scans' images kept in grey from the text pass for OCR (scan-image.ts) take at most this many bytes a document; the pages after are rendered again. */
const KEPT_BYTES = 96 * 2 ** 20;
/** A scanned page whose text pass and OCR take longer than this on an idle machine is cut short, within 3 s from a fresh process (DetectJob.pageMs; docs/detection.md). */
const PAGE_MS = 2500;
/** OCR workers stop after this long without a job, and at once after a job that left the process over TRIM_MB. */
const WORKERS_IDLE_MS = 10_000;
const TRIM_MB = 640;

/** Told as the analysis goes: the document's page count, then each page when read (again after OCR), with the page model its rules ran on. */
export interface AnalysisProgress {
  opened(head: { pageCount: number; ocrStatus: Analysis['ocrStatus'] }): void;
  page(done: PageDone, model: PageModel): void;
}

export async function analyse(bytes: Uint8Array, job: Omit<DetectJob, 'bytes'>, ocr: OcrEngine | undefined, progress?: AnalysisProgress): Promise<Analysis> {
  const started = performance.now();
  const deadline = started + job.deadlineMs;
  const pageMs = job.pageMs ?? PAGE_MS;
  // The first page with a time limit has it less the wait for this process to take the document (DetectJob.askedAt).
  let waited = waitedMs(job.askedAt, pageMs);
  const pdf = await openPdf(bytes);
  // (Signature fields signed already are no place to sign: read with pdf-lib, loaded for a document with one.)
  let signed: ((widgets: Widget[]) => Promise<Widget[]>) | undefined;
  const unsigned = async (widgets: Widget[]) => {
    if (!widgets.some((w) => w.kind === 'signature')) return widgets;
    signed ??= (await import('./detect/signed-fields.js')).unsignedWidgets(bytes);
    return signed(widgets);
  };
  try {
    const pageCount = pdf.numPages;
    const analysed = Math.min(pageCount, job.maxPages);
    const languages = ocr && job.ocr ? availableLanguages() : [];
    const head = { pageCount, ocrStatus: languages.length > 0 ? ('enabled' as const) : ('disabled' as const) };
    progress?.opened(head);
    const timing = { extractionMs: 0, detectionMs: 0, ocrMsPerPage: [] as number[] };
    const done = new Map<number, PageDone>();
    const geometry = new Map<number, PageDone['page']>();
    let abandoned = false;
    /** A scanned page was left unread at its own time limit: the answer is partial (and if the last, `retryLanguage`). */
    let cut = false;
    let retryLanguage: OcrLanguage | undefined;
    /** Applies the rules to a page as read so far (a table going on from the page before keeps its columns, which its suggestions tell; a page whose rules fail gets none), and tells it. */
    const finish = (model: PageModel, kind: PageDone['kind'], ocrLanguage?: OcrLanguage) => {
      const t = performance.now();
      const [page, suggestions] = [geometry.get(model.page) as PageDone['page'], pageSuggestions(model, done.get(model.page - 1)?.suggestions)];
      const entry: PageDone = { page, suggestions, kind, ...(ocrLanguage ? { ocrLanguage } : {}) };
      timing.detectionMs += performance.now() - t;
      done.set(model.page, entry);
      progress?.page(entry, model);
    };
    const scanned: PageModel[] = [];
    const backed: PageModel[] = [];
    const nativeWords: Word[] = [];
    /** Scanned pages' images as the text pass decoded them, drawn for OCR without decoding them again. */
    const kept = new Map<number, KeptScan[]>();
    let keptBytes = 0;
    const keep = (scan: PageScan) => {
      const kind = pageKind(scan);
      return languages.length > 0 && keptBytes < KEPT_BYTES && (kind === 'scanned' || kind === 'backed');
    };
    /** The idle-machine time of each page's text pass (a scan's image decoded, kept): part of the page's limit. */
    const passMs = new Map<number, number>();
    const limitOf = (page: number) => {
      const ms = pageMs - (passMs.get(page) ?? 0) - waited;
      waited = 0;
      return ms;
    };
    for (let n = 1; n <= analysed; n++) {
      const [t, step] = [performance.now(), stepStart()];
      // (pdf.js cannot be stopped inside a page: a page it is stuck in is bounded by the analysis's limit, not the page's.)
      const read = await until(readPage(pdf, n, keep), deadline);
      const scan = read === EXPIRED ? read : read?.scan;
      if (read !== EXPIRED && read?.kept) {
        kept.set(n, read.kept);
        keptBytes += read.kept.reduce((n, image) => n + image.grey.byteLength, 0);
      }
      timing.extractionMs += performance.now() - t;
      if (scan === EXPIRED) {
        abandoned = true;
        break;
      }
      // A page pdf.js cannot read is left out; the others are still analysed.
      if (scan === undefined) continue;
      geometry.set(n, { page: n, width: round(scan.width), height: round(scan.height), rotation: scan.rotation });
      const widgets = await until(unsigned(scan.widgets), deadline);
      const model = textPageModel(n, widgets === EXPIRED ? scan : { ...scan, widgets });
      const kind = pageKind(scan);
      passMs.set(n, stepMs(step));
      if (kind === 'text' || kind === 'backed') {
        nativeWords.push(...scan.words.slice(0, 2000));
        // A scan with a text layer: its text is there, its lines are only in the image.
        if (kind === 'backed') backed.push(model);
        finish(model, 'text');
      } else if (kind === 'scanned') {
        // No text layer (or only a stamp such as a page number over a scan): OCR reads the page. (Of a text layer in
        // glyphs mapped to no letter, the words one can read are kept, as typed over a scan.)
        model.words = model.words.filter((w) => !unreadable(w.text));
        scanned.push(model);
        finish(model, 'scanned');
      } else {
        finish(model, 'other');
      }
    }
    // Scans last: the language of the text pages helps choose the OCR language.
    if (ocr && languages.length > 0 && !abandoned && scanned.length > 0) {
      const order = languageOrder(job.languages, nativeWords, languages);
      // The workers start while the first page is rendered; each next is rendered while they read the one before (PageGate).
      ocr.start(order[0] as OcrLanguage);
      const gate = new PageGate();
      const prepare = (n: number) => preparePage(pdf, n, kept.get(n), () => gate.pass(n)).finally(() => kept.delete(n));
      let prepared = prepare((scanned[0] as PageModel).page);
      for (const [i, model] of scanned.entries()) {
        const t = performance.now();
        gate.reading(model.page);
        const current = prepared;
        const reading = ocrPage(current, model, ocr, order);
        const following = scanned[i + 1];
        if (following) prepared = current.then(() => prepare(following.page));
        // (The page's time counts its text pass, and its workers' start when they start for it.)
        const read = await untilPage(reading, limitOf(model.page), deadline, () => ocr.reading, undefined, gate);
        const ms = performance.now() - t;
        timing.extractionMs += ms;
        if (read === EXPIRED) {
          if (performance.now() >= deadline) {
            abandoned = true;
            break;
          }
          // Over its own limit: the page stays unread, its workers stopped; new ones start at once for the
          // document's next scanned page (after its last, the next document starts them: the answer does not wait for them).
          cut = true;
          timing.ocrMsPerPage.push(Math.round(ms));
          await ocr.close();
          if (following) ocr.start(order[0] as OcrLanguage);
          else retryLanguage = order[0];
          continue;
        }
        // Unread (damaged image, OCR failure), the page counts as scanned, not as OCRed.
        if (read === undefined) continue;
        timing.ocrMsPerPage.push(Math.round(ms));
        finish(model, 'scanned', read);
        // The next scanned page of the document is most likely in the same language.
        order.splice(order.indexOf(read), 1);
        order.unshift(read);
      }
    }
    for (const model of abandoned ? [] : backed) {
      const t = performance.now();
      // (Within what its text pass left of the page's limit: past it, the page keeps its text alone and the answer is partial.)
      const work = linesOfPage(pdf, model, kept.get(model.page)).finally(() => kept.delete(model.page));
      const lines = await untilPage(work, limitOf(model.page), deadline, () => 1);
      timing.extractionMs += performance.now() - t;
      if (lines === EXPIRED && performance.now() >= deadline) {
        abandoned = true;
        break;
      }
      if (lines === EXPIRED) cut = true;
      else finish(model, 'text');
    }
    return assemble(head, done.values(), timing, abandoned, cut, abandoned ? undefined : retryLanguage);
  } finally {
    // Also stops pdf.js work on an abandoned page.
    await pdf.destroy().catch(() => {});
  }
}

/** What pdf.js sees on page `n` (and, where `keep` says so, its image kept for OCR), or undefined when the page cannot be read. */
async function readPage(pdf: PDFDocumentProxy, n: number, keep: (scan: PageScan) => boolean): Promise<{ scan: PageScan; kept?: KeptScan[] } | undefined> {
  try {
    const page = await pdf.getPage(n);
    try {
      const scan = await scanPage(page);
      // (A page whose image is not kept is rendered by pdf.js again for OCR; of a scan with a text layer, its images alone.)
      const kept = keep(scan) ? await keepImages(page, pageKind(scan) === 'backed').catch(() => undefined) : undefined;
      return kept ? { scan, kept } : { scan };
    } finally {
      page.cleanup();
    }
  } catch {
    return undefined;
  }
}

/** A scanned page made ready for OCR: its straightened black-and-white image, the lines drawn on it, and what OCR reads of it. */
interface PreparedPage {
  image: InkPage;
  back: Unrotate;
  rules: ReturnType<typeof rulesFromInk>;
  regions: InkPage;
  unruled: Uint8Array; // The page's ink without its drawn lines.
}

/**
 * A scanned page rendered in grey at the resolution its print needs, made black and white, straightened,
 * its lines found, and the parts that can hold a label kept for OCR (the inside of paragraphs of running
 * text is left out); undefined when the page cannot be rendered.
 */
async function preparePage(pdf: PDFDocumentProxy, n: number, kept: KeptScan[] | undefined, pause = async () => {}): Promise<PreparedPage | undefined> {
  // (Each step over the pixels holds this thread up to a few hundred ms: between them the page being read meanwhile
  // gets its answer, or is cut at its limit, on time; `pause` holds them in that page's last moments.)
  const breathe = () => new Promise<void>((resolve) => setImmediate(resolve)).then(pause);
  try {
    const page = await pause().then(() => pdf.getPage(n));
    try {
      const render = async (dpi: number) => {
        const grey = await renderGrey(pdf, page, dpi, OCR_MAX_PIXELS, kept);
        await breathe();
        const ink = binarise(grey);
        await breathe();
        return ink;
      };
      let scanned = await render(OCR_DPI);
      let { page: image, back } = straighten(scanned, skewDegrees(scanned));
      await breathe();
      // Small print needs more pixels than the usual resolution gives it.
      const line = textHeight(image);
      if (line !== undefined && line / image.scale < SMALL_TEXT_PT) {
        scanned = await render(FINE_DPI);
        ({ page: image, back } = straighten(scanned, skewDegrees(scanned)));
        await breathe();
      }
      const rules = rulesFromInk(image.ink, image.width, image.height, image.scale);
      await breathe();
      // (OCR reads the page without its drawn lines: a caption under a dotted line or against a box is read as itself.)
      const unruled = withoutMarks(image.ink, image.width, rules.marks, rules.rules, Math.round(CROWDED_PT * image.scale));
      const regions = labelRegions(
        { ...image, ink: unruled },
        rules.segments.map((s) => s.y * image.scale),
      ).page;
      return { image, back, rules, regions, unruled };
    } finally {
      page.cleanup();
    }
  } catch {
    return undefined;
  }
}

/** OCRs a prepared scanned page into its model; answers the language it was read in, or undefined when unread. */
async function ocrPage(prepared: Promise<PreparedPage | undefined>, model: PageModel, ocr: OcrEngine, order: OcrLanguage[]): Promise<OcrLanguage | undefined> {
  // (A page cut short while it was prepared is not read afterwards by the workers started for the next one.)
  const generation = ocr.generation;
  try {
    const ready = await prepared;
    if (!ready) return undefined;
    const { image, back, rules, regions, unruled } = ready;
    const read = await readBest(ocr, regions, order, generation);
    const unrotate = pointsBack(back, image.scale);
    const { segments, verticals } = rulesBack(rules, unrotate);
    const words = withoutSpecks(withoutRules(blanksApart(read.result.words), rules.segments));
    model.words = withTyped(
      [...words, ...blanksOnRows(words, rules.segments)].map((w) => wordBack(w, unrotate)),
      model.words,
    );
    model.segments = [...model.segments, ...segments];
    model.verticals = [...model.verticals, ...verticals];
    model.ink = inkGrid(unruled, image.width, image.height, image.scale, model, unrotate);
    model.ocr = true;
    return read.language;
  } catch {
    return undefined;
  }
}

/** Adds the lines drawn in the image of a scan that has a text layer (without them the page still has its text). */
async function linesOfPage(pdf: PDFDocumentProxy, model: PageModel, kept: KeptScan[] | undefined): Promise<void> {
  try {
    const page = await pdf.getPage(model.page);
    const scanned = binarise(await renderGrey(pdf, page, RULES_DPI, OCR_MAX_PIXELS, kept));
    page.cleanup();
    // (A scan set askew: its rules are looked for on the page straightened, then set back where they are on the scan.)
    const { page: image, back } = straighten(scanned, skewDegrees(scanned));
    const rules = rulesFromInk(image.ink, image.width, image.height, image.scale);
    const { segments, verticals } = rulesBack(rules, pointsBack(back, image.scale));
    model.segments = [...model.segments, ...segments];
    model.verticals = [...model.verticals, ...verticals];
  } catch {
    // The page keeps its text.
  }
}

// ---------------------------------------------------------------------------------------------- process

const args = workerArguments(DETECT_ENTRY);
if (args?.[0] !== undefined) {
  const engine = new OcrEngine(args[0]);
  // pdf.js leaves some of its promises unawaited; on a damaged file they reject, no reason to end the process.
  process.on('unhandledRejection', () => {});
  let idle: NodeJS.Timeout | undefined;
  let [jobs, warming] = [0, Promise.resolve()];
  serveCalls<DetectJob, DetectReply, DetectProgress, 'warm-up'>({
    // Started ahead of documents (detect.ts): the warm-up reads until the first one comes.
    note() {
      warming = warmUp(
        (bytes, job, afterPage) => analyse(bytes, job, engine, { opened() {}, page: afterPage }),
        () => jobs > 0,
      );
    },
    async call(job, progress) {
      jobs += 1;
      clearTimeout(idle);
      await warming;
      let reply: DetectReply;
      try {
        const told: AnalysisProgress = {
          opened: (head) => progress({ type: 'opened', ...head }),
          page: (done) => progress({ type: 'page', done }),
        };
        reply = { ok: true, analysis: await analyse(job.bytes, job, engine, told) };
      } catch (err) {
        reply = { ok: false, message: describe(err) };
      }
      // What OCR took stays with its workers (tesseract's memory only grows): a large reading is given
      // back before answering, so the next document starts with room; otherwise the workers are kept
      // for the next scan a little while, then stopped.
      const heavy = process.memoryUsage.rss() / 2 ** 20 > TRIM_MB;
      if (engine.loaded && heavy) await engine.close();
      // A last scanned page cut short stopped its workers: they start again, unawaited, for the document asked again.
      const retry = reply.ok ? reply.analysis.retryLanguage : undefined;
      if (retry && !engine.loaded && !heavy) engine.start(retry);
      if (engine.loaded) {
        // Jobs are answered one after the other: the next one clears this before it starts.
        idle = setTimeout(() => void engine.close(), WORKERS_IDLE_MS);
        idle.unref();
      }
      return reply;
    },
    // The server went away: nothing is left to answer to.
    disconnected() {
      void engine.close().finally(() => process.exit(0));
      setTimeout(() => process.exit(0), 1000).unref();
    },
  });
}

function describe(err: unknown): string {
  const name = err instanceof Error ? err.name : '';
  if (name === 'InvalidPDFException') return 'the document could not be read as a PDF';
  if (name === 'PasswordException') return 'the document is encrypted';
  return 'the document could not be analysed';
}
