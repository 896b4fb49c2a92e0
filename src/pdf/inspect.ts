import { Buffer } from 'node:buffer';
import { createSupervisedWorker, WorkerFailure, type SupervisedWorker } from '../platform/supervised-worker.js';
import { INSPECT_ENTRY, type InspectRequest, type PdfInspection } from './inspect-messages.js';

export type { PdfInspection } from './inspect-messages.js';

/** `inspect` reads `bytes` until it answers: they must not change meanwhile. */
export interface PdfInspector { inspect(bytes: Uint8Array): Promise<PdfInspection>; close(): Promise<void> }

const HEADER_WINDOW = 1024;
const EOF_WINDOW = 2048;

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
 * Reads PDFs in a child process (inspect-child.ts), one at a time, in the order they came. A child
 * that runs past the time budget, out of memory or crashes answers the document it was reading as
 * too complex, and is replaced: the documents sent after it go to the new child. An idle child does
 * not keep the server alive, and ends with it.
 */
export function createPdfInspector(options: { timeoutMs?: number; maxMemoryMb?: number } = {}): PdfInspector {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxMemoryMb = options.maxMemoryMb ?? 256;
  // setTimeout treats anything above 2^31 - 1 ms as 1 ms.
  if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) throw new RangeError('timeoutMs must be between 1 and 2147483647');
  if (!(maxMemoryMb > 0 && Number.isFinite(maxMemoryMb))) throw new RangeError('maxMemoryMb must be a positive number');
  const worker: SupervisedWorker<InspectRequest, PdfInspection> = createSupervisedWorker({
    kind: 'process',
    entry: INSPECT_ENTRY,
    timeoutMs,
    heapMb: maxMemoryMb,
    sendAhead: SEND_AHEAD,
    // The document goes through the child's bulk pipe: serialized into the IPC message, it was copied
    // twice in the server (an 8 MiB upload held three times over while it was sent).
    bulkPipe: true,
    encode: (request) => ({ request: {}, bulk: { field: 'bytes', bytes: request.bytes } }),
    recycleAfter: (request, result) => request.bytes.byteLength > RECYCLE_BYTES || (result.ok && result.pageCount > RECYCLE_PAGES),
  });
  const failed = (failure: WorkerFailure): PdfInspection => {
    switch (failure.kind) {
      case 'timeout':
        return tooComplex(`reading it took longer than ${duration(timeoutMs)}`);
      case 'heap':
        return tooComplex(`it needs more than ${maxMemoryMb} MB of memory`);
      case 'unsent':
        return tooComplex('the reader did not take the document');
      case 'error':
        return tooComplex('the reader crashed');
      default:
        return tooComplex('the reader stopped');
    }
  };
  return {
    inspect(bytes) {
      if (worker.closed) return Promise.reject(new Error('PDF inspector is closed'));
      const early = precheck(bytes);
      if (early) return Promise.resolve(early);
      // No copy of a document that may weigh megabytes: the caller leaves `bytes` unchanged until the answer.
      return worker.call({ bytes }, { alone: bytes.byteLength > RECYCLE_BYTES }).catch((error: unknown) => {
        if (!(error instanceof WorkerFailure)) throw error;
        if (error.kind === 'closed') throw new Error('PDF inspector was closed');
        if (error.kind === 'start') throw error.cause instanceof Error ? error.cause : new Error(error.message.replace(/^the worker/, 'PDF inspector'));
        return failed(error);
      });
    },
    close: () => worker.close(),
  };
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

function tooComplex(why: string): PdfInspection {
  return { ok: false, reason: 'too_complex', message: `document is too complex to inspect (${why})` };
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
