import { ProcessShared } from '../platform/process-shared.js';
import { createSupervisedWorker, type SupervisedWorker } from '../platform/supervised-worker.js';
import { workerFailure } from '../platform/worker-failure.js';
import {
  ARTIFACT_ENTRY,
  type ArtifactWorkerFault,
  type ProducedArtifacts,
  type ProduceJob,
  type ProduceRequest,
  type WarmUp,
  type WarmUpNote,
} from './artifact-messages.js';
import { transferList } from './transfer.js';

export type { ArtifactWorkerFault, ProducedArtifacts, ProduceJob, WarmUp } from './artifact-messages.js';

const TIMEOUT_MS = 120_000;
const MAX_MEMORY_MB = 1024;
const WORDS = { task: 'producing the artifacts', worker: 'the artifact worker' };

/**
 * Stamps, seals and writes the evidence report in a worker thread (artifact-worker.ts), one job at a
 * time, each with a wall-clock and the worker's heap budget, so the server keeps answering while a
 * large PDF is processed. The worker stays warm between jobs (no reload of pdf-lib and the fonts),
 * does not keep the process alive while idle, and is replaced after a crash or a timeout.
 */
export interface ArtifactProducer {
  produce(job: ProduceJob): Promise<ProducedArtifacts>;
  /**
   * Starts the worker, so pdf-lib, the fonts and the signing code load before the first completion (a
   * server calls it once it listens, and again when a request is activated in case the worker is
   * gone). Once the signing identity is known the worker also produces once for a document it makes
   * up, unless a real job reached it first (see artifact-worker.ts). Does nothing when a worker runs already.
   */
  warm(signer: Promise<WarmUp>): void;
  /**
   * Test seam: the worker that takes the next job fails this way while working on it (one fault per
   * job, in order), so tests can prove that a crashed worker is replaced and the job retried.
   */
  injectFault(fault: ArtifactWorkerFault): void;
  close(): Promise<void>;
}

type ArtifactWorker = SupervisedWorker<ProduceRequest, ProducedArtifacts, never, WarmUpNote>;

function startArtifactWorker(): ArtifactWorker {
  return createSupervisedWorker<ProduceRequest, ProducedArtifacts, never, WarmUpNote>({
    kind: 'thread',
    entry: ARTIFACT_ENTRY,
    timeoutMs: TIMEOUT_MS,
    heapMb: MAX_MEMORY_MB,
    youngMb: 8,
    encode(request) {
      // Bytes in a SharedArrayBuffer (the blob store reads them so for a job) are shared, not copied:
      // the worker only reads them.
      if (request.job.original.buffer instanceof SharedArrayBuffer) return { request };
      // Otherwise a private copy is transferred: the caller's bytes stay attached and unchanged.
      const original = new Uint8Array(request.job.original);
      return { request: { ...request, job: { ...request.job, original } }, transfer: transferList(original) };
    },
    // What the caller is told (and logs, and records as the attempt's error) for a job the worker did not answer.
    words: WORDS,
  });
}

/** A producer on `worker`, each job sent through `send` (a hold's, for a shared worker); the faults a test injects are its own. */
function producerOn(
  worker: ArtifactWorker,
  send: (call: () => Promise<ProducedArtifacts>) => Promise<ProducedArtifacts>,
  close: () => Promise<void>,
  open: () => boolean,
): ArtifactProducer {
  const faults: ArtifactWorkerFault[] = [];
  return {
    produce(job) {
      const fault = faults.shift();
      return send(() => worker.call(fault ? { job, fault } : { job }));
    },
    warm(signer) {
      // A signer that fails is left to the first job to meet.
      signer.catch(() => {});
      const started = open() ? worker.prestart() : undefined;
      if (started)
        signer.then(
          (warm) => started.notify({ warm }),
          () => {},
        );
    },
    injectFault(fault) {
      faults.push(fault);
    },
    close,
  };
}

export function createArtifactProducer(): ArtifactProducer {
  const worker = startArtifactWorker();
  return producerOn(
    worker,
    (call) => call(),
    () => worker.close(),
    () => true,
  );
}

const shared = new ProcessShared(startArtifactWorker);

/**
 * A server's share of the process's one artifact worker (ProcessShared, for startParaph's `shareWorkers`):
 * its jobs go to the worker the other holders use, one at a time as ever; `close()` lets go of it, and
 * fails this holder's jobs still unanswered, as closing a producer of its own would.
 */
export function holdArtifactProducer(): ArtifactProducer {
  const hold = shared.hold(() => workerFailure(WORDS, TIMEOUT_MS, 'closed'));
  return producerOn(
    hold.value,
    (call) => hold.run(call),
    async () => hold.release(),
    () => !hold.released,
  );
}
