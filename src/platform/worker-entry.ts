/**
 * The worker side of a supervised worker (src/platform/supervised-worker.ts): an entry module calls
 * `workerArguments` with its own name and, only when it runs as that worker, `serveCalls`. Works the
 * same in a child process (IPC) and in a worker thread (its parent port).
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createBulkReader, type BulkReader } from './bulk-reader.js';
import { workerMark, type FromWorker, type ToWorker } from './worker-protocol.js';

export interface WorkerHandlers<Request, Reply, Progress = never, Note = never> {
  /** Answers one call; calls are answered one after the other, in the order they came. */
  call(request: Request, progress: (progress: Progress) => void): Promise<Reply> | Reply;
  /** A message that needs no answer; handled as it comes, between or during calls. */
  note?(note: Note): void;
  /** Buffers of the answer moved to the supervisor instead of copied (worker threads). */
  transfer?(reply: Reply): ArrayBuffer[];
  /** A child process whose supervisor went away (default: exit at once). */
  disconnected?(): void;
}

/**
 * The arguments the supervisor started this process or thread with as `entry` (e.g. `pdf/inspect-child`,
 * or the module's own URL), or undefined when it is not that worker: the module was imported by something else.
 */
export function workerArguments(entry: string | URL): string[] | undefined {
  const argv: unknown = isMainThread ? (process.send ? process.argv.slice(2) : undefined) : (workerData as { argv?: unknown } | null)?.argv;
  if (!Array.isArray(argv) || argv[0] !== workerMark(entry)) return undefined;
  return argv.slice(1).map(String);
}

/** Serves the supervisor's calls and notes, and tells it this worker is ready. */
export function serveCalls<Request, Reply, Progress = never, Note = never>(handlers: WorkerHandlers<Request, Reply, Progress, Note>): void {
  const port = parentPort;
  const send = process.send?.bind(process);
  const post = (message: FromWorker<Reply, Progress>, transfer?: ArrayBuffer[]) => {
    if (port) port.postMessage(message, transfer);
    else send?.(message);
  };
  let answering = Promise.resolve();
  let bulkReader: BulkReader | undefined;
  const receive = (message: ToWorker<Request, Note>) => {
    if ('note' in message) return void handlers.note?.(message.note);
    // A thread asked to stop ends once its calls are answered: its loop empties when the port closes.
    if ('stop' in message) return void answering.then(() => port?.close());
    const { call, bulk } = message;
    // Taken now, in the order the calls came: the pipe brings their bytes in that order.
    const bytes = bulk ? (bulkReader ??= createBulkReader(process.stdin)).take(bulk.length) : undefined;
    answering = answering.then(async () => {
      let reply: Reply;
      try {
        const request = bulk && bytes ? ({ ...message.request, [bulk.field]: await bytes } as Request) : message.request;
        reply = await handlers.call(request, (progress) => post({ call, progress }));
      } catch (error) {
        return post({ call, error: error instanceof Error ? error.message : String(error) });
      }
      post({ call, reply }, port ? handlers.transfer?.(reply) : undefined);
    });
  };
  if (port) {
    port.on('message', receive);
  } else {
    process.on('message', receive);
    // The supervisor went away: nothing is left to answer to.
    process.on('disconnect', handlers.disconnected ?? (() => process.exit(0)));
  }
  post({ ready: true });
}
