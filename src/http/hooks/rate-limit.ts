import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import { ParaphError } from '../../errors.js';
import { SlidingWindow } from '../sliding-window.js';

const GENERAL_LIMIT = 120;
const GENERAL_WINDOW_MS = 10 * 60 * 1000;

/**
 * onRequest, after auth: the general bucket of 120 calls per 10 minutes per (API key, client IP).
 * Its headers go on every authenticated /v1 response; with `--rate-limit off` calls are counted but
 * never refused.
 */
export function rateLimitHook(clock: Clock, enforce: boolean) {
  const general = new SlidingWindow(GENERAL_LIMIT, GENERAL_WINDOW_MS);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!request.principal) return;
    const verdict = general.consume(`${request.principal.apiKeyId}|${request.ip}`, clock.now());
    const headers = { 'x-ratelimit-limit': String(verdict.limit), 'x-ratelimit-remaining': String(verdict.remaining) };
    reply.headers(headers);
    if (!verdict.allowed && enforce) {
      throw new ParaphError('rate_limit_exceeded', `rate limit of ${verdict.limit} requests per 10 minutes exceeded`, {
        headers: { ...headers, 'retry-after': String(verdict.retryAfterSeconds) },
      });
    }
  };
}
