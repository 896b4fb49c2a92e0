import type { Kysely } from 'kysely';

// A replay answers with the first call's request id, in the body and in X-Request-Id alike.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('request_id', 'text').execute();
}
