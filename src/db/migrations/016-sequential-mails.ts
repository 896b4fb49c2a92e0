import type { Kysely } from 'kysely';

// Sequential requests mail each signer when their turn comes. `send_emails` remembers that the request
// was activated with mails; `url_sealed` keeps a sequential request's live signing URL encrypted under
// the master key, so that the turn mail carries the very link the client got (never a rotated one).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('signature_requests')
    .addColumn('send_emails', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('signing_links').addColumn('url_sealed', 'blob').execute();
}
