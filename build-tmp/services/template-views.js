import { isoTime } from '../clock.js';
export function templateFields(row) {
    return JSON.parse(row.fields_json);
}
export function templateOf(row) {
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
//# sourceMappingURL=template-views.js.map