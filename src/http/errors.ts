import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { isParaphError, ParaphError } from '../domain/errors.js';
import { MAX_PDF_BYTES, MAX_PDF_MIB } from '../domain/limits.js';
import { wrongContentType } from './content-type-errors.js';
import { isDiskFull } from '../platform/data-dir.js';
import { describeErrors } from './validation.js';

/**
 * Turns anything thrown while handling a request into a ParaphError, whose kind decides the code and
 * status: framework errors by their `code` property, schema errors by their validation details.
 */
export function toParaphError(error: unknown, request?: FastifyRequest): ParaphError {
  if (isParaphError(error)) return error;
  const e = error as Partial<FastifyError> & { validationContext?: string };
  if (e.validation) {
    // A malformed id in a path names no resource.
    if (e.validationContext === 'params') {
      // `/v1/signature-requests/` reaches the `:id` route with an empty id: the slash is the mistake.
      const path = request?.url.split('?')[0] ?? '';
      if (request && path.length > 1 && path.endsWith('/') && !/^\/(sign|embed)\//.test(path)) {
        return new ParaphError('not_found', `no such endpoint: remove the trailing slash (${request.method} ${path.replace(/\/+$/, '')})`);
      }
      const detail = pathParameterProblem(e.validation as ErrorObject[]);
      return new ParaphError('not_found', detail ? `resource not found: the path parameter ${detail}` : 'resource not found');
    }
    return new ParaphError('invalid_request', e.message ?? 'invalid request');
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ParaphError('body_too_large', 'request body is too large (a JSON body may have at most 1 MiB)');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return request ? wrongContentType(request) : new ParaphError('invalid_request', 'unsupported Content-Type for this endpoint');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ParaphError('invalid_request', 'Content-Length does not match the body');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ParaphError('invalid_request', 'body must be multipart/form-data');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      // (The multipart parser reports a part over 1 MiB sent as application/json the same way: it was cut short.)
      return new ParaphError(
        'invalid_request',
        `${request?.url.startsWith('/v1/signature-requests') ? 'the request part' : 'a part sent as application/json'} is not valid JSON, or is larger than 1 MiB (the most a JSON part may hold)`,
      );
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ParaphError('invalid_document', `document exceeds ${MAX_PDF_BYTES} bytes (${MAX_PDF_MIB} MiB)`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ParaphError('invalid_request', 'multipart body has too many parts');
    case 'FST_PROTO_VIOLATION':
      return new ParaphError('invalid_request', 'multipart part name is not allowed');
    case 'FST_ERR_BAD_URL':
      return new ParaphError(
        'invalid_request',
        'the path does not decode: a percent-escape in it is incomplete or is not UTF-8 text (%FF, %ZZ); write each byte of UTF-8 text as %XX',
      );
    case 'FST_MP_PREMATURE_CLOSE':
      return new ParaphError('invalid_request', 'multipart body ended early');
    default:
      break;
  }
  if (isMalformedMultipart(e)) return new ParaphError('invalid_request', 'multipart body is malformed');
  // The data directory's disk is full (SQLite's write, or a document's file): a write that fails so keeps
  // nothing of the call, and the same call succeeds once there is room again.
  if (isDiskFull(e)) {
    return new ParaphError('temporarily_unavailable', "paraph's data directory is on a full disk; retry once there is free space");
  }
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status === 404) return new ParaphError('not_found', 'resource not found');
  // (The page files' routes, `/signing-ui/*` and the like, refuse a file path that leaves its folder or holds a NUL byte.)
  if (e.code === 'FST_STATIC_FORBIDDEN_PATH' || (status === 400 && request?.routeOptions.url?.endsWith('/*'))) {
    return new ParaphError(
      'invalid_request',
      'this file path cannot be served: it leaves its folder, or holds a NUL byte or a percent-escape that does not decode',
    );
  }
  if (status >= 400 && status < 500) return new ParaphError('invalid_request', 'invalid request');
  return new ParaphError('internal_error', 'the request could not be completed');
}

/**
 * The multipart parser (busboy) reports a malformed body (no boundary, a body that ends inside a
 * part, a broken part header) with a plain Error that carries no `code`: its message is the only way
 * to know it. This is the one place paraph reads an error's message.
 */
function isMalformedMultipart(error: { message?: string }): boolean {
  const message = error.message ?? '';
  return message === 'Unexpected end of form' || message === 'Malformed part header' || /multipart/i.test(message);
}

/**
 * What is wrong with a path parameter, e.g. `id must be a valid uuid`, from the schema's first error;
 * empty for a signing token (its rules are not told) or when no parameter is named.
 */
function pathParameterProblem(validation: readonly ErrorObject[]): string {
  const first = validation[0];
  if (!first) return '';
  const [, name, ...rest] = first.instancePath.split('/');
  if (name !== undefined && name !== '') {
    if (name === 'token') return '';
    return describeErrors([{ ...first, instancePath: rest.length > 0 ? `/${rest.join('/')}` : '' }], name);
  }
  const missing = first.keyword === 'required' ? String((first.params as { missingProperty?: unknown }).missingProperty) : '';
  return missing !== '' && missing !== 'token' ? `${missing} is required` : '';
}

/** The signing link's own JSON API (the signing page's, not the spec's `/v1`): its errors may say a `reason`. */
const SIGNING_API = /^\/sign\/[^/?#]+\/api\//;

/** The code of the error envelope each reply was answered with, for the request log. */
const errorCodes = new WeakMap<FastifyReply, string>();

/** The error envelope's code a reply was sent with, if it was an error. */
export function sentErrorCode(reply: FastifyReply): string | undefined {
  return errorCodes.get(reply);
}

/** Notes the code of a replayed answer's error envelope (an Idempotency-Key replay of an error), for the request log. */
export function noteReplayedError(reply: FastifyReply, status: number, body: unknown): void {
  if (status < 400) return;
  let envelope = body;
  if (Buffer.isBuffer(body)) {
    try {
      envelope = JSON.parse(body.toString('utf8'));
    } catch {
      return;
    }
  }
  const code = (envelope as { error?: { code?: unknown } } | null)?.error?.code;
  if (typeof code === 'string') errorCodes.set(reply, code);
}

/**
 * Answers with the error envelope `{error: {code, message, request_id}}` (the request id also in
 * `X-Request-Id`). Under a signing link's API, an error that has a reason also carries `reason` and
 * its details (e.g. `locked_until`); the `/v1` envelope never has more than the three properties.
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: ParaphError): FastifyReply {
  errorCodes.set(reply, error.code);
  const envelope: Record<string, string> = { code: error.code, message: error.message, request_id: request.id };
  if (error.reason !== undefined && SIGNING_API.test(request.url)) Object.assign(envelope, { reason: error.reason }, error.details);
  return reply
    .code(error.status)
    .headers(error.headers)
    .header('x-request-id', request.id)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ error: envelope });
}
