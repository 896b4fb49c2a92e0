/**
 * The messages between a supervised worker (src/platform/supervised-worker.ts) and the entry module it
 * runs (src/platform/worker-entry.ts). Calls carry a number the answer repeats; notes get no answer.
 */

/**
 * Supervisor → worker. `bulk`: the call's bytes come through the child's bulk pipe, not in the
 * message; the worker puts them in `request[field]`. `stop` (worker threads): end once the call being
 * answered is done, rather than be terminated in the middle of it.
 */
export type ToWorker<Request, Note> = { call: number; request: Request; bulk?: { field: string; length: number } } | { note: Note } | { stop: true };

/** Worker → supervisor: `ready` once loaded, then for each call its progress and one answer. */
export type FromWorker<Reply, Progress> =
  | { ready: true }
  | { call: number; progress: Progress }
  | { call: number; reply: Reply }
  /** The call threw in the worker, which goes on serving. */
  | { call: number; error: string };

/**
 * The first argument of a worker started by a supervisor: `paraph-worker:<entry>`. An entry module
 * serves only when it finds its own name there, so importing it (a test, a bench, the bundle) starts nothing.
 */
export function workerMark(entry: string | URL): string {
  return `paraph-worker:${entry instanceof URL ? entry.href : entry}`;
}
