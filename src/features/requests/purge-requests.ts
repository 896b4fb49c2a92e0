import type { Context } from '../../context.js';
import { findAnyRequest, type RequestRow } from '../../model/request-queries.js';
import { audit } from '../events/record-events.js';
import { moveRequest } from '../../model/request-guard.js';
import { revokeRequestLinks } from '../../model/signing-links.js';
import { requestDocument } from '../../model/documents.js';
import type { PurgeCause } from '../../domain/audit-events.js';

/** Retention: every request past its deadline is purged, whatever its status. */
export async function purgeDueRequests(ctx: Context): Promise<number> {
  const { db } = ctx;
  const due = db.all(
    db.q
      .selectFrom('signature_requests')
      .select('id')
      .where('status', '!=', 'purged')
      .where('retention_expires_at', '<=', ctx.clock.now())
      .orderBy('retention_expires_at', 'asc'),
  );
  let purged = 0;
  for (const { id } of due) if (await purgeRequest(ctx, id, 'retention')) purged += 1;
  return purged;
}

/**
 * Deletes a request's content (the original PDF and any artifact), then marks it `purged` with its
 * links dead. The files go first: a crash in between leaves a request that the next run purges again,
 * never a `purged` request whose content is still on disk. The audit trail records the cause, which a
 * later download's 410 reports. Answers false when it was already purged.
 */
export async function purgeRequest(ctx: Context, requestId: string, cause: PurgeCause): Promise<boolean> {
  const { db } = ctx;
  const request = findAnyRequest(db, requestId);
  if (!request || request.status === 'purged') return false;
  const document = requestDocument(db, request);
  const artifacts = db.all(db.q.selectFrom('artifacts').select('blob_id').where('request_id', '=', requestId));
  for (const blobId of [document.blob_id, ...artifacts.map((a) => a.blob_id)]) {
    if (blobId) await ctx.blobs.delete(blobId);
  }
  return db.transaction(() => {
    const now = ctx.clock.now();
    const row = findAnyRequest(db, requestId) as RequestRow;
    if (row.status === 'purged') return false;
    db.run(db.q.updateTable('documents').set({ blob_id: null, purged_at: now }).where('id', '=', row.document_id));
    db.run(db.q.updateTable('artifacts').set({ blob_id: null, purged_at: now }).where('request_id', '=', requestId));
    revokeRequestLinks(ctx, requestId, 'closed', now);
    moveRequest(ctx, row, 'purge', {}, now);
    audit(ctx, { requestId, type: 'request_purged', actor: { type: 'system' }, data: { previous_status: row.status, cause }, at: now });
    return true;
  });
}
