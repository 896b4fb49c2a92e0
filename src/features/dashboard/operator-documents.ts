import type { Context } from '../../context.js';
import { notFound } from '../../domain/errors.js';
import { findAnyRequest } from '../../model/request-queries.js';
import { documentContent, requestDocument } from '../../model/documents.js';
import type { ArtifactType } from '../artifacts/generate-artifacts.js';
import { getArtifact, type ArtifactDownload } from '../artifacts/get-artifact.js';

function accountOf(ctx: Context, id: string): string {
  const row = ctx.db.first(ctx.db.q.selectFrom('signature_requests').select('account_id').where('id', '=', id));
  if (!row) throw notFound(`signature request ${id} does not exist`);
  return row.account_id;
}

/** The request's original PDF, for the dashboard's preview (any account); 410 once purged. */
export async function operatorDocument(ctx: Context, id: string): Promise<{ bytes: Buffer; filename: string }> {
  const request = findAnyRequest(ctx.db, id);
  if (!request) throw notFound(`signature request ${id} does not exist`);
  const document = requestDocument(ctx.db, request);
  return { bytes: await documentContent(ctx, request, document), filename: document.filename };
}

/** An artifact of a request of any account, with the API's rules (409 not yet, 410 purged). */
export function operatorArtifact(ctx: Context, id: string, type: ArtifactType): Promise<ArtifactDownload> {
  return getArtifact(ctx, { accountId: accountOf(ctx, id), id, type });
}
