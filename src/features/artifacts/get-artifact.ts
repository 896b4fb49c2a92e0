import type { Context } from '../../context.js';
import { isoTime } from '../../platform/clock.js';
import type { RequestRow } from '../requests/queries.js';
import { ParaphError } from '../../domain/errors.js';
import type { AuditEventData, PurgeCause } from '../../domain/audit-events.js';
import { ARTIFACT_TYPES, type ArtifactType } from './generate-artifacts.js';
import { loadRequest } from '../requests/request-guard.js';

export interface ArtifactDownload {
  bytes: Buffer;
  contentType: string;
  filename: string;
  sha256: string;
}

const CONTENT_TYPES: Readonly<Record<ArtifactType, string>> = {
  'signed-pdf': 'application/pdf',
  'evidence.pdf': 'application/pdf',
  'evidence.json': 'application/json; charset=utf-8',
};

const SUFFIXES: Readonly<Record<ArtifactType, string>> = {
  'signed-pdf': '-signed.pdf',
  'evidence.pdf': '-evidence.pdf',
  'evidence.json': '-evidence.json',
};

const notYet = (message: string) => new ParaphError('artifact_not_available', message);

/**
 * Why a request was purged: as its audit trail records it, or for a purge recorded before the cause
 * was (an older data directory), by its date: only a purge by hand comes before the deadline.
 */
export function purgeCause(recorded: PurgeCause | undefined, purgedAt: number, retentionDeadline: number): PurgeCause {
  return recorded ?? (purgedAt < retentionDeadline ? 'by_hand' : 'retention');
}

/** The 410 of a purged request: when its content went, and whether by hand or at the retention deadline. */
function purged(ctx: Context, request: RequestRow): ParaphError {
  const { db } = ctx;
  const document = db.first(db.q.selectFrom('documents').select('purged_at').where('id', '=', request.document_id));
  const at = document?.purged_at ?? request.updated_at;
  const record = db.first(
    db.q.selectFrom('audit_events').select('data').where('request_id', '=', request.id).where('type', '=', 'request_purged').orderBy('id', 'desc').limit(1),
  );
  const recorded = record ? (JSON.parse(record.data) as Partial<AuditEventData['request_purged']>).cause : undefined;
  const cause = purgeCause(recorded, at, request.retention_expires_at);
  const message =
    cause === 'by_hand'
      ? `the content of this request was purged by hand at ${isoTime(at)} (\`paraph purge\` or POST /_sandbox/signature-requests/{id}/purge); ` +
        'its artifacts can no longer be downloaded: create a new request to get new ones'
      : `the content of this request was purged at its retention deadline, ${isoTime(request.retention_expires_at)} (10 days after upload); ` +
        'its artifacts can no longer be downloaded: download artifacts before the deadline, or create a new request';
  return new ParaphError('artifact_purged', message);
}

/**
 * One artifact of the account's request, decrypted whole before anything is answered: a blob that
 * fails authentication throws here (a 500), never after part of the body went out.
 */
export async function getArtifact(ctx: Context, input: { accountId: string; id: string; type: ArtifactType }): Promise<ArtifactDownload> {
  const { db } = ctx;
  const request = loadRequest(ctx, input.accountId, input.id);
  if (request.status === 'purged') throw purged(ctx, request);
  const rows = db.all(db.q.selectFrom('artifacts').selectAll().where('request_id', '=', request.id));
  const row = rows.find((r) => r.type === input.type);
  if (row && (row.purged_at !== null || row.blob_id === null)) throw purged(ctx, request);
  if (!row || ARTIFACT_TYPES.some((t) => !rows.some((r) => r.type === t))) {
    switch (request.status) {
      case 'completed':
        throw notYet('the artifacts of this request are being generated; retry in a few seconds');
      case 'prepared':
      case 'active':
        throw notYet(`artifacts are available once every signer has signed (the request is ${request.status})`);
      default:
        throw notYet(`the request is ${request.status}: it has no artifacts`);
    }
  }
  const document = db.first(db.q.selectFrom('documents').select('filename').where('id', '=', request.document_id));
  const bytes = await ctx.blobs.get(row.blob_id as string, row.sha256);
  return {
    bytes,
    contentType: CONTENT_TYPES[input.type],
    filename: `${baseName(document?.filename ?? 'document.pdf')}${SUFFIXES[input.type]}`,
    sha256: row.sha256,
  };
}

function baseName(filename: string): string {
  const base = filename.replace(/\.pdf$/i, '').trim();
  return base === '' ? 'document' : base;
}
