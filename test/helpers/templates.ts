// Templates and bulk sends in tests: forms, a template factory, the error envelope, stored rows and files.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { a4Pdf } from './requests.js';
import type { TestServer } from './server.js';

export type Json = Record<string, unknown>;

export interface TemplateJson {
  id: string;
  name: string;
  original_filename: string;
  fields: Json[];
  field_count: number;
  signer_count: number;
  created_at: string;
  updated_at: string;
}

export const TEMPLATE_KEYS = ['created_at', 'field_count', 'fields', 'id', 'name', 'original_filename', 'signer_count', 'updated_at'];
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A field of `role` on page 1 of an A4 page. */
export const sigOf = (role: string, over: Json = {}): Json => ({
  signer_reference: role,
  type: 'signature',
  page: 1,
  x: 50,
  y: 700,
  width: 200,
  height: 50,
  ...over,
});
export const textOf = (role: string, over: Json = {}): Json => ({
  signer_reference: role,
  type: 'text',
  page: 1,
  x: 50,
  y: 100,
  width: 200,
  height: 20,
  ...over,
});

/** The default template: roles `client` and `witness`, a named text field `company` and a read-only `plan`. */
export const TEMPLATE_FIELDS: Json[] = [
  sigOf('client'),
  sigOf('witness', { y: 600 }),
  textOf('client', { name: 'company' }),
  textOf('client', { name: 'plan', y: 140, value: 'Gold', read_only: true }),
  { signer_reference: 'client', type: 'date', field_key: 'sign_date', name: 'signed_on', page: 1, x: 300, y: 700, width: 120, height: 20 },
];

export const CLIENT = { reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 };
export const WITNESS = { reference: 'witness', name: 'Bob Witness', email: 'bob@example.com', order: 2 };

export interface TemplateParts {
  /** null: leave the part out. */
  document?: { bytes?: Uint8Array; filename?: string; type?: string } | null;
  name?: string | null;
  /** A value is JSON-encoded; a string is sent as it is. */
  fields?: unknown;
}

export async function templateForm(parts: TemplateParts = {}): Promise<FormData> {
  const form = new FormData();
  if (parts.document !== null) {
    const doc = parts.document ?? {};
    form.append('document', new Blob([doc.bytes ?? (await a4Pdf())], { type: doc.type ?? 'application/pdf' }), doc.filename ?? 'nda.pdf');
  }
  if (parts.name !== null) form.append('name', parts.name ?? 'NDA');
  if (parts.fields !== null) {
    const fields = parts.fields ?? TEMPLATE_FIELDS;
    form.append('fields', typeof fields === 'string' ? fields : JSON.stringify(fields));
  }
  return form;
}

export async function postTemplate(server: TestServer, parts: TemplateParts = {}, init: { key?: string; headers?: Record<string, string> } = {}) {
  return server.call('POST', '/v1/templates', { body: await templateForm(parts), ...init });
}

/** A template that must be created (201). */
export async function makeTemplate(server: TestServer, parts: TemplateParts = {}, key?: string): Promise<TemplateJson> {
  const res = await postTemplate(server, parts, key === undefined ? {} : { key });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  return JSON.parse(text) as TemplateJson;
}

export async function listTemplates(server: TestServer, key?: string): Promise<TemplateJson[]> {
  const res = await server.call('GET', '/v1/templates', key === undefined ? {} : { key });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  const body = JSON.parse(text) as { data: TemplateJson[] };
  assert.deepEqual(Object.keys(body), ['data']);
  return body.data;
}

export function archive(server: TestServer, id: string, key?: string): Promise<Response> {
  return server.call('DELETE', `/v1/templates/${id}`, key === undefined ? {} : { key });
}

export function postJson(server: TestServer, route: string, body: unknown, init: { key?: string; headers?: Record<string, string> } = {}) {
  return server.call('POST', route, {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(init.key === undefined ? {} : { key: init.key }),
  });
}

/** Encrypted blob files in the data directory (and nothing else there: no temporary leftovers). */
export function blobFiles(server: TestServer): string[] {
  const dir = path.join(server.dataDir, 'blobs');
  const entries = fs.readdirSync(dir);
  const blobs = entries.filter((name) => name.endsWith('.blob'));
  assert.deepEqual(entries.sort(), [...blobs].sort(), 'only finished blob files in the blob directory');
  for (const name of blobs) assert.equal(fs.readFileSync(path.join(dir, name)).includes('%PDF-'), false, `${name} holds a plain PDF`);
  return blobs.map((name) => name.replace(/\.blob$/, ''));
}

/** Rows of a table (for "nothing was written" checks). */
export function rowCount(
  server: TestServer,
  table: 'signature_requests' | 'events' | 'audit_events' | 'templates' | 'signing_links' | 'mail_outbox' | 'documents' | 'webhook_deliveries',
): number {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')))[0]?.n ?? 0;
}

export function templateRow(server: TestServer, id: string) {
  const { db } = server.running.ctx;
  return db.first(db.q.selectFrom('templates').selectAll().where('id', '=', id));
}

/** The stored document of a request (its PDF's blob, digest, name and pages). */
export function documentOf(server: TestServer, requestId: string) {
  const { db } = server.running.ctx;
  return db.first(
    db.q
      .selectFrom('documents')
      .innerJoin('signature_requests', 'signature_requests.document_id', 'documents.id')
      .select(['documents.blob_id', 'documents.sha256', 'documents.filename', 'documents.pages_json', 'signature_requests.template_id'])
      .where('signature_requests.id', '=', requestId),
  );
}
