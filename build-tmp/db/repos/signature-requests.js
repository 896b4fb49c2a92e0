import { preparedQuery } from '../prepared-query.js';
export function insertRequest(db, row) {
    db.insert('documents', row.document);
    db.insert('signature_requests', row.request);
    for (const signer of row.signers)
        db.insert('signers', signer);
    for (const field of row.fields)
        db.insert('fields', field);
}
/** One request of one account: another account's request is as absent as a missing one. */
export function findRequest(db, accountId, id) {
    return db.first(requestById, id, accountId);
}
const requestById = preparedQuery((q, id, accountId) => q.selectFrom('signature_requests').selectAll().where('id', '=', id).where('account_id', '=', accountId));
export function findRequestByClientReference(db, accountId, clientReference) {
    return db.first(requestByClientReference, accountId, clientReference);
}
const requestByClientReference = preparedQuery((q, accountId, clientReference) => q.selectFrom('signature_requests').selectAll().where('account_id', '=', accountId).where('client_reference', '=', clientReference));
/** Whether any account has a request waiting for signatures (one that may complete soon). */
export function anyActiveRequest(db) {
    return db.first(oneActiveRequest, 'active') !== undefined;
}
const oneActiveRequest = preparedQuery((q, status) => q.selectFrom('signature_requests').select('id').where('status', '=', status).limit(1));
/** Signers who hold the role now (replaced ones stay in the table for the audit trail). */
export function currentSigners(db, requestId) {
    return db.all(signersOfRequest, requestId);
}
const signersOfRequest = preparedQuery((q, requestId) => q.selectFrom('signers').selectAll().where('request_id', '=', requestId).where('replaced_at', 'is', null).orderBy('position', 'asc'));
export function requestFields(db, requestId) {
    return db.all(fieldsOfRequest, requestId);
}
const fieldsOfRequest = preparedQuery((q, requestId) => q.selectFrom('fields').selectAll().where('request_id', '=', requestId).orderBy('position', 'asc'));
/** Newest first; asks for one row more than the page so the caller knows whether a next page exists. */
export function listRequests(db, filter) {
    let query = db.q.selectFrom('signature_requests').selectAll();
    if (filter.accountId !== null)
        query = query.where('account_id', '=', filter.accountId);
    if (filter.status !== undefined)
        query = query.where('status', '=', filter.status);
    if (filter.clientReference !== undefined)
        query = query.where('client_reference', '=', filter.clientReference);
    if (filter.beforeSeq !== undefined)
        query = query.where('seq', '<', filter.beforeSeq);
    return db.all(query.orderBy('seq', 'desc').limit(filter.limit + 1));
}
/** Artifact types whose content is still stored. */
export function availableArtifacts(db, requestId) {
    return new Set(db.all(storedArtifactTypes, requestId).map((r) => r.type));
}
const storedArtifactTypes = preparedQuery((q, requestId) => q.selectFrom('artifacts').select('type').where('request_id', '=', requestId).where('blob_id', 'is not', null));
//# sourceMappingURL=signature-requests.js.map