import assert from 'node:assert/strict';
import { createForm, payload } from './requests.js';
import type { Receiver } from './receiver.js';
import { json, type TestServer } from './server.js';
import { sleep } from './wait.js';

export const DAY = 24 * 60 * 60 * 1000;

export type Status = {
  id: string;
  status: string;
  retention_expires_at: string | null;
  signers: Array<{ id: string; reference: string; status: string; expires_at: string | null; email: string }>;
  artifacts: Record<string, boolean>;
};

/** A signer of a created request; `email` defaults to `<reference>@example.com`, `order` to its place in the list. */
export type SignerInput = { reference: string; email?: string; name?: string; locale?: string; order?: number; [more: string]: unknown };

export interface CreateOptions {
  /**
   * How many signers (`s1`…`sN`, `s<i>@example.com`) or which ones, each given one signature field
   * (default 1); `'payload'` keeps requests.ts's payload() signer (`client`, Ada Lovelace) and its field.
   * Signers or fields in `overrides` win.
   */
  signers?: number | SignerInput[] | 'payload';
  /** The PDF (default: a blank A4 page named contract.pdf); null sends no document part. */
  document?: { bytes?: Uint8Array; filename?: string; type?: string } | null;
  /** The API key (default: the server's first key). */
  key?: string;
  headers?: Record<string, string>;
}

/** The create call's JSON part: payload() with the signers of `options` and `overrides` on top. */
export function requestBody(overrides: Record<string, unknown> = {}, signers: CreateOptions['signers'] = 1): Record<string, unknown> {
  if (signers === 'payload') return payload(overrides);
  const list: SignerInput[] =
    typeof signers === 'number' ? Array.from({ length: signers }, (_, i) => ({ reference: `s${i + 1}`, email: `s${i + 1}@example.com` })) : signers;
  const people = list.map((s, i) => ({ ...s, email: s.email ?? `${s.reference}@example.com`, order: s.order ?? i + 1 }));
  const fields = people.map((p, i) => ({ signer_reference: p.reference, type: 'signature', page: 1, x: 50, y: 50 + i * 60, width: 150, height: 40 }));
  return payload({ signers: people, fields, ...overrides });
}

/** POST /v1/signature-requests with a ready body (JSON part as an object or raw text); answers the response as it is. */
export async function postCreate(
  server: Pick<TestServer, 'call'>,
  body: Record<string, unknown> | string,
  options: Omit<CreateOptions, 'signers'> = {},
): Promise<Response> {
  return server.call('POST', '/v1/signature-requests', {
    body: await createForm(body, options.document),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.key === undefined ? {} : { key: options.key }),
  });
}

/** Creates a prepared request (see CreateOptions) and answers it as created (201 asserted). */
export async function createdRequest(
  server: Pick<TestServer, 'call'>,
  overrides: Record<string, unknown> = {},
  options: CreateOptions = {},
): Promise<{ id: string; client_reference: string; status: string } & Record<string, any>> {
  const response = await postCreate(server, requestBody(overrides, options.signers), options);
  assert.equal(response.status, 201, await response.clone().text());
  return json(response);
}

/** Creates a prepared request (see CreateOptions) and answers its id. */
export async function createRequest(server: Pick<TestServer, 'call'>, overrides: Record<string, unknown> = {}, options: CreateOptions = {}): Promise<string> {
  return (await createdRequest(server, overrides, options)).id;
}

export type ActivatedSigner = { id: string; reference: string; status: string; signing_url: string; embed_url: string; email_delivery: string };

/**
 * Creates and activates a request; answers its id, client_reference, the activated signers, and their
 * signing and embed URLs by reference. `activation` is the activate call's body.
 */
export async function activeRequest(
  server: TestServer,
  overrides: Record<string, unknown> = {},
  options: CreateOptions & { activation?: Record<string, unknown> } = {},
): Promise<{ id: string; clientReference: string; signers: ActivatedSigner[]; links: Record<string, string>; embeds: Record<string, string> }> {
  const created = await createdRequest(server, overrides, options);
  const { signers } = await activate(server, created.id, options.activation ?? {}, options.key);
  const by = (url: (s: ActivatedSigner) => string) => Object.fromEntries(signers.map((s) => [s.reference, url(s)]));
  return { id: created.id, clientReference: created.client_reference, signers, links: by((s) => s.signing_url), embeds: by((s) => s.embed_url) };
}

export async function postJson(server: TestServer, route: string, body?: unknown, key?: string): Promise<Response> {
  return server.call('POST', route, {
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    ...(key === undefined ? {} : { key }),
  });
}

export async function activate(server: TestServer, id: string, options: Record<string, unknown> = {}, key?: string) {
  const response = await postJson(server, `/v1/signature-requests/${id}/activate`, options, key);
  assert.equal(response.status, 200, await response.clone().text());
  return json<{ status: string; signers: ActivatedSigner[] }>(response);
}

/** GET one request (with another key when given): 200 and its SignatureRequestStatus. */
export async function status(server: Pick<TestServer, 'call'>, id: string, key?: string): Promise<Status> {
  const response = await server.call('GET', `/v1/signature-requests/${id}`, key ? { key } : {});
  assert.equal(response.status, 200, await response.clone().text());
  return json<Status>(response);
}

/**
 * Waits for a completed request's three artifacts (their flags turn true together, never one at a
 * time). A server whose context the test holds is awaited, not polled: its background work (the
 * generation a completion starts) is done once `background.idle()` resolves. Polling is left for a
 * server in another process, and for a generation that failed and is retried later by the tick.
 */
export async function waitForArtifacts(
  server: Pick<TestServer, 'call'> & { running?: TestServer['running'] },
  id: string,
  timeoutMs = 90_000,
): Promise<Status> {
  if (server.running) await server.running.ctx.background.idle();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await status(server, id);
    const flags = Object.values(current.artifacts);
    assert.ok(flags.every(Boolean) || flags.every((f) => !f), JSON.stringify(current.artifacts));
    if (flags.every(Boolean)) return current;
    if (Date.now() > deadline) assert.fail(`no artifacts for ${id} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

export async function advance(server: TestServer, ms: number): Promise<{ now: string; offset_seconds: number }> {
  const response = await postJson(server, '/_sandbox/clock/advance', { seconds: Math.round(ms / 1000) });
  assert.equal(response.status, 200, await response.clone().text());
  return json(response);
}

/** The request's webhook events in the order they were written. */
export function eventsOf(server: TestServer, requestId: string): Array<{ type: string; created_at: number; data: Record<string, any> }> {
  const { db } = server.running.ctx;
  return db
    .all(db.q.selectFrom('events').selectAll().where('request_id', '=', requestId).orderBy('seq', 'asc'))
    .map((e) => ({ type: e.type, created_at: e.created_at, data: (JSON.parse(e.payload) as { data: Record<string, any> }).data }));
}

export function auditOf(server: TestServer, requestId: string): Array<{ id: number; type: string; actor_type: string; created_at: number }> {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('audit_events').selectAll().where('request_id', '=', requestId).orderBy('id', 'asc'));
}

/** The email-code secret each link's client holds once it entered the code (a browser keeps it as a cookie). */
const verifications = new Map<string, string>();

/**
 * POSTs to the signer's JSON API under a signing link (`<link>/api/<action>`), as the signing page
 * does: one client per link, which keeps the secret a right email code gives and sends it back.
 */
export async function signerAction(link: string, action: string, body: unknown = {}): Promise<Response> {
  const url = new URL(link);
  url.pathname = `${url.pathname}/api/${action}`;
  url.search = '';
  const secret = verifications.get(link);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(secret !== undefined ? { 'signer-verification': secret } : {}) };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const given = response.headers.get('signer-verification');
  if (given !== null) verifications.set(link, given);
  return response;
}

/**
 * The positive signal for "nothing more was sent": the server's webhook dispatcher has run past
 * everything due now. A fresh request with `marker` as its callback is activated and its event
 * arrives there (the dispatcher claims due deliveries oldest first, so any delivery due before it was
 * claimed in the same tick or an earlier one); then a one-second clock advance, which answers only
 * once no attempt is in flight, lets those attempts finish.
 */
export async function dispatcherCaughtUp(server: TestServer, marker: Receiver): Promise<void> {
  const before = marker.received.length;
  await activate(server, await createRequest(server, { callback_url: marker.url }));
  await marker.waitFor(before + 1, 30_000);
  await advance(server, 1000);
}
