import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { ApiKeysTable } from '../../db/schema/api-keys.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function insertAccount(db: Db, account: { id: string; created_at: number }): void {
  db.insert('accounts', account);
}

export function accountExists(db: Db, id: string): boolean {
  return db.first(db.q.selectFrom('accounts').select('id').where('id', '=', id)) !== undefined;
}

export function countAccounts(db: Db): number {
  return Number(db.first(db.q.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')))?.n ?? 0);
}

export function insertApiKey(db: Db, row: ApiKeyRow): void {
  db.insert('api_keys', row);
}

/** Remembered until the database changes, so a key revoked by the CLI stops working at the next call. */
export function findApiKeyByHash(db: Db, keyHash: string): ApiKeyRow | undefined {
  return db.memo(`api-key:${keyHash}`, () => db.first(apiKeyByHash, keyHash));
}

const apiKeyByHash = preparedQuery((q, keyHash: string) => q.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash));

export function findApiKey(db: Db, id: string): ApiKeyRow | undefined {
  return db.first(db.q.selectFrom('api_keys').selectAll().where('id', '=', id));
}

export function listApiKeys(db: Db): ApiKeyRow[] {
  return db.all(db.q.selectFrom('api_keys').selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc'));
}

export function revokeApiKey(db: Db, id: string, at: number): boolean {
  return db.run(db.q.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null)).changes === 1;
}

/** Up to `limit` account ids, oldest first. */
export function listAccountIds(db: Db, limit: number): string[] {
  return db.all(db.q.selectFrom('accounts').select('id').orderBy('created_at', 'asc').orderBy('id', 'asc').limit(limit)).map((row) => row.id);
}
