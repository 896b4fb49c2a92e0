import type { Context } from '../../context.js';
import { conflict } from '../../domain/errors.js';
import { documentContent, requestDocument } from '../../model/documents.js';
import { openLink } from './signer-access.js';

/** The PDF to sign, for an open link, once the email code (if any) was entered. */
export async function signerDocument(ctx: Context, token: string, verification: string | null): Promise<{ bytes: Buffer; filename: string }> {
  const open = openLink(ctx, token, verification);
  if (open.verificationRequired) throw conflict('enter the code sent by email to see the document');
  const document = requestDocument(ctx.db, open.request);
  return { bytes: await documentContent(ctx, open.request, document), filename: document.filename };
}
