import type { Kysely } from 'kysely';

// Migrations take Kysely<unknown>: they must not depend on today's table types.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('webhook_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('revoked_at', 'integer')
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('page_count', 'integer', (c) => c.notNull())
    .addColumn('pages_json', 'text', (c) => c.notNull())
    .addColumn('blob_id', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('purged_at', 'integer')
    .execute();

  await db.schema
    .createTable('signature_requests')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('client_reference', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id'))
    .addColumn('callback_url', 'text')
    .addColumn('sequential_signing', 'integer', (c) => c.notNull())
    .addColumn('return_url', 'text')
    .addColumn('embed_origin', 'text')
    .addColumn('email_json', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addColumn('retention_expires_at', 'integer', (c) => c.notNull())
    .addColumn('activated_at', 'integer')
    .addColumn('completed_at', 'integer')
    .addColumn('cancelled_at', 'integer')
    .addColumn('cancellation_reason', 'text')
    .addUniqueConstraint('signature_requests_account_reference', ['account_id', 'client_reference'])
    .execute();
  await db.schema.createIndex('signature_requests_account_status').on('signature_requests').columns(['account_id', 'status', 'seq']).execute();

  await db.schema
    .createTable('signers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().references('signature_requests.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('signing_order', 'integer', (c) => c.notNull())
    .addColumn('locale', 'text')
    .addColumn('verification', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'integer')
    .addColumn('expires_at', 'integer')
    .addColumn('verified_at', 'integer')
    .addColumn('replaced_at', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signers_request').on('signers').columns(['request_id', 'position']).execute();

  await db.schema
    .createTable('fields')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().references('signature_requests.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('signer_reference', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('field_key', 'text')
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('x', 'real', (c) => c.notNull())
    .addColumn('y', 'real', (c) => c.notNull())
    .addColumn('width', 'real', (c) => c.notNull())
    .addColumn('height', 'real', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('value', 'text')
    .addColumn('read_only', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fields_request').on('fields').columns(['request_id', 'position']).execute();
}
