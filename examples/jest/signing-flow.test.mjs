// paraph with jest: one throwaway sandbox for the file, a signing flow with an email code.
// paraph is an ES module, so jest runs this file as one:
//   NODE_OPTIONS=--experimental-vm-modules npx jest examples/jest/
// Needs, in your project: paraph (see the README's install line) and jest: npm install --save-dev jest @jest/globals
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, jest, test } from '@jest/globals';
import { startSandbox } from 'paraph';

const require = createRequire(import.meta.url);
const CONTRACT = fs.readFileSync(require.resolve('paraph/fixtures/contract.pdf'));

jest.setTimeout(30_000);
let sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});

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
  const { id } = await created.json();

  const activated = await sandbox.request('POST', `/v1/signature-requests/${id}/activate`, { send_emails: true });
  const outcome = await sandbox.sign(activated.signers[0].signing_url);
  expect(outcome.request_status).toBe('completed');

  const done = await sandbox.waitForArtifacts(id);
  expect(done.artifacts).toEqual({ signed_pdf: true, evidence_pdf: true, evidence_json: true });
});
