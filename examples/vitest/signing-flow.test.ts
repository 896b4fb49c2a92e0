// paraph with vitest: one throwaway sandbox for the file, a signing flow with an email code.
// Run: npx vitest run examples/vitest/
// Needs, in your project: paraph (see the README's install line) and vitest: npm install --save-dev vitest
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from 'paraph';

const require = createRequire(import.meta.url);
const CONTRACT = fs.readFileSync(require.resolve('paraph/fixtures/contract.pdf'));

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
}, 30_000);

afterAll(() => sandbox?.stop());

test('a signer with an email code signs the contract', async () => {
  const form = new FormData();
  form.append('document', new Blob([CONTRACT], { type: 'application/pdf' }), 'contract.pdf');
  const request = {
    client_reference: `order-${Date.now()}`,
    signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1, verification: 'email_otp' }],
    fields: [{ signer_reference: 'client', type: 'signature', page: 2, x: 64, y: 344, width: 200, height: 42 }],
  };
  form.append('request', new Blob([JSON.stringify(request)], { type: 'application/json' }));
  const created = await fetch(`${sandbox.apiUrl}/signature-requests`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.apiKey}` }, body: form });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };

  const activated = await sandbox.request<{ signers: Array<{ signing_url: string }> }>('POST', `/v1/signature-requests/${id}/activate`, { send_emails: true });
  const outcome = await sandbox.sign(activated.signers[0]!.signing_url);
  expect(outcome.request_status).toBe('completed');

  const done = await sandbox.waitForArtifacts(id);
  expect(done.artifacts).toEqual({ signed_pdf: true, evidence_pdf: true, evidence_json: true });
  expect(await sandbox.emails.list({ to: 'ada@example.com', kind: 'otp' })).toHaveLength(1);
}, 30_000);
