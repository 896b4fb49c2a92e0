import type { FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { authenticateApiKey } from '../../features/keys/authenticate-api-key.js';
import type { Principal } from '../../domain/principal.js';
import { unauthorized } from '../../domain/errors.js';

/**
 * onRequest: routes marked `config.auth` need a live API key; the principal rides on the request.
 * `route` is the request's `routeOptions`, read once by the hook (fastify builds it at each read).
 */
export function authHook(ctx: Context) {
  return (request: FastifyRequest, route: FastifyRequest['routeOptions']): void => {
    if (route.config.auth !== true) return;
    request.principal = authenticateApiKey(ctx, request.headers.authorization);
  };
}

/** The caller of a route marked `config.auth` (the hook has set it; a route without auth gets a 401). */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

/**
 * The caller a request's key names, or null when it names none (no key, a key not valid): for an answer
 * that no route's auth decided (a path no route answers) or that auth refused.
 */
export function quietPrincipal(ctx: Context, authorization: string | undefined): Principal | null {
  if (authorization === undefined) return null;
  try {
    return authenticateApiKey(ctx, authorization);
  } catch {
    return null;
  }
}
