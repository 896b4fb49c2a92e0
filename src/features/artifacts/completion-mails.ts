import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { randomBase62, sha256Hex } from '../../platform/crypto/tokens.js';
import { currentSigners, type RequestRow } from '../../model/request-queries.js';
import { queueMail } from '../mail/outbox.js';
import { COPY_LINK } from '../../model/signing-links.js';

/**
 * Queues the `completed` mail of each signer who signed and was mailed about this request before
 * (invitation, reminder, replacement or code): a request run without mails stays without. Each mail
 * carries a fresh read-only link, valid until the request's content is purged. Call inside the
 * transaction that records the artifacts.
 */
export function queueCompletionMails(ctx: Context, request: RequestRow, at: number): string[] {
  const { db } = ctx;
  const mailed = new Set(
    db.all(db.q.selectFrom('mail_outbox').select('signer_id').where('request_id', '=', request.id).where('kind', '!=', 'completed')).map((r) => r.signer_id),
  );
  const ids: string[] = [];
  for (const signer of currentSigners(db, request.id)) {
    if (signer.status !== 'signed' || !mailed.has(signer.id)) continue;
    const token = randomBase62(32);
    // Born closed, as the signer's copy: it can only ever show the signed signer's page and the signed
    // PDF, and never sends the signer on to the request's return_url (signer-view.ts).
    db.insert('signing_links', {
      id: randomUUID(),
      request_id: request.id,
      signer_id: signer.id,
      token_hash: sha256Hex(token),
      created_at: at,
      expires_at: request.retention_expires_at,
      revoked_at: at,
      revoked_reason: COPY_LINK,
    });
    const lang = signer.locale ? `?lang=${signer.locale}` : '';
    ids.push(
      queueMail(ctx, { request, signer, kind: 'completed', link: `${ctx.publicUrl()}/sign/${token}${lang}`, linkExpiresAt: request.retention_expires_at }),
    );
  }
  return ids;
}
