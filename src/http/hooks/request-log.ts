import type { FastifyReply } from 'fastify';
import type { App } from '../app-type.js';
import type { Log } from '../../platform/log.js';
import { sentErrorCode } from '../errors.js';

/**
 * One `info` line per request once it is answered: method, route pattern (never the URL, which can
 * carry a signing token), status, the error envelope's code, and the request id the client got in
 * `X-Request-Id`. Headers and bodies (API keys, tokens) are never logged. Registered only when the
 * log takes `info` (`--log-level info`): at the default `warn`, requests pay nothing for it.
 */
export function registerRequestLog(app: App, log: Log): void {
  if (!log.isLevelEnabled('info')) return;
  app.addHook('onResponse', (request, reply: FastifyReply, done) => {
    log.info(
      {
        // A replay answers the first call's id: the one the client got.
        reqId: String(reply.getHeader('x-request-id') ?? request.id),
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        code: sentErrorCode(reply) ?? null,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });
}
