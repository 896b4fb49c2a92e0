// A typed client of paraph from its OpenAPI document: openapi-typescript writes the types, openapi-fetch
// calls the API with them. A whole flow: create a request with a PDF, activate it, sign through the
// programmatic API, download the signed PDF as bytes, read the evidence JSON and receive the webhooks.
//
//   npx openapi-typescript node_modules/paraph/docs/openapi.json -o paraph-api.d.ts
//   npx tsc -p .            (strict)
//   npx tsx signing-flow.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import createClient from 'openapi-fetch';
import { startSandbox } from 'paraph';
import { Webhook } from 'standardwebhooks';
import type { components, paths } from './paraph-api.js';

type WebhookEvent = components['schemas']['WebhookEvent'];

const require = createRequire(import.meta.url);
const CONTRACT = fs.readFileSync(require.resolve('paraph/fixtures/contract.pdf'));

const sandbox = await startSandbox();
// The application's webhook endpoint: every event verified with the webhook secret.
const events: WebhookEvent[] = [];
const verifier = new Webhook(sandbox.webhookSecret);
const receiver = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    events.push(verifier.verify(body, request.headers as Record<string, string>) as WebhookEvent);
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

try {
  // JSON answers typed as JSON; the PDFs are read with `parseAs: 'arrayBuffer'`.
  const client = createClient<paths, `${string}/json`>({
    baseUrl: new URL(sandbox.apiUrl).origin,
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });

  // Create: multipart, `document` the PDF and `request` a JSON string sent as application/json.
  const payload: components['schemas']['CreateRequestPayload'] = {
    client_reference: `order-${Date.now()}`,
    signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 }],
    fields: [{ signer_reference: 'client', type: 'signature', page: 2, x: 64, y: 344, width: 200, height: 42 }],
    callback_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`,
  };
  const created = await client.POST('/v1/signature-requests', {
    params: { header: { 'Idempotency-Key': `create-${payload.client_reference}` } },
    body: { document: 'contract.pdf', request: JSON.stringify(payload) },
    bodySerializer(body) {
      const form = new FormData();
      form.append('document', new Blob([CONTRACT], { type: 'application/pdf' }), body.document);
      form.append('request', new Blob([body.request], { type: 'application/json' }));
      return form;
    },
  });
  if (!created.data) throw new Error(`create: ${created.error?.error.code}: ${created.error?.error.message}`);
  const id = created.data.id;
  console.log('created', id, created.response.headers.get('x-ratelimit-remaining'), 'calls left');

  const activated = await client.POST('/v1/signature-requests/{id}/activate', { params: { path: { id } }, body: {} });
  if (!activated.data) throw new Error(`activate: ${activated.error?.error.code}`);
  const signingUrl = activated.data.signers[0]?.signing_url;
  assert.ok(signingUrl);

  // An error answer is typed too: the envelope, its code one of the documented ones.
  const missing = await client.GET('/v1/signature-requests/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
  assert.equal(missing.error?.error.code, 'not_found');

  // The signer signs, through the programmatic API (as `paraph sign <url>` does).
  await sandbox.sign(signingUrl);
  await sandbox.waitForArtifacts(id);

  const status = await client.GET('/v1/signature-requests/{id}', { params: { path: { id } } });
  assert.equal(status.data?.status, 'completed');
  assert.equal(status.data?.signers[0]?.status, 'signed');

  // The signed PDF as bytes, the evidence as JSON.
  const signed = await client.GET('/v1/signature-requests/{id}/artifacts/{type}', { params: { path: { id, type: 'signed-pdf' } }, parseAs: 'arrayBuffer' });
  if (!signed.data) throw new Error(`signed-pdf: ${signed.response.status}`);
  const bytes = new Uint8Array(signed.data);
  assert.equal(Buffer.from(bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
  console.log('signed PDF', bytes.length, 'bytes');

  const evidence = await client.GET('/v1/signature-requests/{id}/artifacts/{type}', { params: { path: { id, type: 'evidence.json' } } });
  if (!evidence.data) throw new Error(`evidence.json: ${evidence.response.status}`);
  assert.equal(evidence.data.signature_request_id, id);
  console.log('evidence', evidence.data.schema_version, evidence.data.signers.map((signer) => `${signer.reference}: ${signer.status}`).join(', '));

  // The webhooks arrive, verified.
  const deadline = Date.now() + 15_000;
  while (!events.some((event) => event.type === 'signature_request.completed')) {
    if (Date.now() > deadline) throw new Error(`no signature_request.completed webhook; got ${events.map((event) => event.type).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.log('webhooks', events.map((event) => event.type).join(', '));
  const deliveries = await client.GET('/v1/webhook-deliveries', { params: { query: { signature_request_id: id } } });
  assert.ok(deliveries.data && deliveries.data.data.length >= 2);
  console.log('flow complete');
} finally {
  receiver.close();
  await sandbox.stop();
}
