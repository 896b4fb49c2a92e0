import type { Context } from '../../context.js';
import { currentSigners, type RequestRow, type SignerRow } from '../../model/request-queries.js';
import { queueMail } from '../mail/outbox.js';
import { issueLink, liveSigningUrl } from '../../model/signing-links.js';

/**
 * Whose turn it is in a sequential request. At activation with `send_emails`, only the signers nobody
 * has to sign before are invited; each other signer is mailed when every signer of a lower `order`
 * has signed (a `turn` mail), with the link the client got at activation (or from the latest reminder
 * or replacement), never a rotated one. A mail that reaches a signer who must still wait (a reminder,
 * a replacement) names who signs first.
 */

/** How a signer is named to another: their name, else their email. */
export function personName(signer: SignerRow): string {
  return signer.name?.trim() || signer.email;
}

/** The signers who must sign before this one and have not yet (empty unless sequential). */
export function signersBefore(ctx: Context, request: RequestRow, signer: SignerRow, signers = currentSigners(ctx.db, request.id)): SignerRow[] {
  if (request.sequential_signing !== 1) return [];
  return signers.filter((s) => s.signing_order < signer.signing_order && s.status !== 'signed');
}

/** Was this signer mailed about the request (any mail but a code)? */
function wasMailed(ctx: Context, signerId: string): boolean {
  return ctx.db.first(ctx.db.q.selectFrom('mail_outbox').select('id').where('signer_id', '=', signerId).where('kind', '!=', 'otp')) !== undefined;
}

/**
 * Queues the turn mails a signature opens: to each signer still to sign whose every lower `order` has
 * now signed, when the request was activated with mails or the signer was mailed about it. Call in the
 * signature's transaction; send the answered mails after the commit.
 */
export function queueTurnMails(ctx: Context, request: RequestRow, signed: SignerRow, at: number): Array<{ mailId: string; signer: SignerRow }> {
  if (request.sequential_signing !== 1 || request.status !== 'active') return [];
  const signers = currentSigners(ctx.db, request.id);
  const queued: Array<{ mailId: string; signer: SignerRow }> = [];
  for (const next of signers) {
    if (next.signing_order <= signed.signing_order || (next.status !== 'pending' && next.status !== 'viewed')) continue;
    if (signersBefore(ctx, request, next, signers).length > 0) continue;
    if (request.send_emails !== 1 && !wasMailed(ctx, next.id)) continue;
    // The link the client holds; a link issued before paraph kept them is replaced by a fresh one.
    const link = liveSigningUrl(ctx, next.id, at) ?? issueLink(ctx, request, next, at);
    const before = signers.filter((s) => s.signing_order < next.signing_order).map(personName);
    queued.push({
      mailId: queueMail(ctx, { request, signer: next, kind: 'turn', link: link.signing_url, linkExpiresAt: link.expires_at, signedBefore: before }),
      signer: next,
    });
  }
  return queued;
}

/** Whom a signer waits for, by name, for a mail that reaches them while they must wait. */
export function waitingNames(ctx: Context, request: RequestRow, signer: SignerRow): string[] {
  return signersBefore(ctx, request, signer).map(personName);
}

/** The signers of an active request who can sign now: every one still to sign, or in a sequential request those whose every lower `order` signed. */
export function nextSigners(ctx: Context, request: RequestRow): SignerRow[] {
  if (request.status !== 'active') return [];
  const signers = currentSigners(ctx.db, request.id);
  return signers.filter((s) => (s.status === 'pending' || s.status === 'viewed') && signersBefore(ctx, request, s, signers).length === 0);
}
