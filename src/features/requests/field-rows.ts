import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { FieldsTable } from '../../db/schema/fields.js';
import type { FieldInput } from '../../contract/signature-requests.js';

/** Rows for a request's fields, in the given order; `values` fill named fields (`field_values`). */
export function fieldRows(requestId: string, fields: readonly FieldInput[], values: Readonly<Record<string, string>> = {}): Insertable<FieldsTable>[] {
  return fields.map((field, position) => ({
    id: randomUUID(),
    request_id: requestId,
    position,
    signer_reference: field.signer_reference,
    type: field.type,
    field_key: field.field_key ?? null,
    page: field.page,
    x: field.x,
    y: field.y,
    width: field.width,
    height: field.height,
    name: field.name ?? null,
    value: (field.name !== undefined ? values[field.name] : undefined) ?? field.value ?? null,
    read_only: field.read_only === true ? 1 : 0,
  }));
}
