export async function up(db) {
    await db.schema.alterTable('signature_requests').addColumn('link_expiry_days', 'integer').execute();
    await db.schema
        .createTable('signing_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('request_id', 'text', (c) => c.notNull().references('signature_requests.id'))
        .addColumn('signer_id', 'text', (c) => c.notNull().references('signers.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'integer', (c) => c.notNull())
        .addColumn('revoked_at', 'integer')
        .addColumn('revoked_reason', 'text')
        .execute();
    await db.schema.createIndex('signing_links_signer').on('signing_links').columns(['signer_id', 'revoked_at']).execute();
    await db.schema.createIndex('signing_links_expiry').on('signing_links').columns(['revoked_at', 'expires_at']).execute();
    await db.schema
        .createTable('events')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('request_id', 'text', (c) => c.notNull().references('signature_requests.id'))
        .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .execute();
    await db.schema.createIndex('events_request').on('events').columns(['request_id', 'seq']).execute();
    await db.schema
        .createTable('audit_events')
        .addColumn('request_id', 'text', (c) => c.notNull().references('signature_requests.id'))
        .addColumn('id', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_email', 'text', (c) => c.notNull())
        .addColumn('signer_id', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_events_pk', ['request_id', 'id'])
        .execute();
    await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('content_type', 'text')
        .addColumn('body', 'blob')
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
        .execute();
    await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();
}
//# sourceMappingURL=002-lifecycle.js.map