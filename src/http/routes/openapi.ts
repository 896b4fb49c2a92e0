import type { App } from '../app-type.js';
import { buildOpenApiDocument, type OpenApiRoute } from '../openapi.js';
import { API_NAME } from './discovery.js';

export function registerOpenApi(app: App, routes: readonly OpenApiRoute[], version: string): void {
  let document: unknown;
  app.get('/v1/openapi.json', { config: { hidden: true } }, async () => {
    document ??= buildOpenApiDocument(routes, { title: API_NAME, version });
    return document;
  });
}
