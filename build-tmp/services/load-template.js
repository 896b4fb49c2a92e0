import { findActiveTemplate } from '../db/repos/templates.js';
import { isTemplateReady, rolesOf } from '../domain/template-rules.js';
import { ParaphError } from '../errors.js';
import { templateFields } from './template-views.js';
export const templateNotFound = (id) => new ParaphError('template_not_found', `template ${id} does not exist`);
/**
 * The account's template, ready to be used: 404 `template_not_found` when it is missing, archived or
 * another account's; 409 `template_not_ready` when it has no confirmed field set.
 */
export async function loadTemplate(ctx, accountId, id) {
    const row = findActiveTemplate(ctx.db, accountId, id);
    if (!row || row.blob_id === null)
        throw templateNotFound(id);
    const fields = templateFields(row);
    if (!isTemplateReady(fields)) {
        throw new ParaphError('template_not_ready', `template ${id} has no confirmed field set: it cannot be used`);
    }
    let bytes;
    try {
        bytes = await ctx.blobs.get(row.blob_id, row.sha256);
    }
    catch (error) {
        // Archived while we were reading it: the archive deleted the file.
        if (!findActiveTemplate(ctx.db, accountId, id))
            throw templateNotFound(id);
        throw error;
    }
    return {
        id: row.id,
        filename: row.filename,
        bytes,
        pages: JSON.parse(row.pages_json),
        fields,
        roles: rolesOf(fields),
    };
}
//# sourceMappingURL=load-template.js.map