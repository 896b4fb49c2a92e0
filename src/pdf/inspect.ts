import { Buffer } from 'node:buffer';
import type { ChildProcess } from 'node:child_process';
import { forkPdfChild, stopChild } from './child-process.js';
import type { InspectReply, InspectRequest } from './inspect-child.js';

export interface PdfPage { width: number; height: number; rotation: 0 | 90 | 180 | 270 }
export type PdfInspection =
  /**
   * `decrypted`: the upload was encrypted with an empty user password (it opens without one); this is
   * its decrypted re-saved copy, the document to keep instead of the upload.
   */
  | { ok: true; pageCount: number; pages: PdfPage[]; decrypted?: Uint8Array }
  | { ok: false; reason: 'not_pdf' | 'incomplete' | 'encrypted' | 'unreadable' | 'no_pages' | 'too_complex'; message: string };
/** `inspect` reads `bytes` until it answers: they must not change meanwhile. */
export interface PdfInspector { inspect(bytes: Uint8Array): Promise<PdfInspection>; close(): Promise<void> }

const HEADER_WINDOW = 1024;
const EOF_WINDOW = 2048;

export function createPdfInspector(options: { timeoutMs?: number; maxMemoryMb?: number } = {}): PdfInspector {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxMemoryMb = options.maxMemoryMb ?? 256;
  // setTimeout treats anything above 2^31 - 1 ms as 1 ms.
  if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) throw new RangeError('timeoutMs must be between 1 and 2147483647');
  if (!(maxMemoryMb > 0 && Number.isFinite(maxMemoryMb))) throw new RangeError('maxMemoryMb must be a positive number');
  return new ChildInspector(timeoutMs, maxMemoryMb);
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

interface Job { bytes: Uint8Array; resolve(result: PdfInspection): void; reject(err: Error): void }
interface Running { id: number; job: Job; timer: NodeJS.Timeout | undefined; size: number }

/**
 * A child that has read a document this large (or with this many pages) is replaced afterwards, so that
 * what its heap grew to is not kept while it waits for the next upload.
 */
const RECYCLE_BYTES = 2 * 1024 * 1024;
const RECYCLE_PAGES = 1000;

/**
 * Documents sent to the child before the one it reads is answered: sending the next one (through
 * the IPC socket, a few milliseconds for a few hundred KB) overlaps with reading this one. Only
 * documents under RECYCLE_BYTES are sent ahead, so a large one never waits inside a child that
 * is about to be replaced.
 */
const SEND_AHEAD = 2;

/**
 * Reads PDFs in a child process, one at a time, in the order they came. A child that runs past the
 * time budget, out of memory or crashes fails the job it was reading, and is replaced: the jobs sent
 * after it go to the new child. An idle child does not keep the server alive, and ends with it.
 */
class ChildInspector implements PdfInspector {
  #child: ChildProcess | undefined;
  #ready = false;
  #queue: Job[] = [];
  /** Sent to the child, in order; the first is the one it reads (and the only one with a timer). */
  #sent: Running[] = [];
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
    // No copy of a document that may weigh megabytes: the caller leaves `bytes` unchanged until the answer.
    return new Promise((resolve, reject) => {
      this.#queue.push({ bytes, resolve, reject });
      this.#pump();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const child = this.#child;
    this.#child = undefined;
    const err = new Error('PDF inspector was closed');
    for (const running of this.#sent.splice(0)) {
      clearTimeout(running.timer);
      running.job.reject(err);
    }
    for (const job of this.#queue.splice(0)) job.reject(err);
    if (child) await stopChild(child);
  }

  #pump(): void {
    if (this.#closed) return;
    const job = this.#queue[0];
    // An idle child must not keep the process alive.
    if (!job) {
      if (this.#sent.length === 0) {
        this.#child?.unref();
        this.#child?.channel?.unref();
      }
      return;
    }
    if (this.#sent.length > 0 && !this.#maySendAhead(job)) return;
    let child = this.#child;
    try {
      child ??= this.#spawn();
    } catch (err) {
      return this.#failStart(undefined, err instanceof Error ? err : new Error(String(err)));
    }
    child.ref();
    child.channel?.ref();
    if (!this.#ready) return;
    this.#queue.shift();
    const running: Running = { id: this.#nextId++, job, timer: undefined, size: job.bytes.byteLength };
    this.#sent.push(running);
    if (this.#sent.length === 1) this.#startTimer(child, running);
    child.send({ id: running.id, bytes: job.bytes } satisfies InspectRequest, (err) => {
      if (err) this.#abandon(child, tooComplex('the reader did not take the document'));
    });
    this.#pump();
  }

  #maySendAhead(next: Job): boolean {
    return this.#sent.length < SEND_AHEAD && next.bytes.byteLength <= RECYCLE_BYTES && this.#sent.every((r) => r.size <= RECYCLE_BYTES);
  }

  // The time budget runs from when the child starts reading the document, not from when it was sent.
  #startTimer(child: ChildProcess, running: Running): void {
    running.timer = setTimeout(() => this.#abandon(child, tooComplex(`reading it took longer than ${duration(this.#timeoutMs)}`)), this.#timeoutMs);
  }

  // Jobs sent to a child that is going away go back to the front of the queue, in their order.
  #requeueSent(): void {
    for (const running of this.#sent.splice(0).reverse()) {
      clearTimeout(running.timer);
      this.#queue.unshift(running.job);
    }
  }

  #spawn(): ChildProcess {
    const child = forkPdfChild('inspect-child', ['inspect'], this.#maxMemoryMb);
    this.#child = child;
    this.#ready = false;
    child.on('message', (reply: InspectReply) => {
      if (this.#child !== child) return;
      if (reply.type === 'ready') {
        this.#ready = true;
      } else if (this.#sent[0]?.id === reply.id) {
        const { timer, job, size } = this.#sent.shift() as Running;
        clearTimeout(timer);
        job.resolve(reply.result);
        if (size > RECYCLE_BYTES || (reply.result.ok && reply.result.pageCount > RECYCLE_PAGES)) {
          this.#requeueSent();
          this.#retire(child);
        } else if (this.#sent[0]) {
          this.#startTimer(child, this.#sent[0]);
        }
      }
      this.#pump();
    });
    child.on('error', (err) => {
      if (this.#child !== child) return;
      if (!this.#ready) return this.#failStart(child, err);
      this.#abandon(child, tooComplex('the reader crashed'));
    });
    child.on('exit', (code, signal) => {
      if (this.#child !== child) return;
      if (!this.#ready) return this.#failStart(child, new Error(`PDF inspector exited with ${signal ?? `code ${code}`} while starting`));
      // V8 aborts the process when the heap limit is reached.
      const memory = signal === 'SIGABRT' || code === 134;
      this.#abandon(child, tooComplex(memory ? `it needs more than ${this.#maxMemoryMb} MB of memory` : 'the reader stopped'));
    });
    return child;
  }

  /** Stops a child between jobs; the next job starts a new one. */
  #retire(child: ChildProcess): void {
    if (this.#child === child) {
      this.#child = undefined;
      this.#ready = false;
    }
    child.kill('SIGKILL');
  }

  // Drops a child that timed out or crashed; the next job starts a fresh one.
  #abandon(child: ChildProcess, result: PdfInspection): void {
    if (this.#child !== child) return;
    this.#retire(child);
    const reading = this.#sent.shift();
    if (reading) {
      clearTimeout(reading.timer);
      reading.job.resolve(result);
    }
    this.#requeueSent();
    this.#pump();
  }

  // A child that cannot even start would fail every job the same way: give
  // up on the queued ones rather than respawning in a loop.
  #failStart(child: ChildProcess | undefined, err: Error): void {
    if (child) this.#retire(child);
    for (const job of this.#queue.splice(0)) job.reject(err);
  }
}

function tooComplex(why: string): PdfInspection {
  return { ok: false, reason: 'too_complex', message: `document is too complex to inspect (${why})` };
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
