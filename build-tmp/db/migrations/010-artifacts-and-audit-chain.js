import { sql } from 'kysely';
import { AUDIT_GENESIS, auditRowHash } from '../../domain/audit-chain.js';
/**
 * The audit trail becomes append-only and hash-chained: each row stores the hash of the row before it
 * and its own hash over its content and that link. Rows written before this migration are chained
 * here, in id order, before the triggers start refusing changes.
 */
export async function up(db) {
    await db.schema.alterTable('audit_events').addColumn('prev_hash', 'text').execute();
    await db.schema.alterTable('audit_events').addColumn('hash', 'text').execute();
    const rows = await sql `
    select request_id, id, type, actor_type, actor_id, actor_email, signer_id, data, created_at
    from audit_events order by request_id, id`.execute(db);
    let request = '';
    let previous = AUDIT_GENESIS;
    for (const row of rows.rows) {
        if (row.request_id !== request) {
            request = row.request_id;
            previous = AUDIT_GENESIS;
        }
        const hash = auditRowHash(row, previous);
        await sql `update audit_events set prev_hash = ${previous}, hash = ${hash}
      where request_id = ${row.request_id} and id = ${row.id}`.execute(db);
        previous = hash;
    }
    // Append-only: nothing rewrites or removes history, not even the retention purge.
    await sql `create trigger audit_events_no_update before update on audit_events
    begin select raise(abort, 'audit_events is append-only: rows cannot be changed'); end`.execute(db);
    await sql `create trigger audit_events_no_delete before delete on audit_events
    begin select raise(abort, 'audit_events is append-only: rows cannot be deleted'); end`.execute(db);
    // A new row must continue its request's chain: the next id, linked to the last row's hash.
    // (SQLite cannot compute SHA-256, so the hash itself is checked by \`paraph audit verify\`.)
    await sql `create trigger audit_events_chain before insert on audit_events
    when new.hash is null
      or new.id is not coalesce((select max(id) from audit_events where request_id = new.request_id), 0) + 1
      or new.prev_hash is not coalesce(
        (select hash from audit_events where request_id = new.request_id and id = new.id - 1),
        ${sql.lit(AUDIT_GENESIS)})
    begin select raise(abort, 'audit_events: a new row must continue its request''s hash chain'); end`.execute(db);
}
//# sourceMappingURL=010-artifacts-and-audit-chain.js.map