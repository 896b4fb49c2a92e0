// The dashboard's JSON API (`/_dashboard/api`): only the data directory's dashboard token opens it,
// never an API key; it is never rate-limited nor touched by fault rules; it sees every account; every
// `/_dashboard` answer carries the security headers (docs/dashboard.md).
import fs from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import nodemailer from 'nodemailer';
import { issueMailTicket, readMailTicket } from '../../src/features/dashboard/dashboard-mail-tickets.js';
import { rotateDashboardToken } from '../../src/features/dashboard/dashboard-token.js';
import { waitUntil } from '../helpers/crash-loop.js';
import { expectError } from '../helpers/errors.js';
import { activate, advance, createRequest, postJson, signerAction } from '../helpers/flows.js';
import { useReceiver } from '../helpers/receiver.js';
import { json, useServer, type TestServer } from '../helpers/server.js';

const NO_ID = '00000000-0000-4000-8000-000000000000';
const ENDPOINTS: Array<[string, string]> = [
  ['GET', '/_dashboard/api/requests'],
  ['GET', `/_dashboard/api/requests/${NO_ID}`],
  ['POST', `/_dashboard/api/requests/${NO_ID}/expire`],
  ['POST', `/_dashboard/api/requests/${NO_ID}/purge`],
  ['GET', '/_dashboard/api/emails'],
  ['GET', `/_dashboard/api/emails/${NO_ID}`],
  ['GET', '/_dashboard/api/webhook-deliveries'],
  ['POST', `/_dashboard/api/webhook-deliveries/${NO_ID}/replay`],
  ['GET', '/_dashboard/api/clock'],
  ['POST', '/_dashboard/api/clock/advance'],
  ['GET', `/_dashboard/api/requests/${NO_ID}/document`],
  ['GET', `/_dashboard/api/requests/${NO_ID}/artifacts/signed-pdf`],
  ['POST', `/_dashboard/api/requests/${NO_ID}/signers/s1/link`],
  ['POST', `/_dashboard/api/emails/${NO_ID}/view`],
];

function tokenOf(server: TestServer): string {
  const token = /#token=(pdash_[0-9A-Za-z]+)$/.exec(server.running.dashboardUrl)?.[1];
  assert.ok(token, server.running.dashboardUrl);
  return token;
}

/** A dashboard call with `token` (null: no Authorization header). */
function dash(server: TestServer, method: string, route: string, token: string | null, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = token === null ? {} : { authorization: `Dashboard ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return server.call(method, route, { key: null, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

function assertSecurityHeaders(response: Response, what: string): void {
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'/, what);
  assert.doesNotMatch(csp, /unsafe-inline/, what);
  assert.match(csp, /frame-ancestors 'none'/, what);
  assert.equal(response.headers.get('referrer-policy'), 'no-referrer', what);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what);
}

test('every dashboard endpoint refuses no token, a wrong token and an API key with 401, with the security headers', async (t) => {
  const server = await useServer(t);
  for (const [method, route] of ENDPOINTS) {
    const body = method === 'POST' && route.endsWith('/advance') ? { duration: '1h' } : route.endsWith('/view') ? {} : undefined;
    for (const [what, headers] of [
      ['no token', {}],
      ['a wrong token', { authorization: 'Dashboard pdash_wrong' }],
      ['an API key', { authorization: `Bearer ${server.apiKey}` }],
      ['the API key under the dashboard scheme', { authorization: `Dashboard ${server.apiKey}` }],
    ] as Array<[string, Record<string, string>]>) {
      const response = await server.call(method, route, {
        key: null,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      assertSecurityHeaders(response, `${method} ${route} with ${what}`);
      await expectError(response, 401, 'unauthorized', /Authorization: Dashboard/);
    }
  }
  // The right token opens them.
  const clock = await dash(server, 'GET', '/_dashboard/api/clock', tokenOf(server));
  assert.equal(clock.status, 200);
  assertSecurityHeaders(clock, 'GET /_dashboard/api/clock');
  const state = await json<{ scope: string; data: { now: string; offset_seconds: number } }>(clock);
  assert.equal(state.scope, 'all accounts');
  assert.equal(state.data.offset_seconds, 0);
});

test('the page is HTML without inline script, its script and stylesheet are served, with the security headers; GET / links it', async (t) => {
  const server = await useServer(t);
  const page = await server.call('GET', '/_dashboard/', { key: null });
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assertSecurityHeaders(page, 'GET /_dashboard/');
  const html = await page.text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)/i, 'no inline script');
  assert.match(html, /<script type="module" src="\/_dashboard\/app\.js">/);
  assert.match(html, /Authorization: Dashboard/);
  for (const [route, type] of [
    ['/_dashboard/app.js', /^text\/javascript/],
    ['/_dashboard/styles.css', /^text\/css/],
  ] as const) {
    const file = await server.call('GET', route, { key: null });
    assert.equal(file.status, 200, route);
    assert.match(file.headers.get('content-type') ?? '', type, route);
    assertSecurityHeaders(file, `GET ${route}`);
    assert.ok((await file.text()).length > 100, route);
  }
  // Every script of the page's folder is served (the list is read from the folder, not written by hand).
  const scripts = fs.readdirSync(new URL('../../dashboard-ui/', import.meta.url)).filter((name) => name.endsWith('.js'));
  assert.ok(scripts.length >= 10, `the dashboard's modules: ${scripts.join(', ')}`);
  for (const name of scripts) {
    const file = await server.call('GET', `/_dashboard/${name}`, { key: null });
    assert.equal(file.status, 200, name);
    assert.match(file.headers.get('content-type') ?? '', /^text\/javascript/, name);
    await file.arrayBuffer();
  }
  // pdf.js, which the dashboard and the signing page both load, at one place; nothing else of its package.
  for (const [route, status] of [
    ['/vendor/pdf.min.mjs', 200],
    ['/vendor/pdf.worker.min.mjs', 200],
    ['/vendor/package.json', 404],
    ['/signing-ui/vendor/pdf.min.mjs', 404],
  ] as const) {
    const file = await server.call('GET', route, { key: null });
    assert.equal(file.status, status, route);
    if (status === 200) assert.match(file.headers.get('content-type') ?? '', /javascript/, route);
    await file.arrayBuffer();
  }
  const bare = await server.call('GET', '/_dashboard', { key: null, headers: {} });
  assert.equal(new URL(bare.url).pathname, '/_dashboard/', 'redirected to the page');
  for (const [method, route, status] of [
    ['GET', '/_dashboard/nothing-here', 404],
    ['GET', '/_dashboard/api/nothing-here', 404],
    ['DELETE', '/_dashboard/api/clock', 405],
    // OPTIONS (a CORS preflight's method) and PROPFIND are no route's: the 405 carries the headers too.
    ['OPTIONS', '/_dashboard/', 405],
    ['OPTIONS', '/_dashboard/api/requests', 405],
    ['PROPFIND', '/_dashboard/app.js', 405],
    ['PATCH', '/_dashboard/', 405],
  ] as const) {
    const response = await server.call(method, route, { key: null });
    assert.equal(response.status, status, `${method} ${route}`);
    assertSecurityHeaders(response, `${method} ${route}`);
    await response.arrayBuffer();
  }
  const index = await json<{ links: Record<string, string> }>(await server.call('GET', '/', { key: null }));
  assert.equal(index.links.dashboard, '/_dashboard/');
});

test('a rotated token stops working at once; the new one works', async (t) => {
  const server = await useServer(t);
  const old = tokenOf(server);
  assert.equal((await dash(server, 'GET', '/_dashboard/api/requests', old)).status, 200);
  const fresh = rotateDashboardToken(server.running.ctx);
  assert.notEqual(fresh, old);
  await expectError(await dash(server, 'GET', '/_dashboard/api/requests', old), 401, 'unauthorized', /rotated/);
  assert.equal((await dash(server, 'GET', '/_dashboard/api/requests', fresh)).status, 200);
});

test('dashboard calls are never rate-limited nor met by a fault rule', async (t) => {
  const server = await useServer(t, { rateLimit: 'on' });
  const token = tokenOf(server);
  const rule = await postJson(server, '/_sandbox/faults', { target: 'api', path: '*', status: 503, count: 1000 });
  assert.equal(rule.status, 201, await rule.clone().text());
  await expectError(await server.call('GET', '/v1/signature-requests'), 503, 'temporarily_unavailable');
  for (let i = 0; i < 150; i++) {
    const response = await dash(server, 'GET', i % 2 ? '/_dashboard/api/requests' : '/_dashboard/api/clock', token);
    assert.equal(response.status, 200, `call ${i}: ${await response.clone().text()}`);
    assert.equal(response.headers.get('x-ratelimit-limit'), null);
    await response.arrayBuffer();
  }
});

test('the operator sees the requests of every account, newest first, filtered and paged', async (t) => {
  const server = await useServer(t);
  const other = server.newKey();
  const token = tokenOf(server);
  const a = await createRequest(server, { client_reference: 'dash-a' });
  const b = await createRequest({ ...server, call: (m, r, i = {}) => server.call(m, r, { ...i, key: other.apiKey }) }, { client_reference: 'dash-b' });
  type Page = { scope: string; data: Array<{ id: string; account_id: string; client_reference: string; status: string }>; next_cursor: string };
  const all = await json<Page>(await dash(server, 'GET', '/_dashboard/api/requests', token));
  assert.equal(all.scope, 'all accounts');
  assert.deepEqual(
    all.data.map((r) => r.id),
    [b, a],
  );
  assert.deepEqual(
    all.data.map((r) => r.account_id),
    [other.accountId, server.accountId],
  );
  const byAccount = await json<Page>(await dash(server, 'GET', `/_dashboard/api/requests?account_id=${server.accountId}`, token));
  assert.deepEqual(
    byAccount.data.map((r) => r.id),
    [a],
  );
  const byReference = await json<Page>(await dash(server, 'GET', '/_dashboard/api/requests?client_reference=dash-b', token));
  assert.deepEqual(
    byReference.data.map((r) => r.id),
    [b],
  );
  const byStatus = await json<Page>(await dash(server, 'GET', '/_dashboard/api/requests?status=active', token));
  assert.deepEqual(byStatus.data, []);
  const first = await json<Page>(await dash(server, 'GET', '/_dashboard/api/requests?limit=1', token));
  assert.deepEqual(
    first.data.map((r) => r.id),
    [b],
  );
  assert.notEqual(first.next_cursor, '');
  const second = await json<Page>(await dash(server, 'GET', `/_dashboard/api/requests?limit=1&cursor=${first.next_cursor}`, token));
  assert.deepEqual(
    second.data.map((r) => r.id),
    [a],
  );
  assert.equal(second.next_cursor, '');
  await expectError(await dash(server, 'GET', '/_dashboard/api/requests?status=nope', token), 400, 'invalid_request');
  // Sandbox moves on another account's request.
  const expired = await dash(server, 'POST', `/_dashboard/api/requests/${b}/purge`, token);
  assert.equal(expired.status, 200, await expired.clone().text());
  assert.equal((await json<{ data: { status: string } }>(expired)).data.status, 'purged');
  await expectError(await dash(server, 'POST', `/_dashboard/api/requests/${a}/expire`, token), 409, 'conflict');
  await expectError(await dash(server, 'GET', `/_dashboard/api/requests/${NO_ID}`, token), 404, 'not_found');
});

test('a request in detail: signers, fields, audit trail and its check, mails, webhook deliveries with attempts; replay', async (t) => {
  const server = await useServer(t, { allowLoopbackWebhooks: true });
  const receiver = await useReceiver(t);
  const token = tokenOf(server);
  const id = await createRequest(server, { client_reference: 'dash-detail', callback_url: receiver.url });
  const link = (await activate(server, id, { send_emails: true })).signers[0]?.signing_url as string;
  assert.equal((await signerAction(link, 'view')).status, 200);
  const signed = await signerAction(link, 'sign', { signature: { type: 'typed', text: 'Ada Lovelace' } });
  assert.equal(signed.status, 200, await signed.clone().text());

  type Detail = {
    scope: string;
    data: {
      id: string;
      account_id: string;
      status: string;
      signers: Array<{ reference: string; status: string; signed_at: string | null }>;
      fields: unknown[];
      artifacts: Record<string, boolean>;
      document: { filename: string; purged: boolean };
      audit: Array<{ type: string; actor_type: string; created_at: string }>;
      audit_check: { intact: boolean; events: number; broken: unknown };
      emails: Array<{ kind: string | null; to: string[] }>;
      webhook_deliveries: Array<{ id: string; event_type: string; status: string; attempts: Array<{ number: number; status_code: number | null }> }>;
    };
  };
  const detail = await waitUntil(
    'the completed request with its artifacts and delivered webhooks',
    async () => {
      const d = await json<Detail>(await dash(server, 'GET', `/_dashboard/api/requests/${id}`, token));
      const settled = d.data.artifacts.signed_pdf && d.data.webhook_deliveries.length > 0 && d.data.webhook_deliveries.every((w) => w.status === 'delivered');
      // The signer's copy is mailed after the artifacts are recorded: wait for it too.
      return settled && d.data.emails.some((e) => e.kind === 'completed') ? d : false;
    },
    20_000,
  );
  assert.equal(detail.scope, 'all accounts');
  assert.equal(detail.data.account_id, server.accountId);
  assert.equal(detail.data.status, 'completed');
  assert.equal(detail.data.signers[0]?.status, 'signed');
  assert.ok(detail.data.signers[0]?.signed_at);
  assert.ok(detail.data.document.filename);
  assert.ok(detail.data.audit.length >= 3);
  assert.ok(
    detail.data.audit.some((a) => a.actor_type === 'signer'),
    JSON.stringify(detail.data.audit),
  );
  assert.deepEqual({ intact: detail.data.audit_check.intact, broken: detail.data.audit_check.broken }, { intact: true, broken: null });
  assert.equal(detail.data.audit_check.events, detail.data.audit.length);
  // Newest first: the signer's copy (`completed`) after the invitation.
  assert.deepEqual(
    detail.data.emails.map((e) => e.kind),
    ['completed', 'invitation'],
  );
  assert.deepEqual(
    detail.data.emails.map((e) => e.to),
    [['s1@example.com'], ['s1@example.com']],
  );
  const delivery = detail.data.webhook_deliveries[0];
  assert.ok(delivery && delivery.attempts.length >= 1 && delivery.attempts[0]?.status_code === 204, JSON.stringify(delivery));

  // The deliveries list, filtered by request, and a replay that adds an attempt.
  type DeliveryPage = { scope: string; data: Array<{ id: string; signature_request_id: string; attempts: unknown[] }>; next_cursor: string };
  const list = await json<DeliveryPage>(await dash(server, 'GET', `/_dashboard/api/webhook-deliveries?signature_request_id=${id}`, token));
  assert.equal(list.scope, 'all accounts');
  assert.equal(list.data.length, detail.data.webhook_deliveries.length);
  assert.ok(list.data.every((d) => d.signature_request_id === id));
  const before = receiver.received.length;
  const replay = await dash(server, 'POST', `/_dashboard/api/webhook-deliveries/${delivery.id}/replay`, token);
  assert.equal(replay.status, 200, await replay.clone().text());
  const replayed = await json<{ data: { attempts: Array<{ number: number; trigger: string; status_code: number }> } }>(replay);
  assert.equal(replayed.data.attempts.length, delivery.attempts.length + 1);
  assert.equal(replayed.data.attempts.at(-1)?.trigger, 'replay');
  assert.equal(receiver.received.length, before + 1);
  await expectError(await dash(server, 'POST', `/_dashboard/api/webhook-deliveries/${NO_ID}/replay`, token), 404, 'not_found');
});

test('caught mail of every sender, newest first, by recipient; one mail with headers and raw source', async (t) => {
  const server = await useServer(t);
  const token = tokenOf(server);
  const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: server.running.smtpPort, secure: false, ignoreTLS: true });
  t.after(() => smtp.close());
  await smtp.sendMail({ from: 'app@elsewhere.test', to: 'one@elsewhere.test', subject: 'first', text: 'first body', html: '<p>first</p>' });
  await smtp.sendMail({ from: 'app@elsewhere.test', to: 'two@elsewhere.test', subject: 'second', text: 'second body' });
  type Mails = { scope: string; data: Array<{ id: string; subject: string; kind: string | null }> };
  const all = await waitUntil(
    'two caught mails',
    async () => {
      const list = await json<Mails>(await dash(server, 'GET', '/_dashboard/api/emails', token));
      return list.data.length === 2 ? list : false;
    },
    10_000,
  );
  assert.equal(all.scope, 'all accounts');
  assert.deepEqual(
    all.data.map((m) => m.subject),
    ['second', 'first'],
  );
  assert.deepEqual(
    all.data.map((m) => m.kind),
    [null, null],
  );
  const one = await json<Mails>(await dash(server, 'GET', '/_dashboard/api/emails?to=ONE@elsewhere.test', token));
  assert.deepEqual(
    one.data.map((m) => m.subject),
    ['first'],
  );
  const mail = await json<{ scope: string; data: { subject: string; html: string; raw: string; headers: Array<[string, string]> } }>(
    await dash(server, 'GET', `/_dashboard/api/emails/${one.data[0]?.id}`, token),
  );
  assert.equal(mail.data.subject, 'first');
  assert.match(mail.data.html, /<p>first<\/p>/);
  assert.match(mail.data.raw, /Subject: first/);
  assert.ok(mail.data.headers.some(([name]) => name.toLowerCase() === 'subject'));
  await expectError(await dash(server, 'GET', `/_dashboard/api/emails/${NO_ID}`, token), 404, 'not_found');
});

test('the clock advances by a duration as the CLI takes it; a bad duration is a 400', async (t) => {
  const server = await useServer(t);
  const token = tokenOf(server);
  const advanced = await dash(server, 'POST', '/_dashboard/api/clock/advance', token, { duration: '1d12h' });
  assert.equal(advanced.status, 200, await advanced.clone().text());
  const state = await json<{ scope: string; data: { offset_seconds: number } }>(advanced);
  assert.equal(state.scope, 'all accounts');
  assert.ok(state.data.offset_seconds >= 36 * 3600 && state.data.offset_seconds < 36 * 3600 + 60, String(state.data.offset_seconds));
  for (const duration of ['8', '-1d', '0s', 'soon', '']) {
    await expectError(await dash(server, 'POST', '/_dashboard/api/clock/advance', token, { duration }), 400, 'invalid_request');
  }
  await expectError(await dash(server, 'POST', '/_dashboard/api/clock/advance', token, { duration: '5000w' }), 400, 'invalid_request', /ten years/);
  await expectError(await dash(server, 'POST', '/_dashboard/api/clock/advance', token, { seconds: 5 }), 400, 'invalid_request');
  const shown = await json<{ data: { offset_seconds: number } }>(await dash(server, 'GET', '/_dashboard/api/clock', token));
  assert.equal(shown.data.offset_seconds, state.data.offset_seconds);
});

test('the document, artifacts, attempt headers and a fresh signing link, through the dashboard only', async (t) => {
  const server = await useServer(t, { allowLoopbackWebhooks: true });
  const receiver = await useReceiver(t);
  const token = tokenOf(server);
  const id = await createRequest(server, { client_reference: 'dash-files', callback_url: receiver.url }, { signers: 2 });
  await expectError(await dash(server, 'GET', `/_dashboard/api/requests/${id}/artifacts/signed-pdf`, token), 409, 'artifact_not_available');
  const links = (await activate(server, id)).signers;

  // The original PDF for the preview, and where every field sits.
  const document = await dash(server, 'GET', `/_dashboard/api/requests/${id}/document`, token);
  assert.equal(document.status, 200);
  assert.equal(document.headers.get('content-type'), 'application/pdf');
  assert.equal(
    Buffer.from(await document.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
  type Detail = {
    data: {
      embed_origin: string;
      layout: Array<{ type: string; signer_reference: string; page: number; x: number; y: number }>;
      webhook_deliveries: Array<{ attempts: Array<{ request_headers: Record<string, string> | null }> }>;
    };
  };
  const detail = await json<Detail>(await dash(server, 'GET', `/_dashboard/api/requests/${id}`, token));
  assert.equal(detail.data.embed_origin, '');
  assert.deepEqual(
    detail.data.layout.map((f) => [f.type, f.signer_reference, f.page, f.x, f.y]),
    [
      ['signature', 's1', 1, 50, 50],
      ['signature', 's2', 1, 50, 110],
    ],
  );

  // A fresh link for s1: the one the activation gave stops working, the new one opens the signing page.
  const issued = await dash(server, 'POST', `/_dashboard/api/requests/${id}/signers/s1/link`, token);
  assert.equal(issued.status, 200, await issued.clone().text());
  const link = (await json<{ data: { signing_url: string; embed_url: string; expires_at: string } }>(issued)).data;
  assert.match(link.signing_url, new RegExp(`^${server.url}/sign/`));
  assert.equal(link.embed_url, '');
  type View = { state: string; closed_reason: string | null };
  const previous = await json<View>(await signerAction(links[0]!.signing_url, 'view'));
  assert.deepEqual([previous.state, previous.closed_reason], ['closed', 'revoked'], 'the previous link stopped working');
  assert.equal((await json<View>(await signerAction(link.signing_url, 'view'))).state, 'open');
  await expectError(await dash(server, 'POST', `/_dashboard/api/requests/${id}/signers/nobody/link`, token), 404, 'not_found');
  assert.equal((await signerAction(link.signing_url, 'sign', { signature: { type: 'typed', text: 'One' } })).status, 200);
  assert.equal((await signerAction(links[1]!.signing_url, 'view')).status, 200);
  assert.equal((await signerAction(links[1]!.signing_url, 'sign', { signature: { type: 'typed', text: 'Two' } })).status, 200);
  await expectError(await dash(server, 'POST', `/_dashboard/api/requests/${id}/signers/s1/link`, token), 409, 'conflict');

  // Artifacts, once made, download through the dashboard.
  await server.running.ctx.background.idle();
  const evidenceReady = await dash(server, 'GET', `/_dashboard/api/requests/${id}/artifacts/evidence.json`, token);
  assert.equal(evidenceReady.status, 200, await evidenceReady.clone().text());
  const signedPdf = await dash(server, 'GET', `/_dashboard/api/requests/${id}/artifacts/signed-pdf`, token);
  assert.equal(signedPdf.status, 200);
  assert.match(signedPdf.headers.get('content-disposition') ?? '', /^attachment; filename=".*-signed\.pdf"; filename\*=UTF-8''.*-signed\.pdf$/);
  assert.equal(
    Buffer.from(await signedPdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
  const evidence = await json<{ signature_request_id: string }>(await dash(server, 'GET', `/_dashboard/api/requests/${id}/artifacts/evidence.json`, token));
  assert.equal(evidence.signature_request_id, id);
  await expectError(
    await dash(server, 'GET', `/_dashboard/api/requests/${id}/artifacts/nope`, token),
    404,
    'not_found',
    /signed-pdf, evidence.pdf, evidence.json/,
  );

  // Each attempt shows the headers it sent: those the receiver got.
  const settled = await waitUntil(
    'delivered webhooks',
    async () => {
      const d = await json<Detail>(await dash(server, 'GET', `/_dashboard/api/requests/${id}`, token));
      return d.data.webhook_deliveries.length > 0 && d.data.webhook_deliveries.every((w) => w.attempts.length > 0) ? d : false;
    },
    20_000,
  );
  const sent = settled.data.webhook_deliveries.flatMap((d) => d.attempts.map((a) => a.request_headers?.['webhook-signature']));
  const got = receiver.received.map((r) => r.headers['webhook-signature']);
  assert.ok(sent.length > 0 && sent.every((signature) => typeof signature === 'string' && got.includes(signature)), JSON.stringify({ sent, got }));

  // Purged: the document is gone, with the API's 410 for purged content (when and how it went).
  assert.equal((await dash(server, 'POST', `/_dashboard/api/requests/${id}/purge`, token)).status, 200);
  await expectError(await dash(server, 'GET', `/_dashboard/api/requests/${id}/document`, token), 410, 'artifact_not_available', /purged by hand at /);
  await expectError(
    await dash(server, 'GET', `/_dashboard/api/requests/${id}/artifacts/signed-pdf`, token),
    410,
    'artifact_not_available',
    /purged by hand at /,
  );
});

test('the clock says what fell due on the last advance', async (t) => {
  const server = await useServer(t);
  const token = tokenOf(server);
  const id = await createRequest(server, { client_reference: 'dash-due' });
  await activate(server, id, { link_expiry_days: 1 });
  const before = await json<{ data: { last_advance: unknown } }>(await dash(server, 'GET', '/_dashboard/api/clock', token));
  assert.equal(before.data.last_advance, null);
  const advanced = await dash(server, 'POST', '/_dashboard/api/clock/advance', token, { duration: '2d' });
  assert.equal(advanced.status, 200, await advanced.clone().text());
  type Clock = {
    data: {
      last_advance: {
        duration: string;
        from: string;
        to: string;
        fell_due: Array<{ kind: string; what: string; signature_request_id: string; client_reference: string; at: string }>;
      };
    };
  };
  const state = await json<Clock>(advanced);
  const last = state.data.last_advance;
  assert.equal(last.duration, '2d');
  const due = last.fell_due.filter((d) => d.signature_request_id === id);
  assert.ok(
    due.some((d) => d.kind === 'audit_event' && d.what.startsWith('signer_expired')),
    JSON.stringify(due),
  );
  assert.ok(
    due.some((d) => d.kind === 'audit_event' && d.what === 'request_expired'),
    JSON.stringify(due),
  );
  assert.ok(due.every((d) => d.client_reference === 'dash-due' && d.at > last.from && d.at <= last.to));
  const shown = await json<Clock>(await dash(server, 'GET', '/_dashboard/api/clock', token));
  assert.deepEqual(shown.data.last_advance, last);
  // Nothing left to fall due on the next one, made through /_sandbox (the CLI's and the API's advances count too).
  await advance(server, 90 * 60 * 1000);
  const again = await json<Clock>(await dash(server, 'GET', '/_dashboard/api/clock', token));
  assert.equal(again.data.last_advance.duration, '1h30m');
  assert.ok(again.data.last_advance.from >= last.to, JSON.stringify(again.data.last_advance));
  assert.deepEqual(
    again.data.last_advance.fell_due.filter((d) => d.signature_request_id === id),
    [],
  );
});

test("a caught mail's HTML opens under a one-minute ticket, with its own policy: no script, remote images only when asked", async (t) => {
  const server = await useServer(t);
  const token = tokenOf(server);
  const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: server.running.smtpPort, secure: false, ignoreTLS: true });
  t.after(() => smtp.close());
  await smtp.sendMail({
    from: 'app@elsewhere.test',
    to: 'html@elsewhere.test',
    subject: 'html',
    text: 'plain',
    html: '<p>hi</p><script>parent.x=1</script><img src="https://images.example/x.png">',
  });
  const id = await waitUntil(
    'the mail',
    async () => {
      const list = await json<{ data: Array<{ id: string }> }>(await dash(server, 'GET', '/_dashboard/api/emails', token));
      return list.data[0]?.id ?? false;
    },
    10_000,
  );
  for (const [remote, img] of [
    [false, 'img-src data:;'],
    [true, 'img-src data: https: http:;'],
  ] as const) {
    const view = await dash(server, 'POST', `/_dashboard/api/emails/${id}/view`, token, { remote_images: remote });
    assert.equal(view.status, 200, await view.clone().text());
    const url = (await json<{ data: { url: string } }>(view)).data.url;
    assert.match(url, /^\/_dashboard\/mail\/pmail_[0-9A-Za-z]+$/);
    assert.doesNotMatch(url, /pdash_/);
    // The iframe sends no Authorization header: the ticket alone opens it.
    const page = await server.call('GET', url, { key: null });
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /^default-src 'none'; style-src 'unsafe-inline'; /);
    assert.ok(csp.includes(img), csp);
    assert.doesNotMatch(csp, /script-src/);
    assert.match(csp, /frame-ancestors 'self'/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.match(await page.text(), /<p>hi<\/p>/);
  }
  for (const [route, status] of [
    ['/_dashboard/mail/pmail_unknown', 404],
    ['/_dashboard/mail/not-a-ticket', 404],
  ] as const) {
    const gone = await server.call('GET', route, { key: null });
    assert.equal(gone.status, status, route);
    assert.match(gone.headers.get('content-security-policy') ?? '', /^default-src 'none'/, route);
    assert.equal(gone.headers.get('referrer-policy'), 'no-referrer', route);
    await gone.arrayBuffer();
  }
  // A ticket lives one minute (real time).
  const ticket = issueMailTicket(server.running.ctx, id, false);
  assert.deepEqual(readMailTicket(server.running.ctx, ticket), { emailId: id, remoteImages: false });
  const clock = server.running.ctx.clock;
  const later = { ...server.running.ctx, clock: { ...clock, realNow: () => clock.realNow() + 61_000 } };
  assert.equal(readMailTicket(later, ticket), null);
  await expectError(await dash(server, 'POST', `/_dashboard/api/emails/${NO_ID}/view`, token, {}), 404, 'not_found');
  await expectError(await dash(server, 'POST', `/_dashboard/api/emails/${id}/view`, token, { remote_images: 'yes' }), 400, 'invalid_request');
});

test('every page module and the embed test page are served with the security headers', async (t) => {
  const server = await useServer(t);
  for (const name of [
    'api.js',
    'dom.js',
    'live.js',
    'requests.js',
    'request-page.js',
    'pdf-preview.js',
    'mail.js',
    'webhooks.js',
    'clock.js',
    'embed-test.js',
    'embed-test.html',
  ]) {
    const file = await server.call('GET', `/_dashboard/${name}`, { key: null });
    assert.equal(file.status, 200, name);
    assert.match(file.headers.get('content-type') ?? '', name.endsWith('.html') ? /^text\/html/ : /^text\/javascript/, name);
    assertSecurityHeaders(file, name);
    const body = await file.text();
    if (name.endsWith('.html')) assert.doesNotMatch(body, /<script(?![^>]*\bsrc=)/i, `${name}: no inline script`);
  }
});
