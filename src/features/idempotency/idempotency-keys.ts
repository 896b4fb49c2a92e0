import type { Context } from '../../context.js';
import { answerAad, completeCommittedAnswer, runningKeyOf, runningKeys } from './committed-answers.js';
import { expireRowAnswers, forgetRowAnswers, rowMailsPending } from './row-answers.js';
import { slot } from '../../platform/slots.js';
import { IDEMPOTENCY_TTL_MS } from '../../domain/limits.js';

/**
 * Keys this process claimed and has not settled (stored or freed) yet. A lock of this process's own
 * that is not among them is one whose freeing failed (a full disk): it is stale, and taken over.
 */
const CLAIMED = slot('idempotency-claimed-calls', () => new Set<string>());

export interface KeyedCall {
  accountId: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
}

export type Claim =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; contentType: string | null; body: Buffer; requestId: string | null }
  /** An answer written with the change (the call's process stopped before sending it): the route serializes it. */
  | { kind: 'replay_object'; status: number; body: unknown; requestId: string | null }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

/**
 * Takes an Idempotency-Key for a call, or tells why not: the stored answer of an earlier call, a call
 * still running, or a key used for another call. An answer written with its change (state
 * `committed`: the process stopped, or failed, before sending it) is replayed with its mails'
 * outcomes, once none is pending. A lock without an answer held by another process (one that
 * crashed, or the server before a restart), or by this one for a call it settled without freeing the
 * lock (the write failed), is stale and taken over: that call's change never committed, or, for a bulk
 * send, the rows it got through answer from their own records (row-answers.ts).
 */
export function claimIdempotencyKey(ctx: Context, call: KeyedCall): Claim {
  const claim = takeKey(ctx, call);
  if (claim.kind === 'new') ctx.state.get(CLAIMED).add(runningKeyOf(call));
  return claim;
}

function takeKey(ctx: Context, call: KeyedCall): Claim {
  const { db } = ctx;
  return db.transaction(() => {
    const now = ctx.clock.now();
    const where = db.q.selectFrom('idempotency_keys').selectAll().where('account_id', '=', call.accountId).where('key', '=', call.key);
    let row = db.first(where);
    if (row && row.expires_at <= now) {
      db.run(db.q.deleteFrom('idempotency_keys').where('account_id', '=', call.accountId).where('key', '=', call.key));
      forgetRowAnswers(ctx, call);
      row = undefined;
    }
    if (!row) {
      // Rows answered by this very call before its key was freed (a failure, a client gone) stay.
      forgetRowAnswers(ctx, call, { fingerprint: call.fingerprint, since: now - IDEMPOTENCY_TTL_MS });
      if (rowMailsPending(ctx, call)) return { kind: 'in_progress' };
      db.insert('idempotency_keys', {
        ...callColumns(call),
        state: 'in_progress',
        owner: ctx.processId,
        status_code: null,
        content_type: null,
        body: null,
        request_id: null,
        created_at: now,
        expires_at: now + IDEMPOTENCY_TTL_MS,
        mails: null,
      });
      return { kind: 'new' };
    }
    if (row.method !== call.method || row.path !== call.path || row.fingerprint !== call.fingerprint) return { kind: 'mismatch' };
    if (row.state === 'done' && row.status_code !== null && row.body !== null) {
      const body = ctx.secrets.open(row.body, answerAad(call));
      return { kind: 'replay', status: row.status_code, contentType: row.content_type, body, requestId: row.request_id };
    }
    const running = row.owner === ctx.processId && runningKeys(ctx).has(runningKeyOf(call));
    if (row.state === 'committed' && row.status_code !== null && row.body !== null && !running) {
      const stored = JSON.parse(ctx.secrets.open(row.body, answerAad(call)).toString()) as unknown;
      const body = completeCommittedAnswer(ctx, stored, row.mails);
      if (body === undefined) return { kind: 'in_progress' };
      return { kind: 'replay_object', status: row.status_code, body, requestId: row.request_id };
    }
    if (row.owner === ctx.processId && ctx.state.get(CLAIMED).has(runningKeyOf(call))) return { kind: 'in_progress' };
    // A bulk send's rows answered before the crash report their mails' outcome: wait for the start sending them.
    if (rowMailsPending(ctx, call)) return { kind: 'in_progress' };
    db.run(db.q.updateTable('idempotency_keys').set({ owner: ctx.processId }).where('account_id', '=', call.accountId).where('key', '=', call.key));
    return { kind: 'new' };
  });
}

/** Stores the answer of a claimed call as it was sent, to be replayed for 24 hours. */
export function storeIdempotentAnswer(
  ctx: Context,
  call: Pick<KeyedCall, 'accountId' | 'key'>,
  answer: { status: number; contentType: string | null; body: Buffer; requestId: string },
): void {
  settling(ctx, call, () =>
    ctx.db.run(
      ctx.db.q
        .updateTable('idempotency_keys')
        .set({
          state: 'done',
          status_code: answer.status,
          content_type: answer.contentType,
          // Answers can hold signing links (bearer credentials): they are kept sealed, never in the clear.
          body: ctx.secrets.seal(answer.body, answerAad(call)),
          request_id: answer.requestId,
        })
        .where('account_id', '=', call.accountId)
        .where('key', '=', call.key)
        .where('owner', '=', ctx.processId)
        .where('state', 'in', ['in_progress', 'committed']),
    ),
  );
}

/**
 * Frees a claimed key whose call must not be stored (5xx, 429, aborted), so it can be retried. A key
 * whose change committed stays: its retry replays the answer written with the change.
 */
export function releaseIdempotencyKey(ctx: Context, call: Pick<KeyedCall, 'accountId' | 'key'>): void {
  settling(ctx, call, () =>
    ctx.db.run(
      ctx.db.q
        .deleteFrom('idempotency_keys')
        .where('account_id', '=', call.accountId)
        .where('key', '=', call.key)
        .where('owner', '=', ctx.processId)
        .where('state', '=', 'in_progress'),
    ),
  );
}

/** Writes a claimed key's outcome; the key is this process's claim no more, even when the write fails. */
function settling(ctx: Context, call: Pick<KeyedCall, 'accountId' | 'key'>, write: () => unknown): void {
  try {
    ctx.db.transaction(write);
  } finally {
    ctx.state.get(CLAIMED).delete(runningKeyOf(call));
  }
}

/** Forgets keys past their 24 hours, with their rows' answers (the scheduler calls this). */
export function expireIdempotencyKeys(ctx: Context): number {
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    expireRowAnswers(ctx, now, now - IDEMPOTENCY_TTL_MS);
    return ctx.db.run(ctx.db.q.deleteFrom('idempotency_keys').where('expires_at', '<=', now)).changes;
  });
}

function callColumns(call: KeyedCall) {
  return { account_id: call.accountId, key: call.key, method: call.method, path: call.path, fingerprint: call.fingerprint };
}
