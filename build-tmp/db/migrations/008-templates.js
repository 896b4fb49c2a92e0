export async function up(db) {
    await db.schema
        .createTable('templates')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('page_count', 'integer', (c) => c.notNull())
        .addColumn('pages_json', 'text', (c) => c.notNull())
        .addColumn('blob_id', 'text')
        .addColumn('fields_json', 'text', (c) => c.notNull())
        .addColumn('field_count', 'integer', (c) => c.notNull())
        .addColumn('signer_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'integer', (c) => c.notNull())
        .addColumn('archived_at', 'integer')
        .execute();
    await db.schema.createIndex('templates_account').on('templates').columns(['account_id', 'archived_at', 'seq']).execute();
}
//# sourceMappingURL=008-templates.js.map