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
    for (const row of rows) db.insert('emails', { ...row, received_at: now });
    // Sequence numbers count every mail ever caught, so until the newest passes `maxMessages` there
    // cannot be more than that many. Past that, the oldest go: counted through the smallest index and
    // deleted from the oldest end, so the cost follows the number dropped, not the number kept.
    const newest = db.first(newestEmail)?.seq ?? 0;
    if (newest <= maxMessages) return;
    const excess = (db.first(emailCount)?.n ?? 0) - maxMessages;
    if (excess > 0) db.run(dropOldestEmails, excess);
  });
}

const newestEmail = preparedQuery((q) => q.selectFrom('emails').select('seq').orderBy('seq', 'desc').limit(1));
const emailCount = preparedQuery((q) => q.selectFrom('emails').select((eb) => eb.fn.countAll<number>().as('n')));
const dropOldestEmails = preparedQuery((q, count: number) =>
  q.deleteFrom('emails').where('seq', 'in', q.selectFrom('emails').select('seq').orderBy('seq', 'asc').limit(count)),
);
