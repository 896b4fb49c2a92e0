export async function up(db) {
    await db.schema
        .createTable('artifacts')
        .addColumn('request_id', 'text', (c) => c.notNull().references('signature_requests.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('blob_id', 'text')
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('purged_at', 'integer')
        .addPrimaryKeyConstraint('artifacts_pk', ['request_id', 'type'])
        .execute();
    await db.schema.createIndex('signature_requests_retention').on('signature_requests').columns(['status', 'retention_expires_at']).execute();
}
//# sourceMappingURL=003-artifacts.js.map