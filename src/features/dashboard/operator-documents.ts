import type { Context } from '../../context.js';
import { notFound, ParaphError } from '../../domain/errors.js';
import type { ArtifactType } from '../artifacts/generate-artifacts.js';
import { getArtifact, type ArtifactDownload } from '../artifacts/get-artifact.js';

function accountOf(ctx: Context, id: string): string {
  const row = ctx.db.first(ctx.db.q.selectFrom('signature_requests').select('account_id').where('id', '=', id));
  if (!row) throw notFound(`signature request ${id} does not exist`);
  return row.account_id;
}

/** The request's original PDF, for the dashboard's preview (any account); 410 once purged. */
export async function operatorDocument(ctx: Context, id: string): Promise<{ bytes: Buffer; filename: string }> {
  const { db } = ctx;
  const row = db.first(
    db.q
      .selectFrom('signature_requests')
      .innerJoin('documents', 'documents.id', 'signature_requests.document_id')
      .select(['documents.blob_id', 'documents.sha256', 'documents.filename'])
      .where('signature_requests.id', '=', id),
  );
  if (!row) throw notFound(`signature request ${id} does not exist`);
  if (row.blob_id === null) throw new ParaphError('artifact_purged', 'the document of this request was purged');
  return { bytes: await ctx.blobs.get(row.blob_id, row.sha256), filename: row.filename };
}

/** An artifact of a request of any account, with the API's rules (409 not yet, 410 purged). */
export function operatorArtifact(ctx: Context, id: string, type: ArtifactType): Promise<ArtifactDownload> {
  return getArtifact(ctx, { accountId: accountOf(ctx, id), id, type });
}
