// Prism 5 as a validating proxy (`prism proxy --errors docs/openapi.json`) in front of a real
// `paraph serve`: a flow through every operation of the document, creates and error answers
// included (401, 404, 409, 410, 422, 429), and not one violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { serveProcess } from '../helpers/cli.js';
import { closedPort, useReceiver } from '../helpers/receiver.js';
import { useTmpDir } from '../helpers/server.js';
import { a4Pdf } from '../helpers/requests.js';

const require = createRequire(import.meta.url);
const PRISM = path.join(path.dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
const DOC = JSON.parse(fs.readFileSync('docs/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
  webhooks: Record<string, { post: any }>;
  components: { schemas: Record<string, unknown> };
};

type Answer = { status: number; type: string; body: any; bytes: Buffer };

test('Prism proxy --errors in front of paraph serve: every operation, creates and errors, 0 violations', { timeout: 240_000 }, async (t) => {
  const serve = await serveProcess(t, ['--ephemeral', '--allow-loopback-webhooks', '--log-level', 'error']);
  const origin = new URL(String(serve.ready.api_url)).origin;
  const key = String((serve.ready as Record<string, any>).api_key ?? '');
  assert.match(key, /^paraph_test_/);

  // (A port below the range the system hands out to listen(0), where the other test files' servers and connections are;
  // taken by another test between the check and Prism's start, it is tried again on another.)
  let port = 0;
  let log = '';
  for (let attempt = 1; ; attempt++) {
    port = await closedPort();
    log = '';
    const prism = spawn(process.execPath, [PRISM, 'proxy', '--errors', 'docs/openapi.json', origin, '--host', '127.0.0.1', '--port', String(port)], {
      env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => prism.kill('SIGKILL'));
    const started = await new Promise<boolean>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Prism is listening')) resolve(true);
      };
      prism.stdout.on('data', read);
      prism.stderr.on('data', read);
      prism.once('exit', (code) => (log.includes('EADDRINUSE') && attempt < 3 ? resolve(false) : reject(new Error(`prism exited with ${code}: ${log}`))));
    });
    if (started) break;
  }
  const startLog = log.length;

  const touched = new Set<string>();
  const operations = Object.entries(DOC.paths).flatMap(([template, item]) =>
    Object.keys(item).map((method) => ({
      name: `${method.toUpperCase()} ${template}`,
      pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
  );
  const problems: string[] = [];
  const call = async (
    method: string,
    route: string,
    init: { key?: string | null; json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { ...init.headers };
    const bearer = init.key === undefined ? key : init.key;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const response = await fetch(`http://127.0.0.1:${port}${route}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const bytes = Buffer.from(await response.arrayBuffer());
    const type = (response.headers.get('content-type') ?? '').split(';')[0] ?? '';
    const pathname = route.split('?')[0] ?? '';
    const operation = operations.find((o) => o.name.startsWith(`${method} `) && o.pattern.test(pathname));
    if (operation) touched.add(`${operation.name} ${response.status}`);
    // Prism's own answers (a request or response it refuses) are problem+json, or carry its violations header.
    if (type === 'application/problem+json' || response.headers.get('sl-violations')) {
      problems.push(`${method} ${route} → ${response.status}: ${bytes.toString().slice(0, 400)} ${response.headers.get('sl-violations') ?? ''}`);
    }
    return { status: response.status, type, bytes, body: type.endsWith('json') && bytes.length > 0 ? JSON.parse(bytes.toString()) : undefined };
  };
  const expect = (answer: Answer, status: number, what: string) => assert.equal(answer.status, status, `${what}: ${answer.bytes.toString().slice(0, 300)}`);

  const receiver = await useReceiver(t);
  const pdf = await a4Pdf();
  const createForm = (request: unknown) => {
    const form = new FormData();
    form.append('document', new Blob([pdf], { type: 'application/pdf' }), 'contract.pdf');
    form.append('request', new Blob([JSON.stringify(request)], { type: 'application/json' }));
    return form;
  };
  const signer = (reference: string, extra: Record<string, unknown> = {}) => ({
    reference,
    name: `Signer ${reference}`,
    email: `${reference}@example.com`,
    order: 1,
    ...extra,
  });
  const field = (reference: string) => ({ signer_reference: reference, type: 'signature', page: 1, x: 50, y: 600, width: 200, height: 50 });
  const request = (reference: string, extra: Record<string, unknown> = {}) => ({
    client_reference: `prism-${reference}-${Date.now()}`,
    signers: [signer('client')],
    fields: [field('client')],
    callback_url: receiver.url,
    ...extra,
  });

  // Discovery.
  for (const route of ['/', '/v1', '/docs', '/docs/openapi.md', '/healthz', '/v1/openapi.json']) expect(await call('GET', route, { key: null }), 200, route);

  // Create: 201, the Idempotency-Key replay (the stored 201), the client_reference replay 200, the key reused for another body 422, no key 401.
  const first = request('a');
  const created = await call('POST', '/v1/signature-requests', { body: createForm(first), headers: { 'idempotency-key': 'prism-create-a' } });
  expect(created, 201, 'create');
  const id = created.body.id as string;
  expect(await call('POST', '/v1/signature-requests', { body: createForm(first), headers: { 'idempotency-key': 'prism-create-a' } }), 201, 'key replay');
  expect(await call('POST', '/v1/signature-requests', { body: createForm(first) }), 200, 'client_reference replay');
  expect(
    await call('POST', '/v1/signature-requests', { body: createForm(request('other')), headers: { 'idempotency-key': 'prism-create-a' } }),
    422,
    'key reused',
  );
  expect(await call('POST', '/v1/signature-requests', { body: createForm(request('nokey')), key: 'paraph_test_not_a_key' }), 401, 'bad key');
  expect(await call('GET', '/v1/signature-requests?limit=5'), 200, 'list');
  expect(await call('GET', `/v1/signature-requests/${crypto.randomUUID()}`), 404, 'unknown request');
  expect(await call('POST', `/v1/signature-requests/${id}/detect-fields`, { json: {} }), 200, 'detect');
  expect(await call('PUT', `/v1/signature-requests/${id}/fields`, { json: { fields: [field('client')] } }), 200, 'fields');
  expect(
    await call('POST', `/v1/signature-requests/${id}/signers/client/replace`, { json: { email: 'client2@example.com', name: 'New Client' } }),
    200,
    'replace',
  );
  expect(await call('POST', `/v1/signature-requests/${id}/reminders`, { json: {} }), 409, 'reminders before activation');
  const activated = await call('POST', `/v1/signature-requests/${id}/activate`, { json: { send_emails: false } });
  expect(activated, 200, 'activate');
  expect(await call('POST', `/v1/signature-requests/${id}/activate`, { json: {} }), 409, 'activate twice');
  expect(await call('PUT', `/v1/signature-requests/${id}/fields`, { json: { fields: [field('client')] } }), 409, 'fields after activation');
  const reminded = await call('POST', `/v1/signature-requests/${id}/reminders`, { json: {} });
  expect(reminded, 200, 'reminders');
  const link = new URL(reminded.body.reminders[0].signing_url as string);
  const token = link.pathname.split('/')[2] as string;
  expect(await call('GET', `/v1/signature-requests/${id}/artifacts/signed-pdf`), 409, 'artifact before completion');
  expect(await call('GET', `/sign/${token}/api/signed-document`, { key: null }), 409, 'signed copy before completion');

  // The signer's side: view, document, sign; then the artifacts as PDF and JSON.
  expect(await call('POST', `/sign/${token}/api/view?lang=en`, { key: null }), 200, 'view');
  const document = await call('GET', `/sign/${token}/api/document`, { key: null });
  expect(document, 200, 'document');
  assert.equal(document.type, 'application/pdf');
  expect(await call('POST', `/sign/${token}/api/otp`, { key: null }), 409, 'otp without verification');
  expect(await call('POST', `/sign/${token}/api/sign`, { key: null, json: { signature: { type: 'typed', text: 'New Client' } } }), 200, 'sign');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await call('GET', `/v1/signature-requests/${id}`);
    if (status.body.artifacts?.signed_pdf && status.body.artifacts?.evidence_json && status.body.artifacts?.evidence_pdf) break;
    assert.ok(Date.now() < deadline, 'artifacts in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  for (const type of ['signed-pdf', 'evidence.pdf'])
    assert.equal((await call('GET', `/v1/signature-requests/${id}/artifacts/${type}`)).type, 'application/pdf');
  expect(await call('GET', `/v1/signature-requests/${id}/artifacts/evidence.json`), 200, 'evidence.json');
  expect(await call('GET', `/sign/${token}/api/signed-document`, { key: null }), 200, 'signed copy');
  expect(await call('POST', `/sign/${token}/api/decline`, { key: null, json: { reason: 'too late' } }), 409, 'decline after signing');

  // Webhooks: received, listed, replayed; the event stream refuses a bad key.
  // The webhooks received are what the document's `webhooks` section says: its headers, its body.
  const hooks = await receiver.waitFor(2, 30_000);
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'https://openapi.paraph.invalid/document.json', components: { schemas: DOC.components.schemas } });
  for (const hook of hooks) {
    const event = JSON.parse(hook.body) as { type: string };
    const operation = DOC.webhooks[event.type]?.post;
    assert.ok(operation, `a webhooks entry for ${event.type}`);
    for (const header of operation.parameters) {
      assert.match(String(hook.headers[header.name] ?? ''), new RegExp(header.schema.pattern ?? '.'), `${event.type}: ${header.name}`);
    }
    const schema = JSON.parse(
      JSON.stringify(operation.requestBody.content['application/json'].schema).replaceAll(
        '"#/components/',
        '"https://openapi.paraph.invalid/document.json#/components/',
      ),
    );
    const validate = ajv.compile(schema);
    assert.ok(validate(event), `${event.type}: ${ajv.errorsText(validate.errors)}`);
  }
  const deliveries = await call('GET', `/v1/webhook-deliveries?signature_request_id=${id}`);
  expect(deliveries, 200, 'deliveries');
  expect(await call('POST', `/v1/webhook-deliveries/${deliveries.body.data[0].id}/replay`), 200, 'replay');
  expect(await call('POST', `/v1/webhook-deliveries/${crypto.randomUUID()}/replay`), 404, 'replay unknown');
  expect(await call('GET', '/v1/events/stream', { key: 'paraph_test_not_a_key' }), 401, 'event stream without a valid key');

  // Purge: 410 for the artifact and the signer's copy.
  expect(await call('POST', `/_sandbox/signature-requests/${id}/purge`), 200, 'purge');
  expect(await call('GET', `/v1/signature-requests/${id}/artifacts/signed-pdf`), 410, 'artifact purged');
  expect(await call('GET', `/sign/${token}/api/signed-document`, { key: null }), 410, 'signed copy purged');

  // A second request with an email code: otp, a wrong code, decline; a third cancelled, then expired.
  const second = await call('POST', '/v1/signature-requests', {
    body: createForm(request('b', { signers: [signer('client', { verification: 'email_otp' })] })),
  });
  expect(second, 201, 'create with email code');
  const secondLink = await call('POST', `/v1/signature-requests/${second.body.id}/activate`, { json: {} });
  const secondToken = new URL(secondLink.body.signers[0].signing_url as string).pathname.split('/')[2] as string;
  expect(await call('POST', `/sign/${secondToken}/api/otp`, { key: null }), 200, 'otp');
  const wrong = await call('POST', `/sign/${secondToken}/api/otp/verify`, { key: null, json: { code: '000000' } });
  assert.ok([200, 400, 409].includes(wrong.status), `otp verify: ${wrong.status}`);
  expect(await call('GET', `/sign/${secondToken}/api/document`, { key: null }), 409, 'document before the code');
  const third = await call('POST', '/v1/signature-requests', { body: createForm(request('c')) });
  expect(await call('POST', `/v1/signature-requests/${third.body.id}/cancel`, { json: { reason: 'no longer needed' } }), 200, 'cancel');
  expect(await call('POST', `/v1/signature-requests/${third.body.id}/cancel`, { json: {} }), 409, 'cancel twice');
  const fourth = await call('POST', '/v1/signature-requests', { body: createForm(request('d')) });
  const fourthLink = await call('POST', `/v1/signature-requests/${fourth.body.id}/activate`, { json: {} });
  const fourthToken = new URL(fourthLink.body.signers[0].signing_url as string).pathname.split('/')[2] as string;
  expect(await call('POST', `/sign/${fourthToken}/api/decline`, { key: null, json: { reason: 'not me' } }), 200, 'decline');
  expect(await call('POST', `/_sandbox/signature-requests/${second.body.id}/expire`), 200, 'expire');
  expect(await call('POST', `/_sandbox/signature-requests/${second.body.id}/expire`), 409, 'expire twice');
  const unknown = await call('POST', `/sign/${crypto.randomUUID().replace(/-/g, '')}/api/view`, { key: null });
  assert.equal(unknown.body.closed_reason, 'unavailable', 'an unknown link is a closed view');

  // Templates and a bulk send.
  const templateForm = new FormData();
  templateForm.append('document', new Blob([pdf], { type: 'application/pdf' }), 'template.pdf');
  templateForm.append('name', 'Prism template');
  templateForm.append('fields', JSON.stringify([field('client')]));
  const template = await call('POST', '/v1/templates', { body: templateForm });
  expect(template, 201, 'template');
  expect(await call('GET', '/v1/templates'), 200, 'templates');
  const bulk = await call('POST', '/v1/bulk-sends', {
    json: { template_id: template.body.id, recipients: [{ client_reference: `prism-bulk-${Date.now()}`, signers: [signer('client')] }] },
  });
  expect(bulk, 200, 'bulk send');
  expect(await call('DELETE', `/v1/templates/${template.body.id}`), 204, 'archive');
  expect(await call('DELETE', `/v1/templates/${crypto.randomUUID()}`), 404, 'archive unknown');

  // Sandbox controls: mail, clock, keys, the timestamp authority, fault rules (a 429 and a 503).
  expect(await call('GET', `/_sandbox/emails?signature_request_id=${second.body.id}`), 200, 'emails');
  expect(await call('GET', '/_sandbox/clock'), 200, 'clock');
  expect(await call('POST', '/_sandbox/clock/advance', { json: { seconds: 60 } }), 200, 'advance');
  expect(await call('POST', '/_sandbox/api-keys', { json: {} }), 201, 'new key');
  expect(await call('GET', '/_sandbox/tsa/certificate.pem', { key: null }), 200, 'tsa certificate');
  const dir = useTmpDir(t);
  fs.writeFileSync(path.join(dir, 'data.bin'), 'stamp me');
  const query = execFileSync('openssl', ['ts', '-query', '-data', path.join(dir, 'data.bin'), '-sha256', '-cert']);
  // Prism 5 forwards a binary body re-encoded as text (docs/openapi.md: PDFs too, which is why this flow
  // checks a PDF's status and type through it, never its bytes): paraph answers the documented 400
  // through it, and 200 to the same bytes sent directly.
  const stamped = await call('POST', '/_sandbox/tsa', { key: null, headers: { 'content-type': 'application/timestamp-query' }, body: query });
  assert.ok([200, 400].includes(stamped.status), `tsa through Prism: ${stamped.status}`);
  const direct = await fetch(`${origin}/_sandbox/tsa`, { method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body: query });
  assert.equal(direct.status, 200);
  const limited = await call('POST', '/_sandbox/faults', { json: { target: 'api', path: '/v1/signature-requests', method: 'GET', status: 429 } });
  expect(limited, 201, 'fault rule');
  expect(await call('GET', '/v1/signature-requests'), 429, 'rate limited');
  const down = await call('POST', '/_sandbox/faults', { json: { target: 'api', path: '/v1/templates', status: 503, count: 5 } });
  expect(await call('GET', '/_sandbox/faults'), 200, 'fault rules');
  expect(await call('GET', '/v1/templates'), 503, 'unavailable');
  expect(await call('DELETE', `/_sandbox/faults/${down.body.id}`), 204, 'remove a rule');
  expect(await call('DELETE', `/_sandbox/faults/${crypto.randomUUID()}`), 404, 'remove an unknown rule');
  expect(await call('DELETE', '/_sandbox/faults'), 204, 'remove every rule');

  // What docs/openapi.md says a violation looks like: a request the document does not allow is refused
  // by Prism itself, 422 application/problem+json naming the property.
  const refused = await fetch(`http://127.0.0.1:${port}/v1/signature-requests/${id}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 5 }),
  });
  assert.equal(refused.status, 422);
  assert.equal(refused.headers.get('content-type')?.split(';')[0], 'application/problem+json');
  assert.match(await refused.text(), /reason/);

  await new Promise((resolve) => setTimeout(resolve, 200));
  const violations = log
    .slice(startLog)
    .split('\n')
    .filter((line) => /violation/i.test(line));
  assert.deepEqual([...problems, ...violations], [], 'Prism reported violations');
  // Every operation of the document was called through Prism, and each status the flow aims at was answered.
  const called = new Set([...touched].map((entry) => entry.replace(/ \d+$/, '')));
  assert.deepEqual(
    operations.map((o) => o.name).filter((name) => !called.has(name)),
    [],
    'operations never called',
  );
  for (const status of [401, 404, 409, 410, 422, 429])
    assert.ok(
      [...touched].some((entry) => entry.endsWith(` ${status}`)),
      `a ${status} through Prism`,
    );
  console.log(`prism: ${touched.size} operation/status pairs, ${operations.length} operations, 0 violations`);
});
