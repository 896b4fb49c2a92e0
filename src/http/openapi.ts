import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { WebhookEvent } from '../contract/webhooks.js';
import {
  API_DESCRIPTION_REVISION,
  describeOperation,
  describeStatus,
  errorEnvelopeOf,
  genericStatuses,
  HEADERS,
  headersOf,
  IDEMPOTENCY_KEY_PARAMETER,
  INFO_DESCRIPTION,
  tagOf,
  TAGS,
  type WireRoute,
} from './openapi-wire.js';
import { webhooksSection } from './openapi-webhooks.js';

/** A route as registered, kept for the OpenAPI document and for telling 405 from 404. */
export interface OpenApiRoute {
  method: string;
  url: string;
  schema: Record<string, unknown>;
  summary: string;
  auth: boolean;
  /** Honours Idempotency-Key. */
  idempotent: boolean;
  hidden: boolean;
  /** Responses as the document lists them where the wire is not the serialisation schema (PDF bytes, Markdown). */
  documentedResponses: Record<string, unknown> | undefined;
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
        idempotent: route.config?.idempotent === true,
        documentedResponses: route.config?.documentedResponses,
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
    const wire = wireOf(route);
    const operation: Record<string, unknown> = {
      tags: [tagOf(route.url)],
      summary: route.summary || undefined,
      description: describeOperation(wire),
      operationId: operationId(route),
    };
    const parameters: unknown[] = [
      ...parametersOf(route.schema.params, 'path', components),
      ...parametersOf(route.schema.querystring, 'query', components),
      ...parametersOf(route.schema.headers, 'header', components),
    ];
    if (route.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    if (parameters.length > 0) operation.parameters = parameters;
    if (route.multipartBody) {
      operation.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: lift(route.multipartBody, components), encoding: encodingOf(route.multipartBody) } },
      };
    } else if (route.rawBody) {
      operation.requestBody = {
        required: true,
        description: route.rawBody.description,
        content: { [route.rawBody.mediaType]: { schema: { type: 'string', format: 'binary' } } },
      };
    } else if (route.schema.body) {
      // An input whose properties are all optional may be left out; any other is refused when empty.
      const required = ((route.schema.body as { required?: unknown[] }).required ?? []).length > 0;
      operation.requestBody = { required, content: { 'application/json': { schema: lift(route.schema.body, components) } } };
    }
    const declared = { ...((route.schema.response ?? {}) as Record<string, unknown>), ...route.documentedResponses };
    const responses: Record<string, Record<string, unknown>> = {};
    for (const [status, schema] of Object.entries(declared)) {
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
    const envelope = errorEnvelopeOf(wire);
    for (const status of genericStatuses(wire)) {
      responses[String(status)] ??= { description: describeStatus(String(status)), content: { 'application/json': { schema: lift(envelope, components) } } };
    }
    for (const [status, response] of Object.entries(responses)) response.headers = headersOf(wire, Number(status));
    operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    operation.security = route.auth ? [{ bearerAuth: [] }] : [];
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  // Components only the webhooks or a part's contentSchema name are lifted too.
  lift(WebhookEvent, components);
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description: INFO_DESCRIPTION,
      contact: { name: 'paraph', url: 'https://www.npmjs.com/package/paraph' },
      license: { name: 'MIT', identifier: 'MIT' },
      'x-api-description-revision': API_DESCRIPTION_REVISION,
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/', description: 'the paraph server that serves this document' }],
    tags: TAGS,
    paths,
    webhooks: webhooksSection(),
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
      headers: HEADERS,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'an API key, `paraph_test_…`' } },
    },
  };
}

function wireOf(route: OpenApiRoute): WireRoute {
  const jsonBody = !route.multipartBody && !route.rawBody && route.schema.body !== undefined;
  return {
    method: route.method,
    url: route.url,
    summary: route.summary,
    auth: route.auth,
    idempotent: route.idempotent,
    hasBody: jsonBody || route.multipartBody !== undefined || route.rawBody !== undefined,
    pathParams: route.url.includes(':'),
  };
}

/** A multipart part with a contentMediaType is sent with that Content-Type (`request`: JSON, `document`: PDF). */
function encodingOf(form: TSchema): Record<string, { contentType: string }> | undefined {
  const properties = (form as { properties?: Record<string, { contentMediaType?: string; format?: string }> }).properties ?? {};
  const encoding = Object.entries(properties)
    .filter(([, part]) => part.contentMediaType && (part.format === 'binary' || part.contentMediaType === 'application/json'))
    .map(([name, part]) => [name, { contentType: part.contentMediaType as string }]);
  return encoding.length > 0 ? Object.fromEntries(encoding) : undefined;
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
    // A parameter keeps its default (generators leave a parameter optional whatever its default).
    schema: withDefaultOf(property, lift(property, components)),
  }));
}

function withDefaultOf(original: unknown, lifted: unknown): unknown {
  const value = (original as { default?: unknown } | null)?.default;
  return value === undefined ? lifted : { ...(lifted as object), default: value };
}

/**
 * Copies a schema, moving every titled sub-schema into components and pointing at it with $ref. A
 * `default` is said in the description instead: typed-client generators (openapi-typescript) make a
 * property with a default required, which a request body left without it is not.
 */
function lift(schema: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => lift(item, components));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'default') continue;
    copy[key] = key === 'properties' || key === 'patternProperties' ? liftEach(value, components) : lift(value, components);
  }
  const fallback = (schema as { default?: unknown }).default;
  if (fallback !== undefined) {
    const said = typeof copy.description === 'string' ? `${copy.description}; ` : '';
    copy.description = `${said}default ${JSON.stringify(fallback)}`;
  }
  const title = (schema as { title?: unknown }).title;
  if (typeof title !== 'string') return copy;
  components[title] ??= copy;
  return { $ref: `#/components/schemas/${title}` };
}

function liftEach(map: unknown, components: Record<string, unknown>): unknown {
  return Object.fromEntries(Object.entries(map as Record<string, unknown>).map(([k, v]) => [k, lift(v, components)]));
}
