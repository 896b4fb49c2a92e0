import type { Context } from '../../context.js';
import { conflict } from '../../domain/errors.js';
import { openLink } from './signer-access.js';

/** The PDF to sign, for an open link, once the email code (if any) was entered. */
export async function signerDocument(ctx: Context, token: string, verification: string | null): Promise<{ bytes: Buffer; filename: string }> {
  const open = openLink(ctx, token, verification);
  if (open.verificationRequired) throw conflict('enter the code sent by email to see the document');
  const document = ctx.db.first(ctx.db.q.selectFrom('documents').selectAll().where('id', '=', open.request.document_id));
  if (!document?.blob_id) throw conflict('the document content is no longer available');
  return { bytes: await ctx.blobs.get(document.blob_id, document.sha256), filename: document.filename };
}
