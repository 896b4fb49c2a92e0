/** The closed set of error codes paraph answers with, and the HTTP status each one carries. */
export type ErrorCode =
  | 'invalid_request' // malformed input: JSON, multipart, filters, field rules
  | 'invalid_document' // the uploaded file is not an acceptable PDF
  | 'unauthorized' // missing, malformed, unknown or revoked API key
  | 'not_found' // unknown resource, unknown route, or another account's resource
  | 'conflict' // the request's state forbids the call
  | 'request_not_ready' // activation while a signer has no field
  | 'request_expired' // the request's links have expired
  | 'artifact_not_available' // artifact not produced yet, or purged (410)
  | 'rate_limit_exceeded'
  | 'internal_error'
  | 'template_not_found'
  | 'template_not_ready'
  | 'idempotency_request_in_progress'
  | 'idempotency_key_reused'
  | 'temporarily_unavailable';

export const STATUS: Readonly<Record<ErrorCode, number>> = {
  invalid_request: 400,
  invalid_document: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  request_not_ready: 409,
  request_expired: 409,
  artifact_not_available: 409,
  rate_limit_exceeded: 429,
  internal_error: 500,
  template_not_found: 404,
  template_not_ready: 409,
  idempotency_request_in_progress: 409,
  idempotency_key_reused: 422,
  temporarily_unavailable: 503,
};

export class ParaphError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, options: { status?: number; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ParaphError';
    this.code = code;
    this.status = options.status ?? STATUS[code];
    this.headers = options.headers ?? {};
  }
}

export const invalidRequest = (message: string) => new ParaphError('invalid_request', message);
export const invalidDocument = (message: string) => new ParaphError('invalid_document', message);
export const notFound = (message = 'resource not found') => new ParaphError('not_found', message);
export const unauthorized = (message = 'missing, invalid or revoked API key: send Authorization: Bearer <API key>') => new ParaphError('unauthorized', message);
export const conflict = (message: string) => new ParaphError('conflict', message);

export function isParaphError(value: unknown): value is ParaphError {
  return value instanceof ParaphError;
}
