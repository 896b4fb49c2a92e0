import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { ParaphError } from '../../domain/errors.js';
import { RATE_LIMITS as BUCKETS } from '../../domain/limits.js';
import { SlidingWindow, type WindowVerdict } from '../sliding-window.js';
import type { Principal } from '../../domain/principal.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A second, narrower limit on top of the general one. */
    rateLimitBucket?: keyof typeof BUCKETS;
  }
  interface FastifyRequest {
    /** The slot this call took in a bucket that counts only work, given back if the call did none. */
    workSlot?: { bucket: keyof typeof BUCKETS; who: string; at: number };
  }
}

/**
 * Run in onRequest of the REST API's plugins (src/http/api-scope.ts), after auth: the sandbox
 * controls (`/_sandbox`) and the other routes are not limited. Every /v1 response carries the general bucket's
 * `X-RateLimit-*` headers (`tell` below for those no API route counted); a 429 from a narrower bucket carries that bucket's. Windows run on the
 * sandbox clock. With `--rate-limit off` calls are counted but never refused. The client IP is the
 * socket's: `X-Forwarded-For` is not trusted.
 */
export function rateLimitHook(clock: Clock, enforce: boolean) {
  const windows = new Map(Object.entries(BUCKETS).map(([name, b]) => [name, new SlidingWindow(b.limit, b.windowMs)]));
  const consume = (name: keyof typeof BUCKETS, who: string, now: number) => (windows.get(name) as SlidingWindow).consume(who, now);

  const limit = (request: FastifyRequest, reply: FastifyReply, route: FastifyRequest['routeOptions']): void => {
    if (!request.principal) return;
    const who = `${request.principal.apiKeyId}|${request.ip}`;
    const now = clock.now();
    const general = consume('general', who, now);
    // Set one by one on the hot path (no object per request); the names are headersOf's.
    reply.header(LIMIT_HEADER, String(general.limit)).header(REMAINING_HEADER, String(general.remaining));
    if (!general.allowed && enforce) throw refusal('general', general);
    const bucket = route.config.rateLimitBucket;
    if (bucket) {
      const narrow = consume(bucket, who, now);
      if (!narrow.allowed && enforce) throw refusal(bucket, narrow);
      if (narrow.allowed && BUCKETS[bucket].counts === 'work') request.workSlot = { bucket, who, at: now };
    }
  };
  /**
   * onResponse: a call of a bucket that counts work gives its slot back unless it answered a fresh 2xx
   * (an analysis, a batch): a replay of its Idempotency-Key, an error or a 503 did none.
   */
  const settle = (request: FastifyRequest, reply: FastifyReply): void => {
    const slot = request.workSlot;
    if (!slot) return;
    const worked = reply.statusCode >= 200 && reply.statusCode < 300 && reply.getHeader('idempotent-replayed') === undefined;
    if (!worked) (windows.get(slot.bucket) as SlidingWindow).refund(slot.who, slot.at);
  };
  /**
   * onSend, for a `/v1` answer that carries no `X-RateLimit-*` headers yet (no API route's onRequest
   * counted it: a 401, a path or method no route answers, an error before the caller was known): the
   * sandbox contract puts the general bucket's headers on every `/v1` response. A caller with a valid
   * key is counted in its bucket (never refused here: the answer is already decided); a call without one
   * is counted in no bucket, so its answer says the whole general limit remains. `headersFor` gives the
   * same headers for an answer written on the socket (a 408, a 417), with the client's IP.
   */
  const headersFor = (principal: Principal | null, ip: string | undefined): Record<string, string> => {
    if (!principal) return { [LIMIT_HEADER]: String(BUCKETS.general.limit), [REMAINING_HEADER]: String(BUCKETS.general.limit) };
    return headersOf(consume('general', `${principal.apiKeyId}|${ip}`, clock.now()));
  };
  const tell = (request: FastifyRequest, reply: FastifyReply, principal: Principal | null): void => {
    reply.headers(headersFor(principal, request.ip));
  };
  return { limit, settle, tell, headersFor };
}

/** The rate limits of one app: the REST API's plugins count their calls, the app tells every `/v1` answer. */
export type RateLimits = ReturnType<typeof rateLimitHook>;

/** Whether a request's path is under `/v1`, the REST API. */
export function isApiPath(url: string): boolean {
  return url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
}

/** Whether an answer already carries the rate-limit headers. */
export function hasRateLimitHeaders(reply: FastifyReply): boolean {
  return reply.hasHeader(LIMIT_HEADER);
}

const LIMIT_HEADER = 'x-ratelimit-limit';
const REMAINING_HEADER = 'x-ratelimit-remaining';

function headersOf(verdict: WindowVerdict): Record<string, string> {
  return { [LIMIT_HEADER]: String(verdict.limit), [REMAINING_HEADER]: String(verdict.remaining) };
}

function refusal(bucket: keyof typeof BUCKETS, verdict: WindowVerdict): ParaphError {
  const message =
    `rate limit of ${BUCKETS[bucket].says} exceeded; retry after ${verdict.retryAfterSeconds} s ` +
    '(in the sandbox, `paraph serve --rate-limit off` or env PARAPH_RATE_LIMIT=off turns the limits off)';
  return new ParaphError('rate_limit_exceeded', message, {
    headers: { ...headersOf(verdict), 'retry-after': String(verdict.retryAfterSeconds) },
  });
}

/** The rate-limit headers an answer holds. */
export function rateLimitHeadersOf(reply: FastifyReply): Record<string, string> {
  return { [LIMIT_HEADER]: String(reply.getHeader(LIMIT_HEADER)), [REMAINING_HEADER]: String(reply.getHeader(REMAINING_HEADER)) };
}
