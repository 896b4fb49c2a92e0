import type { FastifyReply, FastifyRequest } from 'fastify';
import { ParaphError } from '../domain/errors.js';
import type { OpenApiRoute } from './openapi.js';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const methodList = (methods: readonly string[]) => [...new Set(methods)].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));

/** The app's answer to a request no route took (app.ts), for the plugins that set their own 404 handler. */
export type NotFoundHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Paths under a signing link: their token is a secret, so no answer repeats them. */
const UNDER_A_LINK = /^\/(sign|embed)\//;

/**
 * The answer to a request no route took: 405 with `Allow` when the path exists for other methods,
 * else 404 `not_found` saying where the call probably belongs (the same path under `/v1`, or outside
 * it, or without a trailing slash) and where every endpoint is listed.
 */
export function noRouteError(method: string, url: string, routes: readonly OpenApiRoute[]): ParaphError {
  const path = url.split('?')[0] ?? '';
  const secret = UNDER_A_LINK.test(path);
  const exact = routes.filter((r) => r.matches(path) && !r.url.includes('*'));
  if (path.length > 1 && path.endsWith('/') && exact.some((r) => r.method === method)) {
    const without = path.replace(/\/+$/, '') || '/';
    return new ParaphError(
      'not_found',
      secret ? 'no such endpoint: remove the trailing slash' : `no such endpoint: remove the trailing slash (${method} ${without})`,
    );
  }
  const allowed = methodList(exact.map((r) => r.method));
  if (allowed.length > 0) {
    const list = allowed.join(', ');
    return new ParaphError('method_not_allowed', `method ${method} is not allowed on this path; it answers ${list}`, { headers: { allow: list } });
  }
  const elsewhere = secret ? undefined : moved(path, routes);
  if (elsewhere) {
    const where = elsewhere.methods.includes(method) ? `${method} ${elsewhere.path}` : `${elsewhere.path} (${elsewhere.methods.join(', ')})`;
    return new ParaphError('not_found', `no such endpoint: did you mean ${where}? ${elsewhere.why}`);
  }
  return new ParaphError('not_found', 'no such endpoint: the API is under /v1, and GET /v1/openapi.json lists every endpoint');
}

/** The path the caller probably meant: with the `/v1` prefix it lacks, or without one it should not have. */
function moved(path: string, routes: readonly OpenApiRoute[]): { path: string; methods: string[]; why: string } | undefined {
  const inside = path.startsWith('/v1/');
  const candidate = inside ? path.slice(3) : `/v1${path}`;
  if (UNDER_A_LINK.test(candidate)) return undefined;
  const why = !inside
    ? 'API paths start with /v1'
    : candidate.startsWith('/v1/')
      ? 'the /v1 prefix is there twice'
      : `/${candidate.split('/')[1] ?? ''} is not under /v1`;
  const methods = routes.filter((r) => (!r.hidden || r.url === '/v1/openapi.json') && r.method !== 'HEAD' && r.matches(candidate)).map((r) => r.method);
  return methods.length > 0 ? { path: candidate, methods: methodList(methods), why } : undefined;
}
