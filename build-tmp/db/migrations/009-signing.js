export async function up(db) {
    await db.schema.alterTable('signers').addColumn('viewed_at', 'integer').execute();
    await db.schema
        .createTable('signer_marks')
        .addColumn('signer_id', 'text', (c) => c.notNull().references('signers.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('text', 'text')
        .addColumn('image', 'blob')
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('signer_marks_pk', ['signer_id', 'kind'])
        .execute();
    await db.schema
        .createTable('signer_otps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('signer_id', 'text', (c) => c.notNull().references('signers.id'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'integer', (c) => c.notNull())
        .addColumn('closed_at', 'integer')
        .execute();
    await db.schema.createIndex('signer_otps_signer').on('signer_otps').columns(['signer_id', 'created_at']).execute();
    await db.schema
        .createTable('otp_failures')
        .addColumn('signer_id', 'text', (c) => c.notNull().references('signers.id'))
        .addColumn('at', 'integer', (c) => c.notNull())
        .execute();
    await db.schema.createIndex('otp_failures_signer').on('otp_failures').columns(['signer_id', 'at']).execute();
}
//# sourceMappingURL=009-signing.js.map