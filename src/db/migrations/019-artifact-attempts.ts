import type { Kysely } from 'kysely';

// Each attempt to make a completed request's artifacts, kept as webhook attempts are: when it started
// and ended (sandbox time), how it ended, the error of a failed one and when the next one was due.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('artifact_attempts')
    .addColumn('request_id', 'text', (c) => c.notNull().references('signature_requests.id'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'integer', (c) => c.notNull())
    .addColumn('finished_at', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('next_attempt_at', 'integer')
    .addPrimaryKeyConstraint('artifact_attempts_pk', ['request_id', 'number'])
    .execute();
}
