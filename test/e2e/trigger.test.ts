// paraph trigger: every event the API sends, produced by one command against a running server, and
// delivered like any other (here to a loopback receiver through the throwaway request's callback_url).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventType } from '../../src/contract/webhooks.js';
import { paraph, serveProcess } from '../helpers/cli.js';
import { closedPort, useReceiver } from '../helpers/receiver.js';
import { createForm, payload } from '../helpers/requests.js';
import { useTmpDir } from '../helpers/server.js';
import { unknownApiKey } from '../helpers/keys.js';

const EVENTS: readonly string[] = EventType.enum;

test('paraph trigger EVENT: each event happens for real and is delivered', { timeout: 180_000 }, async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir, '--allow-loopback-webhooks', '--rate-limit', 'off']);
  const receiver = await useReceiver(t);
  const env = { PARAPH_API_URL: serve.ready.api_url as string, PARAPH_API_KEY: serve.ready.api_key as string };
  let delivered = 0;
  for (const event of EVENTS) {
    const run = await paraph(['trigger', event, '--callback-url', receiver.url, '--json'], env);
    assert.equal(run.code, 0, `${event}: ${run.stderr}`);
    const result = JSON.parse(run.stdout) as { signature_request_id: string; steps: string[]; events: string[] };
    assert.ok(result.events.includes(event), `${event}: ${result.events.join(', ')}`);
    assert.equal(result.steps[0], 'created');
    // Every event the trigger says it recorded reaches the receiver, the one asked for among them.
    delivered += result.events.length;
    const got = await receiver.waitFor(delivered, 15_000);
    const types = got
      .map((r) => JSON.parse(r.body) as { type: string; data: { signature_request_id: string } })
      .filter((e) => e.data.signature_request_id === result.signature_request_id)
      .map((e) => e.type);
    assert.deepEqual([...types].sort(), [...result.events].sort(), event);
  }
  assert.equal(await serve.stop(), 0);
});

test('paraph trigger on a prepared request of yours; refusals say why', { timeout: 60_000 }, async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir]);
  const api = serve.ready.api_url as string;
  const key = serve.ready.api_key as string;
  const created = await fetch(`${api}/signature-requests`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: await createForm(payload()) });
  const { id } = (await created.json()) as { id: string };
  const run = await paraph(['trigger', 'signature_request.completed', '--request', id, '--api', api, '--key', key]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stdout,
    `Signature request ${id}: activated, signed by client.\nEvents: signature_request.activated, signer.viewed, signer.completed, signature_request.completed\n`,
  );
  const status = (await (await fetch(`${api}/signature-requests/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string };
  assert.equal(status.status, 'completed');
  // Not prepared any more: exit 1, saying so.
  const again = await paraph(['trigger', 'signer.viewed', '--request', id, '--api', api, '--key', key]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /is completed: paraph triggers events on a prepared request/);
  // Bad usage: exit 2.
  const unknown = await paraph(['trigger', 'signer.signed', '--api', api, '--key', key]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown event "signer\.signed": give one of signature_request\.activated, /);
  const keyless = await paraph(['trigger', 'signer.viewed', '--api', api], { PARAPH_API_KEY: '' });
  assert.equal(keyless.code, 2);
  assert.match(keyless.stderr, /an API key is needed/);
  const wrongKey = await paraph(['trigger', 'signer.viewed', '--api', api, '--key', unknownApiKey()]);
  assert.equal(wrongKey.code, 1);
  assert.match(wrongKey.stderr, /401/);
  assert.ok(!wrongKey.stderr.includes(key));
  // No server at --api: exit 1, saying what to check (as paraph sign and paraph listen do).
  const port = await closedPort();
  const nobody = await paraph(['trigger', 'signer.viewed', '--api', `http://127.0.0.1:${port}/v1`, '--key', key]);
  assert.equal(nobody.code, 1);
  assert.match(nobody.stderr, new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port} \\(connection refused\\): is \`paraph serve\` running there\\?`));
  assert.equal(await serve.stop(), 0);
});

test('paraph trigger on a prepared request whose signers must type values: sample values are typed for them', { timeout: 60_000 }, async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir]);
  const api = serve.ready.api_url as string;
  const key = serve.ready.api_key as string;
  const box = (y: number) => ({ page: 1, x: 50, y, width: 150, height: 20 });
  const created = await fetch(`${api}/signature-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: await createForm(
      payload({
        signers: [
          { reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 },
          { reference: 'provider', name: 'Grace Hopper', email: 'grace@example.com', order: 2 },
        ],
        fields: [
          { signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 },
          // Filled without the signer: from the signer, the signing date, the sender's value.
          { signer_reference: 'client', type: 'text', field_key: 'signer_name', ...box(100) },
          { signer_reference: 'client', type: 'date', field_key: 'sign_date', ...box(130) },
          { signer_reference: 'client', type: 'text', name: 'reference', value: 'PO-7', ...box(160) },
          { signer_reference: 'provider', type: 'signature', page: 1, x: 300, y: 700, width: 200, height: 50 },
          // Only the signer can fill these: the trigger types sample values.
          { signer_reference: 'provider', type: 'text', name: 'company', ...box(190) },
          { signer_reference: 'provider', type: 'date', name: 'start', ...box(220) },
        ],
      }),
    ),
  });
  assert.equal(created.status, 201);
  const id = ((await created.json()) as { id: string }).id;
  const done = await paraph(['trigger', 'signature_request.completed', '--request', id, '--api', api, '--key', key]);
  assert.equal(done.code, 0, done.stderr);
  assert.equal(
    done.stdout,
    `Signature request ${id}: activated, signed by client, signed by provider.\n` +
      'Events: signature_request.activated, signer.viewed, signer.completed, signer.viewed, signer.completed, signature_request.completed\n',
  );
  const state = (await (await fetch(`${api}/signature-requests/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
    status: string;
    fields: Array<{ name: string; value: string }>;
  };
  assert.equal(state.status, 'completed');
  const valueOf = (name: string) => state.fields.find((f) => f.name === name)?.value;
  assert.equal(valueOf('company'), 'Sample');
  assert.match(valueOf('start') ?? '', /^\d{4}-\d{2}-\d{2}$/);
  assert.equal(valueOf('reference'), 'PO-7', "the sender's value stays");
  assert.equal(await serve.stop(), 0);
});
