import type { Kysely } from 'kysely';

// Sandbox fault rules: kept in the database so a rule the CLI adds reaches a running server.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fault_rules')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('rule_json', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('fired', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fault_rules_account').on('fault_rules').columns(['account_id', 'seq']).execute();
}
