/**
 * Why a call to a supervised worker (supervised-worker.ts) got no answer: one kind, and one message in
 * the caller's words for its work and its worker.
 */

export type WorkerFailureKind =
  /** The worker could not start, or stopped before it was ready: every waiting call gets this. */
  | 'start'
  | 'timeout'
  /** Past the resident-set budget or the heap cap. */
  | 'memory'
  /** The worker exited, was killed, failed, or did not take the call. */
  | 'crashed'
  /** The call threw in the worker, which goes on serving. */
  | 'failed'
  | 'closed';

/** Why a call got no answer: the kind, and a message in the caller's words. */
export class WorkerFailure extends Error {
  readonly kind: WorkerFailureKind;
  /** How long the worker had worked on the call. */
  elapsedMs = 0;

  constructor(kind: WorkerFailureKind, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'WorkerFailure';
    this.kind = kind;
  }
}

/**
 * The one description of a failure: `words` name the work (`reading it took longer than 10 s`) and the
 * worker (`the reader stopped (exit code 3)`); `detail` is the exit code or signal, the error, the
 * worker's message, or the budget in MB for `memory`.
 */
export function workerFailure(
  words: { task: string; worker: string },
  timeoutMs: number,
  kind: WorkerFailureKind,
  detail = '',
  cause?: unknown,
): WorkerFailure {
  const { task, worker } = words;
  const message = {
    start: `${worker} could not start (${detail})`,
    timeout: `${task} took longer than ${duration(timeoutMs)}`,
    memory: `${task} needs more than ${detail} MB of memory`,
    crashed: `${worker} stopped (${detail})`,
    failed: `${task} failed: ${detail}`,
    closed: `${worker} was closed`,
  }[kind];
  return new WorkerFailure(kind, message, cause);
}

/** `30 s`, or `2500 ms` for a budget that is not a whole number of seconds. */
function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
