import { ErrorEnvelope, SigningErrorEnvelope } from '../contract/common.js';
import { HOUR_MS, IDEMPOTENCY_TTL_MS, MAX_IDEMPOTENCY_KEY, MINUTE_MS, RATE_LIMITS } from '../domain/limits.js';

const GENERAL_RATE = `${RATE_LIMITS.general.limit} per ${RATE_LIMITS.general.windowMs / MINUTE_MS} minutes`;
const GENERAL_RATE_CALLS = `${RATE_LIMITS.general.limit} calls per ${RATE_LIMITS.general.windowMs / MINUTE_MS} minutes`;

/**
 * What the OpenAPI document says about the wire beyond the route schemas: the headers paraph sends
 * and reads, the error statuses every route of a kind can answer (auth, rate limit, bodies,
 * Idempotency-Key, shutdown), the tags and the words of each operation.
 */

/** The revision of the API description the server follows. */
export const API_DESCRIPTION_REVISION = '1.11.0';

/** What the builder knows of a route to describe its wire. */
export interface WireRoute {
  method: string;
  url: string;
  summary: string;
  auth: boolean;
  idempotent: boolean;
  hasBody: boolean;
  pathParams: boolean;
}

export const HEADERS = {
  XRequestId: {
    description: 'the id of this answer (also `error.request_id` in an error): give it to support',
    required: true,
    schema: { type: 'string' },
  },
  XRateLimitLimit: {
    description: `requests allowed per window for this API key and client IP (${GENERAL_RATE}; a narrower bucket on its own 429)`,
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitRemaining: {
    description: 'requests left in the current window',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'seconds to wait before retrying',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  IdempotentReplayed: {
    description: '`true` when this is the stored answer of an earlier call with the same Idempotency-Key (nothing was done again)',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    `makes the call safe to retry: a repeat with the same key within ${IDEMPOTENCY_TTL_MS / HOUR_MS} hours answers the stored status and body with ` +
    '`Idempotent-Replayed: true` and does not act twice; while the first call runs a repeat answers 409 ' +
    '`idempotency_request_in_progress`; the key reused for another method, path or body answers 422. 5xx and 429 ' +
    `answers are not stored. 1 to ${MAX_IDEMPOTENCY_KEY} printable ASCII characters.`,
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY, pattern: `^[\\x20-\\x7e]{1,${MAX_IDEMPOTENCY_KEY}}$` },
};

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No Content',
  '304': 'Not modified: If-None-Match named its ETag (no body)',
  '400': 'Invalid input',
  '401': 'Missing, invalid or revoked API key',
  '404': 'Not found',
  '405': 'Method not allowed',
  '408': 'The request body did not arrive in time',
  '409': 'State conflict (or a call with this Idempotency-Key still running)',
  '410': 'Content purged',
  '413': 'Body over its limit (1 MiB for JSON)',
  '417': 'An Expect header other than 100-continue',
  '422': 'Idempotency-Key reused for another call',
  '429': 'Rate limit exceeded',
  '500': 'Internal error',
  '503': 'Temporarily unavailable (or shutting down): retry with backoff',
};

export function describeStatus(status: string): string {
  return STATUS_TEXT[status] ?? 'Response';
}

const SIGNING_API = /^\/sign\//;

/** Under a signing link the envelope may carry a `reason`; elsewhere it has exactly three properties. */
export function errorEnvelopeOf(route: WireRoute) {
  return SIGNING_API.test(route.url) ? SigningErrorEnvelope : ErrorEnvelope;
}

/** Counted by the rate limit, and met by API fault rules: an authenticated `/v1` route. */
export function isRateLimited(route: WireRoute): boolean {
  return route.auth && route.url.startsWith('/v1/');
}

/**
 * The error statuses a route can answer whatever its handler does: any request can be malformed (400)
 * or meet an internal error (500) or a shutdown (503); a key is checked (401); /v1 is rate limited
 * (429); a path parameter may name nothing (404); a body may come too slowly (408) or too large (413:
 * a JSON body over 1 MiB wherever a body is taken, a multipart upload included) or with an Expect
 * other than 100-continue (417); Idempotency-Key answers 409 and 422; a signing link may be closed
 * (409), its signed copy purged (410), its email code sent too often (429).
 */
export function genericStatuses(route: WireRoute): number[] {
  const statuses = [400, 500, 503];
  if (route.auth) statuses.push(401);
  if (isRateLimited(route)) statuses.push(429);
  if (route.pathParams) statuses.push(404);
  if (route.hasBody) statuses.push(408, 413, 417);
  if (route.idempotent) statuses.push(409, 422);
  if (SIGNING_API.test(route.url)) {
    statuses.push(404, 409);
    if (route.url.endsWith('/signed-document')) statuses.push(410);
    if (route.url.endsWith('/api/otp')) statuses.push(429);
  }
  return [...new Set(statuses)];
}

/** The response headers a route's answer with this status carries, as $refs to components.headers. */
export function headersOf(route: WireRoute, status: number): Record<string, { $ref: string }> {
  const refs: Record<string, string> = { 'X-Request-Id': 'XRequestId' };
  // On every /v1 answer (the sandbox contract), its errors included: a call without a valid key is counted
  // in no bucket, and its answer says the whole general limit remains.
  if (route.url.startsWith('/v1/')) {
    Object.assign(refs, { 'X-RateLimit-Limit': 'XRateLimitLimit', 'X-RateLimit-Remaining': 'XRateLimitRemaining' });
  }
  if (status === 429) refs['Retry-After'] = 'RetryAfter';
  if (route.idempotent && status < 500 && status !== 429) refs['Idempotent-Replayed'] = 'IdempotentReplayed';
  return Object.fromEntries(Object.entries(refs).map(([name, ref]) => [name, { $ref: `#/components/headers/${ref}` }]));
}

export const TAGS = [
  { name: 'Signature requests', description: 'Create, prepare, activate, remind, replace signers, cancel, read status' },
  { name: 'Artifacts', description: 'The signed PDF, the evidence report and the evidence JSON of a completed request' },
  { name: 'Field detection', description: "Field suggestions from a prepared request's document" },
  { name: 'Templates', description: 'Reusable documents with their fields, for bulk sends and creates' },
  { name: 'Bulk sends', description: 'One request per recipient from a template' },
  { name: 'Webhooks', description: 'Webhook deliveries, their replay, the event stream, and the events paraph posts to a callback_url' },
  { name: 'Signing link', description: "The JSON API under a signer's secret link that the signing page and `paraph sign` use; the token is the credential" },
  { name: 'Sandbox', description: 'Sandbox controls: caught mail, the clock, expiry and purge, API keys, fault rules, the test timestamp authority' },
  { name: 'Discovery', description: 'Where everything is: indexes, this document, the docs, the health check' },
] as const;

export function tagOf(url: string): (typeof TAGS)[number]['name'] {
  if (url.startsWith('/sign/')) return 'Signing link';
  if (url.startsWith('/_sandbox')) return 'Sandbox';
  if (url.includes('/artifacts/')) return 'Artifacts';
  if (url.endsWith('/detect-fields')) return 'Field detection';
  if (url.startsWith('/v1/signature-requests')) return 'Signature requests';
  if (url.startsWith('/v1/templates')) return 'Templates';
  if (url.startsWith('/v1/bulk-sends')) return 'Bulk sends';
  if (url.startsWith('/v1/webhook-deliveries') || url.startsWith('/v1/events')) return 'Webhooks';
  return 'Discovery';
}

/** The summary, and what every client needs to know of the call: its key, its limits, its retries. */
export function describeOperation(route: WireRoute): string {
  const words = [`${route.summary.replace(/[.\s]+$/, '')}.`];
  if (SIGNING_API.test(route.url)) words.push("Needs no API key: the signing link's token is the credential (never log it).");
  else words.push(route.auth ? 'Needs an API key: `Authorization: Bearer paraph_test_…`.' : 'Needs no API key.');
  if (isRateLimited(route))
    words.push(`Counts against the rate limit of ${GENERAL_RATE_CALLS} per key and client IP (\`X-RateLimit-*\` headers; 429 with \`Retry-After\`).`);
  if (route.idempotent) words.push('Safe to retry with an `Idempotency-Key`.');
  return words.join(' ');
}

export const INFO_DESCRIPTION =
  'paraph, a local sandbox of the Signature Request API: signature requests from a PDF, signing links, PAdES-signed ' +
  'PDFs, evidence, webhooks, templates and bulk sends, with sandbox controls (caught mail, a movable clock, fault rules). ' +
  `It follows revision ${API_DESCRIPTION_REVISION} of the API description (x-api-description-revision). ` +
  'Errors answer `{error: {code, message, request_id}}`; retry 429 and 503 with backoff. ' +
  'Webhook events are described under `webhooks`, one entry per event type.';
