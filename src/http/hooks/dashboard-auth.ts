import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Context } from '../../context.js';
import { ParaphError } from '../../domain/errors.js';
import { isDashboardToken } from '../../features/dashboard/dashboard-token.js';

/** Sent with every `/_dashboard` answer: no inline script, never framed, no referrer, no sniffing. */
export const DASHBOARD_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
} as const;

const SCHEME = /^Dashboard\s+(\S+)\s*$/i;
const HOW = 'send Authorization: Dashboard <token> (`paraph dashboard url` shows the URL that carries it)';

/** Route-level onRequest of the dashboard's page: its security headers only. */
export function dashboardHeaders(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.headers(DASHBOARD_SECURITY_HEADERS);
  done();
}

/**
 * Route-level onRequest of `/_dashboard/api`: the security headers, then the dashboard token and only
 * it. An API key is refused: the dashboard sees every account, a key is one account's. These routes
 * carry no `auth` config, so the rate limit and fault rules (which need an API key's principal) never
 * apply to them.
 */
export function dashboardAuth(ctx: Context) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    reply.headers(DASHBOARD_SECURITY_HEADERS);
    const header = request.headers.authorization;
    if (header === undefined || header === '') return done(new ParaphError('unauthorized', `the dashboard token is missing: ${HOW}`));
    if (/^Bearer\s/i.test(header)) {
      return done(new ParaphError('unauthorized', `the dashboard does not take API keys (it sees every account): ${HOW}`));
    }
    const token = SCHEME.exec(header)?.[1];
    if (token === undefined || !isDashboardToken(ctx, token)) {
      return done(new ParaphError('unauthorized', `invalid or rotated dashboard token: ${HOW}`));
    }
    done();
  };
}
