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
});
