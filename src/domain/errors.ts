/** The closed set of error codes paraph answers with: the `code` of the error envelope. */
export type ErrorCode =
  | 'invalid_request' // malformed input: JSON, multipart, filters, field rules
  | 'invalid_document' // the uploaded file is not an acceptable PDF
  | 'unauthorized' // missing, malformed, unknown or revoked API key
  | 'not_found' // unknown resource, unknown route, or another account's resource
  | 'conflict' // the request's state forbids the call
  | 'request_not_ready' // activation while a signer has no field
  | 'request_expired' // the request's links have expired
  | 'artifact_not_available' // artifact not produced yet (409), or purged (410)
  | 'rate_limit_exceeded'
  | 'internal_error'
  | 'template_not_found'
  | 'template_not_ready'
  | 'idempotency_request_in_progress'
  | 'idempotency_key_reused'
  | 'temporarily_unavailable';

/**
 * Why a call under a signing link failed, for a client that must tell cases apart (the signing page
 * picks its message by it). Sent as `error.reason` on the signing link's own API only, never on `/v1`.
 */
export type ErrorReason = 'otp_locked' | 'otp_code_expired';

interface KindEntry {
  readonly code: ErrorCode;
  readonly status: number;
  readonly reason?: ErrorReason;
}

/**
 * Every kind of error paraph raises: the wire `code` it answers with and its HTTP status, the one
 * place either is decided. Each code is a kind of its own at its usual status; the other kinds answer
 * a code at another status, or carry a `reason`.
 */
export const ERROR_KINDS = {
  invalid_request: { code: 'invalid_request', status: 400 },
  invalid_document: { code: 'invalid_document', status: 400 },
  unauthorized: { code: 'unauthorized', status: 401 },
  not_found: { code: 'not_found', status: 404 },
  conflict: { code: 'conflict', status: 409 },
  request_not_ready: { code: 'request_not_ready', status: 409 },
  request_expired: { code: 'request_expired', status: 409 },
  artifact_not_available: { code: 'artifact_not_available', status: 409 },
  rate_limit_exceeded: { code: 'rate_limit_exceeded', status: 429 },
  internal_error: { code: 'internal_error', status: 500 },
  template_not_found: { code: 'template_not_found', status: 404 },
  template_not_ready: { code: 'template_not_ready', status: 409 },
  idempotency_request_in_progress: { code: 'idempotency_request_in_progress', status: 409 },
  idempotency_key_reused: { code: 'idempotency_key_reused', status: 422 },
  temporarily_unavailable: { code: 'temporarily_unavailable', status: 503 },

  /** The request's content is gone after its retention deadline or a purge by hand. */
  artifact_purged: { code: 'artifact_not_available', status: 410 },
  /** The path exists, for other methods (the error carries `Allow`). */
  method_not_allowed: { code: 'invalid_request', status: 405 },
  /** A JSON body over its limit. */
  body_too_large: { code: 'invalid_request', status: 413 },
  /** A request head Node refused (answered on the connection, before any route): too slow, too large, or an `Expect` other than 100-continue. */
  request_timeout: { code: 'invalid_request', status: 408 },
  expectation_failed: { code: 'invalid_request', status: 417 },
  head_too_large: { code: 'invalid_request', status: 431 },

  /** Too many wrong email codes: verification is locked for a while (`locked_until` says until when). */
  otp_locked: { code: 'conflict', status: 409, reason: 'otp_locked' },
  /** No email code is valid any more (expired, replaced, used up, or none sent): a new one is needed. */
  otp_code_expired: { code: 'conflict', status: 409, reason: 'otp_code_expired' },
} as const satisfies Record<string, KindEntry>;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** Every reason a kind carries, in the table's order. */
export const ERROR_REASONS: readonly ErrorReason[] = Object.values(ERROR_KINDS).flatMap((entry: KindEntry) => (entry.reason ? [entry.reason] : []));

/** Facts a client of the signing link's API reads beside the reason (ISO times). */
export interface ErrorDetails {
  readonly locked_until?: string;
}

export class ParaphError extends Error {
  readonly kind: ErrorKind;
  readonly code: ErrorCode;
  readonly status: number;
  readonly reason: ErrorReason | undefined;
  readonly details: ErrorDetails;
  readonly headers: Readonly<Record<string, string>>;

  constructor(kind: ErrorKind, message: string, options: { headers?: Record<string, string>; details?: ErrorDetails } = {}) {
    super(message);
    this.name = 'ParaphError';
    const entry: KindEntry = ERROR_KINDS[kind];
    this.kind = kind;
    this.code = entry.code;
    this.status = entry.status;
    this.reason = entry.reason;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }
}

export const invalidRequest = (message: string) => new ParaphError('invalid_request', message);

/** Throws the 400 a rule's check answered (its message), if it answered one. */
export function failWith(message: string | null): void {
  if (message) throw invalidRequest(message);
}
export const invalidDocument = (message: string) => new ParaphError('invalid_document', message);
export const notFound = (message = 'resource not found') => new ParaphError('not_found', message);
export const unauthorized = (message = 'missing, invalid or revoked API key: send Authorization: Bearer <API key>') => new ParaphError('unauthorized', message);
export const conflict = (message: string) => new ParaphError('conflict', message);

export function isParaphError(value: unknown): value is ParaphError {
  return value instanceof ParaphError;
}
