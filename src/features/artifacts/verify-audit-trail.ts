import type { Context } from '../../context.js';
import { checkAuditChain, type AuditBreak } from '../../domain/audit-chain.js';
import { notFound } from '../../domain/errors.js';

export interface AuditVerification {
  signature_request_id: string;
  events: number;
  /** Hash of the last event that verifies (the chain head when intact). */
  head: string;
  intact: boolean;
  broken: AuditBreak | null;
}

/**
 * Walks a request's audit trail and recomputes every hash: each row must carry the next id, link to
 * the previous row's hash and match its own content. Names the first row that does not.
 */
export function verifyAuditTrail(ctx: Context, requestId: string): AuditVerification {
  const { db } = ctx;
  const request = db.first(db.q.selectFrom('signature_requests').select('id').where('id', '=', requestId));
  if (!request) throw notFound(`signature request ${requestId} does not exist`);
  const rows = db.all(db.q.selectFrom('audit_events').selectAll().where('request_id', '=', requestId).orderBy('id', 'asc'));
  const check = checkAuditChain(rows);
  return { signature_request_id: requestId, events: check.count, head: check.head, intact: check.broken === null, broken: check.broken };
}
