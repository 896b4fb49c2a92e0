import fs from 'node:fs';
import path from 'node:path';
import Type from 'typebox';
import type { Context } from '../../context.js';
import { notFound } from '../../domain/errors.js';
import { PACKAGE_ROOT } from '../../platform/package-files.js';
import { AUTH_HEADER_HINT } from '../../features/keys/authenticate-api-key.js';
import type { App } from '../app-type.js';
import { prefersHtml, renderIndexPage } from '../index-page.js';
import { ApiIndex, ServerIndex } from '../../contract/discovery.js';
import { ErrorEnvelope } from '../../contract/common.js';
import { mediaResponse, mediaResponses } from './responses.js';

export const API_NAME = 'paraph: signature request sandbox API';
const README = path.join(PACKAGE_ROOT, 'README.md');
const DOCS = path.join(PACKAGE_ROOT, 'docs');

/**
 * Where a newcomer who only has the server's address finds everything: `GET /` (the server), `GET /v1`
 * (the API base the ready banner prints) and `GET /docs` (the README shipped with paraph). No key needed.
 */
export function registerDiscovery(app: App, ctx: Context, version: string): void {
  const serverIndex = (): ServerIndex => ({
    name: 'paraph',
    description: 'A local sandbox of an e-signature API: test environment, self-signed certificate, fictitious data only.',
    version,
    environment: 'sandbox',
    authentication: AUTH_HEADER_HINT,
    links: {
      api: '/v1',
      openapi: '/v1/openapi.json',
      docs: '/docs',
      health: '/healthz',
      dashboard: '/_dashboard/',
      signing_page: `${ctx.publicUrl()}/sign/{token}`,
    },
  });

  app.get(
    '/',
    {
      config: {
        summary: 'Where everything is: the API, the OpenAPI document, the docs, the health check (an HTML page when the client prefers text/html)',
        documentedResponses: { 200: mediaResponses('the index, as JSON or as an HTML page', { 'application/json': ServerIndex, 'text/html': Type.String() }) },
      },
      schema: { response: { 200: ServerIndex } },
    },
    async (request, reply) => {
      reply.header('vary', 'accept');
      if (!prefersHtml(request.headers.accept)) return serverIndex();
      return (
        reply
          .header('content-security-policy', "default-src 'none'")
          .type('text/html; charset=utf-8')
          // A string with its own Content-Type is sent as it is, never through the JSON serializer.
          .send(renderIndexPage(serverIndex()) as unknown as ServerIndex)
      );
    },
  );

  app.get(
    '/v1',
    { config: { summary: "The API's name, paraph's version and where its description is" }, schema: { response: { 200: ApiIndex } } },
    async (): Promise<ApiIndex> => ({
      name: API_NAME,
      api_version: 'v1',
      version,
      environment: 'sandbox',
      authentication: AUTH_HEADER_HINT,
      links: {
        openapi: '/v1/openapi.json',
        docs: '/docs',
        signature_requests: '/v1/signature-requests',
        templates: '/v1/templates',
        bulk_sends: '/v1/bulk-sends',
        webhook_deliveries: '/v1/webhook-deliveries',
        event_stream: '/v1/events/stream',
        health: '/healthz',
      },
    }),
  );

  let readme: string | undefined;
  app.get(
    '/docs',
    // Markdown, not JSON: no response schema, the document lists its media type.
    {
      config: {
        summary: "paraph's README (Markdown): getting started, the CLI, the sandbox controls",
        documentedResponses: { 200: mediaResponse('text/markdown', 'the README', Type.String()), 404: ErrorEnvelope },
      },
    },
    async (_request, reply) => {
      if (readme === undefined) {
        if (!fs.existsSync(README)) throw notFound('this installation of paraph has no README.md: see GET /v1/openapi.json');
        readme = fs.readFileSync(README, 'utf8');
      }
      return reply.type('text/markdown; charset=utf-8').send(readme);
    },
  );

  // The README's links (`docs/ci.md`, …) resolve from /docs to these pages.
  app.get(
    '/docs/:page',
    {
      config: {
        summary: "One page of paraph's documentation (Markdown), as the README links it: /docs/ci.md, /docs/cli.md, …",
        documentedResponses: { 200: mediaResponse('text/markdown', 'the page', Type.String()) },
      },
      schema: { params: Type.Object({ page: Type.String({ pattern: '^[a-z0-9-]{1,64}\\.md$' }) }) },
    },
    async (request, reply) => {
      const file = path.join(DOCS, request.params.page);
      if (!fs.existsSync(file)) throw notFound(`no documentation page ${request.params.page}: GET /docs is the README, which links every page`);
      return reply.type('text/markdown; charset=utf-8').send(fs.readFileSync(file, 'utf8'));
    },
  );
}
