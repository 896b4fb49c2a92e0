import type { Context } from '../../context.js';
import { sha256Hex } from '../../platform/crypto/tokens.js';
import { findAnyRequest, type RequestRow, type SignerRow } from '../../model/request-queries.js';
import { COPY_LINK } from '../../model/signing-links.js';

/** Why a link can no longer be used: the iframe's `signing.closed` statuses. */
export type ClosedReason = 'signed' | 'declined' | 'cancelled' | 'expired' | 'revoked' | 'unavailable';

export type LinkResolution =
  | { ok: true; request: RequestRow; signer: SignerRow; expiresAt: number }
  /** `copy`: the read-only link of a `completed` mail, the signer's copy. */
  | { ok: false; reason: ClosedReason; request: RequestRow | null; signer: SignerRow | null; copy?: boolean };

/**
 * The signer behind a signing token, or why the link is closed. The token is the only credential:
 * it is looked up by its SHA-256, and only the live link of a signer who can still act opens.
 */
export function resolveSigningLink(ctx: Context, token: string): LinkResolution {
  const { db } = ctx;
  if (!/^[0-9A-Za-z]{20,100}$/.test(token)) return { ok: false, reason: 'unavailable', request: null, signer: null };
  const link = db.first(db.q.selectFrom('signing_links').selectAll().where('token_hash', '=', sha256Hex(token)));
  if (!link) return { ok: false, reason: 'unavailable', request: null, signer: null };
  const request = findAnyRequest(db, link.request_id) ?? null;
  const signer = db.first(db.q.selectFrom('signers').selectAll().where('id', '=', link.signer_id)) ?? null;
  if (!request || !signer) return { ok: false, reason: 'unavailable', request, signer };
  const closed = (reason: ClosedReason): LinkResolution => ({ ok: false, reason, request, signer, copy: link.revoked_reason === COPY_LINK });

  if (signer.status === 'signed') return closed('signed');
  if (signer.status === 'declined' || request.status === 'declined') return closed('declined');
  if (request.status === 'cancelled') return closed('cancelled');
  if (request.status === 'expired' || request.status === 'purged') return closed('expired');
  if (link.revoked_at !== null) return closed(link.revoked_reason === 'expired' ? 'expired' : 'revoked');
  if (signer.replaced_at !== null) return closed('revoked');
  if (link.expires_at <= ctx.clock.now() || signer.status === 'expired') return closed('expired');
  if (request.status !== 'active') return closed('unavailable');
  return { ok: true, request, signer, expiresAt: link.expires_at };
}
