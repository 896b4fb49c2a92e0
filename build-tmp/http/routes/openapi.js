import { buildOpenApiDocument } from '../openapi.js';
export function registerOpenApi(app, routes, version) {
    let document;
    app.get('/v1/openapi.json', { config: { hidden: true } }, async () => {
        document ??= buildOpenApiDocument(routes, { title: 'paraph: signature request sandbox API', version });
        return document;
    });
}
//# sourceMappingURL=openapi.js.map