import { Buffer } from 'node:buffer';
import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './inspect-worker.js';
import { transferList } from './transfer.js';

export interface PdfPage { width: number; height: number; rotation: 0 | 90 | 180 | 270 }
export type PdfInspection =
  | { ok: true; pageCount: number; pages: PdfPage[] }
  | { ok: false; reason: 'not_pdf' | 'incomplete' | 'encrypted' | 'unreadable' | 'no_pages' | 'too_complex'; message: string };
export interface PdfInspector { inspect(bytes: Uint8Array): Promise<PdfInspection>; close(): Promise<void> }

const HEADER_WINDOW = 1024;
const EOF_WINDOW = 2048;

export function createPdfInspector(options: { timeoutMs?: number; maxMemoryMb?: number } = {}): PdfInspector {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxMemoryMb = options.maxMemoryMb ?? 256;
  // setTimeout treats anything above 2^31 - 1 ms as 1 ms.
  if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) throw new RangeError('timeoutMs must be between 1 and 2147483647');
  if (!(maxMemoryMb > 0 && Number.isFinite(maxMemoryMb))) throw new RangeError('maxMemoryMb must be a positive number');
  return new WorkerInspector(timeoutMs, maxMemoryMb);
}

// Cheap checks on the raw bytes, so junk and truncated uploads never reach the worker.
function precheck(bytes: Uint8Array): PdfInspection | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.subarray(0, HEADER_WINDOW).indexOf('%PDF-') === -1) {
    return { ok: false, reason: 'not_pdf', message: 'document is not a PDF (missing %PDF- header)' };
  }
  if (buf.subarray(-EOF_WINDOW).indexOf('%%EOF') === -1) {
    return {
      ok: false,
      reason: 'incomplete',
      message: 'document is incomplete (no %%EOF marker at the end; the upload may have been truncated)',
    };
  }
  return undefined;
}

interface Job { bytes: Uint8Array<ArrayBuffer>; resolve(result: PdfInspection): void; reject(err: Error): void }
interface Running { id: number; job: Job; timer: NodeJS.Timeout; size: number }

/**
 * A worker that has read a document this large (or with this many pages) is replaced afterwards: what
 * its heap grew to would otherwise stay with the server for good.
 */
const RECYCLE_BYTES = 2 * 1024 * 1024;
const RECYCLE_PAGES = 1000;

class WorkerInspector implements PdfInspector {
  #worker: Worker | undefined;
  #ready = false;
  #queue: Job[] = [];
  #running: Running | undefined;
  #nextId = 1;
  #closed = false;
  readonly #timeoutMs: number;
  readonly #maxMemoryMb: number;

  constructor(timeoutMs: number, maxMemoryMb: number) {
    this.#timeoutMs = timeoutMs;
    this.#maxMemoryMb = maxMemoryMb;
  }

  inspect(bytes: Uint8Array): Promise<PdfInspection> {
    if (this.#closed) return Promise.reject(new Error('PDF inspector is closed'));
    const early = precheck(bytes);
    if (early) return Promise.resolve(early);
    // A private copy is what gets transferred: the caller's buffer stays
    // attached, and later writes to it cannot change what is inspected.
    const copy = new Uint8Array(bytes);
    return new Promise((resolve, reject) => {
      this.#queue.push({ bytes: copy, resolve, reject });
      this.#pump();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    const err = new Error('PDF inspector was closed');
    if (this.#running) {
      clearTimeout(this.#running.timer);
      this.#running.job.reject(err);
      this.#running = undefined;
    }
    for (const job of this.#queue.splice(0)) job.reject(err);
    if (worker) await worker.terminate();
  }

  #pump(): void {
    if (this.#closed || this.#running) return;
    const job = this.#queue[0];
    // An idle worker must not keep the process alive.
    if (!job) return void this.#worker?.unref();
    let worker = this.#worker;
    try {
      worker ??= this.#spawn();
    } catch (err) {
      return this.#failStart(undefined, err instanceof Error ? err : new Error(String(err)));
    }
    worker.ref();
    if (!this.#ready) return;
    this.#queue.shift();
    const id = this.#nextId++;
    const timer = setTimeout(() => this.#abandon(worker, tooComplex(`reading it took longer than ${duration(this.#timeoutMs)}`)), this.#timeoutMs);
    this.#running = { id, job, timer, size: job.bytes.byteLength };
    worker.postMessage({ id, bytes: job.bytes } satisfies WorkerRequest, transferList(job.bytes));
  }

  #spawn(): Worker {
    const worker = startWorker(this.#maxMemoryMb);
    this.#worker = worker;
    this.#ready = false;
    worker.on('message', (reply: WorkerReply) => {
      if (this.#worker !== worker) return;
      if (reply.type === 'ready') {
        this.#ready = true;
      } else if (this.#running?.id === reply.id) {
        const { timer, job, size } = this.#running;
        clearTimeout(timer);
        job.resolve(reply.result);
        this.#running = undefined;
        if (size > RECYCLE_BYTES || (reply.result.ok && reply.result.pageCount > RECYCLE_PAGES)) {
          this.#worker = undefined;
          this.#ready = false;
          void worker.terminate();
        }
      }
      this.#pump();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (this.#worker !== worker) return;
      if (!this.#ready) return this.#failStart(worker, err);
      const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.#abandon(worker, tooComplex(memory ? `it needs more than ${this.#maxMemoryMb} MB of memory` : 'the reader crashed'));
    });
    worker.on('exit', (code) => {
      if (this.#worker !== worker) return;
      if (!this.#ready) return this.#failStart(worker, new Error(`PDF inspector worker exited with code ${code} while starting`));
      this.#abandon(worker, tooComplex('the reader stopped'));
    });
    return worker;
  }

  // Drops a worker that timed out or crashed; the next job starts a fresh one.
  #abandon(worker: Worker, result: PdfInspection): void {
    this.#worker = undefined;
    this.#ready = false;
    void worker.terminate();
    const running = this.#running;
    this.#running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.job.resolve(result);
    }
    this.#pump();
  }

  // A worker that cannot even start would fail every job the same way: give
  // up on the queued ones rather than respawning in a loop.
  #failStart(worker: Worker | undefined, err: Error): void {
    this.#worker = undefined;
    this.#ready = false;
    void worker?.terminate();
    for (const job of this.#queue.splice(0)) job.reject(err);
  }
}

function tooComplex(why: string): PdfInspection {
  return { ok: false, reason: 'too_complex', message: `document is too complex to inspect (${why})` };
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

// From the sources under tsx this module is inspect.ts and its worker is
// inspect-worker.ts; compiled, both are .js files side by side in dist/.
function startWorker(maxMemoryMb: number): Worker {
  const self = new URL(import.meta.url);
  const fromSource = self.pathname.endsWith('.ts');
  const entry = new URL(fromSource ? './inspect-worker.ts' : './inspect-worker.js', self);
  // A small young generation: the worker runs in the server's process, and the memory its heap grows to
  // stays with the process after the worker is gone (a 50,000-page tree: +90 MB instead of +220 MB).
  const resourceLimits = { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: 16 };
  // The worker needs none of the parent's flags, and some break it: with
  // --input-type (`node --input-type=module -e ...`) it cannot load its file.
  const options = { resourceLimits, execArgv: [] };
  if (!fromSource) return new Worker(entry, options);
  // Node 20 does not apply the parent's --import tsx hooks to a worker's entry
  // module (22 and later do), so the worker registers tsx itself first.
  let tsx: string;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    // Some other TypeScript loader: hope the worker inherits it.
    return new Worker(entry, { resourceLimits });
  }
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
