import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { TemplatesTable } from '../../db/schema/templates.js';

export type TemplateRow = Selectable<TemplatesTable>;

export function insertTemplate(db: Db, row: Insertable<TemplatesTable>): void {
  db.insert('templates', row);
}

/** One usable template of one account: an archived or another account's template is as absent as a missing one. */
export function findActiveTemplate(db: Db, accountId: string, id: string): TemplateRow | undefined {
  return db.first(db.q.selectFrom('templates').selectAll().where('id', '=', id).where('account_id', '=', accountId).where('archived_at', 'is', null));
}

/** The account's usable templates, newest first. */
export function listActiveTemplates(db: Db, accountId: string): TemplateRow[] {
  return db.all(db.q.selectFrom('templates').selectAll().where('account_id', '=', accountId).where('archived_at', 'is', null).orderBy('seq', 'desc'));
}

export function markTemplateArchived(db: Db, id: string, at: number): void {
  db.run(db.q.updateTable('templates').set({ archived_at: at, updated_at: at }).where('id', '=', id));
}

/** Archived templates whose PDF is still stored (an archive interrupted before it deleted the file). */
export function archivedTemplateBlobs(db: Db, accountId: string): { id: string; blob_id: string }[] {
  return db
    .all(
      db.q
        .selectFrom('templates')
        .select(['id', 'blob_id'])
        .where('account_id', '=', accountId)
        .where('archived_at', 'is not', null)
        .where('blob_id', 'is not', null),
    )
    .flatMap((r) => (r.blob_id === null ? [] : [{ id: r.id, blob_id: r.blob_id }]));
}

export function forgetTemplateBlob(db: Db, id: string): void {
  db.run(db.q.updateTable('templates').set({ blob_id: null }).where('id', '=', id));
}
