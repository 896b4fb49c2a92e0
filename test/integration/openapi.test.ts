import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { json, useServer } from '../helpers/server.js';

test('GET /v1/openapi.json is a valid OpenAPI 3.1 document built from the validating schemas', async (t) => {
  const server = await useServer(t);
  const response = await server.call('GET', '/v1/openapi.json', { key: null });
  assert.equal(response.status, 200);
  const doc = await json<Record<string, any>>(response);

  const validator = new Validator();
  const result = await validator.validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  assert.equal(doc.openapi, '3.1.0');

  const create = doc.paths['/v1/signature-requests'].post;
  assert.ok(create.requestBody.content['multipart/form-data']);
  assert.deepEqual(Object.keys(create.responses).sort(), ['200', '201', '400', '401', '404', '409', '422', '429', '500', '503']);
  assert.deepEqual(create.security, [{ bearerAuth: [] }]);
  const get = doc.paths['/v1/signature-requests/{id}'].get;
  assert.deepEqual(get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`), ['path:id']);
  const list = doc.paths['/v1/signature-requests'].get;
  assert.deepEqual(list.parameters.map((p: { name: string }) => p.name).sort(), ['client_reference', 'cursor', 'limit', 'status']);

  // The same rules that validate requests: closed objects and the spec's ranges.
  const schemas = doc.components.schemas;
  assert.equal(schemas.SignerInput.additionalProperties, false);
  assert.equal(schemas.SignerInput.properties.order.maximum, 10);
  assert.equal(schemas.FieldInput.properties.width.maximum, 5000);
  assert.equal(schemas.CreateRequestPayload.properties.signers.maxItems, 10);
  assert.deepEqual(schemas.ErrorEnvelope.properties.error.required.sort(), ['code', 'message', 'request_id']);
  assert.ok(schemas.SignatureRequestStatus && schemas.CreateResponse && schemas.RequestListItem);
  // Every $ref points at a component that exists.
  for (const ref of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
    assert.ok(schemas[ref[1] as string], `missing component ${ref[1]}`);
  }
  assert.equal(doc.paths['/healthz'].get.security, undefined);

  // Templates and bulk sends: a multipart create with exactly its three parts, a 204 without a body,
  // the bulk body as documented (each recipient a BulkSendRecipient), errors in the envelope.
  const templates = doc.paths['/v1/templates'];
  const templateForm = templates.post.requestBody.content['multipart/form-data'].schema;
  assert.deepEqual(Object.keys(templateForm.properties).sort(), ['document', 'fields', 'name']);
  assert.deepEqual([...templateForm.required].sort(), ['document', 'fields', 'name']);
  assert.equal(templateForm.additionalProperties, false);
  assert.deepEqual(Object.keys(templates.post.responses).sort(), ['201', '400', '401', '422', '429', '500', '503']);
  assert.equal(templates.post.responses['201'].content['application/json'].schema.$ref, '#/components/schemas/Template');
  assert.equal(templates.get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/TemplateList');
  const archive = doc.paths['/v1/templates/{id}'].delete;
  assert.deepEqual(Object.keys(archive.responses).sort(), ['204', '401', '404', '422', '429']);
  assert.equal(archive.responses['204'].content, undefined);
  assert.deepEqual(archive.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`), ['path:id']);
  const bulk = doc.paths['/v1/bulk-sends'].post;
  assert.equal(bulk.requestBody.content['application/json'].schema.$ref, '#/components/schemas/BulkSendInput');
  assert.deepEqual(Object.keys(bulk.responses).sort(), ['200', '400', '401', '404', '409', '413', '422', '429', '500', '503']);
  assert.equal(bulk.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/BulkSendResponse');
  assert.equal(schemas.BulkSendInput.properties.recipients.maxItems, 50);
  assert.equal(schemas.BulkSendInput.properties.recipients.items.additionalProperties, false);
  assert.equal(schemas.Template.properties.signer_count.maximum, 10);
  for (const operation of [templates.post, templates.get, archive, bulk]) assert.deepEqual(operation.security, [{ bearerAuth: [] }]);

  // A JSON body over 1 MiB is a 413 in the envelope, wherever a JSON body is taken; multipart bodies have
  // their own limits (400); a time-stamp query over 16 KiB is a 413 too.
  let withJson = 0;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const content = operation.requestBody?.content ?? {};
      if (content['application/json'] || content['application/timestamp-query']) {
        withJson++;
        assert.equal(operation.responses['413']?.content['application/json'].schema.$ref, '#/components/schemas/ErrorEnvelope', `${method} ${path}`);
      } else {
        assert.equal(operation.responses['413'], undefined, `${method} ${path}`);
      }
    }
  }
  assert.ok(withJson >= 10, `${withJson} operations take JSON`);
});
