import assert from 'node:assert/strict';
import { createForm, payload } from './requests.js';
import { json, type TestServer } from './server.js';

export const DAY = 24 * 60 * 60 * 1000;

export type Status = {
  id: string;
  status: string;
  retention_expires_at: string | null;
  signers: Array<{ id: string; reference: string; status: string; expires_at: string | null; email: string }>;
  artifacts: Record<string, boolean>;
};

/** Creates a request with `signers` signers (one signature field each) and answers its id. */
export async function createRequest(server: TestServer, overrides: Record<string, unknown> = {}, signers = 1): Promise<string> {
  const people = Array.from({ length: signers }, (_, i) => ({ reference: `s${i + 1}`, email: `s${i + 1}@example.com`, order: i + 1 }));
  const fields = people.map((p, i) => ({ signer_reference: p.reference, type: 'signature', page: 1, x: 50, y: 50 + i * 60, width: 150, height: 40 }));
  const response = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ signers: people, fields, ...overrides })) });
  assert.equal(response.status, 201, await response.clone().text());
  return (await json<{ id: string }>(response)).id;
}

export async function postJson(server: TestServer, route: string, body?: unknown, key?: string): Promise<Response> {
  return server.call('POST', route, {
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    ...(key === undefined ? {} : { key }),
  });
}

export async function activate(server: TestServer, id: string, options: Record<string, unknown> = {}) {
  const response = await postJson(server, `/v1/signature-requests/${id}/activate`, options);
  assert.equal(response.status, 200, await response.clone().text());
  return json<{ signers: Array<{ id: string; reference: string; signing_url: string }> }>(response);
}

export async function status(server: TestServer, id: string): Promise<Status> {
  const response = await server.call('GET', `/v1/signature-requests/${id}`);
  assert.equal(response.status, 200);
  return json<Status>(response);
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

/** POSTs to the signer's JSON API under a signing link (`<link>/api/<action>`), as the signing page does. */
export function signerAction(link: string, action: string, body: unknown = {}): Promise<Response> {
  const url = new URL(link);
  url.pathname = `${url.pathname}/api/${action}`;
  url.search = '';
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
