import type { Context } from '../context.js';
import type { Db } from '../db/database.js';
import { preparedQuery } from '../db/prepared-query.js';
import type { AuditEventData, PurgeCause } from '../domain/audit-events.js';
import { ParaphError } from '../domain/errors.js';
import { isoTime } from '../platform/clock.js';
import type { DocumentRow, RequestRow } from './request-queries.js';

/**
 * A request's document and its content. The row stays for the request's whole life; a purge (at the
 * retention deadline or by hand) empties its content (`blob_id`) and the artifacts', and every read
 * of content that is gone answers the same 410.
 */

/** The document row of a request (every request has one: the database refuses a request without it). */
export function requestDocument(db: Db, request: Pick<RequestRow, 'id' | 'document_id'>): DocumentRow {
  const row = db.first(documentById, request.document_id);
  if (!row) throw new Error(`the document of signature request ${request.id} is missing from the database`);
  return row;
}

const documentById = preparedQuery((q, id: string) => q.selectFrom('documents').selectAll().where('id', '=', id));

/** The original PDF of a request, or the 410 of purged content. */
export async function documentContent(ctx: Context, request: RequestRow, document: DocumentRow = requestDocument(ctx.db, request)): Promise<Buffer> {
  if (document.blob_id === null) throw contentPurged(ctx, request);
  return ctx.blobs.get(document.blob_id, document.sha256);
}

/**
 * Why a request was purged: as its audit trail records it, or for a purge recorded before the cause
 * was (an older data directory), by its date: only a purge by hand comes before the deadline.
 */
export function purgeCause(recorded: PurgeCause | undefined, purgedAt: number, retentionDeadline: number): PurgeCause {
  return recorded ?? (purgedAt < retentionDeadline ? 'by_hand' : 'retention');
}

/** The 410 of purged content: when the request's content went, and whether by hand or at the retention deadline. */
export function contentPurged(ctx: Context, request: RequestRow): ParaphError {
  const { db } = ctx;
  const document = requestDocument(db, request);
  const at = document.purged_at ?? request.updated_at;
  const record = db.first(
    db.q.selectFrom('audit_events').select('data').where('request_id', '=', request.id).where('type', '=', 'request_purged').orderBy('id', 'desc').limit(1),
  );
  const recorded = record ? (JSON.parse(record.data) as Partial<AuditEventData['request_purged']>).cause : undefined;
  const cause = purgeCause(recorded, at, request.retention_expires_at);
  const message =
    cause === 'by_hand'
      ? `the content of this request was purged by hand at ${isoTime(at)} (\`paraph purge\` or POST /_sandbox/signature-requests/{id}/purge); ` +
        'its document and artifacts can no longer be downloaded: create a new request to get new ones'
      : `the content of this request was purged at its retention deadline, ${isoTime(request.retention_expires_at)} (10 days after upload); ` +
        'its document and artifacts can no longer be downloaded: download artifacts before the deadline, or create a new request';
  return new ParaphError('artifact_purged', message);
}
