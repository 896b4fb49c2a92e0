import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { recordIdempotentAnswer } from '../idempotency/committed-answers.js';
import { findActiveTemplate, insertTemplate, type TemplateRow } from './queries.js';
import { checkFieldsOnPages } from '../../domain/field-rules.js';
import { checkTemplateFields, rolesOf } from '../../domain/template-rules.js';
import { invalidDocument, invalidRequest } from '../../domain/errors.js';
import type { FieldInput } from '../../contract/signature-requests.js';
import type { Template } from '../../contract/templates.js';
import type { Principal } from '../../domain/principal.js';
import { templateOf } from './template-views.js';
import { undrawnFieldValue } from '../../pdf/font-coverage.js';

export interface CreateTemplateInput {
  principal: Principal;
  document: { filename: string; bytes: Buffer };
  /** Already valid against TemplateName. */
  name: string;
  /** Already valid against TemplateFieldsJson (1 to 100 FieldInput). */
  fields: FieldInput[];
}

/**
 * A template: the PDF is checked and measured once, as for a request, then kept encrypted until the
 * template is archived. Each distinct `signer_reference` of the fields is a role.
 */
export async function createTemplate(ctx: Context, input: CreateTemplateInput): Promise<Template> {
  const fieldError = checkTemplateFields(input.fields, 'fields') ?? undrawnFieldValue(input.fields, 'fields');
  if (fieldError) throw invalidRequest(fieldError);
  const inspection = await ctx.workers.inspector.inspect(input.document.bytes);
  if (!inspection.ok) throw invalidDocument(inspection.message);
  const pageError = checkFieldsOnPages(input.fields, inspection.pages, 'fields');
  if (pageError) throw invalidRequest(pageError);

  // Encrypted with an empty user password: the decrypted copy is the template's document.
  const blob = await ctx.blobs.put(inspection.decrypted ?? input.document.bytes);
  const now = ctx.clock.now();
  const id = randomUUID();
  const row = {
    id,
    account_id: input.principal.accountId,
    api_key_id: input.principal.apiKeyId,
    name: input.name,
    filename: input.document.filename,
    sha256: blob.sha256,
    size: blob.size,
    page_count: inspection.pages.length,
    pages_json: JSON.stringify(inspection.pages),
    blob_id: blob.id,
    fields_json: JSON.stringify(input.fields),
    field_count: input.fields.length,
    signer_count: rolesOf(input.fields).length,
    created_at: now,
    updated_at: now,
    archived_at: null,
  };
  try {
    return ctx.db.transaction(() => {
      insertTemplate(ctx.db, row);
      const template = templateOf(findActiveTemplate(ctx.db, input.principal.accountId, id) as TemplateRow);
      // With its change: a retry after a crash at any later instant replays this 201 instead of making a second template.
      recordIdempotentAnswer(ctx, { status: 201, body: template });
      return template;
    });
  } catch (error) {
    // No row refers to the file: do not leave it behind.
    await ctx.blobs.delete(blob.id);
    throw error;
  }
}
