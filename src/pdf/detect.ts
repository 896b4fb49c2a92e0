/**
 * Field detection in a child process. Untrusted PDFs are read by pdf.js and OCRed by tesseract.js in
 * detect-child.ts, never in the server's own process: each job has a wall-clock limit and the child a
 * memory limit (its resident set, tesseract's workers included, checked while a job runs, plus a V8
 * heap cap). A child that exceeds either, crashes or is killed fails its job and is replaced for the
 * next one. Before the wall-clock limit the child answers with the pages it has read (a partial result).
 * One job runs at a time; the child and its loaded OCR languages are kept between jobs, unless the job
 * left it large or abandoned work in it, and stopped after a while without work.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { forkPdfChild, stopChild } from './child-process.js';
import { assemble, type Analysis, type PageDone } from './detect/analysis.js';
import type { ChildReply, DetectJob } from './detect-child.js';
import { availableLanguages, type OcrLanguage } from './detect/ocr-languages.js';

export type { Analysis } from './detect/analysis.js';
export type { OcrLanguage } from './detect/ocr-languages.js';

export type DetectOutcome =
  /** `partial`: the time limit stopped the analysis; `analysis` holds the pages read by then. */
  | { ok: true; analysis: Analysis; partial?: boolean }
  | { ok: false; reason: 'timeout' | 'memory' | 'crashed' | 'unreadable' | 'busy'; message: string };

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
}

export interface FieldDetector {
  detect(bytes: Uint8Array, hints?: { languages?: OcrLanguage[] }): Promise<DetectOutcome>;
  /** The child's pid while it runs (for operators and tests), else undefined. */
  readonly pid: number | undefined;
  /** True while a job is running. */
  readonly busy: boolean;
  /** Whether scanned pages are OCRed: on, and the language data installed. */
  readonly ocrStatus: 'enabled' | 'disabled';
  close(): Promise<void>;
}

const MEMORY_POLL_MS = 100;

export function createFieldDetector(options: FieldDetectorOptions): FieldDetector {
  const settings = {
    cacheDir: options.cacheDir,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxMemoryMb: options.maxMemoryMb ?? 1536,
    maxPages: options.maxPages ?? 200,
    ocr: options.ocr ?? true,
    maxQueue: options.maxQueue ?? 8,
    idleMs: options.idleMs ?? 120_000,
    recycleMb: options.recycleMb ?? (options.maxMemoryMb ?? 1536) / 2,
  };
  if (!(settings.timeoutMs > 0 && settings.timeoutMs <= 2 ** 31 - 1)) throw new RangeError('timeoutMs must be between 1 and 2147483647');
  if (!(settings.maxMemoryMb >= 128)) throw new RangeError('maxMemoryMb must be at least 128');
  return new ChildDetector(settings);
}

interface Job {
  id: number;
  bytes: Uint8Array;
  languages: OcrLanguage[];
  resolve(outcome: DetectOutcome): void;
}
interface Running {
  job: Job;
  timer: NodeJS.Timeout;
  poll: NodeJS.Timeout | undefined;
  child: ChildProcess;
  started: number;
  /** What the child has told so far: the page count, then the pages read. */
  head?: { pageCount: number; ocrStatus: Analysis['ocrStatus'] };
  pages: Map<number, PageDone>;
}

class ChildDetector implements FieldDetector {
  readonly #s: Required<FieldDetectorOptions>;
  #child: ChildProcess | undefined;
  #ready = false;
  #queue: Job[] = [];
  #running: Running | undefined;
  #nextId = 1;
  #closed = false;
  #idle: NodeJS.Timeout | undefined;

  constructor(settings: Required<FieldDetectorOptions>) {
    this.#s = settings;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get busy(): boolean {
    return this.#running !== undefined;
  }

  get ocrStatus(): 'enabled' | 'disabled' {
    return this.#s.ocr && availableLanguages().length > 0 ? 'enabled' : 'disabled';
  }

  detect(bytes: Uint8Array, hints: { languages?: OcrLanguage[] } = {}): Promise<DetectOutcome> {
    if (this.#closed) return Promise.reject(new Error('field detector is closed'));
    if (this.#queue.length >= this.#s.maxQueue) {
      return Promise.resolve({ ok: false, reason: 'busy', message: 'too many field detections are waiting' });
    }
    return new Promise((resolve) => {
      this.#queue.push({ id: this.#nextId++, bytes: new Uint8Array(bytes), languages: hints.languages ?? [], resolve });
      this.#pump();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#idle);
    const closed: DetectOutcome = { ok: false, reason: 'crashed', message: 'the field detector was stopped' };
    this.#finish(closed);
    for (const job of this.#queue.splice(0)) job.resolve(closed);
    const child = this.#child;
    this.#child = undefined;
    if (child) await stopChild(child);
  }

  #pump(): void {
    if (this.#closed || this.#running) return;
    const job = this.#queue[0];
    if (!job) return this.#rest();
    clearTimeout(this.#idle);
    let child = this.#child;
    if (!child) {
      try {
        child = this.#spawn();
      } catch (err) {
        this.#queue.shift();
        job.resolve({ ok: false, reason: 'crashed', message: `the analysis process could not start (${String(err)})` });
        return this.#pump();
      }
    }
    child.ref();
    child.channel?.ref();
    if (!this.#ready) return;
    this.#queue.shift();
    const running: Running = {
      job,
      child,
      started: performance.now(),
      pages: new Map(),
      timer: setTimeout(() => this.#kill(child, this.#timedOut()), this.#s.timeoutMs),
      poll: watchMemory(child.pid, this.#s.maxMemoryMb, () =>
        this.#kill(child, { ok: false, reason: 'memory', message: `the analysis needed more than ${this.#s.maxMemoryMb} MB of memory` }),
      ),
    };
    this.#running = running;
    const message: DetectJob = {
      id: job.id,
      bytes: job.bytes,
      maxPages: this.#s.maxPages,
      ocr: this.#s.ocr,
      languages: job.languages,
      // The child answers with what it has read by then, leaving time to apply the rules and answer
      // before the hard limit.
      deadlineMs: Math.max(0, this.#s.timeoutMs - Math.min(5000, this.#s.timeoutMs / 5)),
    };
    child.send(message, (err) => {
      if (err) this.#kill(child, { ok: false, reason: 'crashed', message: 'the analysis process did not take the document' });
    });
  }

  #spawn(): ChildProcess {
    const child = forkPdfChild('detect-child', [this.#s.cacheDir], Math.max(96, Math.floor(this.#s.maxMemoryMb / 2)));
    this.#child = child;
    this.#ready = false;
    child.on('message', (reply: ChildReply) => {
      if (this.#child !== child) return;
      const running = this.#running;
      if (reply.type === 'ready') {
        this.#ready = true;
      } else if (running?.job.id !== reply.id) {
        // A late word about a job already answered.
      } else if (reply.type === 'opened') {
        running.head = { pageCount: reply.pageCount, ocrStatus: reply.ocrStatus };
        return;
      } else if (reply.type === 'page') {
        running.pages.set(reply.done.page.page, reply.done);
        return;
      } else {
        const abandoned = reply.ok && reply.analysis.abandoned;
        this.#finish(reply.ok ? { ok: true, analysis: reply.analysis, partial: abandoned } : { ok: false, reason: 'unreadable', message: reply.message });
        // Work abandoned at the deadline may still be running, and memory taken by a large document
        // (tesseract's buffers only grow) would count against the next one: start afresh.
        const rss = child.pid === undefined ? undefined : residentMb(child.pid);
        if (abandoned || (rss !== undefined && rss > this.#s.recycleMb)) this.#retire(child);
      }
      this.#pump();
    });
    child.on('error', () => {
      if (this.#child === child) this.#kill(child, { ok: false, reason: 'crashed', message: 'the analysis process failed' });
    });
    child.on('exit', (code, signal) => {
      if (this.#child !== child) return;
      const started = this.#ready;
      this.#child = undefined;
      this.#ready = false;
      const why = signal ? `was killed (${signal})` : `exited with code ${code}`;
      const outcome: DetectOutcome = { ok: false, reason: 'crashed', message: `the analysis process ${why}` };
      this.#finish(outcome);
      // A child that cannot even start would fail every job the same way: no respawning in a loop.
      if (!started) for (const job of this.#queue.splice(0)) job.resolve(outcome);
      this.#pump();
    });
    return child;
  }

  #finish(outcome: DetectOutcome): void {
    const running = this.#running;
    if (!running) return;
    this.#running = undefined;
    clearTimeout(running.timer);
    clearInterval(running.poll);
    running.job.resolve(outcome);
  }

  /** Fails the running job with `outcome` and replaces the child for the next one. */
  #kill(child: ChildProcess, outcome: DetectOutcome): void {
    this.#retire(child);
    this.#finish(outcome);
    this.#pump();
  }

  /**
   * The running job at the time limit: the pages the child has read make a partial result (the child
   * normally answers with them itself before the limit; this is for a child stuck inside one page);
   * with none, the job fails.
   */
  #timedOut(): DetectOutcome {
    const running = this.#running;
    if (running?.head && running.pages.size > 0) {
      const elapsed = performance.now() - running.started;
      return { ok: true, partial: true, analysis: assemble(running.head, running.pages.values(), { extractionMs: elapsed, detectionMs: 0 }, true) };
    }
    return { ok: false, reason: 'timeout', message: `the analysis took longer than ${this.#s.timeoutMs / 1000} s` };
  }

  /** Stops a child between jobs; the next job starts a new one. */
  #retire(child: ChildProcess): void {
    if (this.#child === child) {
      this.#child = undefined;
      this.#ready = false;
    }
    child.kill('SIGKILL');
  }

  /** Nothing to do: the child must not keep the server alive, and goes after a while. */
  #rest(): void {
    const child = this.#child;
    if (!child) return;
    child.unref();
    child.channel?.unref();
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#child === child && !this.#running) this.#retire(child);
    }, this.#s.idleMs);
    this.#idle.unref();
  }
}

/** Polls the child's resident set (Linux /proc); elsewhere only the V8 heap cap applies. */
function watchMemory(pid: number | undefined, maxMb: number, onExceeded: () => void): NodeJS.Timeout | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  const timer = setInterval(() => {
    const rss = residentMb(pid);
    if (rss !== undefined && rss > maxMb) onExceeded();
  }, MEMORY_POLL_MS);
  timer.unref();
  return timer;
}

export function residentMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}
