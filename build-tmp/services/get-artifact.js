import { ParaphError } from '../errors.js';
import { ARTIFACT_TYPES } from './generate-artifacts.js';
import { loadRequest } from './request-guard.js';
const CONTENT_TYPES = {
    'signed-pdf': 'application/pdf',
    'evidence.pdf': 'application/pdf',
    'evidence.json': 'application/json; charset=utf-8',
};
const SUFFIXES = {
    'signed-pdf': '-signed.pdf',
    'evidence.pdf': '-evidence.pdf',
    'evidence.json': '-evidence.json',
};
const notYet = (message) => new ParaphError('artifact_not_available', message);
const purged = () => new ParaphError('artifact_not_available', 'the content of this request was purged after its retention deadline (10 days after upload)', { status: 410 });
/**
 * One artifact of the account's request, decrypted whole before anything is answered: a blob that
 * fails authentication throws here (a 500), never after part of the body went out.
 */
export async function getArtifact(ctx, input) {
    const { db } = ctx;
    const request = loadRequest(ctx, input.accountId, input.id);
    if (request.status === 'purged')
        throw purged();
    const rows = db.all(db.q.selectFrom('artifacts').selectAll().where('request_id', '=', request.id));
    const row = rows.find((r) => r.type === input.type);
    if (row && (row.purged_at !== null || row.blob_id === null))
        throw purged();
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
    const bytes = await ctx.blobs.get(row.blob_id, row.sha256);
    return {
        bytes,
        contentType: CONTENT_TYPES[input.type],
        filename: `${baseName(document?.filename ?? 'document.pdf')}${SUFFIXES[input.type]}`,
        sha256: row.sha256,
    };
}
function baseName(filename) {
    const base = filename.replace(/\.pdf$/i, '').trim();
    return base === '' ? 'document' : base;
}
//# sourceMappingURL=get-artifact.js.map