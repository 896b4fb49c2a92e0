import type { Context } from '../../context.js';
import type { ArtifactAttemptOutcome } from '../../db/schema/artifacts.js';
import { isoTime } from '../../platform/clock.js';

/** A failure message is kept up to this many characters. */
const MAX_ERROR_LENGTH = 1000;

export interface ArtifactAttemptRecord {
  /** Sandbox time the attempt started. */
  startedAt: number;
  outcome: ArtifactAttemptOutcome;
  error?: unknown;
  /** After a failure: the next attempt comes this many ms after this one ends. */
  retryInMs?: number;
}

/**
 * Records one attempt to make a request's artifacts, numbered after the request's earlier ones (across
 * processes and restarts: the rows are the count). Call it inside the transaction that stores the
 * artifacts for a success, so the attempt and its result appear together.
 */
export function recordArtifactAttempt(ctx: Context, requestId: string, attempt: ArtifactAttemptRecord): void {
  const { db } = ctx;
  db.transaction(() => {
    const finishedAt = ctx.clock.now();
    const last = db.first(
      db.q
        .selectFrom('artifact_attempts')
        .select((a) => a.fn.max<number>('number').as('n'))
        .where('request_id', '=', requestId),
    );
    db.insert('artifact_attempts', {
      request_id: requestId,
      number: (last?.n ?? 0) + 1,
      started_at: attempt.startedAt,
      finished_at: finishedAt,
      outcome: attempt.outcome,
      error: attempt.error === undefined ? null : errorText(attempt.error),
      next_attempt_at: attempt.retryInMs === undefined ? null : finishedAt + attempt.retryInMs,
    });
  });
}

/** Every attempt of a request, oldest first (the dashboard shows them beside the webhook attempts). */
export function artifactAttempts(ctx: Context, requestId: string) {
  return ctx.db.all(ctx.db.q.selectFrom('artifact_attempts').selectAll().where('request_id', '=', requestId).orderBy('number', 'asc')).map((a) => ({
    number: a.number,
    outcome: a.outcome,
    started_at: isoTime(a.started_at),
    finished_at: isoTime(a.finished_at),
    duration_ms: Math.max(0, a.finished_at - a.started_at),
    error: a.error,
    next_attempt_at: isoTime(a.next_attempt_at),
  }));
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
