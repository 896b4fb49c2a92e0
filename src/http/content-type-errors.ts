import type { FastifyRequest } from 'fastify';
import { invalidRequest, type ParaphError } from '../domain/errors.js';
import { curlFormExample } from './multipart.js';

/**
 * The 400 for a body whose Content-Type the endpoint does not take (a JSON body sent as text/plain by
 * fetch, as a form by `curl -d`, or without a type): what was sent, and how to send it instead.
 */
export function wrongContentType(request: FastifyRequest): ParaphError {
  const header = request.headers['content-type'];
  const got =
    header === undefined || header.trim() === ''
      ? 'the body has no Content-Type'
      : `Content-Type ${header.replace(/[^\x20-\x7e]/g, '?').slice(0, 80)} is not accepted here`;
  const form = request.routeOptions.config.multipartBody as { properties?: Record<string, unknown> } | undefined;
  if (form) {
    const parts = Object.keys(form.properties ?? {});
    return invalidRequest(`${got}: send multipart/form-data with the parts ${parts.map((p) => `"${p}"`).join(', ')} (with curl: ${curlFormExample(parts)})`);
  }
  return invalidRequest(`${got}: send the JSON body with the header Content-Type: application/json (with curl: -H 'Content-Type: application/json' -d '{…}')`);
}

/**
 * The 400 for a body sent with a content coding (`Content-Encoding: gzip`): paraph reads bodies as sent, so a
 * compressed one would be read as bytes that are not JSON, and a plain one labelled compressed would be taken
 * for what it is not. Null when the request has no body or sends it unencoded.
 */
export function encodedBody(headers: FastifyRequest['headers']): ParaphError | null {
  const coding = headers['content-encoding'];
  if (coding === undefined || /^\s*(identity)?\s*$/i.test(coding)) return null;
  const hasBody = headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
  if (!hasBody) return null;
  return invalidRequest(
    `Content-Encoding ${coding.replace(/[^\x20-\x7e]/g, '?').slice(0, 40)} is not taken: send the body unencoded, without a Content-Encoding header`,
  );
}
