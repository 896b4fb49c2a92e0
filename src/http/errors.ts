import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isParaphError, ParaphError } from '../domain/errors.js';
import { MAX_PDF_BYTES } from '../domain/limits.js';
import { wrongContentType } from './content-type-errors.js';

/**
 * Turns anything thrown while handling a request into the API's error envelope:
 * `{error: {code, message, request_id}}`, with the request id also in `X-Request-Id`.
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
      // Which parameter is malformed, but never a signing token's rules.
      const detail = e.message?.startsWith('params.') && !e.message.startsWith('params.token') ? e.message.slice(7) : '';
      return new ParaphError('not_found', detail ? `resource not found: the path parameter ${detail}` : 'resource not found');
    }
    return new ParaphError('invalid_request', e.message ?? 'invalid request');
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ParaphError('invalid_request', 'request body is too large (a JSON body may have at most 1 MiB)', { status: 413 });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return request ? wrongContentType(request) : new ParaphError('invalid_request', 'unsupported Content-Type for this endpoint');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ParaphError('invalid_request', 'Content-Length does not match the body');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ParaphError('invalid_request', 'body must be multipart/form-data');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ParaphError('invalid_request', 'the request part is not valid JSON');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ParaphError('invalid_document', `document exceeds ${MAX_PDF_BYTES} bytes (8 MiB)`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ParaphError('invalid_request', 'multipart body has too many parts');
    case 'FST_PROTO_VIOLATION':
      return new ParaphError('invalid_request', 'multipart part name is not allowed');
    case 'FST_MP_PREMATURE_CLOSE':
      return new ParaphError('invalid_request', 'multipart body ended early');
    default:
      break;
  }
  if (e.message === 'Unexpected end of form' || e.message === 'Malformed part header' || /multipart/i.test(e.message ?? '')) {
    return new ParaphError('invalid_request', 'multipart body is malformed');
  }
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status === 404) return new ParaphError('not_found', 'resource not found');
  if (status >= 400 && status < 500) return new ParaphError('invalid_request', 'invalid request');
  return new ParaphError('internal_error', 'the request could not be completed');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ParaphError): FastifyReply {
  return reply
    .code(error.status)
    .headers(error.headers)
    .header('x-request-id', request.id)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ error: { code: error.code, message: error.message, request_id: request.id } });
}
