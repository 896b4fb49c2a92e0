import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { ParaphError } from '../../domain/errors.js';
import { fireFault, type FiredFault } from '../../features/faults/fire-fault.js';

/** An answer a fault rule asked for: logged when it fired, not again as a failure. */
export class InjectedFault extends ParaphError {}

/**
 * Run in onRequest of the REST API's plugins (src/http/api-scope.ts), after auth and the rate limit:
 * an authenticated `/v1` call that meets a fault rule of its account is refused here, before any
 * handler or Idempotency-Key work, or answers the delay to wait before it goes on. `/_sandbox` calls
 * never meet one. Without any rule for the account this costs a map lookup.
 */
export function apiFaultHook(ctx: Context) {
  return (request: FastifyRequest, reply: FastifyReply, routeOptions: FastifyRequest['routeOptions']): number => {
    const principal = request.principal;
    const route = routeOptions.url;
    if (principal === null || route === undefined) return 0;
    const fault = fireFault(
      ctx,
      principal.accountId,
      { target: 'api', method: request.method, path: request.url },
      { request_id: request.id, method: request.method, route },
    );
    if (fault === null) return 0;
    if (fault.status !== undefined) throw refusal(fault, reply);
    return fault.delay_ms ?? 0;
  };
}

function refusal(fault: FiredFault<'api'>, reply: FastifyReply): InjectedFault {
  const why = `(sandbox fault rule ${fault.id}; DELETE /_sandbox/faults/${fault.id} removes it)`;
  switch (fault.status) {
    case 429:
      reply.header('x-ratelimit-remaining', '0');
      return new InjectedFault('rate_limit_exceeded', `rate limit exceeded; retry after 1 s ${why}`, { headers: { 'retry-after': '1' } });
    case 500:
      return new InjectedFault('internal_error', `the request could not be completed ${why}`);
    default:
      return new InjectedFault('temporarily_unavailable', `paraph is temporarily unavailable; retry shortly ${why}`);
  }
}
