import type { Context } from '../../context.js';
import { currentSigners, type RequestRow, type SignerRow } from '../../model/request-queries.js';
import { conflict } from '../../domain/errors.js';
import type { ClosedReason } from '../../contract/signing.js';
import { resolveSigningLink } from './resolve-signing-link.js';
import { sha256Hex } from '../../platform/crypto/tokens.js';

/** What a signer may do through a live link. */
export interface OpenLink {
  request: RequestRow;
  signer: SignerRow;
  verificationRequired: boolean;
  /** References of signers who must sign first (sequential signing). */
  waitingFor: string[];
}

const CLOSED_MESSAGES: Readonly<Record<ClosedReason, string>> = {
  signed: 'this link was already used: the document is signed',
  declined: 'the signature request was declined',
  cancelled: 'the signature request was cancelled',
  expired: 'this signing link has expired',
  revoked: 'this signing link was replaced by a newer one',
  unavailable: 'this signing link cannot be used',
};

export function closedMessage(reason: ClosedReason): string {
  return CLOSED_MESSAGES[reason];
}

/**
 * The live link behind a token, or the 409 that says why it is closed. `verification` is the secret
 * the browser or client holds once it entered the email code (cookie or header), or null.
 */
export function openLink(ctx: Context, token: string, verification: string | null): OpenLink {
  const link = resolveSigningLink(ctx, token);
  if (!link.ok) throw conflict(closedMessage(link.reason));
  return describeOpen(ctx, link.request, link.signer, verification);
}

/** This browser or client entered the signer's email code: it holds the secret of one of the signer's verifications. */
export function verifiedHere(ctx: Context, signer: SignerRow, verification: string | null): boolean {
  if (verification === null || verification === '' || signer.verified_at === null) return false;
  const row = ctx.db.first(
    ctx.db.q
      .selectFrom('signer_verifications')
      .select('id')
      .where('signer_id', '=', signer.id)
      .where('secret_hash', '=', sha256Hex(`${signer.id}:${verification}`)),
  );
  return row !== undefined;
}

export function describeOpen(ctx: Context, request: RequestRow, signer: SignerRow, verification: string | null): OpenLink {
  const waitingFor =
    request.sequential_signing === 1
      ? currentSigners(ctx.db, request.id)
          .filter((s) => s.signing_order < signer.signing_order && s.status !== 'signed')
          .map((s) => s.reference)
      : [];
  const verificationRequired = signer.verification === 'email_otp' && !verifiedHere(ctx, signer, verification);
  return { request, signer, verificationRequired, waitingFor };
}

/** The return URL with the outcome appended (existing query kept); empty when the request has none. */
export function returnUrlFor(ctx: Context, request: RequestRow, signer: SignerRow, status: 'signed' | 'declined' | 'cancelled' | 'expired'): string {
  if (!request.return_url) return '';
  const url = new URL(request.return_url);
  url.searchParams.set(ctx.brand.returnStatusParam, status);
  url.searchParams.set('signature_request_id', request.id);
  url.searchParams.set('client_reference', request.client_reference);
  url.searchParams.set('signer_reference', signer.reference);
  return url.href;
}
