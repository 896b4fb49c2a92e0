import type { Db } from './database.js';

/** The small key/value state every process on the data directory shares. */
export function readSetting(db: Db, key: string): string | undefined {
  return db.first(db.q.selectFrom('settings').select('value').where('key', '=', key))?.value;
}

/** Writes one setting; inside a caller's transaction when there is one. */
export function writeSetting(db: Db, key: string, value: string): void {
  db.transaction(() =>
    db.run(
      db.q
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value })),
    ),
  );
}
