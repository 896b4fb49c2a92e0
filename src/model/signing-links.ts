import { randomUUID } from 'node:crypto';
import type { Context } from '../context.js';
import { randomBase62, sha256Hex } from '../platform/crypto/tokens.js';
import type { RequestRow, SignerRow } from './request-queries.js';

import { DAY_MS, DEFAULT_LINK_EXPIRY_DAYS } from '../domain/limits.js';

/** The revoked reason a `completed` mail's link is born with: the signer's copy, never a link to sign. */
export const COPY_LINK = 'copy';

export type RevokeReason = 'rotated' | 'replaced' | 'cancelled' | 'closed' | 'expired';

export interface IssuedLink {
  signing_url: string;
  /** Empty when the request has no embed origin. */
  embed_url: string;
  expires_at: number;
}

/**
 * A fresh secret link for a signer: 256 random bits, of which only the SHA-256 is stored. Any link
 * the signer held before stops working. Call inside the transaction of the change that issues it.
 */
export function issueLink(ctx: Context, request: RequestRow, signer: SignerRow, at: number, reason: RevokeReason = 'rotated'): IssuedLink {
  revokeSignerLinks(ctx, signer.id, reason, at);
  const token = randomBase62(32);
  const days = request.link_expiry_days ?? DEFAULT_LINK_EXPIRY_DAYS;
  // A link never outlives the document it signs.
  const expiresAt = Math.min(at + days * DAY_MS, request.retention_expires_at);
  const base = ctx.publicUrl();
  const lang = signer.locale ? `?lang=${signer.locale}` : '';
  const signingUrl = `${base}/sign/${token}${lang}`;
  const id = randomUUID();
  ctx.db.insert('signing_links', {
    id,
    request_id: request.id,
    signer_id: signer.id,
    token_hash: sha256Hex(token),
    created_at: at,
    expires_at: expiresAt,
    revoked_at: null,
    revoked_reason: null,
    // A sequential signer's turn mail carries this very link (sealed: the database alone never gives it).
    url_sealed: request.sequential_signing === 1 ? ctx.secrets.seal(Buffer.from(signingUrl), `link:${id}`) : null,
  });
  ctx.db.run(ctx.db.q.updateTable('signers').set({ expires_at: expiresAt, updated_at: at }).where('id', '=', signer.id));
  return {
    signing_url: signingUrl,
    embed_url: request.embed_origin ? `${base}/embed/${token}${lang}` : '',
    expires_at: expiresAt,
  };
}

/** Kills the live links of one signer, or of every signer of a request. */
function revokeLinks(ctx: Context, owner: 'signer_id' | 'request_id', id: string, reason: RevokeReason, at: number): void {
  ctx.db.run(ctx.db.q.updateTable('signing_links').set({ revoked_at: at, revoked_reason: reason }).where(owner, '=', id).where('revoked_at', 'is', null));
}

export const revokeSignerLinks = (ctx: Context, signerId: string, reason: RevokeReason, at: number) => revokeLinks(ctx, 'signer_id', signerId, reason, at);

export const revokeRequestLinks = (ctx: Context, requestId: string, reason: RevokeReason, at: number) => revokeLinks(ctx, 'request_id', requestId, reason, at);

/** The live signing URL of a sequential request's signer, as issued (null when none is kept). */
export function liveSigningUrl(ctx: Context, signerId: string, at: number): { signing_url: string; expires_at: number } | null {
  const row = ctx.db.first(
    ctx.db.q
      .selectFrom('signing_links')
      .select(['id', 'url_sealed', 'expires_at'])
      .where('signer_id', '=', signerId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .orderBy('created_at', 'desc'),
  );
  if (!row?.url_sealed) return null;
  return { signing_url: ctx.secrets.open(row.url_sealed, `link:${row.id}`).toString(), expires_at: row.expires_at };
}
