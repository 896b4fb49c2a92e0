import type { Context } from '../../context.js';
import { currentSigners, findAnyRequest } from '../../model/request-queries.js';
import { audit, emitEvent } from '../events/record-events.js';
import { moveRequest, updateRequest } from '../../model/request-guard.js';
import { revokeRequestLinks } from '../../model/signing-links.js';
import { signersBefore } from '../signing/signer-turns.js';

const SYSTEM = { type: 'system' } as const;

/**
 * Link expiry: a signer whose live link has passed `expires_at` while they still had to sign becomes
 * `expired` (signer.expired); once no signer can sign any more — none who still has to sign holds a live
 * link, or, in a sequential request, none of those whose turn it is (the later ones wait for a signer
 * whose link expired) — the request becomes `expired` (signature_request.expired) and all its links die. Each request is one
 * transaction that re-reads what it changes, so a tick and a clock advance never apply it twice.
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
  for (const signer of currentSigners(db, requestId)) {
    if (!dueSigners.has(signer.id) || (signer.status !== 'pending' && signer.status !== 'viewed')) continue;
    db.run(db.q.updateTable('signers').set({ status: 'expired', updated_at: now }).where('id', '=', signer.id));
    emitEvent(ctx, { request, type: 'signer.expired', signer: { ...signer, status: 'expired' }, at: now });
    audit(ctx, { requestId, type: 'signer_expired', actor: SYSTEM, signerId: signer.id, at: now });
  }
  // Who can sign now: every signer still to sign, but in a sequential request only those whose every
  // lower `order` has signed (a signer waiting behind an expired one cannot sign, whatever their link).
  const signers = currentSigners(db, requestId);
  const canSign = signers.filter((s) => (s.status === 'pending' || s.status === 'viewed') && signersBefore(ctx, request, s, signers).length === 0);
  const live =
    canSign.length > 0 &&
    db.first(
      db.q
        .selectFrom('signing_links')
        .select('id')
        .where('request_id', '=', requestId)
        .where('revoked_at', 'is', null)
        .where(
          'signer_id',
          'in',
          canSign.map((s) => s.id),
        ),
    ) !== undefined;
  if (!live) {
    const expired = moveRequest(ctx, request, 'expire', {}, now);
    revokeRequestLinks(ctx, requestId, 'expired', now);
    emitEvent(ctx, { request: expired, type: 'signature_request.expired', at: now });
    audit(ctx, { requestId, type: 'request_expired', actor: SYSTEM, at: now });
  }
  return due.length;
}
