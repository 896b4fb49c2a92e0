import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { json, useServer } from '../helpers/server.js';
import { watchAnswers } from '../helpers/openapi-responses.js';
import { createRequest } from '../helpers/flows.js';

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
  assert.deepEqual(Object.keys(create.responses).sort(), ['200', '201', '400', '401', '404', '408', '409', '413', '417', '422', '429', '500', '503']);
  assert.deepEqual(create.security, [{ bearerAuth: [] }]);
  const get = doc.paths['/v1/signature-requests/{id}'].get;
  assert.deepEqual(
    get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
    ['path:id'],
  );
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
  assert.deepEqual(doc.paths['/healthz'].get.security, []);

  // Templates and bulk sends: a multipart create with exactly its three parts, a 204 without a body,
  // the bulk body as documented (each recipient a BulkSendRecipient), errors in the envelope.
  const templates = doc.paths['/v1/templates'];
  const templateForm = templates.post.requestBody.content['multipart/form-data'].schema;
  assert.deepEqual(Object.keys(templateForm.properties).sort(), ['document', 'fields', 'name']);
  assert.deepEqual([...templateForm.required].sort(), ['document', 'fields', 'name']);
  assert.equal(templateForm.additionalProperties, false);
  assert.deepEqual(Object.keys(templates.post.responses).sort(), ['201', '400', '401', '408', '409', '413', '417', '422', '429', '500', '503']);
  assert.equal(templates.post.responses['201'].content['application/json'].schema.$ref, '#/components/schemas/Template');
  assert.equal(templates.get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/TemplateList');
  const archive = doc.paths['/v1/templates/{id}'].delete;
  assert.deepEqual(Object.keys(archive.responses).sort(), ['204', '400', '401', '404', '409', '422', '429', '500', '503']);
  assert.equal(archive.responses['204'].content, undefined);
  assert.deepEqual(
    archive.parameters.map((p: { name?: string; in?: string; $ref?: string }) => p.$ref ?? `${p.in}:${p.name}`),
    ['path:id', '#/components/parameters/IdempotencyKey'],
  );
  const bulk = doc.paths['/v1/bulk-sends'].post;
  assert.equal(bulk.requestBody.content['application/json'].schema.$ref, '#/components/schemas/BulkSendInput');
  assert.deepEqual(Object.keys(bulk.responses).sort(), ['200', '400', '401', '404', '408', '409', '413', '417', '422', '429', '500', '503']);
  assert.equal(bulk.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/BulkSendResponse');
  assert.equal(schemas.BulkSendInput.properties.recipients.maxItems, 50);
  assert.equal(schemas.BulkSendInput.properties.recipients.items.additionalProperties, false);
  assert.equal(schemas.Template.properties.signer_count.maximum, 10);
  for (const operation of [templates.post, templates.get, archive, bulk]) assert.deepEqual(operation.security, [{ bearerAuth: [] }]);

  // A JSON body over 1 MiB is a 413 in the envelope, wherever a body is taken (a JSON body sent to a
  // multipart upload included); a time-stamp query over 16 KiB is a 413 too. A body may come too slowly (408).
  let withBody = 0;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.requestBody) {
        withBody++;
        const envelope = path.startsWith('/sign/') ? 'SigningErrorEnvelope' : 'ErrorEnvelope';
        assert.equal(operation.responses['413']?.content['application/json'].schema.$ref, `#/components/schemas/${envelope}`, `${method} ${path}`);
        assert.ok(operation.responses['408'], `${method} ${path}`);
      } else {
        assert.equal(operation.responses['413'], undefined, `${method} ${path}`);
      }
    }
  }
  assert.ok(withBody >= 12, `${withBody} operations take a body`);
});

test('the document describes the wire: multipart parts, PDFs, headers, statuses, enums, security, tags, info, webhooks', async (t) => {
  const server = await useServer(t);
  const doc = await json<Record<string, any>>(await server.call('GET', '/v1/openapi.json', { key: null }));
  const schemas = doc.components.schemas;

  // The create call's parts as the API description words them: `request` a string holding JSON.
  const form = doc.paths['/v1/signature-requests'].post.requestBody.content['multipart/form-data'];
  assert.deepEqual(form.schema.properties.request, {
    type: 'string',
    contentMediaType: 'application/json',
    contentSchema: { $ref: '#/components/schemas/CreateRequestPayload' },
    description: form.schema.properties.request.description,
  });
  assert.equal(form.schema.properties.document.format, 'binary');
  assert.deepEqual(form.encoding, { document: { contentType: 'application/pdf' }, request: { contentType: 'application/json' } });
  const templateForm = doc.paths['/v1/templates'].post.requestBody.content['multipart/form-data'].schema;
  assert.equal(templateForm.properties.fields.contentSchema.$ref, '#/components/schemas/TemplateFieldsJson');
  assert.equal(schemas.TemplateFieldsJson.maxItems, 100);

  // PDFs as application/pdf, the evidence JSON as JSON; the signing link's PDFs too.
  const artifact = doc.paths['/v1/signature-requests/{id}/artifacts/{type}'].get.responses['200'].content;
  assert.deepEqual(Object.keys(artifact).sort(), ['application/json', 'application/pdf']);
  assert.equal(artifact['application/json'].schema.$ref, '#/components/schemas/EvidenceResponse');
  for (const path of ['/sign/{token}/api/document', '/sign/{token}/api/signed-document']) {
    assert.deepEqual(Object.keys(doc.paths[path].get.responses['200'].content), ['application/pdf'], path);
  }
  assert.ok(doc.paths['/sign/{token}/api/signed-document'].get.responses['410']);
  assert.ok(doc.paths['/sign/{token}/api/signed-document'].get.responses['409']);
  assert.ok(doc.paths['/sign/{token}/api/document'].get.responses['404']);
  assert.ok(doc.paths['/sign/{token}/api/otp'].post.responses['429'].headers['Retry-After']);

  // Idempotency-Key on every mutating /v1 operation; response headers where the server sends them.
  assert.equal(doc.components.parameters.IdempotencyKey.schema.maxLength, 255);
  const idempotent = [
    'post /v1/signature-requests',
    'put /v1/signature-requests/{id}/fields',
    'post /v1/signature-requests/{id}/activate',
    'post /v1/bulk-sends',
    'delete /v1/templates/{id}',
  ];
  for (const name of idempotent) {
    const [method, path] = name.split(' ') as [string, string];
    const operation = doc.paths[path][method];
    assert.ok(
      operation.parameters.some((p: { $ref?: string }) => p.$ref === '#/components/parameters/IdempotencyKey'),
      name,
    );
    assert.ok(operation.responses['200'] ?? operation.responses['201'] ?? operation.responses['204'], name);
    const ok = operation.responses['201'] ?? operation.responses['200'] ?? operation.responses['204'];
    assert.ok(ok.headers['Idempotent-Replayed'] && ok.headers['X-RateLimit-Limit'] && ok.headers['X-Request-Id'], name);
    assert.ok(operation.responses['429'].headers['Retry-After'], name);
  }
  assert.deepEqual(Object.keys(doc.components.headers).sort(), ['IdempotentReplayed', 'RetryAfter', 'XRateLimitLimit', 'XRateLimitRemaining', 'XRequestId']);
  // The API description asks for the rate-limit headers on a create's 201 and on a 429, the sandbox contract on
  // every /v1 answer: required on each.
  assert.equal(doc.components.headers.XRateLimitLimit.required, true);
  assert.equal(doc.components.headers.XRateLimitRemaining.required, true);
  const create = doc.paths['/v1/signature-requests'].post.responses;
  for (const status of ['201', '400', '401', '429', '500']) {
    assert.deepEqual(
      Object.keys(create[status].headers).filter((h) => h.startsWith('X-RateLimit')),
      ['X-RateLimit-Limit', 'X-RateLimit-Remaining'],
      status,
    );
  }

  // Bodies the server refuses when empty are required; an all-optional input is not.
  assert.equal(doc.paths['/v1/signature-requests/{id}/fields'].put.requestBody.required, true);
  assert.equal(doc.paths['/v1/signature-requests/{id}/signers/{reference}/replace'].post.requestBody.required, true);
  assert.equal(doc.paths['/v1/bulk-sends'].post.requestBody.required, true);
  assert.equal(doc.paths['/v1/signature-requests/{id}/activate'].post.requestBody.required, false);

  // Enums where the API description lists the values; the URL rules on the fields.
  assert.ok(schemas.ErrorEnvelope.properties.error.properties.code.enum.includes('idempotency_request_in_progress'));
  assert.deepEqual(schemas.SignerStatus.properties.locale.enum, ['fr', 'en', 'ar', '']);
  assert.deepEqual(schemas.SignerStatus.properties.verification.enum, ['email_otp', '']);
  assert.match(schemas.CreateRequestPayload.properties.callback_url.description, /HTTPS URL on port 443/);
  assert.match(schemas.CreateRequestPayload.properties.return_url.description, /HTTPS only/);
  assert.match(schemas.CreateRequestPayload.properties.embed_origin.description, /https:\/\/host\[:port\]/);

  // Every operation: a tag (declared), a description, a security requirement (empty where no key is needed).
  const tags = new Set(doc.tags.map((tag: { name: string }) => tag.name));
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      assert.ok(operation.tags.length === 1 && tags.has(operation.tags[0]), `${method} ${path}`);
      assert.ok(operation.description.length > 20, `${method} ${path}`);
      assert.ok(Array.isArray(operation.security), `${method} ${path}`);
      assert.ok(
        Object.keys(operation.responses).some((status) => status.startsWith('4')),
        `${method} ${path}`,
      );
    }
  }
  assert.deepEqual(doc.paths['/sign/{token}/api/sign'].post.security, []);
  assert.ok(doc.paths['/v1/openapi.json'].get);
  assert.equal(doc.info['x-api-description-revision'], '1.11.0');
  assert.equal(doc.info.license.identifier, 'MIT');
  assert.ok(doc.info.contact.url && doc.info.description.includes('1.11.0'));

  // A webhooks entry per event type: its body a WebhookEvent of that type, the three webhook-* headers.
  assert.equal(Object.keys(doc.webhooks).length, 10);
  const declined = doc.webhooks['signer.declined'].post;
  assert.deepEqual(
    declined.parameters.map((p: { name: string; in: string; required: boolean }) => `${p.in}:${p.name}:${p.required}`),
    ['header:webhook-id:true', 'header:webhook-timestamp:true', 'header:webhook-signature:true'],
  );
  assert.deepEqual(declined.requestBody.content['application/json'].schema.allOf[1].properties.type, { const: 'signer.declined' });

  // docs/openapi.json is the document the server serves (npm run docs:openapi writes it).
  const file = JSON.parse(fs.readFileSync('docs/openapi.json', 'utf8')) as unknown;
  assert.deepEqual(file, doc, 'docs/openapi.json differs from GET /v1/openapi.json: run npm run docs:openapi');
});

test('an answer the document does not describe is reported: status, content type, header, body', async (t) => {
  const server = await useServer(t);
  const doc = await json<Record<string, any>>(await server.call('GET', '/v1/openapi.json', { key: null }));
  const id = await createRequest(server);
  // A document that says less than the server does.
  const narrowed = structuredClone(doc);
  const read = narrowed.paths['/v1/signature-requests/{id}'].get.responses;
  delete read['404'];
  read['200'].headers['X-Trace'] = { required: true, schema: { type: 'string' } };
  narrowed.components.schemas.SignatureRequestStatus.properties.status = { const: 'completed' };
  narrowed.paths['/v1'].get.responses['200'].content = { 'text/plain': { schema: { type: 'string' } } };
  const watch = await watchAnswers(server.url, narrowed);
  t.after(() => watch.stop());
  await (await server.call('GET', `/v1/signature-requests/${crypto.randomUUID()}`)).arrayBuffer();
  await (await server.call('GET', '/v1', { key: null })).arrayBuffer();
  await (await server.call('GET', `/v1/signature-requests/${id}`)).arrayBuffer();
  await new Promise((resolve) => setImmediate(resolve));
  const problems = watch.problems.join('\n');
  assert.match(problems, /GET \/v1\/signature-requests\/[0-9a-f-]+ → 404: status 404 is not documented/);
  assert.match(problems, /GET \/v1 → 200: Content-Type "application\/json" is not one of text\/plain/);
  assert.match(problems, /→ 200: required header X-Trace is missing/);
  watch.stop();
  // With the header present, the body is checked.
  delete read['200'].headers['X-Trace'];
  const again = await watchAnswers(server.url, narrowed);
  t.after(() => again.stop());
  await (await server.call('GET', `/v1/signature-requests/${id}`)).arrayBuffer();
  await new Promise((resolve) => setImmediate(resolve));
  assert.match(again.problems.join('\n'), /→ 200: body: .*status must be equal to constant/);
  // The served document describes the same answers.
  const served = await watchAnswers(server.url);
  t.after(() => served.stop());
  for (const route of [`/v1/signature-requests/${crypto.randomUUID()}`, '/v1', `/v1/signature-requests/${id}`]) {
    await (await server.call('GET', route, { key: route === '/v1' ? null : undefined })).arrayBuffer();
  }
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(served.problems, []);
});
