import type { Context } from '../../context.js';
import { ParaphError } from '../../domain/errors.js';
import { contentPurged, requestDocument } from '../../model/documents.js';
import { ARTIFACT_TYPES, type ArtifactType } from './generate-artifacts.js';
import { loadRequest } from '../../model/request-guard.js';

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
 * One artifact of the account's request, decrypted whole before anything is answered: a blob that
 * fails authentication throws here (a 500), never after part of the body went out.
 */
export async function getArtifact(ctx: Context, input: { accountId: string; id: string; type: ArtifactType }): Promise<ArtifactDownload> {
  const { db } = ctx;
  const request = loadRequest(ctx, input.accountId, input.id);
  if (request.status === 'purged') throw contentPurged(ctx, request);
  const rows = db.all(db.q.selectFrom('artifacts').selectAll().where('request_id', '=', request.id));
  const row = rows.find((r) => r.type === input.type);
  if (row && (row.purged_at !== null || row.blob_id === null)) throw contentPurged(ctx, request);
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
  const document = requestDocument(db, request);
  const bytes = await ctx.blobs.get(row.blob_id as string, row.sha256);
  return {
    bytes,
    contentType: CONTENT_TYPES[input.type],
    filename: `${baseName(document.filename)}${SUFFIXES[input.type]}`,
    sha256: row.sha256,
  };
}

function baseName(filename: string): string {
  const base = filename.replace(/\.pdf$/i, '').trim();
  return base === '' ? 'document' : base;
}
