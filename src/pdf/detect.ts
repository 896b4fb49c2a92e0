/**
 * Field detection in a child process. Untrusted PDFs are read by pdf.js and OCRed by tesseract.js in
 * detect-child.ts, never in the server's own process: each job has a wall-clock limit and the child a
 * memory limit (its resident set, tesseract's workers included, checked while a job runs, plus a V8
 * heap cap). A child that exceeds either, crashes or is killed fails its job and is replaced for the
 * next one. Before the wall-clock limit the child answers with the pages it has read (a partial result).
 * One job runs at a time; the child and its loaded OCR languages are kept between jobs, unless the job
 * left it large or abandoned work in it, and stopped after a while without work. The child that follows
 * a replaced one, and the first one when a document is expected (`warm`), start ahead and warm up.
 */
import { createSupervisedWorker, WorkerFailure, type SupervisedWorker } from '../platform/supervised-worker.js';
import { assemble, type Analysis, type PageDone } from './detect/analysis.js';
import { DETECT_ENTRY, type DetectJob, type DetectProgress, type DetectReply } from './detect-messages.js';
import { availableLanguages, type OcrLanguage } from './detect/ocr-languages.js';

export { residentMb } from '../platform/supervised-worker.js';
export type { Analysis } from './detect/analysis.js';
export type { OcrLanguage } from './detect/ocr-languages.js';

export type DetectOutcome =
  /** `partial`: the time limit stopped the analysis; `analysis` holds the pages read by then. */
  { ok: true; analysis: Analysis; partial?: boolean } | { ok: false; reason: 'timeout' | 'memory' | 'crashed' | 'unreadable' | 'busy'; message: string };

export interface FieldDetectorOptions {
  /** Where tesseract.js may cache unpacked language models (in the data directory). */
  cacheDir: string;
  /** Wall-clock limit of one analysis. */
  timeoutMs?: number;
  /** Resident memory limit of the child process, in MB. */
  maxMemoryMb?: number;
  /** Pages analysed at most; `pageCount` still reports them all. */
  maxPages?: number;
  /** OCR scanned pages (the language data ships with paraph, so it is on unless turned off here). */
  ocr?: boolean;
  /** Jobs waiting beyond the running one before new ones are refused. */
  maxQueue?: number;
  /** The child is stopped after this long without work. */
  idleMs?: number;
  /** The child is replaced after a job that leaves it using more than this many MB (default: half the limit). */
  recycleMb?: number;
  /** A scanned page's own time limit (DetectJob.pageMs); undefined: the child's default, 2.5 s. */
  pageMs?: number;
}

export interface FieldDetector {
  detect(bytes: Uint8Array, hints?: { languages?: OcrLanguage[] }): Promise<DetectOutcome>;
  /**
   * A document is likely to come (a request made without fields): the child starts now if none runs, and reads a small
   * document of its own while none waits (detect/warm-up.ts), so that the first document does not wait for it.
   */
  warm(): void;
  /** The child's pid while it runs (for operators and tests), else undefined. */
  readonly pid: number | undefined;
  /** True while a job is running. */
  readonly busy: boolean;
  /** Whether scanned pages are OCRed: on, and the language data installed. */
  readonly ocrStatus: 'enabled' | 'disabled';
  close(): Promise<void>;
}

/** The options with their defaults; a page's limit stays the child's own unless one is given. */
type Settings = Required<Omit<FieldDetectorOptions, 'pageMs'>> & Pick<FieldDetectorOptions, 'pageMs'>;

/** A document larger than this is read by a child that is replaced after it (as inspection does). */
const RECYCLE_BYTES = 2 * 1024 * 1024;

export function createFieldDetector(options: FieldDetectorOptions): FieldDetector {
  const settings: Settings = {
    cacheDir: options.cacheDir,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxMemoryMb: options.maxMemoryMb ?? 1536,
    maxPages: options.maxPages ?? 200,
    ocr: options.ocr ?? true,
    maxQueue: options.maxQueue ?? 8,
    idleMs: options.idleMs ?? 120_000,
    recycleMb: options.recycleMb ?? (options.maxMemoryMb ?? 1536) / 2,
    pageMs: options.pageMs,
  };
  if (!(settings.timeoutMs > 0 && settings.timeoutMs <= 2 ** 31 - 1)) throw new RangeError('timeoutMs must be between 1 and 2147483647');
  if (!(settings.maxMemoryMb >= 128)) throw new RangeError('maxMemoryMb must be at least 128');
  if (settings.pageMs !== undefined && !(settings.pageMs > 0)) throw new RangeError('pageMs must be positive');
  return new ChildDetector(settings);
}

/** What the child has told about the running job: the page count, then the pages read. */
interface Told {
  head?: { pageCount: number; ocrStatus: Analysis['ocrStatus'] };
  pages: Map<number, PageDone>;
}

class ChildDetector implements FieldDetector {
  readonly #s: Settings;
  readonly #worker: SupervisedWorker<DetectJob, DetectReply, DetectProgress, 'warm-up'>;

  constructor(settings: Settings) {
    this.#s = settings;
    this.#worker = createSupervisedWorker({
      kind: 'process',
      entry: DETECT_ENTRY,
      args: [settings.cacheDir],
      timeoutMs: settings.timeoutMs,
      heapMb: Math.max(96, Math.floor(settings.maxMemoryMb / 2)),
      maxRssMb: settings.maxMemoryMb,
      // Work abandoned at the deadline may still be running, and memory taken by a large document
      // (tesseract's buffers only grow; pdf.js keeps what a document of many objects made, 300 MB for
      // 60,000 annotations) would count against the next one: start afresh.
      replaceAfter: (_job, reply, rss) => (reply?.ok === true && reply.analysis.abandoned === true) || (rss() ?? 0) > settings.recycleMb,
      // A large document is known to be the child's last from its size: the next child starts while it is read.
      successorFor: (job) => job.bytes.byteLength > RECYCLE_BYTES,
      // The next child loads, and reads a small document of its own, while no document waits: a document after a
      // replaced child is not slower for it (detect/warm-up.ts).
      startAhead: true,
      warmUp: 'warm-up',
      idleMs: settings.idleMs,
      words: { task: 'the analysis', worker: 'the analysis process' },
    });
  }

  get pid(): number | undefined {
    return this.#worker.pid;
  }

  get busy(): boolean {
    return this.#worker.busy;
  }

  get ocrStatus(): 'enabled' | 'disabled' {
    return this.#s.ocr && availableLanguages().length > 0 ? 'enabled' : 'disabled';
  }

  async detect(bytes: Uint8Array, hints: { languages?: OcrLanguage[] } = {}): Promise<DetectOutcome> {
    if (this.#worker.closed) throw new Error('field detector is closed');
    if (this.#worker.waiting >= this.#s.maxQueue) return { ok: false, reason: 'busy', message: 'too many field detections are waiting' };
    const job: DetectJob = {
      bytes: new Uint8Array(bytes),
      maxPages: this.#s.maxPages,
      ocr: this.#s.ocr,
      languages: hints.languages ?? [],
      // The child answers with what it has read by then, leaving time to apply the rules and answer
      // before the hard limit.
      deadlineMs: Math.max(0, this.#s.timeoutMs - Math.min(5000, this.#s.timeoutMs / 5)),
      ...(this.#s.pageMs === undefined ? {} : { pageMs: this.#s.pageMs }),
      // (Behind another document, the wait is that document's, not this one's pages'.)
      ...(this.#worker.busy || this.#worker.waiting > 0 ? {} : { askedAt: Date.now() }),
    };
    const told: Told = { pages: new Map() };
    const onProgress = (progress: DetectProgress) => {
      if (progress.type === 'opened') told.head = { pageCount: progress.pageCount, ocrStatus: progress.ocrStatus };
      else told.pages.set(progress.done.page.page, progress.done);
    };
    try {
      const reply = await this.#worker.call(job, { onProgress });
      if (!reply.ok) return { ok: false, reason: 'unreadable', message: reply.message };
      const abandoned = reply.analysis.abandoned === true;
      // Stopped at its deadline before any page was read (stuck in the first one): nothing to answer with.
      if (abandoned && reply.analysis.pages.length === 0) {
        const failure = this.#worker.failure('timeout');
        failure.elapsedMs = reply.analysis.stats.extractionMs;
        return this.#timedOut(failure, told);
      }
      return { ok: true, analysis: reply.analysis, partial: abandoned || reply.analysis.cut === true };
    } catch (error) {
      if (!(error instanceof WorkerFailure)) throw error;
      return this.#failed(error, told);
    }
  }

  warm(): void {
    this.#worker.prestart();
  }

  close(): Promise<void> {
    return this.#worker.close();
  }

  #failed(failure: WorkerFailure, told: Told): DetectOutcome {
    if (failure.kind === 'timeout') return this.#timedOut(failure, told);
    return { ok: false, reason: failure.kind === 'memory' ? 'memory' : 'crashed', message: failure.message };
  }

  /**
   * The running job at the time limit: the pages the child has read make a partial result (the child
   * normally answers with them itself before the limit; this is for a child stuck inside one page);
   * with none, the job fails.
   */
  #timedOut(failure: WorkerFailure, told: Told): DetectOutcome {
    if (told.head && told.pages.size > 0) {
      return { ok: true, partial: true, analysis: assemble(told.head, told.pages.values(), { extractionMs: failure.elapsedMs, detectionMs: 0 }, true) };
    }
    return { ok: false, reason: 'timeout', message: failure.message };
  }
}
