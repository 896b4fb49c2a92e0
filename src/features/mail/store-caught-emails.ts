import type { Insertable } from 'kysely';
import type { Context } from '../../context.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { EmailsTable } from '../../db/schema/mail.js';

/** A message the SMTP catcher parsed, as it is stored (its receipt time is set when it is). */
export type CaughtEmailRow = Insertable<EmailsTable>;

/**
 * Stores messages caught together in one transaction, received now on the sandbox clock, and keeps only
 * the newest `maxMessages`.
 */
export function storeCaughtEmails(ctx: Context, rows: readonly CaughtEmailRow[], maxMessages: number): void {
  const { db } = ctx;
  db.transaction(() => {
    const now = ctx.clock.now();
    // Sequence numbers only grow (AUTOINCREMENT): the last one inserted is the newest.
    let newest = 0;
    for (const row of rows) {
      const inserted = db.first(
        insertEmail,
        row.id,
        now,
        row.mail_from,
        row.recipients,
        row.subject,
        row.text,
        row.html,
        row.headers,
        row.raw,
        row.size,
        row.kind ?? null,
        row.account_id ?? null,
        row.request_id ?? null,
        row.signer_reference ?? null,
      );
      newest = inserted?.seq ?? newest;
    }
    // Sequence numbers count every mail ever caught, so until the newest passes `maxMessages` there
    // cannot be more than that many. Past that, the oldest go: counted through the smallest index and
    // deleted from the oldest end, so the cost follows the number dropped, not the number kept.
    if (newest <= maxMessages) return;
    const excess = (db.first(emailCount)?.n ?? 0) - maxMessages;
    if (excess > 0) db.run(dropOldestEmails, excess);
  });
}

const insertEmail = preparedQuery(
  (
    q,
    id: string,
    receivedAt: number,
    mailFrom: string,
    recipients: string,
    subject: string,
    text: string,
    html: string,
    headers: string,
    raw: Buffer,
    size: number,
    kind: string | null,
    accountId: string | null,
    requestId: string | null,
    signerReference: string | null,
  ) =>
    q
      .insertInto('emails')
      .values({
        id,
        received_at: receivedAt,
        mail_from: mailFrom,
        recipients,
        subject,
        text,
        html,
        headers,
        raw,
        size,
        kind,
        account_id: accountId,
        request_id: requestId,
        signer_reference: signerReference,
      })
      .returning('seq'),
);
const emailCount = preparedQuery((q) => q.selectFrom('emails').select((eb) => eb.fn.countAll<number>().as('n')));
const dropOldestEmails = preparedQuery((q, count: number) =>
  q.deleteFrom('emails').where('seq', 'in', q.selectFrom('emails').select('seq').orderBy('seq', 'asc').limit(count)),
);
