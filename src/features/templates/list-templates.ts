import type { Context } from '../../context.js';
import { listActiveTemplates } from './queries.js';
import type { TemplateList } from '../../contract/templates.js';
import { templateOf } from './template-views.js';

/** The account's templates, newest first; archived ones are gone from the list. */
export function listTemplates(ctx: Context, accountId: string): TemplateList {
  return { data: listActiveTemplates(ctx.db, accountId).map(templateOf) };
}
