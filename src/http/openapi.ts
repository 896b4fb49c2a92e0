import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { ErrorEnvelope } from '../contract/common.js';

/** A route as registered, kept for the OpenAPI document and for telling 405 from 404. */
export interface OpenApiRoute {
  method: string;
  url: string;
  schema: Record<string, unknown>;
  summary: string;
  auth: boolean;
  hidden: boolean;
  multipartBody: TSchema | undefined;
  rawBody: { mediaType: string; description: string } | undefined;
  matches(path: string): boolean;
}

export function collectOpenApiRoutes(app: FastifyInstance, into: OpenApiRoute[]): void {
  app.addHook('onRoute', (route) => {
    const pattern = new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);
    for (const method of [route.method].flat()) {
      into.push({
        method,
        url: route.url,
        schema: (route.schema ?? {}) as Record<string, unknown>,
        summary: route.config?.summary ?? '',
        auth: route.config?.auth === true,
        // Static files (wildcard routes) are not part of the API.
        hidden: route.config?.hidden === true || method === 'HEAD' || route.url.includes('*'),
        multipartBody: route.config?.multipartBody,
        rawBody: route.config?.rawBody,
        matches: (path) => pattern.test(path.split('?')[0] ?? ''),
      });
    }
  });
}

/** OpenAPI 3.1 from the route schemas: the same TypeBox objects that validate requests. */
export function buildOpenApiDocument(routes: readonly OpenApiRoute[], info: { title: string; version: string }) {
  const components: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.hidden) continue;
    const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const operation: Record<string, unknown> = { summary: route.summary || undefined, operationId: operationId(route) };
    const parameters = [
      ...parametersOf(route.schema.params, 'path', components),
      ...parametersOf(route.schema.querystring, 'query', components),
      ...parametersOf(route.schema.headers, 'header', components),
    ];
    if (parameters.length > 0) operation.parameters = parameters;
    if (route.multipartBody) {
      operation.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: lift(route.multipartBody, components) } },
      };
    } else if (route.rawBody) {
      operation.requestBody = {
        required: true,
        description: route.rawBody.description,
        content: { [route.rawBody.mediaType]: { schema: { type: 'string', format: 'binary' } } },
      };
    } else if (route.schema.body) {
      operation.requestBody = {
        required: false,
        content: { 'application/json': { schema: lift(route.schema.body, components) } },
      };
    }
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries((route.schema.response ?? {}) as Record<string, unknown>)) {
      // A 204 has no body, whatever schema fastify needs for it. A response given by media type
      // (`{description, content: {type: {schema}}}`, as fastify takes it) keeps its types.
      const byMedia = mediaTypesOf(schema);
      const body =
        schema === null || status === '204'
          ? undefined
          : byMedia
            ? Object.fromEntries(Object.entries(byMedia.content).map(([type, media]) => [type, { schema: lift(media.schema, components) }]))
            : { 'application/json': { schema: lift(schema, components) } };
      responses[status] = { description: byMedia?.description ?? describeStatus(status), ...(body ? { content: body } : {}) };
    }
    // Every JSON body goes through one parser, which refuses bodies over 1 MiB (src/http/errors.ts).
    if (operation.requestBody && !route.multipartBody && !route.rawBody && !responses['413']) {
      responses['413'] = { description: describeStatus('413'), content: { 'application/json': { schema: lift(ErrorEnvelope, components) } } };
    }
    // A route answering bytes (a PDF) has no JSON schema, but OpenAPI wants one response at least.
    operation.responses = Object.keys(responses).length > 0 ? responses : { '200': { description: 'OK' } };
    if (route.auth) operation.security = [{ bearerAuth: [] }];
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'an API key, `paraph_test_…`' } },
    },
  };
}

function operationId(route: OpenApiRoute): string {
  const words = route.url
    .split('/')
    .filter((s) => s && s !== 'v1')
    .map((s) => (s.startsWith(':') ? `by_${s.slice(1)}` : s.replace(/[^A-Za-z0-9]+/g, '_')));
  // `/` and `/v1` have no words of their own.
  if (words.length === 0) words.push(route.url === '/' ? 'server_index' : 'api_index');
  return [route.method.toLowerCase(), ...words].join('_');
}

function mediaTypesOf(schema: unknown): { description?: string; content: Record<string, { schema: unknown }> } | undefined {
  const content = (schema as { content?: unknown } | null)?.content;
  if (content === null || typeof content !== 'object') return undefined;
  return schema as { description?: string; content: Record<string, { schema: unknown }> };
}

function parametersOf(schema: unknown, where: 'path' | 'query' | 'header', components: Record<string, unknown>) {
  const object = schema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  return Object.entries(object?.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object?.required ?? []).includes(name),
    schema: lift(property, components),
  }));
}

/** Copies a schema, moving every titled sub-schema into components and pointing at it with $ref. */
function lift(schema: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => lift(item, components));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] = key === 'properties' || key === 'patternProperties' ? liftEach(value, components) : lift(value, components);
  }
  const title = (schema as { title?: unknown }).title;
  if (typeof title !== 'string') return copy;
  components[title] ??= copy;
  return { $ref: `#/components/schemas/${title}` };
}

function liftEach(map: unknown, components: Record<string, unknown>): unknown {
  return Object.fromEntries(Object.entries(map as Record<string, unknown>).map(([k, v]) => [k, lift(v, components)]));
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No Content',
  '400': 'Invalid input',
  '401': 'Missing, invalid or revoked API key',
  '404': 'Not found',
  '405': 'Method not allowed',
  '409': 'State conflict',
  '410': 'Content purged',
  '413': 'JSON body over 1 MiB',
  '422': 'Idempotency-Key reused',
  '429': 'Rate limit exceeded',
  '500': 'Internal error',
  '503': 'Temporarily unavailable',
};

function describeStatus(status: string): string {
  return STATUS_TEXT[status] ?? 'Response';
}
