import type { Context } from '../../context.js';
import type { RequestRow, SignerRow } from '../../model/request-queries.js';
import { requestDocument } from '../../model/documents.js';
import { conflict, ParaphError } from '../../domain/errors.js';
import { resolveSigningLink } from './resolve-signing-link.js';
import { verifiedHere } from './signer-access.js';

/**
 * The signer's copy of the signed PDF. Once a request is completed, each signer's link stays readable
 * (never usable for signing again: a signed signer's link always resolves as closed) and offers the
 * signed PDF for as long as the request's content is kept. Each signer who was mailed about the
 * request also gets a `completed` mail with a read-only link to it, queued with the artifacts.
 */

export type SignedPdfState = 'none' | 'pending' | 'ready' | 'purged';

/** Where the signed PDF stands for the signers of a request. */
export function signedPdfState(ctx: Context, request: RequestRow): SignedPdfState {
  if (request.status === 'purged') return 'purged';
  if (request.status !== 'completed') return 'none';
  const row = ctx.db.first(
    ctx.db.q.selectFrom('artifacts').select(['blob_id', 'purged_at']).where('request_id', '=', request.id).where('type', '=', 'signed-pdf'),
  );
  if (!row) return 'pending';
  return row.purged_at !== null || row.blob_id === null ? 'purged' : 'ready';
}

/**
 * Whether a signer's copy stays behind their email code: a signer with `email_otp` gets the signed PDF only in a
 * browser or client that entered the code (a forwarded link, or the `completed` mail's, asks for a new one), as
 * the document did before they signed.
 */
export function copyLocked(ctx: Context, state: SignedPdfState, signer: SignerRow, verification: string | null): boolean {
  return (state === 'ready' || state === 'pending') && signer.verification === 'email_otp' && !verifiedHere(ctx, signer, verification);
}

/** The signed PDF through a signer's link: only for a signer who signed a completed request (after their email code, if any). */
export async function signedDocumentForSigner(ctx: Context, token: string, verification: string | null): Promise<{ bytes: Buffer; filename: string }> {
  const found = ctx.db.transaction(() => {
    const link = resolveSigningLink(ctx, token);
    if (link.ok || link.reason !== 'signed' || !link.request)
      throw conflict('the signed document is offered through this link once you signed and every signer has signed');
    const state = signedPdfState(ctx, link.request);
    if (state === 'purged') {
      throw new ParaphError('artifact_purged', 'the content of this request is no longer kept: ask the sender for a copy of the signed document');
    }
    if (state === 'none') {
      // Only an active request can still complete: one declined, cancelled or expired never has a signed document.
      if (link.request.status !== 'active') throw conflict(`this request is ${link.request.status}: it will never have a signed document`);
      throw conflict('the other signers have not all signed yet: the signed document is offered once they have');
    }
    if (link.signer && copyLocked(ctx, state, link.signer, verification)) throw conflict('enter the code sent by email to download the signed document');
    const row = ctx.db.first(ctx.db.q.selectFrom('artifacts').selectAll().where('request_id', '=', link.request.id).where('type', '=', 'signed-pdf'));
    if (!row?.blob_id) throw new ParaphError('artifact_not_available', 'the signed document is being prepared; retry in a few seconds');
    return { blobId: row.blob_id, sha256: row.sha256, filename: requestDocument(ctx.db, link.request).filename };
  });
  const base = found.filename.replace(/\.pdf$/i, '').trim() || 'document';
  return { bytes: await ctx.blobs.get(found.blobId, found.sha256), filename: `${base}-signed.pdf` };
}
