import { createHash } from 'node:crypto';
/** The `prev_hash` of a request's first audit event. */
export const AUDIT_GENESIS = '0'.repeat(64);
/**
 * SHA-256 of one row's content and the hash of the row before it. A JSON array is an unambiguous
 * encoding (no field can run into the next), and the leading tag versions the rule.
 */
export function auditRowHash(row, prevHash) {
    const content = [
        'paraph.audit/1',
        row.request_id,
        row.id,
        row.type,
        row.actor_type,
        row.actor_id,
        row.actor_email,
        row.signer_id,
        row.data,
        row.created_at,
        prevHash,
    ];
    return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
/** Walks a request's rows in id order and names the first one that breaks the chain. */
export function checkAuditChain(rows) {
    let previous = AUDIT_GENESIS;
    let expectedId = 1;
    for (const row of rows) {
        if (row.id !== expectedId) {
            const message = row.id > expectedId
                ? `event #${row.id} follows #${expectedId - 1}: ${expectedId === row.id - 1 ? `#${expectedId} is` : `#${expectedId} to #${row.id - 1} are`} missing`
                : `event #${row.id} is out of sequence`;
            return { count: rows.length, head: previous, broken: { id: row.id, reason: 'gap', message } };
        }
        if (row.prev_hash !== previous) {
            return {
                count: rows.length,
                head: previous,
                broken: { id: row.id, reason: 'link', message: `event #${row.id} does not link to the hash of ${row.id === 1 ? 'the chain start' : `event #${row.id - 1}`}` },
            };
        }
        if (row.hash !== auditRowHash(row, previous)) {
            return {
                count: rows.length,
                head: previous,
                broken: { id: row.id, reason: 'content', message: `event #${row.id} does not match its hash: its content was changed` },
            };
        }
        previous = row.hash;
        expectedId += 1;
    }
    return { count: rows.length, head: previous, broken: null };
}
//# sourceMappingURL=audit-chain.js.map