import { Buffer } from 'node:buffer';
import { ProcessShared } from '../platform/process-shared.js';
import { createSupervisedWorker, WorkerFailure, type SupervisedWorker } from '../platform/supervised-worker.js';
import { INSPECT_ENTRY, type InspectRequest, type PdfInspection } from './inspect-messages.js';

export type { PdfInspection } from './inspect-messages.js';

/** `inspect` reads `bytes` until it answers: they must not change meanwhile. */
export interface PdfInspector {
  inspect(bytes: Uint8Array): Promise<PdfInspection>;
  close(): Promise<void>;
}

const HEADER_WINDOW = 1024;
const EOF_WINDOW = 2048;

/**
 * A child that has read a document this large (or with this many pages) is replaced afterwards, so that
 * what its heap grew to is not kept while it waits for the next upload.
 */
const RECYCLE_BYTES = 2 * 1024 * 1024;
const RECYCLE_PAGES = 1000;

/**
 * The next document is sent to the child while it reads one: sending it (through the bulk pipe) overlaps
 * with reading. Only documents under RECYCLE_BYTES are sent ahead, so a large one never waits inside a
 * child that is about to be replaced, and none is sent beside a large one.
 */
const sendAhead = (request: InspectRequest) => request.bytes.byteLength <= RECYCLE_BYTES;

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
    // The document goes through the child's bulk pipe: serialized into the IPC message, it was copied
    // twice in the server (an 8 MiB upload held three times over while it was sent).
    encode: (request) => ({ request: {}, bulk: { field: 'bytes', bytes: request.bytes } }),
    sendAhead,
    replaceAfter: (request, result) => result !== undefined && (request.bytes.byteLength > RECYCLE_BYTES || (result.ok && result.pageCount > RECYCLE_PAGES)),
    words: { task: 'reading it', worker: 'the reader' },
  });
  return {
    inspect(bytes) {
      if (worker.closed) return Promise.reject(new Error('PDF inspector is closed'));
      const early = precheck(bytes);
      if (early) return Promise.resolve(early);
      // No copy of a document that may weigh megabytes: the caller leaves `bytes` unchanged until the answer.
      return worker.call({ bytes }).catch((error: unknown) => {
        // A reader that cannot start, or was closed, says nothing about the document.
        if (!(error instanceof WorkerFailure) || error.kind === 'start' || error.kind === 'closed') throw error;
        return tooComplex(error.message);
      });
    },
    close: () => worker.close(),
  };
}

const shared = new ProcessShared(() => createPdfInspector());

/**
 * A server's share of the process's one PDF reader with the default budgets (ProcessShared, for
 * startParaph's `shareWorkers`): `close()` lets go of it, and fails this holder's readings still unanswered.
 */
export function holdPdfInspector(): PdfInspector {
  const hold = shared.hold(() => new Error('PDF inspector is closed'));
  return {
    inspect: (bytes) => hold.run((inspector) => inspector.inspect(bytes)),
    close: async () => hold.release(),
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
