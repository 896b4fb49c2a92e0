import multipart from '@fastify/multipart';
import Fastify, { LogController } from 'fastify';
import { drainBody } from './drain-body.js';
import { answerClientError, newRequestId, refuseUnknownExpectations } from './protocol-errors.js';
import { MAX_PDF_BYTES } from '../domain/limits.js';
import { ParaphError } from '../errors.js';
import { sendError, toParaphError } from './errors.js';
import { authHook } from './hooks/auth.js';
import { registerIdempotency } from './hooks/idempotency.js';
import { rateLimitHook } from './hooks/rate-limit.js';
import { collectOpenApiRoutes } from './openapi.js';
import { registerRoutes } from './routes/index.js';
import { describeErrors, compileForPart } from './validation.js';
import { lazySerializers } from './serialization.js';
const JSON_BODY_LIMIT = 1024 * 1024;
export async function buildApp(options) {
    const { ctx } = options;
    const app = Fastify({
        loggerInstance: ctx.log,
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
            void sendError(request, reply, toParaphError(error));
        },
        // Requests Node refuses before routing still get the envelope; a missing Host is answered below.
        clientErrorHandler: answerClientError,
        http: { requireHostHeader: false },
        schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    }).withTypeProvider();
    refuseUnknownExpectations(app.server);
    app.setValidatorCompiler(({ schema, httpPart }) => compileForPart(schema, httpPart));
    // An empty body with a JSON content type means "no options", as for an absent body.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
        const text = String(body);
        if (text.trim() === '')
            return done(null, undefined);
        try {
            done(null, JSON.parse(text));
        }
        catch {
            done(new ParaphError('invalid_request', 'body is not valid JSON'), undefined);
        }
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
    app.addHook('onRequest', async (request, reply) => {
        // Remembered reads (API keys, the clock offset, request statuses) now include every commit a CLI
        // process made before this request arrived.
        ctx.db.observeChanges();
        reply.header('x-request-id', request.id);
        if (closing)
            throw new ParaphError('temporarily_unavailable', 'paraph is shutting down; retry shortly');
        if (request.headers.host === undefined && request.raw.httpVersionMinor >= 1) {
            throw new ParaphError('invalid_request', 'the Host header is required (HTTP/1.1)');
        }
    });
    app.addHook('onRequest', authHook(ctx));
    app.addHook('onRequest', rateLimitHook(ctx.clock, options.rateLimit));
    // Only the upload routes read multipart bodies; elsewhere one would pass as "no options".
    app.addHook('preValidation', async (request) => {
        if (request.isMultipart() && !request.routeOptions.config.multipartBody) {
            throw new ParaphError('invalid_request', 'unsupported Content-Type for this endpoint: send application/json');
        }
    });
    registerIdempotency(app, ctx);
    const routes = [];
    collectOpenApiRoutes(app, routes);
    app.setErrorHandler(async (error, request, reply) => {
        const paraphError = toParaphError(error);
        if (paraphError.status >= 500) {
            request.log.error({ err: error, reqId: request.id, route: request.routeOptions.url }, 'request failed');
        }
        await drainBody(request.raw);
        return sendError(request, reply, paraphError);
    });
    app.setNotFoundHandler(async (request, reply) => {
        await drainBody(request.raw);
        const allowed = routes.filter((r) => r.matches(request.url)).map((r) => r.method);
        if (allowed.length > 0) {
            return sendError(request, reply.header('allow', [...new Set(allowed)].join(', ')), new ParaphError('invalid_request', `method ${request.method} is not allowed here`, { status: 405 }));
        }
        return sendError(request, reply, new ParaphError('not_found', 'no such endpoint'));
    });
    await registerRoutes(app, { ...options, routes });
    return app;
}
//# sourceMappingURL=app.js.map