/**
 * One supervisor for the code paraph keeps out of the server's own thread: a child process (its own
 * V8 and memory, killed as a whole) or a worker thread (cheaper to start, shares the process). Calls
 * queue and go to the worker in the order they came; each has a time budget from when the worker starts
 * on it, the worker a heap cap and, for a child process, a resident-set budget polled while it works. A
 * worker that runs past a budget, crashes or exits fails the call it worked on and is replaced for the
 * next one; a worker that cannot even start fails the calls waiting for it (no respawning in a loop).
 * Between calls a worker may be replaced (grown past a threshold, or as the caller says), and stopped
 * after a while without calls. An idle worker does not keep the process alive; `close()` ends it.
 *
 * The worker side is src/platform/worker-entry.ts; the messages, src/platform/worker-protocol.ts.
 */
import { performance } from 'node:perf_hooks';
import type { TransferListItem } from 'node:worker_threads';
import { residentMb, startProcess, startThread, type Handle } from './worker-handles.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

export { residentMb } from './worker-handles.js';

export interface SupervisedWorkerOptions<Request, Reply> {
  /** A child process or a worker thread. */
  kind: 'process' | 'thread';
  /** The entry module: paraph's own (`pdf/inspect-child`: dist/pdf/inspect-child.js, or its .ts source under tsx), or a file URL. */
  entry: string | URL;
  /** Given to the entry by `workerArguments`. */
  args?: string[];
  /** Time budget of one call, from when the worker starts on it (ms). */
  timeoutMs: number;
  /** The worker's V8 heap cap (MB). */
  heapMb: number;
  /** A worker thread's young generation cap (MB; default V8's). */
  youngMb?: number;
  /** A child process's resident set, polled while it works on a call (Linux): past it, the call fails and the worker is replaced. */
  maxRssMb?: number;
  /** A child process left with a resident set above this by a call is replaced before the next one. */
  recycleAboveMb?: number;
  /** A worker is replaced after a call this answers true for. */
  recycleAfter?(request: Request, reply: Reply): boolean;
  /** Calls in the worker at once: the next ones are sent while it works on the first (default 1). */
  sendAhead?: number;
  /** The worker is stopped after this long without calls (default: kept until close). */
  idleMs?: number;
  /**
   * The message a call sends, and what it moves instead of copying (default: the request, copied).
   * `bulk`: bytes that a child process started with `bulkPipe` gets through a pipe of their own,
   * written from the caller's buffer as they are (the message itself would be serialized into two
   * copies in this process); the worker finds them in `request[field]`. They must not change until
   * the call is answered.
   */
  encode?(request: Request): { request: unknown; transfer?: TransferListItem[]; bulk?: Bulk };
  /** A child process gets a pipe for the `bulk` bytes of its calls (its stdin). */
  bulkPipe?: boolean;
}

/** Bytes of a call sent beside its message (see `encode`). */
export interface Bulk {
  field: string;
  bytes: Uint8Array;
}

export interface CallOptions<Progress> {
  /** Sent to the worker only when no other call is there, and none is sent while it is. */
  alone?: boolean;
  /** What the worker tells about the call as it goes. */
  onProgress?(progress: Progress): void;
}

export type WorkerFailureKind =
  /** The worker could not start, or stopped before it was ready: every waiting call gets this. */
  | 'start'
  | 'timeout'
  /** Past the resident-set budget. */
  | 'memory'
  /** Past the heap cap (V8 aborted the process, or ended the thread). */
  | 'heap'
  /** The worker exited or was killed. */
  | 'exit'
  /** The worker emitted an error (a thread's uncaught exception, a process that failed). */
  | 'error'
  /** The call could not be sent to the worker. */
  | 'unsent'
  /** The call threw in the worker, which goes on serving. */
  | 'failed'
  | 'closed';

/** Why a call got no answer. */
export class WorkerFailure extends Error {
  readonly kind: WorkerFailureKind;
  readonly code: number | null;
  readonly signal: string | null;
  /** How long the worker had worked on the call. */
  elapsedMs = 0;

  constructor(kind: WorkerFailureKind, message: string, details: { code?: number | null; signal?: string | null; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'WorkerFailure';
    this.kind = kind;
    this.code = details.code ?? null;
    this.signal = details.signal ?? null;
  }
}

export function createSupervisedWorker<Request, Reply, Progress = never, Note = never>(
  options: SupervisedWorkerOptions<Request, Reply>,
): SupervisedWorker<Request, Reply, Progress, Note> {
  // setTimeout treats anything above 2^31 - 1 ms as 1 ms.
  if (!(options.timeoutMs > 0 && options.timeoutMs <= 2 ** 31 - 1)) throw new RangeError('timeoutMs must be between 1 and 2147483647');
  if (!(options.heapMb > 0 && Number.isFinite(options.heapMb))) throw new RangeError('heapMb must be a positive number');
  return new SupervisedWorker(options);
}

const MEMORY_POLL_MS = 100;

interface Call<Request, Reply, Progress> {
  id: number;
  request: Request;
  alone: boolean;
  onProgress: ((progress: Progress) => void) | undefined;
  resolve(reply: Reply): void;
  reject(failure: WorkerFailure): void;
  started?: number;
  timer?: NodeJS.Timeout;
  poll?: NodeJS.Timeout;
}

interface Live<Note> {
  handle: Handle;
  ready: boolean;
  /** Notes for a worker not ready yet. */
  notes: Note[];
}

export class SupervisedWorker<Request, Reply, Progress = never, Note = never> {
  readonly #o: SupervisedWorkerOptions<Request, Reply>;
  #live: Live<Note> | undefined;
  #waiting: Array<Call<Request, Reply, Progress>> = [];
  /** Sent to the worker, in order; the first is the one it works on (and the only one with a timer). */
  #inWorker: Array<Call<Request, Reply, Progress>> = [];
  #nextId = 1;
  #closed = false;
  #idle: NodeJS.Timeout | undefined;

  constructor(options: SupervisedWorkerOptions<Request, Reply>) {
    this.#o = options;
  }

  /** The child process's pid while it runs (undefined for a thread). */
  get pid(): number | undefined {
    return this.#live?.handle.pid;
  }

  /** True while the worker works on a call. */
  get busy(): boolean {
    return this.#inWorker.length > 0;
  }

  /** Calls not yet sent to the worker. */
  get waiting(): number {
    return this.#waiting.length;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Answers with the worker's reply, or rejects with a WorkerFailure. */
  call(request: Request, options: CallOptions<Progress> = {}): Promise<Reply> {
    if (this.#closed) return Promise.reject(new WorkerFailure('closed', 'the worker was closed'));
    return new Promise((resolve, reject) => {
      this.#waiting.push({ id: this.#nextId++, request, alone: options.alone ?? false, onProgress: options.onProgress, resolve, reject });
      this.#pump();
    });
  }

  /**
   * The warm-up hook: starts a worker if none runs (nothing otherwise), and once `note` is known sends
   * it to that worker, if it still runs. A worker that cannot start is left to the first call to report.
   */
  warmUp(note: Promise<Note>): void {
    // A note that fails is left to the first call to meet: handled here even when no worker starts.
    note.catch(() => {});
    if (this.#closed || this.#live) return;
    let live: Live<Note>;
    try {
      live = this.#spawn();
    } catch {
      return;
    }
    this.#pump();
    note.then(
      (value) => {
        if (this.#live !== live) return;
        if (live.ready) this.#sendNote(live, value);
        else live.notes.push(value);
      },
      () => {},
    );
  }

  /** Fails the calls in the worker and waiting for it, and ends the worker. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#idle);
    const live = this.#live;
    this.#live = undefined;
    const failure = () => new WorkerFailure('closed', 'the worker was closed');
    for (const call of this.#inWorker.splice(0)) {
      this.#end(call);
      call.reject(failure());
    }
    for (const call of this.#waiting.splice(0)) call.reject(failure());
    await live?.handle.stop();
  }

  #pump(): void {
    if (this.#closed) return;
    const next = this.#waiting[0];
    if (!next) {
      if (this.#inWorker.length === 0) this.#rest();
      return;
    }
    clearTimeout(this.#idle);
    if (!this.#maySend(next)) return;
    let live = this.#live;
    if (!live) {
      try {
        live = this.#spawn();
      } catch (error) {
        return this.#failStart(undefined, new WorkerFailure('start', `the worker could not start (${String(error)})`, { cause: error }));
      }
    }
    live.handle.ref();
    if (!live.ready) return;
    this.#waiting.shift();
    this.#inWorker.push(next);
    if (this.#inWorker.length === 1) this.#begin(live, next);
    const sent = live;
    const { request, transfer, bulk } = this.#o.encode?.(next.request) ?? { request: next.request };
    const unsent = () => this.#abandon(sent, new WorkerFailure('unsent', 'the worker did not take the call'));
    if (bulk && this.#o.kind === 'process' && this.#o.bulkPipe) {
      const message = { call: next.id, request, bulk: { field: bulk.field, length: bulk.bytes.byteLength } } satisfies ToWorker<unknown, Note>;
      sent.handle.send(message, undefined, unsent, bulk.bytes);
    } else {
      const whole = bulk ? { ...(request as object), [bulk.field]: bulk.bytes } : request;
      sent.handle.send({ call: next.id, request: whole } satisfies ToWorker<unknown, Note>, transfer, unsent);
    }
    this.#pump();
  }

  #maySend(next: Call<Request, Reply, Progress>): boolean {
    if (this.#inWorker.length === 0) return true;
    return this.#inWorker.length < (this.#o.sendAhead ?? 1) && !next.alone && !this.#inWorker.some((call) => call.alone);
  }

  /** The worker starts on `call`: its time budget (and memory watch) runs from now. */
  #begin(live: Live<Note>, call: Call<Request, Reply, Progress>): void {
    call.started = performance.now();
    call.timer = setTimeout(() => this.#abandon(live, new WorkerFailure('timeout', `the call took longer than ${this.#o.timeoutMs} ms`)), this.#o.timeoutMs);
    const { maxRssMb } = this.#o;
    const pid = live.handle.pid;
    if (maxRssMb !== undefined && pid !== undefined && process.platform === 'linux') {
      call.poll = setInterval(() => {
        const rss = residentMb(pid);
        if (rss !== undefined && rss > maxRssMb) this.#abandon(live, new WorkerFailure('memory', `the worker needed more than ${maxRssMb} MB of memory`));
      }, MEMORY_POLL_MS);
      call.poll.unref();
    }
  }

  #end(call: Call<Request, Reply, Progress>): void {
    clearTimeout(call.timer);
    clearInterval(call.poll);
  }

  #spawn(): Live<Note> {
    // The events come once the worker runs, after `live` below is set.
    const events = {
      message: (message: FromWorker<Reply, Progress>) => this.#receive(live, message),
      error: (error: Error & { code?: string }) => {
        if (this.#live !== live) return;
        if (!live.ready) return this.#failStart(live, new WorkerFailure('start', `the worker could not start (${error.message})`, { cause: error }));
        const heap = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
        this.#abandon(live, new WorkerFailure(heap ? 'heap' : 'error', heap ? `the worker needed more than its ${this.#o.heapMb} MB heap` : error.message, { cause: error }));
      },
      exit: (code: number | null, signal: string | null) => {
        if (this.#live !== live) return;
        const how = signal ?? `code ${code}`;
        if (!live.ready) return this.#failStart(live, new WorkerFailure('start', `the worker exited with ${how} while starting`, { code, signal }));
        // V8 aborts a process whose heap reaches its limit.
        const heap = this.#o.kind === 'process' && (signal === 'SIGABRT' || code === 134);
        this.#abandon(live, new WorkerFailure(heap ? 'heap' : 'exit', heap ? `the worker needed more than its ${this.#o.heapMb} MB heap` : `the worker stopped (${how})`, { code, signal }));
      },
    };
    const handle = this.#o.kind === 'process' ? startProcess(this.#o, events) : startThread(this.#o, events);
    const live: Live<Note> = { handle, ready: false, notes: [] };
    this.#live = live;
    return live;
  }

  #receive(live: Live<Note>, message: FromWorker<Reply, Progress>): void {
    if (this.#live !== live) return;
    if ('ready' in message) {
      live.ready = true;
      for (const note of live.notes.splice(0)) this.#sendNote(live, note);
      return this.#pump();
    }
    const call = this.#inWorker[0];
    // A late word about a call already answered.
    if (call?.id !== message.call) return;
    if ('progress' in message) return call.onProgress?.(message.progress);
    this.#inWorker.shift();
    this.#end(call);
    let recycle = false;
    if ('error' in message) {
      call.reject(new WorkerFailure('failed', message.error));
    } else {
      call.resolve(message.reply);
      recycle = this.#o.recycleAfter?.(call.request, message.reply) ?? false;
    }
    const pid = live.handle.pid;
    const { recycleAboveMb } = this.#o;
    if (!recycle && recycleAboveMb !== undefined && pid !== undefined) recycle = (residentMb(pid) ?? 0) > recycleAboveMb;
    const head = this.#inWorker[0];
    if (recycle) {
      this.#requeue();
      this.#retire(live);
    } else if (head) {
      this.#begin(live, head);
    }
    this.#pump();
  }

  #sendNote(live: Live<Note>, note: Note): void {
    live.handle.send({ note } satisfies ToWorker<unknown, Note>, undefined, () => {});
  }

  /** Calls sent to a worker that is going away go back to the front of the queue, in their order. */
  #requeue(): void {
    for (const call of this.#inWorker.splice(0).reverse()) {
      this.#end(call);
      this.#waiting.unshift(call);
    }
  }

  /** Ends a worker; the next call starts a new one. */
  #retire(live: Live<Note>): void {
    if (this.#live === live) this.#live = undefined;
    live.handle.kill();
  }

  /** Drops a worker that ran past a budget or crashed: the call it worked on fails, the others go to the next worker. */
  #abandon(live: Live<Note>, failure: WorkerFailure): void {
    if (this.#live !== live) return;
    this.#retire(live);
    const call = this.#inWorker.shift();
    if (call) {
      this.#end(call);
      failure.elapsedMs = call.started === undefined ? 0 : performance.now() - call.started;
      call.reject(failure);
    }
    this.#requeue();
    this.#pump();
  }

  /** A worker that cannot even start would fail every call the same way: the waiting ones fail now. */
  #failStart(live: Live<Note> | undefined, failure: WorkerFailure): void {
    if (live) this.#retire(live);
    for (const call of [...this.#inWorker.splice(0), ...this.#waiting.splice(0)]) {
      this.#end(call);
      call.reject(failure);
    }
  }

  /** Nothing to do: the worker must not keep the process alive, and goes after `idleMs`. */
  #rest(): void {
    const live = this.#live;
    if (!live) return;
    live.handle.unref();
    const { idleMs } = this.#o;
    if (idleMs === undefined) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#live === live && this.#inWorker.length === 0 && this.#waiting.length === 0) this.#retire(live);
    }, idleMs);
    this.#idle.unref();
  }
}
