import type { FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { authenticateApiKey } from '../../services/authenticate-api-key.js';

/** onRequest: routes marked `config.auth` need a live API key; the principal rides on the request. */
export function authHook(ctx: Context) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.routeOptions.config.auth !== true) return;
    request.principal = authenticateApiKey(ctx, request.headers.authorization);
  };
}
