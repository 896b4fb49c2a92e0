import type { Kysely } from 'kysely';

// The event stream reads an account's events after a cursor, in seq order: without this index every
// read of GET /v1/events/stream scanned the events of every account.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('events_account_seq').on('events').columns(['account_id', 'seq']).execute();
}
