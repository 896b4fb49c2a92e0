import type { Kysely } from 'kysely';

// Receiver checks (`paraph webhooks check`): the test deliveries sent to a user's receiver and its
// answers, one row per check, kept apart from the account's webhook deliveries.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('receiver_checks')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('passed', 'integer', (c) => c.notNull())
    .addColumn('report_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
}
