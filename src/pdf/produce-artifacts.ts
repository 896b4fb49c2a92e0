import { Worker } from 'node:worker_threads';
import { FROM_SOURCE, ownModuleUrl } from '../platform/package-files.js';
import type { ArtifactWorkerFault, ProduceJob, ProduceReply, ProduceRequest, WarmUp } from './artifact-worker.js';
import type { SealTimestamp } from './tsa-seal.js';
import { transferList } from './transfer.js';

export type { ArtifactWorkerFault, ProduceJob, WarmUp } from './artifact-worker.js';

export interface ProducedArtifacts {
  signedPdf: Uint8Array;
  evidencePdf: Uint8Array;
  /** The seal's timestamps as checked when it was made (empty for a B-B seal). */
  timestamps: SealTimestamp[];
}

const TIMEOUT_MS = 120_000;
const MAX_MEMORY_MB = 1024;

interface Job {
  job: ProduceJob;
  resolve(result: ProducedArtifacts): void;
  reject(error: Error): void;
}

/**
 * Stamps, seals and writes the evidence report in a worker thread, one job at a time, each with a
 * wall-clock and the worker's heap budget, so the server keeps answering while a large PDF is
 * processed. The worker stays warm between jobs (no reload of pdf-lib and the fonts), does not keep
 * the process alive while idle, and is replaced after a crash or a timeout.
 */
export function produceArtifacts(job: ProduceJob): Promise<ProducedArtifacts> {
  return new Promise((resolve, reject) => {
    queue.push({ job, resolve, reject });
    pump();
  });
}

/**
 * Starts the worker, so pdf-lib, the fonts and the signing code load before the first completion (a
 * server calls it as it starts, and again when a request is activated in case the worker is gone).
 * Once the signing identity is known the worker also produces once for a document it makes up, unless
 * a real job reached it first (see artifact-worker.ts). Does nothing when a worker runs already.
 */
export function warmArtifactWorker(signer: Promise<WarmUp>): void {
  if (worker) return;
  let started: Worker;
  try {
    started = spawn();
  } catch {
    // The first job meets the same failure and reports it.
    return;
  }
  // An idle worker does not keep the process alive (pump refs it while a job runs).
  if (!running) started.unref();
  signer.then(
    (identity) => {
      if (worker === started) started.postMessage({ warm: identity } satisfies ProduceRequest);
    },
    () => {},
  );
}

/**
 * Test seam: the worker that takes the next job fails this way while working on it (one fault per
 * job, in order), so tests can prove that a crashed worker is replaced and the job retried.
 */
export function injectArtifactWorkerFault(fault: ArtifactWorkerFault): void {
  faults.push(fault);
}

const queue: Job[] = [];
const faults: ArtifactWorkerFault[] = [];
let worker: Worker | undefined;
let running: { id: number; job: Job; timer: NodeJS.Timeout } | undefined;
let nextId = 1;

function pump(): void {
  if (running) return;
  const next = queue.shift();
  if (!next) return void worker?.unref();
  let current: Worker;
  try {
    current = worker ?? spawn();
  } catch (error) {
    next.reject(error instanceof Error ? error : new Error(String(error)));
    return pump();
  }
  current.ref();
  const id = nextId++;
  const timer = setTimeout(() => abandon(current, new Error(`producing the artifacts took longer than ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  running = { id, job: next, timer };
  // A private copy is transferred: the caller's bytes stay attached and unchanged.
  const original = new Uint8Array(next.job.original);
  const fault = faults.shift();
  if (fault) current.postMessage({ fault } satisfies ProduceRequest);
  current.postMessage({ id, job: { ...next.job, original } } satisfies ProduceRequest, transferList(original));
}

function spawn(): Worker {
  const created = startWorker(MAX_MEMORY_MB);
  worker = created;
  created.on('message', (reply: ProduceReply) => {
    if (worker !== created || running?.id !== reply.id) return;
    const { job, timer } = running;
    clearTimeout(timer);
    running = undefined;
    if (reply.ok) job.resolve({ signedPdf: reply.signedPdf, evidencePdf: reply.evidencePdf, timestamps: reply.timestamps });
    else job.reject(new Error(`producing the artifacts failed: ${reply.message}`));
    pump();
  });
  created.on('error', (error: Error & { code?: string }) => {
    abandon(created, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new Error(`producing the artifacts needs more than ${MAX_MEMORY_MB} MB`) : error);
  });
  created.on('exit', (code) => abandon(created, new Error(`the artifact worker stopped (exit code ${code})`)));
  return created;
}

/** Drops a worker that failed or hung: its job fails (and is retried later), the next job gets a new worker. */
function abandon(failed: Worker, error: Error): void {
  if (worker !== failed) return;
  worker = undefined;
  void failed.terminate();
  const job = running;
  running = undefined;
  if (job) {
    clearTimeout(job.timer);
    job.job.reject(error);
  }
  pump();
}

// From the sources under tsx the worker is artifact-worker.ts, loaded through tsx; otherwise the
// compiled module in dist/pdf (as for the upload inspector).
function startWorker(maxMemoryMb: number): Worker {
  const entry = ownModuleUrl('pdf/artifact-worker');
  const options = { resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: 8 }, execArgv: [] };
  if (!FROM_SOURCE) return new Worker(entry, options);
  // Node 20 does not apply the parent's --import tsx hooks to a worker's entry module.
  let tsx: string;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    return new Worker(entry, { resourceLimits: options.resourceLimits });
  }
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
