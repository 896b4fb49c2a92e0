export async function up(db) {
    await db.schema
        .createTable('emails')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('received_at', 'integer', (c) => c.notNull())
        .addColumn('mail_from', 'text', (c) => c.notNull())
        .addColumn('recipients', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('headers', 'text', (c) => c.notNull())
        .addColumn('raw', 'blob', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text')
        .addColumn('account_id', 'text')
        .addColumn('request_id', 'text')
        .addColumn('signer_reference', 'text')
        .execute();
    await db.schema.createIndex('emails_account').on('emails').columns(['account_id', 'seq']).execute();
    await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('request_id', 'text', (c) => c.notNull().references('signature_requests.id'))
        .addColumn('signer_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('message_sealed', 'blob', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('sent_at', 'integer')
        .execute();
    await db.schema.createIndex('mail_outbox_status').on('mail_outbox').columns(['status', 'created_at']).execute();
}
//# sourceMappingURL=007-mail.js.map