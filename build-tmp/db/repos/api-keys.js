import { preparedQuery } from '../prepared-query.js';
export function insertAccount(db, account) {
    db.insert('accounts', account);
}
export function accountExists(db, id) {
    return db.first(db.q.selectFrom('accounts').select('id').where('id', '=', id)) !== undefined;
}
export function countAccounts(db) {
    return Number(db.first(db.q.selectFrom('accounts').select((eb) => eb.fn.countAll().as('n')))?.n ?? 0);
}
export function insertApiKey(db, row) {
    db.insert('api_keys', row);
}
/** Remembered until the database changes, so a key revoked by the CLI stops working at the next call. */
export function findApiKeyByHash(db, keyHash) {
    return db.memo(`api-key:${keyHash}`, () => db.first(apiKeyByHash, keyHash));
}
const apiKeyByHash = preparedQuery((q, keyHash) => q.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash));
export function findApiKey(db, id) {
    return db.first(db.q.selectFrom('api_keys').selectAll().where('id', '=', id));
}
export function listApiKeys(db) {
    return db.all(db.q.selectFrom('api_keys').selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc'));
}
export function revokeApiKey(db, id, at) {
    return db.run(db.q.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null))
        .changes === 1;
}
//# sourceMappingURL=api-keys.js.map