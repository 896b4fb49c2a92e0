/** A completed request's products (signed-pdf, evidence.pdf, evidence.json), encrypted in the blob store. */
export interface ArtifactsTable {
  request_id: string;
  type: string;
  /** null once purged */
  blob_id: string | null;
  sha256: string;
  size: number;
  created_at: number;
  purged_at: number | null;
}

/** One attempt to make a completed request's artifacts (times in sandbox ms). */
export interface ArtifactAttemptsTable {
  request_id: string;
  /** 1, 2, 3, … per request. */
  number: number;
  started_at: number;
  finished_at: number;
  outcome: ArtifactAttemptOutcome;
  /** What went wrong (a failed attempt), else null. */
  error: string | null;
  /** When this process was to try again after a failed attempt, else null. */
  next_attempt_at: number | null;
}

export type ArtifactAttemptOutcome = 'succeeded' | 'failed';
