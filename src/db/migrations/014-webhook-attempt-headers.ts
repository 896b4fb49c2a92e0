import type { Kysely } from 'kysely';

// What each webhook attempt sent besides the event's bytes (which every attempt of a delivery shares):
// the Standard Webhooks headers signed for that send, as JSON. Null for an attempt that sent nothing
// (a fault rule, a refused destination) and for attempts recorded before this column existed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('request_headers', 'text').execute();
}
