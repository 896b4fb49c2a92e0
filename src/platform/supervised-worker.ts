/**
 * The supervisor of code paraph keeps out of the server's own thread: a child process (its own V8 and
 * memory, killed as a whole) or a worker thread (cheaper to start, shares the process). Calls queue and
 * the worker works on them one at a time, in the order they came (the caller may let one be sent to it
 * ahead, while it works on the one before); each has a time budget from when the worker starts on it, the worker a heap cap and, for a child process, a resident-set budget polled while it
 * works. A worker that runs past a budget, crashes or exits fails the call it worked on and is replaced
 * for the next one; a worker that cannot even start fails the calls waiting for it (no respawning in a
 * loop). After a call the caller may have the worker replaced (and the next one started at once, `startAhead`, or
 * during a call known to end so, `successorFor`); an idle worker does not keep the process alive, may be stopped
 * after a while without calls, and `close()` ends it. Every failure is one WorkerFailure (worker-failure.ts).
 *
 * The worker side is src/platform/worker-entry.ts; the messages, src/platform/worker-protocol.ts.
 */
import { performance } from 'node:perf_hooks';
import type { TransferListItem } from 'node:worker_threads';
import { residentMb, startProcess, startThread, type Handle, type WorkerStart } from './worker-handles.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';
import { workerFailure, type WorkerFailure, type WorkerFailureKind } from './worker-failure.js';

export { residentMb } from './worker-handles.js';
export { WorkerFailure, type WorkerFailureKind } from './worker-failure.js';

export interface SupervisedWorkerOptions<Request, Reply, Note = never> extends WorkerStart {
  /** A child process or a worker thread. */
  kind: 'process' | 'thread';
  /** Time budget of one call, from when the worker starts on it (ms). */
  timeoutMs: number;
  /** A child process's resident set, polled while it works on a call (Linux): past it, the call fails and the worker is replaced. */
  maxRssMb?: number;
  /** The worker is stopped after this long without calls (default: kept until close). */
  idleMs?: number;
  /**
   * Asked after each answered call (`reply` undefined when the call threw in the worker): true replaces
   * the worker before the next call. `residentMb` reads a child process's resident set now.
   */
  replaceAfter?(request: Request, reply: Reply | undefined, residentMb: () => number | undefined): boolean;
  /**
   * True: a worker replaced after a call (`replaceAfter`), or dropped during a call for a budget or a crash, is followed at once by
   * a new one, which loads while no call waits, so that the next call does not wait for its start (it goes after `idleMs` without
   * calls, as any). Not after a worker that could not start, nor one that went while idle.
   */
  startAhead?: boolean;
  /**
   * True for a call after which the worker is replaced whatever its answer, known from the request alone (a document too large to
   * keep the worker after): its successor starts as the worker starts on the call and loads meanwhile; the next call does not wait.
   */
  successorFor?(request: Request): boolean;
  /** A note for each worker started ahead (`prestart`, `startAhead`, a successor), sent once ready unless a call waits: it loads what calls need. */
  warmUp?: Note;
  /**
   * The message a call sends, and what it moves instead of copying (default: the request, copied).
   * `bulk`: bytes that a child process gets through a pipe of their own, written from the caller's
   * buffer as they are (the message itself would be serialized into two copies in this process); the
   * worker finds them in `request[field]`. They must not change until the call is answered.
   */
  encode?(request: Request): { request: unknown; transfer?: TransferListItem[]; bulk?: Bulk };
  /**
   * True for a call that may be sent to the worker while it works on the one before (one call ahead),
   * when that one may be too: sending overlaps with the work. Default: never.
   */
  sendAhead?(request: Request): boolean;
  /** How failures name the work (`reading it took longer than 10 s`) and the worker (`the reader stopped (exit code 3)`). */
  words?: { task: string; worker: string };
}

/** Bytes of a call sent beside its message (see `encode`). */
export interface Bulk {
  field: string;
  bytes: Uint8Array;
}

/** A worker started ahead of the first call (see `prestart`). */
export interface Prestarted<Note> {
  /** Sends a note (no answer) to that worker once it is ready, if it still runs. */
  notify(note: Note): void;
}

export function createSupervisedWorker<Request, Reply, Progress = never, Note = never>(
  options: SupervisedWorkerOptions<Request, Reply, Note>,
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
  /** Started ahead of calls: sent `warmUp` once ready if no call waits. */
  ahead?: boolean;
}

export class SupervisedWorker<Request, Reply, Progress = never, Note = never> {
  readonly #o: SupervisedWorkerOptions<Request, Reply, Note>;
  readonly #words: { task: string; worker: string };
  #live: Live<Note> | undefined;
  /** The successor of a worker on a call it is replaced after (`successorFor`), loading meanwhile. */
  #successor: Live<Note> | undefined;
  #waiting: Array<Call<Request, Reply, Progress>> = [];
  /** Sent to the worker, in order: the first is the one it works on (and the only one with a timer). */
  #inWorker: Array<Call<Request, Reply, Progress>> = [];
  #nextId = 1;
  #closed = false;
  #idle: NodeJS.Timeout | undefined;

  constructor(options: SupervisedWorkerOptions<Request, Reply, Note>) {
    this.#o = options;
    this.#words = options.words ?? { task: 'the call', worker: 'the worker' };
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
  call(request: Request, options: { onProgress?(progress: Progress): void } = {}): Promise<Reply> {
    if (this.#closed) return Promise.reject(this.failure('closed'));
    return new Promise((resolve, reject) => {
      this.#waiting.push({ id: this.#nextId++, request, onProgress: options.onProgress, resolve, reject });
      this.#next();
    });
  }

  /**
   * Starts a worker now when none runs, so that it loads before the first call, and answers a way to
   * send it notes; undefined when a worker runs already (or cannot start: the first call reports that).
   */
  prestart(): Prestarted<Note> | undefined {
    if (this.#closed || this.#live) return undefined;
    let live: Live<Note>;
    try {
      live = this.#live = this.#spawn();
    } catch {
      return undefined;
    }
    live.ahead = true;
    this.#next();
    return {
      notify: (note) => {
        if (this.#live !== live) return;
        if (live.ready) this.#sendNote(live, note);
        else live.notes.push(note);
      },
    };
  }

  /** Fails the call in the worker and those waiting for it, and ends the worker (a thread once that call is done, or at most 2 s later). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#idle);
    const [live, successor] = [this.#live, this.#successor];
    [this.#live, this.#successor] = [undefined, undefined];
    for (const call of [...this.#inWorker.splice(0), ...this.#waiting.splice(0)]) {
      this.#end(call);
      call.reject(this.failure('closed'));
    }
    await Promise.all([live?.handle.stop(), successor?.handle.stop()]);
  }

  /** Sends the next waiting call once the worker is free (or may take it ahead) and ready, starting one if none runs. */
  #next(): void {
    if (this.#closed) return;
    const call = this.#waiting[0];
    if (!call) {
      if (this.#inWorker.length === 0) this.#rest();
      return;
    }
    clearTimeout(this.#idle);
    if (!this.#maySend(call)) return;
    let live = this.#live;
    if (!live) {
      try {
        live = this.#live = this.#spawn();
      } catch (error) {
        return this.#failStart(undefined, this.failure('start', String(error), error));
      }
    }
    live.handle.ref();
    if (!live.ready) return;
    this.#waiting.shift();
    this.#inWorker.push(call);
    if (this.#inWorker.length === 1) this.#begin(live, call);
    const sent = live;
    const { request, transfer, bulk } = this.#o.encode?.(call.request) ?? { request: call.request };
    const unsent = () => this.#abandon(sent, this.failure('crashed', 'it did not take the call'));
    if (bulk && this.#o.kind === 'process') {
      const message = { call: call.id, request, bulk: { field: bulk.field, length: bulk.bytes.byteLength } } satisfies ToWorker<unknown, Note>;
      sent.handle.send(message, undefined, unsent, bulk.bytes);
    } else {
      const whole = bulk ? { ...(request as object), [bulk.field]: bulk.bytes } : request;
      sent.handle.send({ call: call.id, request: whole } satisfies ToWorker<unknown, Note>, transfer, unsent);
    }
    this.#next();
  }

  #maySend(call: Call<Request, Reply, Progress>): boolean {
    const [working, ...ahead] = this.#inWorker;
    if (!working) return true;
    const { sendAhead } = this.#o;
    return ahead.length === 0 && sendAhead !== undefined && sendAhead(working.request) && sendAhead(call.request);
  }

  /** The worker starts on `call`: its time budget (and memory watch) runs from now. */
  #begin(live: Live<Note>, call: Call<Request, Reply, Progress>): void {
    call.started = performance.now();
    call.timer = setTimeout(() => this.#abandon(live, this.failure('timeout')), this.#o.timeoutMs);
    const { maxRssMb } = this.#o;
    const pid = live.handle.pid;
    if (maxRssMb !== undefined && pid !== undefined && process.platform === 'linux') {
      call.poll = setInterval(() => {
        const rss = residentMb(pid);
        if (rss !== undefined && rss > maxRssMb) this.#abandon(live, this.failure('memory', String(maxRssMb)));
      }, MEMORY_POLL_MS);
      call.poll.unref();
    }
    if (this.#successor || !this.#o.successorFor?.(call.request)) return;
    // (One that cannot start is started after the call instead, as any.)
    try {
      this.#successor = this.#spawn();
    } catch {
      return;
    }
    this.#successor.handle.unref();
    this.#successor.ahead = true;
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
        if (this.#live !== live) return this.#successorGone(live);
        if (!live.ready) return this.#failStart(live, this.failure('start', error.message, error));
        const heap = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
        this.#abandon(live, heap ? this.failure('memory', String(this.#o.heapMb), error) : this.failure('crashed', error.message, error));
      },
      exit: (code: number | null, signal: string | null) => {
        if (this.#live !== live) return this.#successorGone(live);
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        if (!live.ready) return this.#failStart(live, this.failure('start', `${how} while starting`));
        // V8 aborts a process whose heap reaches its limit.
        const heap = this.#o.kind === 'process' && (signal === 'SIGABRT' || code === 134);
        this.#abandon(live, heap ? this.failure('memory', String(this.#o.heapMb)) : this.failure('crashed', how));
      },
    };
    const handle = this.#o.kind === 'process' ? startProcess(this.#o, events) : startThread(this.#o, events);
    const live: Live<Note> = { handle, ready: false, notes: [] };
    return live;
  }

  /** A successor that failed or went before it took over: the next worker starts after the call, as any. */
  #successorGone(live: Live<Note>): void {
    if (this.#successor !== live) return;
    this.#successor = undefined;
    live.handle.kill();
  }

  /** The successor, if any, takes over from a worker replaced or dropped: answers whether there was one. */
  #promote(): boolean {
    if (!this.#successor) return false;
    [this.#live, this.#successor] = [this.#successor, undefined];
    return true;
  }

  #receive(live: Live<Note>, message: FromWorker<Reply, Progress>): void {
    const ready = 'ready' in message;
    if (this.#live !== live && !(ready && this.#successor === live)) return;
    if (ready) {
      live.ready = true;
      const { warmUp } = this.#o;
      if (live.ahead && warmUp !== undefined && this.#waiting.length === 0) live.notes.unshift(warmUp);
      for (const note of live.notes.splice(0)) this.#sendNote(live, note);
      return this.#live === live ? this.#next() : undefined;
    }
    const call = this.#inWorker[0];
    // A late word about a call already answered.
    if (call?.id !== message.call) return;
    if ('progress' in message) return call.onProgress?.(message.progress);
    this.#inWorker.shift();
    this.#end(call);
    const reply = 'error' in message ? undefined : message.reply;
    if ('error' in message) call.reject(this.failure('failed', message.error));
    else call.resolve(message.reply);
    const pid = live.handle.pid;
    const head = this.#inWorker[0];
    const rss = () => (pid === undefined ? undefined : residentMb(pid));
    if (this.#o.successorFor?.(call.request) || this.#o.replaceAfter?.(call.request, reply, rss)) {
      this.#requeue();
      this.#retire(live);
      if (!this.#promote() && this.#o.startAhead) this.prestart();
    } else if (head) {
      this.#begin(live, head);
    }
    this.#next();
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
    // (Not after a worker that went while idle: one that dies on its own would be started again and again.)
    if (!this.#promote() && call && this.#o.startAhead) this.prestart();
    this.#next();
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

  /**
   * The one description of a failure, in the caller's words (worker-failure.ts). Callers use it for a
   * failure they find themselves (a worker that answered it stopped at its deadline with nothing done).
   */
  failure(kind: WorkerFailureKind, detail = '', cause?: unknown): WorkerFailure {
    return workerFailure(this.#words, this.#o.timeoutMs, kind, detail, cause);
  }
}
