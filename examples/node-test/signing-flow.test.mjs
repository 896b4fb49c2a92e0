// A test suite's view of paraph with node:test: a throwaway sandbox per file, a signing flow with an
// email code driven from code, the webhooks it sends received by the test, a forced 503 and a forced
// webhook failure. Run: node --test examples/node-test/
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { startSandbox } from 'paraph';

const require = createRequire(import.meta.url);
const CONTRACT = fs.readFileSync(require.resolve('paraph/fixtures/contract.pdf'));

let sandbox;
let receiver;
const received = [];

before(async () => {
  sandbox = await startSandbox({ rateLimit: 'off' });
  // The application's webhook endpoint; loopback URLs are accepted by the programmatic sandbox.
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, event: JSON.parse(body) });
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await sandbox?.stop();
  receiver?.close();
});

/** Creates and activates a request for one signer who must enter an email code. */
async function sendForSignature(callbackUrl) {
  const form = new FormData();
  form.append('document', new Blob([CONTRACT], { type: 'application/pdf' }), 'contract.pdf');
  const request = {
    client_reference: `order-${Date.now()}`,
    callback_url: callbackUrl,
    signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1, verification: 'email_otp' }],
    fields: [{ signer_reference: 'client', type: 'signature', page: 2, x: 64, y: 344, width: 200, height: 42 }],
  };
  form.append('request', new Blob([JSON.stringify(request)], { type: 'application/json' }));
  const created = await fetch(`${sandbox.apiUrl}/signature-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
    body: form,
  });
  assert.equal(created.status, 201);
  const { id } = await created.json();
  const activated = await sandbox.request('POST', `/v1/signature-requests/${id}/activate`, { send_emails: true });
  return { id, signingUrl: activated.signers[0].signing_url };
}

test('the signer verifies the email code and signs; the app is told, and the artifacts follow', async () => {
  const hooks = `http://127.0.0.1:${receiver.address().port}/hooks`;
  const { id, signingUrl } = await sendForSignature(hooks);
  const invitation = await sandbox.emails.waitFor({ to: 'ada@example.com', kind: 'invitation' });
  assert.match(invitation.subject, /invites you to sign/);

  const outcome = await sandbox.sign(signingUrl); // reads the code from the SMTP catcher
  assert.equal(outcome.request_status, 'completed');
  const done = await sandbox.waitForArtifacts(id);
  assert.equal(done.artifacts.signed_pdf, true);

  const deadline = Date.now() + 10_000;
  while (!received.some((r) => r.event.type === 'signature_request.completed') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const completed = received.find((r) => r.event.type === 'signature_request.completed');
  assert.equal(completed?.event.data.signature_request_id, id);
  assert.ok(completed.headers['webhook-signature'].startsWith('v1,'));
});

test('the app survives a 503 from the API', async () => {
  await sandbox.faults.add({ target: 'api', method: 'GET', path: '/v1/signature-requests', status: 503, count: 1 });
  const first = await fetch(`${sandbox.apiUrl}/signature-requests`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
  assert.equal(first.status, 503);
  assert.equal((await first.json()).error.code, 'temporarily_unavailable');
  const retried = await fetch(`${sandbox.apiUrl}/signature-requests`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
  assert.equal(retried.status, 200);
});

test('a failed webhook delivery is retried on the sandbox clock', async () => {
  const hooks = `http://127.0.0.1:${receiver.address().port}/hooks`;
  await sandbox.faults.add({ target: 'webhook', error: 'status', status: 500, count: 1 });
  const { id } = await sendForSignature(hooks);
  const [delivery] = (await sandbox.request('GET', `/v1/webhook-deliveries?signature_request_id=${id}`)).data;
  assert.equal(delivery.status, 'pending');
  assert.equal(delivery.last_status_code, 500);
  await sandbox.clock.advance('1m'); // the first retry falls due and runs
  const [retried] = (await sandbox.request('GET', `/v1/webhook-deliveries?signature_request_id=${id}`)).data;
  assert.equal(retried.status, 'delivered');
});
