import type { Kysely } from 'kysely';

// The answer of an Idempotency-Key call is written in the transaction of its change (state `committed`),
// with the outbox mails whose outcome it reports: `[{ "path": [...], "mail_id": "..." }]` as JSON.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('mails', 'text').execute();
}
