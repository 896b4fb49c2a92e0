import type { Kysely } from 'kysely';

// A keyed call made of rows (a bulk send) writes each row's answer in the transaction of that row's
// change, by step (`create`, `activate`): a retry after a crash answers the rows done as they were, and
// does the rest. Bound to the call's fingerprint, so a key freed and reused for another body replays nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_row_answers')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('row_index', 'integer', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('body', 'blob', (c) => c.notNull())
    .addColumn('mails', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_row_answers_pk', ['account_id', 'key', 'row_index', 'step'])
    .execute();
  await db.schema.createIndex('idempotency_row_answers_created').on('idempotency_row_answers').column('created_at').execute();
}
