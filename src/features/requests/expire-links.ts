import type { Context } from '../../context.js';
import { currentSigners, findAnyRequest } from '../../model/request-queries.js';
import { audit, emitEvent } from '../events/record-events.js';
import { updateRequest } from '../../model/request-guard.js';
import { expireRequest, someoneCanSign } from '../signing/no-one-can-sign.js';

const SYSTEM = { type: 'system' } as const;

/**
 * Link expiry: a signer whose live link has passed `expires_at` while they still had to sign becomes
 * `expired` (signer.expired); once no signer can sign any more (`someoneCanSign`, signing/no-one-can-sign.ts), the request becomes
 * `expired` (signature_request.expired) and all its links die. Each request is one transaction that
 * re-reads what it changes, so a tick and a clock advance never apply it twice. (A signature that leaves
 * only expired signers to sign ends the request the same way: sign-as-signer.ts.)
 */
export function expireDueLinks(ctx: Context, onlyRequestId?: string): number {
  const { db } = ctx;
  let query = db.q
    .selectFrom('signing_links')
    .innerJoin('signature_requests', 'signature_requests.id', 'signing_links.request_id')
    .select('signing_links.request_id')
    .distinct()
    .where('signing_links.revoked_at', 'is', null)
    .where('signing_links.expires_at', '<=', ctx.clock.now())
    .where('signature_requests.status', '=', 'active');
  if (onlyRequestId !== undefined) query = query.where('signing_links.request_id', '=', onlyRequestId);
  let changed = 0;
  for (const { request_id } of db.all(query)) {
    changed += db.transaction(() => expireRequestLinks(ctx, request_id));
  }
  return changed;
}

function expireRequestLinks(ctx: Context, requestId: string): number {
  const { db } = ctx;
  const now = ctx.clock.now();
  let request = findAnyRequest(db, requestId);
  if (!request || request.status !== 'active') return 0;
  const due = db.all(
    db.q
      .selectFrom('signing_links')
      .select(['id', 'signer_id'])
      .where('request_id', '=', requestId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '<=', now),
  );
  if (due.length === 0) return 0;
  request = updateRequest(ctx, request, {}, now);
  for (const link of due) {
    db.run(db.q.updateTable('signing_links').set({ revoked_at: now, revoked_reason: 'expired' }).where('id', '=', link.id));
  }
  const dueSigners = new Set(due.map((l) => l.signer_id));
  const expiring = currentSigners(db, requestId).filter((s) => dueSigners.has(s.id) && (s.status === 'pending' || s.status === 'viewed'));
  for (const signer of expiring) db.run(db.q.updateTable('signers').set({ status: 'expired', updated_at: now }).where('id', '=', signer.id));
  // Each event carries the request's status after the whole change (the last signer.expired, `expired`).
  const ends = !someoneCanSign(ctx, request);
  for (const signer of expiring) {
    emitEvent(ctx, { request: ends ? { ...request, status: 'expired' } : request, type: 'signer.expired', signer: { ...signer, status: 'expired' }, at: now });
    audit(ctx, { requestId, type: 'signer_expired', actor: SYSTEM, signerId: signer.id, at: now });
  }
  if (ends) expireRequest(ctx, request, now);
  return due.length;
}
