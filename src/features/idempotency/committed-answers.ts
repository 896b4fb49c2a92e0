import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '../../context.js';
import { slot } from '../../platform/slots.js';

/** The Idempotency-Key call a use case runs for, as the HTTP layer claimed it. */
export interface KeyedCallScope {
  accountId: string;
  key: string;
  /** The X-Request-Id of the call: a replay answers with it. */
  requestId: string;
  /** What identifies the call's body: a row's answer is found again only by the same call. */
  fingerprint: string;
  /** Set once the use case wrote its answer in its transaction. */
  recorded: boolean;
  /** A row of a call made of rows (a bulk send) and the step under way: its answer is the row's. */
  row?: { index: number; step: RowStep };
}

/** The steps of a bulk send's row, each a use case that writes its answer with its change. */
export type RowStep = 'create' | 'activate';

/** A mail the answer reports on: `path` leads, in the answer, to the object whose `email_delivery` it sets. */
export interface AnswerMail {
  path: ReadonlyArray<string | number>;
  mail_id: string;
}

const scope = new AsyncLocalStorage<KeyedCallScope>();

/** Keys whose first call is running in this process (a retry meanwhile answers 409). */
const RUNNING = slot('idempotency-running-calls', () => new Set<string>());

export function runningKeys(ctx: Context): Set<string> {
  return ctx.state.get(RUNNING);
}

export function runningKeyOf(call: { accountId: string; key: string }): string {
  return `${call.accountId}\n${call.key}`;
}

/** Runs a claimed call's handler: the use cases it calls write their answer with their change. */
export function runKeyedCall<T>(ctx: Context, call: KeyedCallScope, fn: () => T): T {
  const running = runningKeys(ctx);
  const id = runningKeyOf(call);
  running.add(id);
  const done = () => running.delete(id);
  try {
    const result = scope.run(call, fn);
    if (result instanceof Promise) {
      result.then(done, done);
    } else done();
    return result;
  } catch (error) {
    done();
    throw error;
  }
}

/**
 * Writes the answer of the Idempotency-Key call under way, inside the transaction of its change, so a
 * crash at any later instant leaves the change and its answer together: a retry replays this answer
 * and never acts again. `mails` are outbox mails sent after the commit; a replay reports their outcome
 * in `email_delivery`. Inside a row of a keyed bulk send, the answer is that row's step's
 * (row-answers.ts). Outside a keyed call (no key, a CLI command) it does nothing. Must run inside a
 * transaction.
 */
export function recordIdempotentAnswer(ctx: Context, answer: { status: number; body: unknown; mails?: readonly AnswerMail[] }): void {
  const call = scope.getStore();
  if (!call || call.recorded) return;
  call.recorded = true;
  const mails = JSON.stringify(answer.mails ?? []);
  if (call.row) {
    ctx.db.insert('idempotency_row_answers', {
      account_id: call.accountId,
      key: call.key,
      fingerprint: call.fingerprint,
      row_index: call.row.index,
      step: call.row.step,
      body: ctx.secrets.seal(Buffer.from(JSON.stringify(answer.body)), rowAnswerAad(call, call.row)),
      mails,
      created_at: ctx.clock.now(),
    });
    return;
  }
  ctx.db.run(
    ctx.db.q
      .updateTable('idempotency_keys')
      .set({
        state: 'committed',
        status_code: answer.status,
        content_type: 'application/json; charset=utf-8',
        body: ctx.secrets.seal(Buffer.from(JSON.stringify(answer.body)), answerAad(call)),
        request_id: call.requestId,
        mails,
      })
      .where('account_id', '=', call.accountId)
      .where('key', '=', call.key)
      .where('owner', '=', ctx.processId)
      .where('state', '=', 'in_progress'),
  );
}

/** The keyed call under way, if any. */
export function keyedCallUnderWay(): Readonly<KeyedCallScope> | undefined {
  return scope.getStore();
}

/**
 * Runs one step of a row of the keyed call under way (a bulk send creating, then activating, a
 * recipient's request): the use case writes its answer as that row's, and the call's own answer stays
 * the batch's. Outside a keyed call, `fn` just runs.
 */
export function inKeyedRow<T>(row: { index: number; step: RowStep }, fn: () => T): T {
  const call = scope.getStore();
  if (!call) return fn();
  return scope.run({ ...call, recorded: false, row }, fn);
}

/** Additional data bound to a stored answer's seal: it opens only for its account and key. */
export function answerAad(call: { accountId: string; key: string }): string {
  return `idempotent-answer:${call.accountId}:${call.key}`;
}

/** The same for a row's step. */
export function rowAnswerAad(call: { accountId: string; key: string }, row: { index: number; step: string }): string {
  return `idempotent-row-answer:${call.accountId}:${call.key}:${row.index}:${row.step}`;
}

/**
 * The committed answer with each mail's outcome, or undefined while a mail is still pending (the first
 * call, or the sender a start runs, is still at it; an answer can be `null`, a 204's). A mail left pending by a crash goes again: mail
 * is delivered at least once.
 */
export function completeCommittedAnswer(ctx: Context, body: unknown, mailsJson: string | null): unknown {
  const mails = JSON.parse(mailsJson ?? '[]') as AnswerMail[];
  if (mails.length === 0) return body;
  const rows = ctx.db.all(
    ctx.db.q
      .selectFrom('mail_outbox')
      .select(['id', 'status'])
      .where(
        'id',
        'in',
        mails.map((m) => m.mail_id),
      ),
  );
  const status = new Map(rows.map((r) => [r.id, r.status]));
  if (mails.some((m) => status.get(m.mail_id) === 'pending')) return undefined;
  for (const mail of mails) {
    let target = body as Record<string | number, unknown>;
    for (const step of mail.path) target = target[step] as Record<string | number, unknown>;
    target.email_delivery = status.get(mail.mail_id) === 'sent' ? 'sent' : 'failed';
  }
  return body;
}
