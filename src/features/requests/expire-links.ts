import type { Context } from '../../context.js';
import { currentSigners, findAnyRequest, type RequestRow } from '../../model/request-queries.js';
import { audit, emitEvent } from '../events/record-events.js';
import { moveRequest, updateRequest } from '../../model/request-guard.js';
import { revokeRequestLinks } from '../../model/signing-links.js';
import { signersBefore } from '../signing/signer-turns.js';

const SYSTEM = { type: 'system' } as const;

/**
 * Link expiry: a signer whose live link has passed `expires_at` while they still had to sign becomes
 * `expired` (signer.expired); once no signer can sign any more (`someoneCanSign`), the request becomes
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

/**
 * Whether a signer of the active request can still sign: one who has to sign holds a live link and, in a
 * sequential request, every lower `order` has signed (a signer waiting behind one whose link expired
 * cannot sign, whatever their own link). Read in the transaction of the change that asks.
 */
export function someoneCanSign(ctx: Context, request: RequestRow): boolean {
  const { db } = ctx;
  const signers = currentSigners(db, request.id);
  const canSign = signers.filter((s) => (s.status === 'pending' || s.status === 'viewed') && signersBefore(ctx, request, s, signers).length === 0);
  if (canSign.length === 0) return false;
  const live = db.q
    .selectFrom('signing_links')
    .select('id')
    .where('request_id', '=', request.id)
    .where('revoked_at', 'is', null)
    .where(
      'signer_id',
      'in',
      canSign.map((s) => s.id),
    );
  return db.first(live) !== undefined;
}

/** No signer can sign any more: the request becomes `expired`, all its links die (signature_request.expired). */
export function expireRequest(ctx: Context, request: RequestRow, now: number): RequestRow {
  const expired = moveRequest(ctx, request, 'expire', {}, now);
  revokeRequestLinks(ctx, request.id, 'expired', now);
  emitEvent(ctx, { request: expired, type: 'signature_request.expired', at: now });
  audit(ctx, { requestId: request.id, type: 'request_expired', actor: SYSTEM, at: now });
  return expired;
}
