import { listActiveTemplates } from '../db/repos/templates.js';
import { templateOf } from './template-views.js';
/** The account's templates, newest first; archived ones are gone from the list. */
export function listTemplates(ctx, accountId) {
    return { data: listActiveTemplates(ctx.db, accountId).map(templateOf) };
}
//# sourceMappingURL=list-templates.js.map