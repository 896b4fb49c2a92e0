import { isUtf8 } from 'node:buffer';
import multipart from '@fastify/multipart';
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { encodedBody, wrongContentType } from './content-type-errors.js';
import { drainBody } from './drain-body.js';
import { answerClientError, limitBodyTime, newRequestId, refuseConnect, refuseUnknownExpectations } from './protocol-errors.js';
import { MAX_PDF_BYTES } from '../domain/limits.js';
import { ParaphError } from '../domain/errors.js';
import { sendError, toParaphError } from './errors.js';
import { authHook, quietPrincipal } from './hooks/auth.js';
import { hasRateLimitHeaders, isApiPath, rateLimitHeadersOf, rateLimitHook } from './hooks/rate-limit.js';
import { InjectedFault } from './hooks/faults.js';
import { collectOpenApiRoutes, type OpenApiRoute } from './openapi.js';
import { noRouteError } from './not-found.js';
import { DASHBOARD_SECURITY_HEADERS } from './hooks/dashboard-auth.js';
import { registerRequestLog } from './hooks/request-log.js';
import { registerRoutes } from './routes/index.js';
import { describeErrors, compileForPart } from './validation.js';
import { lazySerializers } from './serialization.js';
import { illFormedTextAt, illFormedTextMessage } from './request-text.js';

import type { App } from './app-type.js';
export type { App } from './app-type.js';

export interface AppOptions {
  ctx: Context;
  rateLimit: boolean;
  /** How long a request, head and body, may take to arrive: later Node answers 408 (protocol-errors.ts). */
  requestTimeoutMs: number;
}

const JSON_BODY_LIMIT = 1024 * 1024;

/** The API's routes: the REST API, the sandbox controls, the dashboard's API and the signer's API under a link. */
const API_ROUTE = /^\/(v1(\/|$)|_sandbox\/|_dashboard\/api\/|sign\/:token\/api\/)/;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a JSON body is more than "no options" (absent, empty or `{}`). */
const saysSomething = (body: unknown): boolean =>
  body !== undefined && body !== null && !(typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);

/** What a route that takes no body says of one that says something. */
function noBodyMistake(body: unknown): string {
  const first = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body)[0] : undefined;
  return first !== undefined
    ? `body has an unknown property "${first}": this endpoint takes no body`
    : 'this endpoint takes no body: send none, or an empty JSON object';
}

/** The query of a route that takes none: any parameter is unknown (400 naming it). */
const NO_QUERY = Type.Object({}, { additionalProperties: false });

/** Headers that must come once: Node keeps the first Authorization and joins repeated unknown ones ("k1, k2"). */
const SINGLE_HEADERS = new Set(['authorization', 'idempotency-key', 'signer-verification']);

function refuseRepeatedHeaders(raw: readonly string[]): void {
  const seen = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!SINGLE_HEADERS.has(name)) continue;
    if (seen.has(name))
      throw new ParaphError(
        'invalid_request',
        `the ${name === 'idempotency-key' ? 'Idempotency-Key' : name === 'authorization' ? 'Authorization' : 'Signer-Verification'} header is repeated: send it once`,
      );
    seen.add(name);
  }
}

const ANY_CASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function buildApp(options: AppOptions): Promise<App> {
  const { ctx } = options;
  const rateLimits = rateLimitHook(ctx.clock, options.rateLimit);
  // Every /v1 answer carries the general bucket's X-RateLimit-* headers (the sandbox contract), also one
  // no API route counted: a 401, an unknown path or method, an error before the caller was known.
  const tellRateLimit = (request: FastifyRequest, reply: FastifyReply): void => {
    if (isApiPath(request.url) && !hasRateLimitHeaders(reply)) {
      rateLimits.tell(request, reply, request.principal ?? quietPrincipal(ctx, request.headers.authorization));
    }
  };
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    // No per-request log lines: URLs can carry signing tokens.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: newRequestId,
    bodyLimit: JSON_BODY_LIMIT,
    // Above the router's default (100 characters), a path parameter would answer 400 before its
    // schema says "malformed id, 404". Node refuses request heads over 16 KiB, so no longer one arrives.
    routerOptions: { maxParamLength: 16 * 1024 },
    return503OnClosing: false,
    schemaErrorFormatter: (errors, dataVar) => new Error(describeErrors(errors, dataVar === 'querystring' ? 'query' : dataVar)),
    frameworkErrors: (error, request, reply) => {
      // (Answered outside the request's hooks: a path that does not decode.)
      tellRateLimit(request, reply);
      void sendError(request, reply, toParaphError(error, request));
    },
    // Requests Node refuses before routing still get the envelope; a missing Host is answered below.
    clientErrorHandler: answerClientError,
    // A request head that trickles in is cut off by Node (408 in the envelope, protocol-errors.ts);
    // a body, by limitBodyTime below.
    requestTimeout: options.requestTimeoutMs,
    http: { requireHostHeader: false, connectionsCheckingInterval: 1000 },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  refuseUnknownExpectations(app.server, (raw) =>
    isApiPath(raw.url ?? '') ? rateLimits.headersFor(quietPrincipal(ctx, raw.headers.authorization), raw.socket.remoteAddress) : {},
  );
  refuseConnect(app.server);

  app.setValidatorCompiler(({ schema, httpPart }) => compileForPart(schema as import('typebox').TSchema, httpPart));
  // JSON only: a JSON body sent as text/plain (fetch's default for a string) gets the 400 that says to
  // send Content-Type: application/json, not a schema error about a string.
  app.removeContentTypeParser('text/plain');
  // An empty body with a JSON content type means "no options", as for an absent body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const bytes = body as Buffer;
    // JSON text is UTF-8 (RFC 8259): bytes that are not would be read as U+FFFD, different values alike.
    if (!isUtf8(bytes)) return done(new ParaphError('invalid_request', 'body is not valid UTF-8: send JSON text encoded in UTF-8'), undefined);
    const text = bytes.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new ParaphError('invalid_request', 'body is not valid JSON: send one JSON object, with double-quoted names and strings'), undefined);
    }
    // `null` is a JSON value, not "no body": refused like `[]`, never taken as "no options".
    if (parsed === null) return done(new ParaphError('invalid_request', 'body is null: send one JSON object, or no body at all'), undefined);
    const illFormed = illFormedTextAt(parsed, 'body');
    if (illFormed !== null) return done(new ParaphError('invalid_request', illFormedTextMessage(illFormed)), undefined);
    done(null, parsed);
  });
  await app.register(multipart, {
    limits: { fileSize: MAX_PDF_BYTES, files: 2, fields: 4, parts: 4, fieldSize: JSON_BODY_LIMIT, headerPairs: 100 },
  });

  let closing = false;
  app.addHook('onClose', async () => {
    closing = true;
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.decorateRequest('principal', null);
  // Set by the REST API's `keyed` plugin (src/http/hooks/idempotency.ts); declared here so every request has the same shape.
  app.decorateRequest('idempotency', null);
  const authenticate = authHook(ctx);
  // One synchronous hook for what every request goes through (no promise per step); the REST API's
  // plugins add the rate limit and fault rules (src/http/api-scope.ts).
  app.addHook('onRequest', (request, reply, done) => {
    try {
      // Remembered reads (API keys, the clock offset, request statuses) now include every commit a
      // CLI process made before this request arrived.
      ctx.db.observeChanges();
      // (Its 408 is written on the socket: with the rate-limit headers the reply holds by then, or tells.)
      limitBodyTime(request.raw, options.requestTimeoutMs, () => {
        tellRateLimit(request, reply);
        return isApiPath(request.url) ? rateLimitHeadersOf(reply) : {};
      });
      reply.header('x-request-id', request.id);
      if (closing) throw new ParaphError('temporarily_unavailable', 'paraph is shutting down; retry shortly');
      if (request.headers.host === undefined && request.raw.httpVersionMinor >= 1) {
        throw new ParaphError('invalid_request', 'the Host header is required (HTTP/1.1)');
      }
      refuseRepeatedHeaders(request.raw.rawHeaders);
      const encoded = encodedBody(request.headers);
      if (encoded !== null) throw encoded;
      authenticate(request, request.routeOptions);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
  // Only the upload routes read multipart bodies; elsewhere one would pass as "no options".
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.isMultipart() && !request.routeOptions.config.multipartBody) {
      return done(wrongContentType(request));
    }
    // A route that takes no body (a delete, a replay, a signing link's view) refuses one that says anything, as
    // unknown properties are everywhere: only no body, an empty one or `{}` passes.
    const { schema, config, url } = request.routeOptions;
    if (
      BODY_METHODS.has(request.method) &&
      schema?.body === undefined &&
      !config.multipartBody &&
      !config.rawBody &&
      API_ROUTE.test(url ?? '') &&
      saysSomething(request.body)
    ) {
      return done(new ParaphError('invalid_request', noBodyMistake(request.body)));
    }
    // A resource id is a UUID, read whatever its case (RFC 9562): one written in capitals, as some
    // databases give them back, names the same resource.
    const params = request.params as { id?: unknown } | undefined;
    if (typeof params?.id === 'string' && ANY_CASE_UUID.test(params.id)) params.id = params.id.toLowerCase();
    done();
  });
  // Unknown query parameters are refused on every API route, not only on those that take some.
  app.addHook('onRoute', (route) => {
    if (!API_ROUTE.test(route.url) || route.schema?.querystring !== undefined) return;
    route.schema = { ...route.schema, querystring: NO_QUERY };
  });
  registerRequestLog(app, ctx.log);
  app.addHook('onSend', (request, reply, payload, done) => {
    tellRateLimit(request, reply);
    // While paraph shuts down, an answer ends its connection: a client's idle keep-alive connection
    // would otherwise hold the stop until its keep-alive timeout (fastify's 72 s) closes it.
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  const routes: OpenApiRoute[] = [];
  collectOpenApiRoutes(app, routes);
  app.setErrorHandler(async (error, request, reply) => {
    // The client went away mid-body (a dropped upload): nothing to answer, nothing wrong with paraph.
    if (request.raw.aborted || request.raw.socket?.destroyed === true) {
      request.log.info({ route: request.routeOptions.url }, 'the client closed the connection before its upload ended');
      return reply.hijack();
    }
    const paraphError = toParaphError(error, request);
    if (paraphError.status >= 500 && !(error instanceof InjectedFault)) {
      request.log.error({ err: error, route: request.routeOptions.url }, 'request failed');
    }
    await drainBody(request.raw);
    return sendError(request, reply, paraphError);
  });
  const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
    // Under `/_dashboard`, a 404 or 405 (any method, OPTIONS and TRACE too) carries the dashboard's security headers.
    if (/^\/_dashboard(?:[/?]|$)/.test(request.url)) reply.headers(DASHBOARD_SECURITY_HEADERS);
    await drainBody(request.raw);
    return sendError(request, reply, noRouteError(request.method, request.url, routes));
  };
  app.setNotFoundHandler(notFound);

  await registerRoutes(app, { ctx, routes, rateLimits, notFound });
  return app;
}
