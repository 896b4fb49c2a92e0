export const STATUS = {
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
    code;
    status;
    headers;
    constructor(code, message, options = {}) {
        super(message);
        this.name = 'ParaphError';
        this.code = code;
        this.status = options.status ?? STATUS[code];
        this.headers = options.headers ?? {};
    }
}
export const invalidRequest = (message) => new ParaphError('invalid_request', message);
export const invalidDocument = (message) => new ParaphError('invalid_document', message);
export const notFound = (message = 'resource not found') => new ParaphError('not_found', message);
export const unauthorized = (message = 'missing, invalid or revoked API key') => new ParaphError('unauthorized', message);
export const conflict = (message) => new ParaphError('conflict', message);
export function isParaphError(value) {
    return value instanceof ParaphError;
}
//# sourceMappingURL=errors.js.map