/**
 * The two kinds of supervised worker behind one Handle: a child process (fork, IPC with the advanced
 * serialization, a V8 heap cap) and a worker thread (resource limits). Both start paraph's own entry
 * module (or a file URL), marked so that the entry knows it runs as that worker.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type TransferListItem } from 'node:worker_threads';
import { FROM_SOURCE, ownModuleUrl } from './package-files.js';
import { workerMark } from './worker-protocol.js';

/** Loaded first by a child or thread started from the sources (platform/source-imports.ts). */
const SOURCE_IMPORTS = ownModuleUrl('platform/source-imports');

/** What starting a worker needs. */
export interface WorkerStart {
  /** The entry module: paraph's own (`pdf/inspect-child`: dist/pdf/inspect-child.js, or its .ts source), or a file URL. */
  entry: string | URL;
  /** Given to the entry by `workerArguments`. */
  args?: string[];
  /** The worker's V8 heap cap (MB). */
  heapMb: number;
  /** A worker thread's young generation cap (MB; default V8's). */
  youngMb?: number;
}

/** A running worker, whichever its kind. */
export interface Handle {
  readonly pid: number | undefined;
  /** `bulk`: bytes written to a child's bulk pipe (its stdin), after those of the messages sent before. */
  send(message: unknown, transfer: TransferListItem[] | undefined, failed: () => void, bulk?: Uint8Array): void;
  ref(): void;
  unref(): void;
  /** Ends it now, without waiting. */
  kill(): void;
  /** Ends it and resolves once it is gone. */
  stop(): Promise<void>;
}

/** A process's resident set in MB (Linux /proc), or undefined. */
export function residentMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

function entryUrl(entry: string | URL): URL {
  return entry instanceof URL ? entry : ownModuleUrl(entry);
}

export interface Events {
  message(message: unknown): void;
  error(error: Error): void;
  exit(code: number | null, signal: string | null): void;
}

/**
 * From the sources, the child loads its .ts entry with platform/source-imports first; otherwise the compiled
 * module in dist/. The child gets none of the parent's flags: some break it (with --input-type it cannot load its file).
 */
export function startProcess(options: WorkerStart, events: Events): Handle {
  const entry = fileURLToPath(entryUrl(options.entry));
  const execArgv = [...(FROM_SOURCE ? ['--import', SOURCE_IMPORTS.href] : []), `--max-old-space-size=${options.heapMb}`];
  const child: ChildProcess = fork(entry, [workerMark(options.entry), ...(options.args ?? [])], {
    execArgv,
    serialization: 'advanced',
    // stdin: the bulk pipe, for the bytes a call sends beside its message.
    stdio: ['pipe', 'ignore', 'ignore', 'ipc'],
  });
  const bulkPipe = child.stdin;
  // A child that dies with bytes still on their way: its exit is what the supervisor acts on.
  bulkPipe?.on('error', () => {});
  child.on('message', events.message);
  child.on('error', events.error);
  child.on('exit', events.exit);
  return {
    get pid() {
      return child.pid;
    },
    send(message, _transfer, failed, bulk) {
      if (bulk) {
        if (!bulkPipe || bulkPipe.destroyed) return queueMicrotask(failed);
        // Written from the caller's buffer, without a copy (the message's serialization makes two).
        bulkPipe.write(bulk);
      }
      child.send(message as object, (error) => {
        if (error) failed();
      });
    },
    ref() {
      child.ref();
      child.channel?.ref();
      (bulkPipe as { ref?(): void } | null)?.ref?.();
    },
    unref() {
      child.unref();
      child.channel?.unref();
      (bulkPipe as { unref?(): void } | null)?.unref?.();
    },
    kill() {
      child.kill('SIGKILL');
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // An idle child is unreferenced: hold the loop open until it is gone.
      child.ref();
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** How long a worker thread asked to stop may finish its call before it is terminated. */
const STOP_GRACE_MS = 2_000;

/** From the sources, the thread loads platform/source-imports, then its .ts entry; otherwise the compiled module in dist/. */
export function startThread(options: WorkerStart, events: Events): Handle {
  const entry = entryUrl(options.entry);
  const resourceLimits = { maxOldGenerationSizeMb: options.heapMb, ...(options.youngMb === undefined ? {} : { maxYoungGenerationSizeMb: options.youngMb }) };
  const workerData = { argv: [workerMark(options.entry), ...(options.args ?? [])] };
  const base = { resourceLimits, workerData, execArgv: [] };
  let worker: Worker;
  if (!FROM_SOURCE) {
    worker = new Worker(entry, base);
  } else {
    // Module hooks belong to the thread that registers them: the worker registers its own.
    const bootstrap = `import(${JSON.stringify(SOURCE_IMPORTS.href)}).then(() => import(${JSON.stringify(entry.href)}));`;
    worker = new Worker(bootstrap, { ...base, eval: true });
  }
  worker.on('message', events.message);
  worker.on('error', events.error);
  worker.on('exit', (code) => events.exit(code, null));
  return {
    pid: undefined,
    send(message, transfer, failed) {
      try {
        worker.postMessage(message, transfer);
      } catch {
        queueMicrotask(failed);
      }
    },
    ref() {
      worker.ref();
    },
    unref() {
      worker.unref();
    },
    kill() {
      void worker.terminate();
    },
    async stop() {
      // A thread terminated while it works may abort the whole process (Node 26 asserts when a zlib stream
      // the thread was opening is freed): it is asked to end after its call, and terminated only if it has
      // not within STOP_GRACE_MS.
      // (A thread that has exited already has the id -1: no exit event is coming.)
      if (worker.threadId === -1) return;
      const exited = new Promise<boolean>((resolve) => worker.once('exit', () => resolve(true)));
      try {
        worker.postMessage({ stop: true });
      } catch {
        // Gone already.
      }
      let timer: NodeJS.Timeout | undefined;
      const ended = await Promise.race([exited, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), STOP_GRACE_MS)))]);
      clearTimeout(timer);
      if (!ended) await worker.terminate();
    },
  };
}
