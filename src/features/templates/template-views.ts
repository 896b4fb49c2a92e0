import { isoTime } from '../../platform/clock.js';
import type { TemplateRow } from './queries.js';
import type { FieldInput } from '../../contract/signature-requests.js';
import type { Template } from '../../contract/templates.js';

export function templateFields(row: Pick<TemplateRow, 'fields_json'>): FieldInput[] {
  return JSON.parse(row.fields_json) as FieldInput[];
}

export function templateOf(row: TemplateRow): Template {
  return {
    id: row.id,
    name: row.name,
    original_filename: row.filename,
    fields: templateFields(row),
    field_count: row.field_count,
    signer_count: row.signer_count,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  };
}
