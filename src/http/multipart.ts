import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { sha256Hex } from '../platform/crypto/tokens.js';
import { invalidDocument, invalidRequest, type ParaphError } from '../domain/errors.js';
import { MAX_FILENAME, MAX_PDF_BYTES } from '../domain/limits.js';
import { validate } from './validation.js';
import { illFormedTextAt, illFormedTextMessage } from './request-text.js';

const CURL_DOCUMENT = '-F "document=@contract.pdf;type=application/pdf"';

export interface UploadedPdf {
  filename: string;
  bytes: Buffer;
}

/**
 * Reads a multipart body made of exactly one PDF part `document` and JSON/text parts named in
 * `jsonParts` (each decoded and checked against its schema; those listed in `textParts` are taken as
 * plain text, not JSON). The PDF size cap is enforced while streaming, by the multipart plugin's
 * `fileSize` limit. A body that is not such a multipart throws at once; a part missing, not JSON or
 * not valid against its schema is the upload's `problem`, thrown by `checkedUpload` once the
 * Idempotency-Key is claimed, so that answer is kept for a retry as any other 400 is.
 */
export async function readPdfMultipart<P extends Record<string, TSchema>>(
  request: FastifyRequest,
  jsonParts: P,
  options: { textParts?: readonly (keyof P & string)[] } = {},
): Promise<ReadUpload<P>> {
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
  let problem: ParaphError | undefined;
  for (const [name, schema] of Object.entries(jsonParts) as [keyof P & string, TSchema][]) {
    const part = raw.get(name);
    if (!part) {
      problem ??= invalidRequest(`multipart part "${name}" is required (${partList(jsonParts)})`);
      continue;
    }
    if (options.textParts?.includes(name) && 'text' in part) {
      parts[name] = part.text;
      const illFormed = illFormedTextAt(part.text, name);
      if (illFormed !== null) {
        problem ??= invalidRequest(illFormedTextMessage(illFormed));
        continue;
      }
    } else {
      const decoded = decodeJson(part);
      if (!decoded.ok) {
        // Undecodable, the part's text identifies the call.
        parts[name] = { text: (part as { text: string }).text };
        problem ??= invalidRequest(`multipart part "${name}" is not valid JSON`);
        continue;
      }
      parts[name] = decoded.value;
      const illFormed = illFormedTextAt(decoded.value, name);
      if (illFormed !== null) {
        problem ??= invalidRequest(illFormedTextMessage(illFormed));
        continue;
      }
    }
    const error = validate(schema, parts[name], name);
    if (error) problem ??= invalidRequest(error);
  }
  return problem ? { document, parts, problem } : { document, parts };
}

/** A multipart body as read: its document, its parts as decoded, and what is wrong with them if anything. */
export interface ReadUpload<P extends Record<string, TSchema> = Record<string, TSchema>> {
  document: UploadedPdf;
  parts: { [K in keyof P]: unknown };
  problem?: ParaphError;
}

/** The upload whose parts are all there and valid; the first problem found otherwise, thrown. */
export function checkedUpload<P extends Record<string, TSchema>>(
  upload: ReadUpload<P> | undefined,
): { document: UploadedPdf; parts: { [K in keyof P]: unknown } } {
  if (!upload) throw new Error('the multipart body was not read before the handler');
  if (upload.problem) throw upload.problem;
  return upload;
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
  const length = Array.from(part.filename).length;
  if (length > MAX_FILENAME) throw invalidDocument(`document's filename is ${length} characters long: at most ${MAX_FILENAME}`);
  // A control character (a NUL, a line break) would reach the mails' subjects, the evidence and downloads' names.
  if (/\p{Cc}/u.test(part.filename)) throw invalidDocument("document's filename holds a control character");
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

function decodeJson(part: JsonPart): { ok: true; value: unknown } | { ok: false } {
  if ('decoded' in part) return { ok: true, value: part.decoded };
  try {
    return { ok: true, value: JSON.parse(part.text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** What identifies an upload for Idempotency-Key: the document's digest and name, and the JSON parts. */
export function uploadFingerprint(upload: { document: UploadedPdf; parts: Record<string, unknown> } | undefined): unknown {
  if (!upload) return null;
  return { document: { sha256: sha256Hex(upload.document.bytes), filename: upload.document.filename }, parts: upload.parts };
}
