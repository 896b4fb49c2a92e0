// A replay answers with the first call's request id, in the body and in X-Request-Id alike.
export async function up(db) {
    await db.schema.alterTable('idempotency_keys').addColumn('request_id', 'text').execute();
}
//# sourceMappingURL=005-idempotency-request-id.js.map