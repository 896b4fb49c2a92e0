import type { Context } from '../../context.js';
import type { RequestRow } from '../../model/request-queries.js';
import { moveRequest } from '../../model/request-guard.js';
import { revokeRequestLinks } from '../../model/signing-links.js';
import { audit, emitEvent } from '../events/record-events.js';
import { nextSigners } from './signer-turns.js';

/**
 * When no signer can sign any more (signature_request.expired): asked after a link expires
 * (requests/expire-links.ts) and after a signature that leaves others to sign (sign-as-signer.ts).
 */

/**
 * Whether a signer of the active request can still sign: one who has to sign holds a live link and, in a
 * sequential request, every lower `order` has signed (a signer waiting behind one whose link expired
 * cannot sign, whatever their own link). Read in the transaction of the change that asks.
 */
export function someoneCanSign(ctx: Context, request: RequestRow): boolean {
  const { db } = ctx;
  const canSign = nextSigners(ctx, request);
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
  audit(ctx, { requestId: request.id, type: 'request_expired', actor: { type: 'system' }, at: now });
  return expired;
}
