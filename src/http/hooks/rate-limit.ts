import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { ParaphError } from '../../domain/errors.js';
import { RATE_LIMITS as BUCKETS } from '../../domain/limits.js';
import { SlidingWindow, type WindowVerdict } from '../sliding-window.js';

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
 * controls (`/_sandbox`) and the other routes are not limited. Every authenticated /v1 response carries the general bucket's
 * `X-RateLimit-*` headers; a 429 from a narrower bucket carries that bucket's. Windows run on the
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
  return { limit, settle };
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
