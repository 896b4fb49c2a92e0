import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { sha256Hex } from '../platform/crypto/tokens.js';
import { invalidDocument, invalidRequest } from '../domain/errors.js';
import { MAX_PDF_BYTES } from '../domain/limits.js';
import { validate } from './validation.js';

const CURL_DOCUMENT = '-F "document=@contract.pdf;type=application/pdf"';

export interface UploadedPdf {
  filename: string;
  bytes: Buffer;
}

/**
 * Reads a multipart body made of exactly one PDF part `document` and JSON/text parts named in
 * `jsonParts` (each decoded and checked against its schema; those listed in `textParts` are taken as
 * plain text, not JSON). The PDF size cap is enforced while streaming, by the multipart plugin's
 * `fileSize` limit.
 */
export async function readPdfMultipart<P extends Record<string, TSchema>>(
  request: FastifyRequest,
  jsonParts: P,
  options: { textParts?: readonly (keyof P & string)[] } = {},
): Promise<{ document: UploadedPdf; parts: { [K in keyof P]: unknown } }> {
  if (!request.isMultipart()) {
    const names = ['document', ...Object.keys(jsonParts)];
    throw invalidRequest(`body must be multipart/form-data with the parts ${partList(jsonParts)} (with curl: ${curlFormExample(names)})`);
  }
  checkBoundary(request.headers['content-type']);
  let document: UploadedPdf | undefined;
  const raw = new Map<string, JsonPart>();
  for await (const part of request.parts()) {
    const name = part.fieldname;
    if (name !== 'document' && !(name in jsonParts)) {
      throw invalidRequest(`unexpected multipart part "${name}": this endpoint takes exactly the parts ${partList(jsonParts)}`);
    }
    if (name === 'document' ? document !== undefined : raw.has(name)) {
      throw invalidRequest(`multipart part "${name}" is given more than once`);
    }
    if (name === 'document') document = await readDocument(request, part);
    else raw.set(name, await readText(part));
  }
  if (!document) throw invalidRequest(`multipart part "document" is required (${partList(jsonParts)})`);
  const parts = {} as { [K in keyof P]: unknown };
  for (const [name, schema] of Object.entries(jsonParts) as [keyof P & string, TSchema][]) {
    if (!raw.has(name)) throw invalidRequest(`multipart part "${name}" is required (${partList(jsonParts)})`);
    const part = raw.get(name) as JsonPart;
    const value = options.textParts?.includes(name) && 'text' in part ? part.text : decodeJson(part, name);
    const error = validate(schema, value, name);
    if (error) throw invalidRequest(error);
    parts[name] = value;
  }
  return { document, parts };
}

/** RFC 2046 allows a boundary of 1 to 70 characters; the parser fails on some longer ones (over 256) with a 500. */
function checkBoundary(contentType: string | undefined): void {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2] ?? '';
  if (boundary === '') throw invalidRequest('multipart/form-data needs a boundary parameter in Content-Type');
  if (boundary.length > 70) {
    throw invalidRequest(`the multipart boundary in Content-Type is ${boundary.length} characters long; RFC 2046 allows 1 to 70`);
  }
}

/** How curl sends these parts: `-F` per part, the document as a PDF file. */
export function curlFormExample(parts: readonly string[]): string {
  return parts.map((p) => (p === 'document' ? CURL_DOCUMENT : `-F '${p}=…'`)).join(' ');
}

function partList(jsonParts: Record<string, TSchema>): string {
  return ['document', ...Object.keys(jsonParts)].map((n) => `"${n}"`).join(' and ');
}

async function readDocument(request: FastifyRequest, part: MultipartFile | MultipartValue): Promise<UploadedPdf> {
  if (part.type !== 'file') throw invalidDocument(`multipart part "document" must be a file with a .pdf filename (with curl: ${CURL_DOCUMENT})`);
  const bytes = await readFile(request, part);
  if (!/\.pdf$/i.test(part.filename)) throw invalidDocument(`document must have a .pdf filename (with curl: ${CURL_DOCUMENT})`);
  if (part.mimetype.toLowerCase() !== 'application/pdf') {
    throw invalidDocument(`document must have content type application/pdf, got ${part.mimetype || 'none'} (with curl: ${CURL_DOCUMENT})`);
  }
  if (bytes.length === 0) throw invalidDocument('document is empty');
  return { filename: part.filename, bytes };
}

/**
 * A file part's bytes, as `toBuffer()` reads them (the same error past the size limit), but copied as
 * they arrive into one buffer as long as the request body when its length is known: `toBuffer()` holds
 * every chunk until the end, then copies them into one buffer (an 8 MiB upload held twice).
 */
async function readFile(request: FastifyRequest, part: MultipartFile): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (!(declared > 0)) return part.toBuffer();
  let bytes = Buffer.allocUnsafeSlow(Math.min(declared, MAX_PDF_BYTES));
  let filled = 0;
  let truncated = false;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    // Past the limit the part is still read to its end (the body must be drained), and dropped.
    truncated ||= part.file.truncated;
    if (truncated) continue;
    // Never past the body's length: kept correct all the same.
    if (filled + chunk.length > bytes.length) bytes = Buffer.concat([bytes.subarray(0, filled), Buffer.alloc(filled + chunk.length - bytes.length)]);
    filled += chunk.copy(bytes, filled);
  }
  if (truncated) {
    const error = new request.server.multipartErrors.RequestFileTooLargeError() as Error & { part?: MultipartFile };
    error.part = part;
    throw error;
  }
  return bytes.subarray(0, filled);
}

/** A JSON part as received: text still to decode, or a value the plugin already decoded. */
type JsonPart = { text: string } | { decoded: unknown };

/** A JSON part arrives as a text field, a field the plugin already parsed (application/json), or a file. */
async function readText(part: MultipartFile | MultipartValue): Promise<JsonPart> {
  if (part.type === 'file') return { text: (await part.toBuffer()).toString('utf8') };
  if (part.valueTruncated) throw invalidRequest(`multipart part "${part.fieldname}" is too large`);
  // Decoded once only: a JSON string inside an application/json part stays a string (and fails the schema).
  return part.mimetype === 'application/json' ? { decoded: part.value } : { text: String(part.value) };
}

function decodeJson(part: JsonPart, name: string): unknown {
  if ('decoded' in part) return part.decoded;
  try {
    return JSON.parse(part.text) as unknown;
  } catch {
    throw invalidRequest(`multipart part "${name}" is not valid JSON`);
  }
}

/** What identifies an upload for Idempotency-Key: the document's digest and name, and the JSON parts. */
export function uploadFingerprint(upload: { document: UploadedPdf; parts: Record<string, unknown> } | undefined): unknown {
  if (!upload) return null;
  return { document: { sha256: sha256Hex(upload.document.bytes), filename: upload.document.filename }, parts: upload.parts };
}
