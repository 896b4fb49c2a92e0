// Templates end to end, over real HTTP against the real server (spec "Template", "Templates" endpoints,
// `template_id` and `field_values` of CreateRequestPayload, limits): POST/GET/DELETE /v1/templates and
// POST /v1/signature-requests with a template_id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { rawMultipart } from '../helpers/requests.js';
import { postCreate, status } from '../helpers/flows.js';
import { makeEncryptedPdf, makePdf, truncate } from '../helpers/pdfs.js';
import { expectError } from '../helpers/errors.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { CREATE_RESPONSE_KEYS } from '../helpers/answer-keys.js';
import {
  archive,
  blobFiles,
  CLIENT,
  documentOf,
  listTemplates,
  makeTemplate,
  postJson,
  postTemplate,
  rowCount,
  sigOf,
  TEMPLATE_FIELDS,
  TEMPLATE_KEYS,
  templateRow,
  textOf,
  UUID,
  WITNESS,
  type Json,
  type TemplateJson,
} from '../helpers/templates.js';

const REQUESTS = '/v1/signature-requests';
const DAY_MS = 24 * 60 * 60 * 1000;
const TEN_DAYS_MS = 10 * DAY_MS;

interface CreateResponse {
  id: string;
  client_reference: string;
  template_id: string;
  status: string;
  retention_expires_at: string;
  idempotent_replay: boolean;
}

interface StatusResponse {
  id: string;
  status: string;
  created_at: string;
  retention_expires_at: string | null;
  signers: Array<{ reference: string; email: string; order: number }>;
  fields: Array<{ name: string; type: string; field_key: string; signer_reference: string; value: string; read_only: boolean }>;
}

/** The Template's `fields` as answered: FieldInput with `read_only` shown as its default when not given. */
const answered = (fields: Json[]) => fields.map((f) => ({ read_only: false, ...f }));

let counter = 0;
const nextRef = (prefix = 'tpl-order') => `${prefix}-${++counter}`;

/** POST /signature-requests with a template_id (and the document part the create call always has). */
function createFrom(
  server: TestServer,
  templateId: string,
  over: Json = {},
  options: { key?: string; document?: { bytes?: Uint8Array; filename?: string } | null } = {},
): Promise<Response> {
  const payload = { client_reference: nextRef(), template_id: templateId, signers: [CLIENT, WITNESS], ...over };
  return postCreate(server, payload, {
    ...(options.document === undefined ? {} : { document: options.document }),
    ...(options.key ? { key: options.key } : {}),
  });
}

async function created(res: Response): Promise<CreateResponse> {
  const text = await res.text();
  assert.equal(res.status, 201, text);
  return JSON.parse(text) as CreateResponse;
}

/** GET one request as this file's StatusResponse (the shared `status` of helpers/flows.ts). */
const getStatus = async (server: TestServer, id: string, key?: string) => (await status(server, id, key)) as unknown as StatusResponse;

function fieldRowsOf(server: TestServer, requestId: string) {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('fields').selectAll().where('request_id', '=', requestId).orderBy('position', 'asc'));
}

function blobPath(server: TestServer, blobId: string): string {
  return path.join(server.dataDir, 'blobs', `${blobId}.blob`);
}

/** Nothing was stored by a refused call: same templates, requests and blob files as before. */
function snapshot(server: TestServer) {
  return { templates: rowCount(server, 'templates'), requests: rowCount(server, 'signature_requests'), blobs: blobFiles(server).sort() };
}

// ------------------------------------------------------------------------------------------------------------
// POST /v1/templates

test('POST /v1/templates answers 201 with exactly the Template, keeps the PDF encrypted and lists it', async (t) => {
  const server = await useServer(t);
  const res = await postTemplate(server);
  assert.equal(res.status, 201);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(res.headers.get('x-ratelimit-limit'), '120');
  const template = await json<TemplateJson>(res);
  assert.deepEqual(Object.keys(template).sort(), TEMPLATE_KEYS);
  assert.match(template.id, UUID);
  assert.equal(template.name, 'NDA');
  assert.equal(template.original_filename, 'nda.pdf');
  assert.deepEqual(template.fields, answered(TEMPLATE_FIELDS));
  assert.equal(template.field_count, 5);
  // Roles are the distinct signer_references: client and witness.
  assert.equal(template.signer_count, 2);
  assert.ok(!Number.isNaN(Date.parse(template.created_at)));
  assert.equal(template.updated_at, template.created_at);

  // The PDF is stored once, encrypted, with the pages measured at upload.
  const row = templateRow(server, template.id);
  assert.ok(row);
  assert.deepEqual(blobFiles(server), [row.blob_id]);
  assert.equal(row.page_count, 1);
  assert.deepEqual(JSON.parse(row.pages_json), [{ width: 595.28, height: 841.89, rotation: 0 }]);

  assert.deepEqual(await listTemplates(server), [template]);

  // signer_count counts roles, not fields: 3 fields of one role, and 10 roles of one field each.
  const single = await makeTemplate(server, { fields: [sigOf('a'), sigOf('a', { y: 600 }), textOf('a')] });
  assert.equal(single.field_count, 3);
  assert.equal(single.signer_count, 1);
  const roles = Array.from({ length: 10 }, (_, i) => sigOf(`role_${i}`, { y: 40 + i * 60 }));
  const ten = await makeTemplate(server, { fields: roles });
  assert.equal(ten.field_count, 10);
  assert.equal(ten.signer_count, 10);
});

test('the multipart body of POST /v1/templates: exactly document, name and fields', async (t) => {
  const server = await useServer(t);
  const before = snapshot(server);

  await t.test('a JSON body is refused', async () => {
    const res = await postJson(server, '/v1/templates', { name: 'NDA', fields: TEMPLATE_FIELDS });
    await expectError(res, 400, 'invalid_request', /multipart/);
  });

  for (const part of ['document', 'name', 'fields'] as const) {
    await t.test(`missing ${part} part`, async () => {
      await expectError(await postTemplate(server, { [part]: null }), 400, 'invalid_request', `"${part}"`);
    });
  }

  await t.test('an extra part', async () => {
    const form = new FormData();
    form.append('document', new Blob([await makePdf()], { type: 'application/pdf' }), 'nda.pdf');
    form.append('name', 'NDA');
    form.append('fields', JSON.stringify(TEMPLATE_FIELDS));
    form.append('request', '{}');
    await expectError(await server.call('POST', '/v1/templates', { body: form }), 400, 'invalid_request', '"request"');
  });

  await t.test('name given twice', async () => {
    const { body, contentType } = rawMultipart([
      { name: 'document', filename: 'nda.pdf', type: 'application/pdf', body: await makePdf() },
      { name: 'name', body: 'NDA' },
      { name: 'name', body: 'NDA 2' },
      { name: 'fields', body: JSON.stringify(TEMPLATE_FIELDS) },
    ]);
    const res = await server.call('POST', '/v1/templates', { body: new Uint8Array(body), headers: { 'content-type': contentType } });
    await expectError(res, 400, 'invalid_request', /"name".*more than once/);
  });

  await t.test('name: empty and over 120 characters are refused', async () => {
    await expectError(await postTemplate(server, { name: '' }), 400, 'invalid_request', 'name must not be empty');
    await expectError(await postTemplate(server, { name: 'n'.repeat(121) }), 400, 'invalid_request', 'name must be at most 120 characters');
  });

  await t.test('fields: not JSON, not an array, empty, over 100', async () => {
    await expectError(await postTemplate(server, { fields: '[{"signer_reference":' }), 400, 'invalid_request', /"fields".*JSON/);
    await expectError(await postTemplate(server, { fields: { fields: TEMPLATE_FIELDS } }), 400, 'invalid_request', 'fields must be an array');
    await expectError(await postTemplate(server, { fields: [] }), 400, 'invalid_request', 'fields must have at least 1 item');
    const many = Array.from({ length: 101 }, (_, i) => sigOf('client', { y: 10 + i * 8, height: 5 }));
    await expectError(await postTemplate(server, { fields: many }), 400, 'invalid_request', 'fields must have at most 100 items');
  });

  await t.test('refusals stored nothing', () => {
    assert.deepEqual(snapshot(server), before);
  });

  await t.test('name is plain text, never decoded as JSON; 120 characters are accepted', async () => {
    assert.equal((await makeTemplate(server, { name: '42' })).name, '42');
    assert.equal((await makeTemplate(server, { name: '"NDA"' })).name, '"NDA"');
    const french = 'Accord de confidentialité — 2026';
    assert.equal((await makeTemplate(server, { name: french })).name, french);
    assert.equal((await makeTemplate(server, { name: 'n'.repeat(120) })).name, 'n'.repeat(120));
  });

  await t.test('100 fields are accepted', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => sigOf('client', { y: 10 + i * 8, height: 5 }));
    const template = await makeTemplate(server, { fields: hundred });
    assert.equal(template.field_count, 100);
  });

  await t.test('fields as an application/json part, and parts in any order, are accepted', async () => {
    const { body, contentType } = rawMultipart([
      { name: 'fields', type: 'application/json', body: JSON.stringify(TEMPLATE_FIELDS) },
      { name: 'name', body: 'Ordered differently' },
      { name: 'document', filename: 'nda.pdf', type: 'application/pdf', body: await makePdf() },
    ]);
    const res = await server.call('POST', '/v1/templates', { body: new Uint8Array(body), headers: { 'content-type': contentType } });
    assert.equal(res.status, 201, await res.clone().text());
    assert.equal((await json<TemplateJson>(res)).field_count, TEMPLATE_FIELDS.length);
  });
});

test('template fields follow every FieldInput rule; refusals store nothing', async (t) => {
  const server = await useServer(t);
  const before = snapshot(server);
  const elevenRoles = Array.from({ length: 11 }, (_, i) => sigOf(`role_${i}`, { y: 20 + i * 60 }));
  const cases: Array<[string, Json[], string | RegExp]> = [
    ['an unknown property', [sigOf('client', { colour: 'red' })], 'fields[0] has an unknown property "colour"'],
    ['page 0', [sigOf('client', { page: 0 })], 'fields[0].page must be >= 1'],
    ['page 10001', [sigOf('client', { page: 10001 })], 'fields[0].page must be <= 10000'],
    ['a negative x', [sigOf('client', { x: -1 })], 'fields[0].x must be >= 0'],
    ['width 0', [sigOf('client', { width: 0 })], 'fields[0].width must be > 0'],
    ['height over 5000', [sigOf('client', { height: 5001 })], 'fields[0].height must be <= 5000'],
    ['an unknown type', [sigOf('client', { type: 'checkbox' })], 'fields[0].type must be one of'],
    ['an unknown field_key', [textOf('client', { field_key: 'iban' })], 'fields[0].field_key must be one of'],
    ['a name that breaks the pattern', [textOf('client', { name: 'Company' })], 'fields[0].name must match the pattern'],
    ['an empty signer_reference', [sigOf('')], 'fields[0].signer_reference must not be empty'],
    ['a signer_reference over 100 characters', [sigOf('r'.repeat(101))], 'fields[0].signer_reference must be at most 100 characters'],
    ['a value over 500 characters', [textOf('client', { value: 'v'.repeat(501) })], 'fields[0].value must be at most 500 characters'],
    [
      'two fields with one name',
      [sigOf('client'), textOf('client', { name: 'company' }), textOf('client', { name: 'company', y: 140 })],
      'fields[2].name "company" is used by another field',
    ],
    ['read_only without a value', [textOf('client', { read_only: true })], 'fields[0].read_only requires a value'],
    ['a field_key on a signature field', [sigOf('client', { field_key: 'signer_name' })], 'fields[0].field_key is only allowed on text and date fields'],
    ['sign_date on a text field', [textOf('client', { field_key: 'sign_date' })], 'fields[0].field_key "sign_date" needs a date field'],
    ['a value on a signature field', [sigOf('client', { value: 'x' })], 'fields[0].value is only allowed on text and date fields'],
    [
      'a value on a field filled by the signer',
      [textOf('client', { field_key: 'company', value: 'ACME' })],
      'fields[0].value is not allowed on a field with field_key',
    ],
    ['11 roles', elevenRoles, 'a template has at most 10 roles'],
    ['a page the document does not have', [sigOf('client', { page: 2 })], 'fields[0].page 2 does not exist: the document has 1 page'],
    ['a field outside its page', [sigOf('client', { x: 500, width: 200 })], 'fields[0] lies outside page 1'],
  ];
  for (const [name, fields, message] of cases) {
    await t.test(name, async () => {
      await expectError(await postTemplate(server, { fields }), 400, 'invalid_request', message);
    });
  }
  await t.test('nothing was stored', () => {
    assert.deepEqual(snapshot(server), before);
    assert.equal(rowCount(server, 'templates'), 0);
  });
  await t.test('a field on page 2 of a two-page document is accepted', async () => {
    const bytes = await makePdf([
      { width: 595.28, height: 841.89 },
      { width: 612, height: 792 },
    ]);
    const template = await makeTemplate(server, { document: { bytes }, fields: [sigOf('client', { page: 2, x: 400, width: 200 })] });
    assert.equal(templateRow(server, template.id)?.page_count, 2);
  });
});

test('the template document follows the PDF rules of a request document', async (t) => {
  const server = await useServer(t);
  const pdf = await makePdf();
  const cases: Array<[string, { bytes?: Uint8Array; filename?: string; type?: string }, RegExp]> = [
    ['content type other than application/pdf', { type: 'text/plain' }, /application\/pdf/],
    ['a filename not ending in .pdf', { filename: 'nda.txt' }, /\.pdf/],
    ['bytes that are not a PDF', { bytes: new TextEncoder().encode('plain text, not a PDF\n') }, /not a PDF/],
    ['an empty document', { bytes: new Uint8Array(0) }, /empty/],
    ['a truncated PDF', { bytes: truncate(pdf, Math.floor(pdf.length / 2)) }, /incomplete|truncated/],
    ['a PDF that needs a password to open', { bytes: makeEncryptedPdf({ userPassword: 'user-secret' }) }, /encrypted with a password needed to open it/],
    ['a document over 8 MiB', { bytes: new Uint8Array(8 * 1024 * 1024 + 1).fill(0x25) }, /8388608|8 MiB/],
  ];
  for (const [name, document, message] of cases) {
    await t.test(name, async () => {
      await expectError(await postTemplate(server, { document }), 400, 'invalid_document', message);
    });
  }
  await t.test('a document sent as a plain field, not a file', async () => {
    const { body, contentType } = rawMultipart([
      { name: 'document', body: pdf },
      { name: 'name', body: 'NDA' },
      { name: 'fields', body: JSON.stringify(TEMPLATE_FIELDS) },
    ]);
    const res = await server.call('POST', '/v1/templates', { body: new Uint8Array(body), headers: { 'content-type': contentType } });
    await expectError(res, 400, 'invalid_document', '"document"');
  });
  await t.test('nothing was stored', () => {
    assert.equal(rowCount(server, 'templates'), 0);
    assert.deepEqual(blobFiles(server), []);
  });
});

test('POST /v1/templates honours Idempotency-Key', async (t) => {
  const server = await useServer(t);
  const headers = { 'idempotency-key': 'template-nda-1' };
  const first = await postTemplate(server, {}, { headers });
  assert.equal(first.status, 201);
  const firstText = await first.text();
  // Another multipart boundary, the same parts: the same call.
  const again = await postTemplate(server, {}, { headers });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(await again.text(), firstText);
  assert.equal((await listTemplates(server)).length, 1);
  assert.equal(blobFiles(server).length, 1);
  await expectError(await postTemplate(server, { name: 'Another name' }, { headers }), 422, 'idempotency_key_reused');
  assert.equal((await listTemplates(server)).length, 1);
});

// ------------------------------------------------------------------------------------------------------------
// GET and DELETE /v1/templates

test("GET /v1/templates: the account's templates, newest first, archived ones left out", async (t) => {
  const server = await useServer(t);
  assert.deepEqual(await listTemplates(server), []);
  const older = await makeTemplate(server, { name: 'Older' });
  const newer = await makeTemplate(server, { name: 'Newer' });
  assert.deepEqual(await listTemplates(server), [newer, older]);

  const other = server.newKey();
  assert.deepEqual(await listTemplates(server, other.apiKey), []);
  const theirs = await makeTemplate(server, { name: 'Theirs' }, other.apiKey);
  assert.deepEqual(await listTemplates(server, other.apiKey), [theirs]);
  assert.deepEqual(await listTemplates(server), [newer, older]);
  // A second key of the same account sees the account's templates.
  const sameAccount = server.newKey(server.accountId);
  assert.deepEqual(await listTemplates(server, sameAccount.apiKey), [newer, older]);

  assert.equal((await archive(server, older.id)).status, 204);
  assert.deepEqual(await listTemplates(server), [newer]);

  await expectError(await server.call('GET', '/v1/templates', { key: null }), 401, 'unauthorized');
});

test('DELETE /v1/templates/{id}: 204, archived and unusable; 404 for unknown, archived or foreign; requests keep their copy', async (t) => {
  const server = await useServer(t);
  const template = await makeTemplate(server);
  const kept = await makeTemplate(server, { name: 'Kept' });
  const fromIt = await created(await createFrom(server, template.id, { field_values: { company: 'ACME' } }));
  const activatedBefore = await created(await createFrom(server, template.id));
  assert.equal((await postJson(server, `${REQUESTS}/${activatedBefore.id}/activate`, {})).status, 200);
  const templateBlob = templateRow(server, template.id)?.blob_id as string;
  const requestBlob = documentOf(server, fromIt.id)?.blob_id as string;
  const statusBefore = await getStatus(server, fromIt.id);

  await t.test('another account cannot archive it', async () => {
    const other = server.newKey();
    await expectError(await archive(server, template.id, other.apiKey), 404, 'template_not_found', template.id);
    assert.equal(templateRow(server, template.id)?.archived_at, null);
  });

  await t.test('204 with no body; the template leaves the list and its PDF is deleted', async () => {
    const res = await archive(server, template.id);
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('content-type'), null);
    assert.equal(await res.text(), '');
    assert.deepEqual(await listTemplates(server), [kept]);
    const row = templateRow(server, template.id);
    assert.ok(row?.archived_at);
    assert.equal(row.blob_id, null);
    assert.equal(fs.existsSync(blobPath(server, templateBlob)), false);
  });

  await t.test('it can no longer be used', async () => {
    await expectError(await createFrom(server, template.id), 404, 'template_not_found', template.id);
  });

  await t.test('archiving it again, or an unknown id, is 404 template_not_found; a malformed id 404 not_found', async () => {
    await expectError(await archive(server, template.id), 404, 'template_not_found', template.id);
    await expectError(await archive(server, '00000000-0000-4000-8000-000000000000'), 404, 'template_not_found');
    await expectError(await archive(server, 'tpl_1'), 404, 'not_found');
  });

  await t.test('requests made from it are unaffected', async () => {
    assert.deepEqual(await getStatus(server, fromIt.id), statusBefore);
    assert.equal(documentOf(server, fromIt.id)?.template_id, template.id);
    assert.ok(fs.existsSync(blobPath(server, requestBlob)), 'the request keeps its own copy of the PDF');
    assert.equal((await postJson(server, `${REQUESTS}/${fromIt.id}/activate`, {})).status, 200);
    assert.equal((await postJson(server, `${REQUESTS}/${activatedBefore.id}/reminders`, {})).status, 200);
    // A replay of its create still answers it, with its template_id.
    const { db } = server.running.ctx;
    const reference = db.first(db.q.selectFrom('signature_requests').select('client_reference').where('id', '=', fromIt.id))?.client_reference;
    const replay = await createFrom(server, template.id, { client_reference: reference });
    assert.equal(replay.status, 200);
    assert.deepEqual(await json(replay), { ...fromIt, idempotent_replay: true });
  });

  await t.test('Idempotency-Key: a retried archive answers the stored 204', async () => {
    const headers = { 'idempotency-key': 'archive-kept' };
    const first = await server.call('DELETE', `/v1/templates/${kept.id}`, { headers });
    assert.equal(first.status, 204);
    const again = await server.call('DELETE', `/v1/templates/${kept.id}`, { headers });
    assert.equal(again.status, 204);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(await again.text(), '');
    assert.deepEqual(await listTemplates(server), []);
  });
});

// ------------------------------------------------------------------------------------------------------------
// POST /v1/signature-requests with template_id

test('create from a template: 201 echoing template_id, fields copied with field_values, its own PDF copy and retention', async (t) => {
  const server = await useServer(t);
  const template = await makeTemplate(server);
  const templateBlob = templateRow(server, template.id)?.blob_id as string;

  const res = await createFrom(server, template.id, { client_reference: 'from-template-1', field_values: { company: 'ACME SA' } });
  const response = await created(res);
  assert.deepEqual(Object.keys(response).sort(), CREATE_RESPONSE_KEYS);
  assert.equal(response.template_id, template.id);
  assert.equal(response.status, 'prepared');
  assert.equal(response.idempotent_replay, false);

  // A replay echoes it too.
  const replay = await createFrom(server, template.id, { client_reference: 'from-template-1', field_values: { company: 'ACME SA' } });
  assert.equal(replay.status, 200);
  assert.deepEqual(await json(replay), { ...response, idempotent_replay: true });

  await t.test('every template field is copied, in order; field_values fill named fields; read-only values stay', async () => {
    const rows = fieldRowsOf(server, response.id);
    assert.deepEqual(
      rows.map((f) => ({
        signer_reference: f.signer_reference,
        type: f.type,
        page: f.page,
        x: f.x,
        y: f.y,
        width: f.width,
        height: f.height,
        name: f.name,
        field_key: f.field_key,
        read_only: f.read_only === 1,
      })),
      TEMPLATE_FIELDS.map((f) => ({
        signer_reference: f.signer_reference,
        type: f.type,
        page: f.page,
        x: f.x,
        y: f.y,
        width: f.width,
        height: f.height,
        name: f.name ?? null,
        field_key: f.field_key ?? null,
        read_only: f.read_only === true,
      })),
    );
    const status = await getStatus(server, response.id);
    assert.deepEqual(
      status.fields.map((f) => [f.name, f.type, f.field_key, f.signer_reference, f.value, f.read_only]),
      [
        ['company', 'text', '', 'client', 'ACME SA', false],
        ['plan', 'text', '', 'client', 'Gold', true],
        ['signed_on', 'date', 'sign_date', 'client', '', false],
      ],
    );
    assert.deepEqual(
      status.signers.map((s) => [s.reference, s.email, s.order]),
      [
        ['client', 'ada@example.com', 1],
        ['witness', 'bob@example.com', 2],
      ],
    );
  });

  await t.test("the request's document is its own encrypted copy of the template's PDF", async () => {
    const doc = documentOf(server, response.id);
    const row = templateRow(server, template.id);
    assert.ok(doc && row);
    assert.equal(doc.template_id, template.id);
    assert.equal(doc.filename, 'nda.pdf');
    assert.equal(doc.sha256, row.sha256);
    assert.equal(doc.pages_json, row.pages_json);
    assert.notEqual(doc.blob_id, templateBlob);
    assert.deepEqual(blobFiles(server).sort(), [doc.blob_id, templateBlob].sort());
  });

  await t.test('the uploaded document part is still required, but the template PDF is the one used', async () => {
    await expectError(await createFrom(server, template.id, {}, { document: null }), 400, 'invalid_request', '"document"');
    const twoPages = await makePdf(
      [
        { width: 300, height: 300 },
        { width: 300, height: 300 },
      ],
      { text: 'Another document' },
    );
    const other = await created(await createFrom(server, template.id, {}, { document: { bytes: twoPages, filename: 'other.pdf' } }));
    const doc = documentOf(server, other.id);
    assert.equal(doc?.sha256, templateRow(server, template.id)?.sha256);
    assert.equal(doc?.filename, 'nda.pdf');
    assert.equal(JSON.parse(doc?.pages_json ?? '[]').length, 1);
  });

  await t.test('a request from a template is ready to activate: every role has a field', async () => {
    const activated = await postJson(server, `${REQUESTS}/${response.id}/activate`, {});
    assert.equal(activated.status, 200, await activated.clone().text());
    assert.equal((await getStatus(server, response.id)).status, 'active');
  });

  await t.test('each request has its own 10 days; purging one leaves the template and the others whole', async () => {
    server.running.ctx.clock.advance(3 * DAY_MS);
    const later = await created(await createFrom(server, template.id));
    const laterStatus = await getStatus(server, later.id);
    assert.equal(Date.parse(later.retention_expires_at) - Date.parse(laterStatus.created_at), TEN_DAYS_MS);
    const gap = Date.parse(later.retention_expires_at) - Date.parse(response.retention_expires_at);
    assert.ok(gap >= 3 * DAY_MS && gap < 3 * DAY_MS + 60_000, `retention deadlines ${gap} ms apart`);

    const purged = await postJson(server, `/_sandbox/signature-requests/${response.id}/purge`, {});
    assert.equal(purged.status, 200, await purged.clone().text());
    assert.ok(fs.existsSync(blobPath(server, templateBlob)));
    assert.ok(fs.existsSync(blobPath(server, documentOf(server, later.id)?.blob_id as string)));
    await created(await createFrom(server, template.id));
  });

  await t.test("templates have no retention deadline: past every request's, the template is still usable", async () => {
    server.running.ctx.clock.advance(11 * DAY_MS);
    const advanced = await postJson(server, '/_sandbox/clock/advance', { seconds: 1 });
    assert.equal(advanced.status, 200);
    assert.equal((await getStatus(server, response.id)).status, 'purged');
    assert.deepEqual(
      (await listTemplates(server)).map((x) => x.id),
      [template.id],
    );
    assert.ok(fs.existsSync(blobPath(server, templateBlob)));
    await created(await createFrom(server, template.id));
  });
});

test('create from a template: signers must be exactly the roles; fields are refused; field_values name fields the sender may fill', async (t) => {
  const server = await useServer(t);
  const template = await makeTemplate(server);
  const before = snapshot(server);
  const NOTARY = { reference: 'notary', email: 'notary@example.com', order: 3 };
  const cases: Array<[string, Json, string | RegExp]> = [
    ['a role without a signer', { signers: [CLIENT] }, 'request.signers has no signer for the template role "witness"'],
    ['a signer who is not a role', { signers: [CLIENT, WITNESS, NOTARY] }, 'request.signers[2].reference "notary" is not a role of the template'],
    ['a signer under another reference', { signers: [CLIENT, { ...WITNESS, reference: 'Witness' }] }, 'request.signers[1].reference "Witness" is not a role'],
    ['fields alongside template_id', { fields: [sigOf('client')] }, 'request.template_id cannot be combined with request.fields'],
    ['an unknown field name', { field_values: { colour: 'red' } }, 'request.field_values.colour does not name any field'],
    ['a read-only field', { field_values: { plan: 'Silver' } }, 'request.field_values.plan names a read_only field'],
    ["a field the signer's data fills", { field_values: { signed_on: '2026-01-01' } }, 'request.field_values.signed_on names a field filled by the signer'],
    ['a value over 500 characters', { field_values: { company: 'v'.repeat(501) } }, 'request.field_values.company must be at most 500 characters'],
    ['a field value that is not a string', { field_values: { company: 42 } }, 'request.field_values.company must be a string'],
    ['signers with one email', { signers: [CLIENT, { ...WITNESS, email: CLIENT.email }] }, 'request.signers[1].email'],
  ];
  for (const [name, over, message] of cases) {
    await t.test(name, async () => {
      await expectError(await createFrom(server, template.id, over), 400, 'invalid_request', message);
    });
  }
  await t.test('nothing was stored', () => {
    assert.deepEqual(snapshot(server), before);
  });
  await t.test('signers in another order and a 500-character value are accepted', async () => {
    const response = await created(await createFrom(server, template.id, { signers: [WITNESS, CLIENT], field_values: { company: 'v'.repeat(500) } }));
    const status = await getStatus(server, response.id);
    assert.equal(status.fields.find((f) => f.name === 'company')?.value, 'v'.repeat(500));
  });
});

test('create from a template: 404 template_not_found for unknown, archived or foreign templates; 409 template_not_ready', async (t) => {
  const server = await useServer(t);
  const template = await makeTemplate(server);
  const other = server.newKey();
  const theirs = await makeTemplate(server, {}, other.apiKey);
  const archived = await makeTemplate(server, { name: 'Archived' });
  assert.equal((await archive(server, archived.id)).status, 204);
  const before = snapshot(server);

  await t.test('an unknown template', async () => {
    const unknown = '5b0f6d1e-2a4c-4c1e-9d7b-0f5e4b1a2c3d';
    await expectError(await createFrom(server, unknown), 404, 'template_not_found', unknown);
  });
  await t.test('an archived template', async () => {
    await expectError(await createFrom(server, archived.id), 404, 'template_not_found', archived.id);
  });
  await t.test("another account's template, which works for its own account", async () => {
    await expectError(await createFrom(server, theirs.id), 404, 'template_not_found', theirs.id);
    await expectError(await createFrom(server, template.id, {}, { key: other.apiKey }), 404, 'template_not_found', template.id);
    await created(await createFrom(server, theirs.id, {}, { key: other.apiKey }));
  });
  await t.test('a stored template without a confirmed field set is 409 template_not_ready', async () => {
    // No API call makes such a template (every template has 1 to 100 fields); paraph still refuses one.
    const { db } = server.running.ctx;
    db.run(db.q.updateTable('templates').set({ fields_json: '[]', field_count: 0 }).where('id', '=', template.id));
    await expectError(await createFrom(server, template.id), 409, 'template_not_ready', template.id);
  });
  await t.test('refusals stored nothing', () => {
    const after = snapshot(server);
    assert.equal(after.templates, before.templates);
    // The one request above belongs to the other account, with its own blob.
    assert.equal(after.requests, before.requests + 1);
    assert.equal(after.blobs.length, before.blobs.length + 1);
  });
});

test('concurrent creates of one client_reference from a template make one request and one copy of the PDF', async (t) => {
  const server = await useServer(t);
  const template = await makeTemplate(server);
  const responses = await Promise.all(Array.from({ length: 20 }, () => createFrom(server, template.id, { client_reference: 'race-template' })));
  const statuses = responses.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
  assert.equal(statuses.filter((s) => s === 200).length, 19, statuses.join(','));
  const ids = new Set(await Promise.all(responses.map(async (r) => (await json<CreateResponse>(r)).id)));
  assert.equal(ids.size, 1);
  assert.equal(blobFiles(server).length, 2);
});

// ------------------------------------------------------------------------------------------------------------
// Races and failures inside paraph

test('an archive that lands while a create copies the template wins: the create is 404 and leaves nothing', async (t) => {
  const server = await useServer(t);
  const blobs = server.running.ctx.blobs;

  await t.test('archived while the PDF copy is written', async () => {
    const template = await makeTemplate(server);
    const put = blobs.put.bind(blobs);
    blobs.put = async (bytes) => {
      blobs.put = put;
      assert.equal((await archive(server, template.id)).status, 204);
      return put(bytes);
    };
    await expectError(await createFrom(server, template.id), 404, 'template_not_found', template.id);
    assert.equal(rowCount(server, 'signature_requests'), 0);
    assert.deepEqual(blobFiles(server), []);
  });

  await t.test('archived while the template PDF is read', async () => {
    const template = await makeTemplate(server);
    const get = blobs.get.bind(blobs);
    blobs.get = async (id, sha256) => {
      blobs.get = get;
      assert.equal((await archive(server, template.id)).status, 204);
      return get(id, sha256);
    };
    await expectError(await createFrom(server, template.id), 404, 'template_not_found', template.id);
    assert.equal(rowCount(server, 'signature_requests'), 0);
    assert.deepEqual(blobFiles(server), []);
  });
});

test('a template that cannot be stored answers 500 in the envelope and leaves no PDF behind', async (t) => {
  const server = await useServer(t, {}, {}, { expectedErrors: /^request failed: simulated/ });
  const { db } = server.running.ctx;
  await sql.raw(`CREATE TRIGGER fail_template BEFORE INSERT ON templates WHEN NEW.name = 'unlucky' BEGIN SELECT RAISE(ABORT, 'simulated'); END`).execute(db.q);
  const message = await expectError(await postTemplate(server, { name: 'unlucky' }), 500, 'internal_error');
  assert.doesNotMatch(message, /simulated/);
  assert.equal(rowCount(server, 'templates'), 0);
  assert.deepEqual(blobFiles(server), []);
});

test('an archive interrupted before it deleted the PDF is finished by the next archive', async (t) => {
  const server = await useServer(t);
  const interrupted = await makeTemplate(server);
  const next = await makeTemplate(server);
  const blob = templateRow(server, interrupted.id)?.blob_id as string;
  // As if the process stopped right after marking the template archived.
  const { db } = server.running.ctx;
  db.run(db.q.updateTable('templates').set({ archived_at: server.running.ctx.clock.now() }).where('id', '=', interrupted.id));
  assert.ok(fs.existsSync(blobPath(server, blob)));
  assert.equal((await archive(server, next.id)).status, 204);
  assert.equal(fs.existsSync(blobPath(server, blob)), false);
  assert.equal(templateRow(server, interrupted.id)?.blob_id, null);
  assert.deepEqual(blobFiles(server), []);
});
