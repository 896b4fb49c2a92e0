import type { Kysely } from 'kysely';

// An email code unlocks a link for the browser or client that entered it, not for the link: each
// verification keeps the SHA-256 of a random secret the client holds (a cookie, or a header).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signer_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('signer_id', 'text', (c) => c.notNull().references('signers.id'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signer_verifications_signer').on('signer_verifications').columns(['signer_id', 'secret_hash']).execute();
}
