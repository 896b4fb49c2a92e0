// A test suite's view of paraph with node:test: a throwaway sandbox for the file; a signing flow with
// an email code driven from code, its events received through `paraph listen --forward-to` (no
// callback_url needed) and verified as webhooks; a forced 503; a forced webhook failure and its retry.
// Run: node --test examples/node-test/*.test.mjs
// Needs, in your project: paraph (see the README's install line) and the webhook verifier this file
// imports: npm install --save-dev standardwebhooks@1.1.1
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { startSandbox } from 'paraph';
import { Webhook } from 'standardwebhooks';

const require = createRequire(import.meta.url);
const CONTRACT = fs.readFileSync(require.resolve('paraph/fixtures/contract.pdf'));

let sandbox;
let app; // the application's webhook endpoint
const received = []; // { path, event, verified }

before(async () => {
  sandbox = await startSandbox();
  const verifier = new Webhook(sandbox.webhookSecret);
  app = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      let verified = true;
      try {
        verifier.verify(body, request.headers);
      } catch {
        verified = false;
      }
      received.push({ path: request.url, event: JSON.parse(body), verified });
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await sandbox?.stop(); // also stops the listener
  app?.close();
});

const appUrl = (path) => `http://127.0.0.1:${app.address().port}${path}`;

async function until(what, probe, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Creates and activates a request for one signer who must enter an email code. */
async function sendForSignature(extra = {}) {
  const form = new FormData();
  form.append('document', new Blob([CONTRACT], { type: 'application/pdf' }), 'contract.pdf');
  const request = {
    client_reference: `order-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`,
    signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1, verification: 'email_otp' }],
    fields: [{ signer_reference: 'client', type: 'signature', page: 2, x: 64, y: 344, width: 200, height: 42 }],
    ...extra,
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

test('the signer verifies the email code and signs; the app receives the events, signed', async () => {
  const listener = await sandbox.listen({ forwardTo: appUrl('/forwarded') });
  const { id, signingUrl } = await sendForSignature();
  const invitation = await sandbox.emails.waitFor({ to: 'ada@example.com', kind: 'invitation' });
  assert.match(invitation.subject, /invites you to sign/);

  const outcome = await sandbox.sign(signingUrl); // the email code is read from the SMTP catcher
  assert.equal(outcome.request_status, 'completed');

  const completed = await until('signature_request.completed', () =>
    received.find((r) => r.path === '/forwarded' && r.event.type === 'signature_request.completed' && r.event.data.signature_request_id === id),
  );
  assert.equal(completed.verified, true, "signed with the key's webhook secret");
  const types = received.filter((r) => r.event.data.signature_request_id === id).map((r) => r.event.type);
  assert.deepEqual(types, ['signature_request.activated', 'signer.viewed', 'signer.completed', 'signature_request.completed']);
  await listener.stop();

  const done = await sandbox.waitForArtifacts(id);
  assert.equal(done.artifacts.signed_pdf, true);
});

test('the app survives a 503 from the API', async () => {
  await sandbox.faults.add({ target: 'api', method: 'GET', path: '/v1/signature-requests', status: 503, count: 1 });
  const first = await fetch(`${sandbox.apiUrl}/signature-requests`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
  assert.equal(first.status, 503);
  assert.equal((await first.json()).error.code, 'temporarily_unavailable');
  const retried = await fetch(`${sandbox.apiUrl}/signature-requests`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
  assert.equal(retried.status, 200);
});

test('a webhook delivery the app did not get is retried on the sandbox clock', async () => {
  await sandbox.faults.add({ target: 'webhook', error: 'status', status: 500, count: 1 });
  const { id } = await sendForSignature({ callback_url: appUrl('/hooks') });
  const deliveries = () => sandbox.request('GET', `/v1/webhook-deliveries?signature_request_id=${id}`).then((r) => r.data);
  const failed = await until('the first attempt', async () => (await deliveries()).find((d) => d.attempt_count >= 1));
  assert.deepEqual([failed.status, failed.last_status_code], ['pending', 500]);
  assert.equal(
    received.some((r) => r.path === '/hooks'),
    false,
    'the app saw nothing yet',
  );

  await sandbox.clock.advance('1m'); // the retry falls due and runs before this answers
  const [delivered] = await deliveries();
  assert.equal(delivered.status, 'delivered');
  assert.ok(received.some((r) => r.path === '/hooks' && r.event.type === 'signature_request.activated' && r.verified));
});
