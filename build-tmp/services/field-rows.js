import { randomUUID } from 'node:crypto';
/** Rows for a request's fields, in the given order; `values` fill named fields (`field_values`). */
export function fieldRows(requestId, fields, values = {}) {
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
//# sourceMappingURL=field-rows.js.map