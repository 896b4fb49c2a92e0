export function insertTemplate(db, row) {
    db.insert('templates', row);
}
/** One usable template of one account: an archived or another account's template is as absent as a missing one. */
export function findActiveTemplate(db, accountId, id) {
    return db.first(db.q
        .selectFrom('templates')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('archived_at', 'is', null));
}
/** The account's usable templates, newest first. */
export function listActiveTemplates(db, accountId) {
    return db.all(db.q
        .selectFrom('templates')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('archived_at', 'is', null)
        .orderBy('seq', 'desc'));
}
export function markTemplateArchived(db, id, at) {
    db.run(db.q.updateTable('templates').set({ archived_at: at, updated_at: at }).where('id', '=', id));
}
/** Archived templates whose PDF is still stored (an archive interrupted before it deleted the file). */
export function archivedTemplateBlobs(db, accountId) {
    return db
        .all(db.q
        .selectFrom('templates')
        .select(['id', 'blob_id'])
        .where('account_id', '=', accountId)
        .where('archived_at', 'is not', null)
        .where('blob_id', 'is not', null))
        .flatMap((r) => (r.blob_id === null ? [] : [{ id: r.id, blob_id: r.blob_id }]));
}
export function forgetTemplateBlob(db, id) {
    db.run(db.q.updateTable('templates').set({ blob_id: null }).where('id', '=', id));
}
//# sourceMappingURL=templates.js.map