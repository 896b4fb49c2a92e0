import { isoTime } from '../../platform/clock.js';
import type { Context } from '../../context.js';
import { currentSigners, findAnyRequest } from '../../model/request-queries.js';
import { signerOutstanding } from '../../domain/request-states.js';
import { conflict, notFound } from '../../domain/errors.js';
import { audit } from '../events/record-events.js';
import { issueLink } from '../../model/signing-links.js';

export interface OperatorSigningLink {
  signing_url: string;
  /** Empty when the request has no embed origin. */
  embed_url: string;
  embed_origin: string;
  expires_at: string;
}

/**
 * A fresh signing link for a signer of an active request, so the operator can open the signing page
 * (or the embed test page): links are stored hashed, so the one the signer holds cannot be shown, and
 * like a reminder this one replaces it (the previous link stops working). Recorded in the audit trail.
 */
export function issueOperatorSigningLink(ctx: Context, id: string, reference: string): OperatorSigningLink {
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const request = findAnyRequest(ctx.db, id);
    if (!request) throw notFound(`signature request ${id} does not exist`);
    if (request.status !== 'active') throw conflict(`the request is ${request.status}: only an active request has signing links`);
    const signer = currentSigners(ctx.db, id).find((s) => s.reference === reference);
    if (!signer) throw notFound(`no active signer has the reference "${reference}"`);
    if (!signerOutstanding(signer.status)) throw conflict(`signer "${reference}" already ${signer.status}: there is nothing to sign`);
    if (signer.status === 'expired') ctx.db.run(ctx.db.q.updateTable('signers').set({ status: 'pending' }).where('id', '=', signer.id));
    const link = issueLink(ctx, request, signer, now);
    audit(ctx, { requestId: id, type: 'link_issued', actor: { type: 'system' }, signerId: signer.id, data: { by: 'dashboard' }, at: now });
    return { signing_url: link.signing_url, embed_url: link.embed_url, embed_origin: request.embed_origin ?? '', expires_at: isoTime(link.expires_at) };
  });
}
