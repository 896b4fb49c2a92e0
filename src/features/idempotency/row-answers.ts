import type { Context } from '../../context.js';
import { ParaphError } from '../../domain/errors.js';
import { completeCommittedAnswer, keyedCallUnderWay, rowAnswerAad, type AnswerMail, type RowStep } from './committed-answers.js';

/**
 * The answers a keyed call made of rows (a bulk send) wrote row by row, each in the transaction of the
 * row's step: what a retry after a crash answers for the rows the first call got through, instead of
 * acting on them again.
 */
export interface RowAnswers {
  /** The step's answer as it was written, with each of its mails' outcome; undefined when the step never committed. */
  get(index: number, step: RowStep): unknown;
}

const NONE: RowAnswers = { get: () => undefined };

/** The rows' answers of the keyed call under way (none outside a keyed call, or on its first attempt). */
export function committedRowAnswers(ctx: Context): RowAnswers {
  const call = keyedCallUnderWay();
  if (!call) return NONE;
  const rows = ctx.db.all(
    ctx.db.q
      .selectFrom('idempotency_row_answers')
      .select(['row_index', 'step', 'body', 'mails'])
      .where('account_id', '=', call.accountId)
      .where('key', '=', call.key)
      .where('fingerprint', '=', call.fingerprint),
  );
  if (rows.length === 0) return NONE;
  const byStep = new Map(rows.map((row) => [`${row.row_index}:${row.step}`, row]));
  return {
    get(index, step) {
      const row = byStep.get(`${index}:${step}`);
      if (!row) return undefined;
      const body = JSON.parse(ctx.secrets.open(row.body, rowAnswerAad(call, { index, step })).toString()) as unknown;
      const complete = completeCommittedAnswer(ctx, body, row.mails);
      // The claim waits for these mails (idempotency-keys.ts): only a start still sending them gets here.
      if (complete === undefined)
        throw new ParaphError('temporarily_unavailable', 'a mail of the first attempt of this call is still being sent; retry shortly');
      return complete;
    },
  };
}

/**
 * Whether a mail of a row the call answered is still pending: the killed process queued it and the
 * start that followed is still sending it. A retry meanwhile waits (409 in progress), as a single call's does.
 */
export function rowMailsPending(ctx: Context, call: { accountId: string; key: string; fingerprint: string }): boolean {
  const rows = ctx.db.all(
    ctx.db.q
      .selectFrom('idempotency_row_answers')
      .select('mails')
      .where('account_id', '=', call.accountId)
      .where('key', '=', call.key)
      .where('fingerprint', '=', call.fingerprint),
  );
  const ids = rows.flatMap((row) => (JSON.parse(row.mails) as AnswerMail[]).map((mail) => mail.mail_id));
  if (ids.length === 0) return false;
  return ctx.db.first(ctx.db.q.selectFrom('mail_outbox').select('id').where('id', 'in', ids).where('status', '=', 'pending')) !== undefined;
}

/**
 * Forgets the rows' answers of a key, but those of the call `keep` names: a key taken for another
 * call (another body, or the same after its 24 hours) replays nothing of the one before.
 */
export function forgetRowAnswers(ctx: Context, call: { accountId: string; key: string }, keep?: { fingerprint: string; since: number }): void {
  let query = ctx.db.q.deleteFrom('idempotency_row_answers').where('account_id', '=', call.accountId).where('key', '=', call.key);
  if (keep) query = query.where((eb) => eb.or([eb('fingerprint', '!=', keep.fingerprint), eb('created_at', '<=', keep.since)]));
  ctx.db.run(query);
}

/**
 * Forgets, with the keys past their 24 hours (the scheduler), their rows' answers, and any answer
 * written up to `before` (those of a key freed after a failure and never used again).
 */
export function expireRowAnswers(ctx: Context, now: number, before: number): number {
  const { q } = ctx.db;
  return ctx.db.run(
    q
      .deleteFrom('idempotency_row_answers')
      .where((eb) =>
        eb.or([
          eb('created_at', '<=', before),
          eb.exists(
            eb
              .selectFrom('idempotency_keys')
              .select('idempotency_keys.key')
              .whereRef('idempotency_keys.account_id', '=', 'idempotency_row_answers.account_id')
              .whereRef('idempotency_keys.key', '=', 'idempotency_row_answers.key')
              .where('idempotency_keys.expires_at', '<=', now),
          ),
        ]),
      ),
  ).changes;
}
