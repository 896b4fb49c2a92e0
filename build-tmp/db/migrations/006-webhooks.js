export async function up(db) {
    await db.schema
        .createTable('webhook_deliveries')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('request_id', 'text', (c) => c.notNull().references('signature_requests.id'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempt_count', 'integer', (c) => c.notNull())
        .addColumn('failures_in_row', 'integer', (c) => c.notNull())
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', 'integer')
        .addColumn('delivered_at', 'integer')
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'integer')
        .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_account').on('webhook_deliveries').columns(['account_id', 'seq']).execute();
    await db.schema
        .createTable('webhook_attempts')
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('attempted_at', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'number'])
        .execute();
}
//# sourceMappingURL=006-webhooks.js.map