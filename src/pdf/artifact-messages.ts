/** What the server (produce-artifacts.ts) and the artifact worker thread (artifact-worker.ts) say to each other. */
import type { EvidenceReport } from './evidence-pdf.js';
import type { StampField } from './stamp.js';
import type { SealTimestamp, TimestampPlan } from './tsa-seal.js';

export interface ProduceJob {
  original: Uint8Array;
  fields: StampField[];
  /** Time of the seal (sandbox clock, ms): the signature dictionary's /M. */
  sealAt: number;
  signer: { certificateDer: Uint8Array; privateKeyDer: Uint8Array; name: string };
  /** Where the signature-time-stamp comes from (PAdES B-T), or null for a B-B seal. */
  timestamp: TimestampPlan | null;
  /** The report without the signed PDF's hash and the timestamps, which only exist once sealed. */
  report: Omit<EvidenceReport, 'hashes' | 'timestamps'> & { originalSha256: string };
}

/** What a warm-up runs with: the signer, and the built-in authority if timestamps are on (never an external one). */
export interface WarmUp {
  signer: ProduceJob['signer'];
  timestamp: Extract<TimestampPlan, { authority: 'built-in' }> | null;
}

/** A failure a test asks the worker to have on a job (see ArtifactProducer.injectFault). */
export type ArtifactWorkerFault = 'throw' | 'exit' | 'out-of-memory';

/** A job, and the failure the worker is to have instead of doing it (a test seam). */
export interface ProduceRequest {
  job: ProduceJob;
  fault?: ArtifactWorkerFault;
}

export interface ProducedArtifacts {
  signedPdf: Uint8Array;
  evidencePdf: Uint8Array;
  /** The seal's timestamps as checked when it was made (empty for a B-B seal). */
  timestamps: SealTimestamp[];
}

/**
 * A note (no answer): produce once for a made-up one-page document, so the first real job finds more
 * compiled.
 */
export interface WarmUpNote {
  warm: WarmUp;
}

/** The entry module the artifact worker thread runs. */
export const ARTIFACT_ENTRY = 'pdf/artifact-worker';
