import type { Context } from '../../context.js';
import { findActiveTemplate } from './queries.js';
import { isTemplateReady, rolesOf } from '../../domain/template-rules.js';
import { ParaphError } from '../../domain/errors.js';
import type { FieldInput } from '../../contract/signature-requests.js';
import type { PageBox } from '../../domain/field-rules.js';
import { templateFields } from './template-views.js';

/** What a request made from a template copies: the PDF (decrypted), its measured pages, the fields and roles. */
export interface TemplateSource {
  id: string;
  filename: string;
  bytes: Buffer;
  pages: readonly (PageBox & { rotation: number })[];
  fields: readonly FieldInput[];
  roles: readonly string[];
}

export const templateNotFound = (id: string) =>
  new ParaphError('template_not_found', `template ${id} does not exist for this API key's account, or was archived (GET /v1/templates lists its templates)`);

/**
 * The account's template, ready to be used: 404 `template_not_found` when it is missing, archived or
 * another account's; 409 `template_not_ready` when it has no confirmed field set.
 */
export async function loadTemplate(ctx: Context, accountId: string, id: string): Promise<TemplateSource> {
  const row = findActiveTemplate(ctx.db, accountId, id);
  if (!row || row.blob_id === null) throw templateNotFound(id);
  const fields = templateFields(row);
  if (!isTemplateReady(fields)) {
    throw new ParaphError('template_not_ready', `template ${id} has no confirmed field set: it cannot be used`);
  }
  let bytes: Buffer;
  try {
    bytes = await ctx.blobs.get(row.blob_id, row.sha256);
  } catch (error) {
    // Archived while we were reading it: the archive deleted the file.
    if (!findActiveTemplate(ctx.db, accountId, id)) throw templateNotFound(id);
    throw error;
  }
  return {
    id: row.id,
    filename: row.filename,
    bytes,
    pages: JSON.parse(row.pages_json) as TemplateSource['pages'],
    fields,
    roles: rolesOf(fields),
  };
}
