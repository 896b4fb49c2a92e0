import Type from 'typebox';
import type { App } from '../app-type.js';
import { mediaResponse } from './responses.js';
import { buildOpenApiDocument, type OpenApiRoute } from '../openapi.js';
import { API_NAME } from './discovery.js';

export function registerOpenApi(app: App, routes: readonly OpenApiRoute[], version: string): void {
  let document: unknown;
  const config = {
    summary: 'This document: OpenAPI 3.1, built from the schemas that validate requests (also docs/openapi.json in the package)',
    documentedResponses: { 200: mediaResponse('application/json', 'the OpenAPI document', Type.Object({ openapi: Type.String() })) },
  };
  app.get('/v1/openapi.json', { config }, async () => {
    document ??= buildOpenApiDocument(routes, { title: API_NAME, version });
    return document;
  });
}
