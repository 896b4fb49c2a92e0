import { sha256Hex } from '../crypto/tokens.js';
import { invalidDocument, invalidRequest } from '../errors.js';
import { validate } from './validation.js';
/**
 * Reads a multipart body made of exactly one PDF part `document` and JSON/text parts named in
 * `jsonParts` (each decoded and checked against its schema; those listed in `textParts` are taken as
 * plain text, not JSON). The PDF size cap is enforced while streaming, by the multipart plugin's
 * `fileSize` limit.
 */
export async function readPdfMultipart(request, jsonParts, options = {}) {
    if (!request.isMultipart()) {
        throw invalidRequest(`body must be multipart/form-data with the parts ${partList(jsonParts)}`);
    }
    checkBoundary(request.headers['content-type']);
    let document;
    const raw = new Map();
    for await (const part of request.parts()) {
        const name = part.fieldname;
        if (name !== 'document' && !(name in jsonParts))
            throw invalidRequest(`unexpected multipart part "${name}"`);
        if (name === 'document' ? document !== undefined : raw.has(name)) {
            throw invalidRequest(`multipart part "${name}" is given more than once`);
        }
        if (name === 'document')
            document = await readDocument(part);
        else
            raw.set(name, await readText(part));
    }
    if (!document)
        throw invalidRequest(`multipart part "document" is required (${partList(jsonParts)})`);
    const parts = {};
    for (const [name, schema] of Object.entries(jsonParts)) {
        if (!raw.has(name))
            throw invalidRequest(`multipart part "${name}" is required (${partList(jsonParts)})`);
        const part = raw.get(name);
        const value = options.textParts?.includes(name) && 'text' in part ? part.text : decodeJson(part, name);
        const error = validate(schema, value, name);
        if (error)
            throw invalidRequest(error);
        parts[name] = value;
    }
    return { document, parts };
}
/** RFC 2046 allows a boundary of 1 to 70 characters; the parser fails on some longer ones (over 256) with a 500. */
function checkBoundary(contentType) {
    const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
    const boundary = match?.[1] ?? match?.[2] ?? '';
    if (boundary === '')
        throw invalidRequest('multipart/form-data needs a boundary parameter in Content-Type');
    if (boundary.length > 70) {
        throw invalidRequest(`the multipart boundary in Content-Type is ${boundary.length} characters long; RFC 2046 allows 1 to 70`);
    }
}
function partList(jsonParts) {
    return ['document', ...Object.keys(jsonParts)].map((n) => `"${n}"`).join(' and ');
}
async function readDocument(part) {
    if (part.type !== 'file')
        throw invalidDocument('multipart part "document" must be a file with a .pdf filename');
    const bytes = await part.toBuffer();
    if (!/\.pdf$/i.test(part.filename))
        throw invalidDocument('document must have a .pdf filename');
    if (part.mimetype.toLowerCase() !== 'application/pdf') {
        throw invalidDocument(`document must have content type application/pdf, got ${part.mimetype || 'none'}`);
    }
    if (bytes.length === 0)
        throw invalidDocument('document is empty');
    return { filename: part.filename, bytes };
}
/** A JSON part arrives as a text field, a field the plugin already parsed (application/json), or a file. */
async function readText(part) {
    if (part.type === 'file')
        return { text: (await part.toBuffer()).toString('utf8') };
    if (part.valueTruncated)
        throw invalidRequest(`multipart part "${part.fieldname}" is too large`);
    // Decoded once only: a JSON string inside an application/json part stays a string (and fails the schema).
    return part.mimetype === 'application/json' ? { decoded: part.value } : { text: String(part.value) };
}
function decodeJson(part, name) {
    if ('decoded' in part)
        return part.decoded;
    try {
        return JSON.parse(part.text);
    }
    catch {
        throw invalidRequest(`multipart part "${name}" is not valid JSON`);
    }
}
/** What identifies an upload for Idempotency-Key: the document's digest and name, and the JSON parts. */
export function uploadFingerprint(upload) {
    if (!upload)
        return null;
    return { document: { sha256: sha256Hex(upload.document.bytes), filename: upload.document.filename }, parts: upload.parts };
}
//# sourceMappingURL=multipart.js.map