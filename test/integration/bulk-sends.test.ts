// POST /v1/bulk-sends end to end, over real HTTP against the real server (spec "Bulk send", limits, errors):
// one request created and activated per recipient from a template, rows that succeed or fail alone, replays
// that create and mail nothing again, the batch's own 400/404/409, the bulk rate-limit bucket.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { createForm, payload } from '../helpers/requests.js';
import { useReceiver } from '../helpers/receiver.js';
import { expectError } from '../helpers/errors.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import {
  archive,
  blobFiles,
  CLIENT,
  documentOf,
  makeTemplate,
  postJson,
  rowCount,
  sigOf,
  textOf,
  UUID,
  WITNESS,
  type Json,
  type TemplateJson,
} from '../helpers/templates.js';
import { status } from '../helpers/flows.js';
import { sha256Hex } from '../../src/platform/crypto/tokens.js';

const ROUTE = '/v1/bulk-sends';
const REQUESTS = '/v1/signature-requests';
const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN = /^[0-9A-Za-z]{43,}$/;
const RESPONSE_KEYS = ['created', 'failed', 'results', 'template_id', 'total'];

interface BulkSigner {
  id: string;
  reference: string;
  email: string;
  status: string;
  signing_url: string;
  email_delivery: string;
  embed_url?: string;
}
interface BulkResult {
  client_reference: string;
  status: 'active' | 'already_exists' | 'error';
  id?: string;
  signers: BulkSigner[];
  error?: { code: string; message: string };
}
interface BulkResponse {
  template_id: string;
  total: number;
  created: number;
  failed: number;
  results: BulkResult[];
}
interface CaughtEmail {
  id: string;
  to: string[];
  subject: string;
  text: string;
  kind: string | null;
  signature_request_id: string | null;
  signer_reference: string | null;
}
interface StatusResponse {
  id: string;
  status: string;
  updated_at: string;
  sequential_signing: boolean;
  return_url: string;
  signers: Array<{ id: string; reference: string; email: string; status: string; expires_at: string | null }>;
  fields: Array<{ name: string; value: string }>;
}

/** A one-role template (`client`): a signature and a named text field `company`. */
const ONE_ROLE = [sigOf('client'), textOf('client', { name: 'company' })];
/** Two roles (`client`, `witness`), a named text field `company` and a read-only `plan`. */
const TWO_ROLES = [
  sigOf('client'),
  sigOf('witness', { y: 600 }),
  textOf('client', { name: 'company' }),
  textOf('client', { name: 'plan', y: 140, value: 'Gold', read_only: true }),
];

const person = (i: number, over: Json = {}) => ({ reference: 'client', name: `Client ${i}`, email: `client-${i}@example.com`, order: 1, ...over });

function bulk(server: TestServer, body: unknown, init: { key?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return postJson(server, ROUTE, body, init);
}

async function ok(res: Response): Promise<BulkResponse> {
  const text = await res.text();
  assert.equal(res.status, 200, text);
  const body = JSON.parse(text) as BulkResponse;
  assert.deepEqual(Object.keys(body).sort(), RESPONSE_KEYS);
  assert.equal(body.total, body.results.length);
  return body;
}

/** GET one request as this file's StatusResponse (the shared `status` of helpers/flows.ts). */
const getStatus = async (server: TestServer, id: string, key?: string) => (await status(server, id, key)) as unknown as StatusResponse;

async function emails(server: TestServer, query: Record<string, string> = {}, key?: string): Promise<CaughtEmail[]> {
  const qs = new URLSearchParams(query).toString();
  const res = await server.call('GET', `/_sandbox/emails${qs ? `?${qs}` : ''}`, key === undefined ? {} : { key });
  assert.equal(res.status, 200, await res.clone().text());
  return (await json<{ data: CaughtEmail[] }>(res)).data;
}

/** Every request of the account (all pages). */
async function allRequests(server: TestServer, key?: string): Promise<Array<{ id: string; client_reference: string; status: string }>> {
  const out: Array<{ id: string; client_reference: string; status: string }> = [];
  let cursor = '';
  do {
    const res = await server.call('GET', `${REQUESTS}?limit=100${cursor ? `&cursor=${cursor}` : ''}`, key ? { key } : {});
    assert.equal(res.status, 200);
    const page = await json<{ data: typeof out; next_cursor: string }>(res);
    out.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

/** Whether the signing link's token is a live link of that signer (only its SHA-256 is stored). */
function liveLink(server: TestServer, url: string, signerId: string): boolean {
  const token = new URL(url).pathname.split('/').pop() ?? '';
  assert.match(token, TOKEN);
  const { db } = server.running.ctx;
  const link = db.first(db.q.selectFrom('signing_links').selectAll().where('token_hash', '=', sha256Hex(token)));
  return link !== undefined && link.signer_id === signerId && link.revoked_at === null;
}

/** Everything a batch can write: a replay must leave every count as it was. */
async function footprint(server: TestServer) {
  return {
    requests: (await allRequests(server)).length,
    emails: (await emails(server)).length,
    events: rowCount(server, 'events'),
    audit: rowCount(server, 'audit_events'),
    links: rowCount(server, 'signing_links'),
    outbox: rowCount(server, 'mail_outbox'),
    deliveries: rowCount(server, 'webhook_deliveries'),
    blobs: blobFiles(server).length,
  };
}

function eventTypes(server: TestServer, requestId: string): string[] {
  const { db } = server.running.ctx;
  return db.all(db.q.selectFrom('events').select('type').where('request_id', '=', requestId).orderBy('seq', 'asc')).map((e) => e.type);
}

// ------------------------------------------------------------------------------------------------------------

// Each test has its own server: they run side by side.
describe('bulk-sends', { concurrency: 3 }, () => {
  test('a batch with every option: one active request per recipient, from the template, with the batch settings', async (t) => {
    const server = await useServer(t, { allowLoopbackWebhooks: true });
    const receiver = await useReceiver(t);
    const template = await makeTemplate(server, { fields: TWO_ROLES });
    const rows = [
      { client_reference: 'nda-ada', signers: [CLIENT, WITNESS], field_values: { company: 'ACME SA' } },
      {
        client_reference: 'nda-grace',
        signers: [
          { ...WITNESS, email: 'carol@example.com' },
          { reference: 'client', email: 'grace@example.com', order: 1, locale: 'fr' },
        ],
        field_values: { company: 'Hopper & Co' },
        return_url: 'https://example.com/row-two',
      },
    ];
    const res = await bulk(server, {
      template_id: template.id,
      recipients: rows,
      callback_url: receiver.url,
      return_url: 'https://example.com/done',
      email: { sender_name: 'ACME Legal', subject: 'Please sign the NDA' },
      sequential_signing: true,
      send_emails: true,
      link_expiry_days: 3,
      embed_origin: 'https://app.example.com',
    });
    // The general bucket is reported as on every /v1 answer.
    assert.equal(res.headers.get('x-ratelimit-limit'), '120');
    const body = await ok(res);
    assert.equal(body.template_id, template.id);
    assert.deepEqual([body.total, body.created, body.failed], [2, 2, 0]);

    for (const [i, result] of body.results.entries()) {
      const row = rows[i]!;
      assert.deepEqual(Object.keys(result).sort(), ['client_reference', 'id', 'signers', 'status']);
      assert.equal(result.client_reference, row.client_reference);
      assert.equal(result.status, 'active');
      assert.match(result.id ?? '', UUID);
      const id = result.id as string;

      // Signers as given, each with a live secret link, an embed URL and the invitation's outcome.
      assert.deepEqual(
        result.signers.map((s) => [s.reference, s.email]),
        row.signers.map((s) => [s.reference, s.email]),
      );
      for (const signer of result.signers) {
        assert.deepEqual(Object.keys(signer).sort(), ['email', 'email_delivery', 'embed_url', 'id', 'reference', 'signing_url', 'status']);
        assert.equal(signer.status, 'pending');
        // Sequential: the witness (order 2) is invited when their turn comes, not at activation.
        assert.equal(signer.email_delivery, signer.reference === 'client' ? 'sent' : 'not_requested');
        const token = new URL(signer.signing_url).pathname.split('/').pop() ?? '';
        const lang = signer.reference === 'client' && i === 1 ? '?lang=fr' : '';
        assert.equal(signer.signing_url, `${server.url}/sign/${token}${lang}`);
        assert.equal(signer.embed_url, `${server.url}/embed/${token}${lang}`);
        assert.ok(liveLink(server, signer.signing_url, signer.id));
      }

      // The request: active, from the template, with the batch settings and the row's own return_url.
      const status = await getStatus(server, id);
      assert.equal(status.status, 'active');
      assert.equal(status.sequential_signing, true);
      assert.equal(status.return_url, row.return_url ?? 'https://example.com/done');
      assert.deepEqual(
        status.signers.map((s) => s.id),
        result.signers.map((s) => s.id),
      );
      for (const signer of status.signers) {
        assert.equal(Date.parse(signer.expires_at ?? '') - Date.parse(status.updated_at), 3 * DAY_MS, 'link_expiry_days 3');
      }
      assert.deepEqual(
        status.fields.map((f) => [f.name, f.value]),
        [
          ['company', row.field_values.company],
          ['plan', 'Gold'],
        ],
      );
      const { db } = server.running.ctx;
      const stored = db.first(db.q.selectFrom('signature_requests').selectAll().where('id', '=', id));
      assert.equal(stored?.template_id, template.id);
      assert.equal(stored?.callback_url, receiver.url);
      assert.equal(stored?.embed_origin, 'https://app.example.com');
      assert.deepEqual(JSON.parse(stored?.email_json ?? 'null'), { sender_name: 'ACME Legal', subject: 'Please sign the NDA' });
      assert.equal(documentOf(server, id)?.sha256, db.first(db.q.selectFrom('templates').select('sha256').where('id', '=', template.id))?.sha256);
      assert.deepEqual(eventTypes(server, id), ['signature_request.activated']);

      // Invitations, branded with the batch's email settings, to the signer who signs first, with their link.
      const mails = await emails(server, { signature_request_id: id });
      assert.equal(mails.length, 1);
      for (const signer of result.signers.filter((s) => s.reference === 'client')) {
        const mail = mails.find((m) => m.signer_reference === signer.reference);
        assert.ok(mail, `a mail to ${signer.reference}`);
        assert.deepEqual(mail.to, [signer.email]);
        assert.equal(mail.kind, 'invitation');
        assert.equal(mail.subject, 'Please sign the NDA');
        assert.ok(mail.text.includes(signer.signing_url));
      }
    }

    // The batch's callback_url receives each request's activation.
    const received = await receiver.waitFor(2);
    const activated = received.map((r) => JSON.parse(r.body) as { type: string; data: { signature_request_id: string } });
    assert.deepEqual(
      activated.map((e) => e.type),
      ['signature_request.activated', 'signature_request.activated'],
    );
    assert.deepEqual(new Set(activated.map((e) => e.data.signature_request_id)), new Set(body.results.map((r) => r.id)));
  });

  test('without the options: defaults (7-day links, no mail, no embed URL, no callback, parallel signing)', async (t) => {
    const server = await useServer(t);
    const template = await makeTemplate(server, { fields: ONE_ROLE });
    const body = await ok(await bulk(server, { template_id: template.id, recipients: [{ client_reference: 'plain-1', signers: [person(1)] }] }));
    const [result] = body.results;
    assert.ok(result);
    assert.equal(result.status, 'active');
    const [signer] = result.signers;
    assert.ok(signer);
    assert.deepEqual(Object.keys(signer).sort(), ['email', 'email_delivery', 'id', 'reference', 'signing_url', 'status']);
    assert.equal(signer.email_delivery, 'not_requested');
    const status = await getStatus(server, result.id as string);
    assert.equal(status.sequential_signing, false);
    assert.equal(status.return_url, '');
    assert.equal(Date.parse(status.signers[0]?.expires_at ?? '') - Date.parse(status.updated_at), 7 * DAY_MS);
    assert.deepEqual(await emails(server), []);
    assert.equal(rowCount(server, 'webhook_deliveries'), 0);
  });

  test('a 50-row batch with two bad rows: 48 active requests, two row errors, HTTP 200; replays create nothing new', async (t) => {
    const server = await useServer(t);
    const template = await makeTemplate(server, { fields: ONE_ROLE });
    const recipients: Json[] = Array.from({ length: 50 }, (_, i) => ({
      client_reference: `march-${i}`,
      signers: [person(i)],
      field_values: { company: `Company ${i}` },
    }));
    recipients[17] = { ...recipients[17], signers: [person(17, { reference: 'boss' })] };
    recipients[33] = { ...recipients[33], signers: [person(33, { email: 'not-an-email' })] };
    const batch = { template_id: template.id, recipients, send_emails: true };

    const first = await bulk(server, batch, { headers: { 'idempotency-key': 'march-batch' } });
    const firstText = await first.clone().text();
    const body = await ok(first);
    assert.deepEqual([body.total, body.created, body.failed], [50, 48, 2]);
    assert.deepEqual(
      body.results.map((r) => r.client_reference),
      recipients.map((r) => r.client_reference),
    );
    for (const [i, result] of body.results.entries()) {
      if (i === 17 || i === 33) continue;
      assert.equal(result.status, 'active', JSON.stringify(result));
      assert.equal(result.signers.length, 1);
      assert.equal(result.signers[0]?.email, `client-${i}@example.com`);
      assert.equal(result.signers[0]?.email_delivery, 'sent');
    }
    assert.deepEqual(body.results[17], {
      client_reference: 'march-17',
      status: 'error',
      signers: [],
      error: { code: 'invalid_request', message: body.results[17]?.error?.message },
    });
    assert.match(body.results[17]?.error?.message ?? '', /^recipients\[17\]\.signers\[0\]\.reference "boss" is not a role of the template/);
    assert.equal(body.results[33]?.status, 'error');
    assert.deepEqual(body.results[33]?.signers, []);
    assert.equal(body.results[33]?.id, undefined);
    assert.equal(body.results[33]?.error?.code, 'invalid_request');
    assert.equal(body.results[33]?.error?.message, 'recipients[33].signers[0].email must be a valid email');

    const requests = await allRequests(server);
    assert.equal(requests.length, 48);
    assert.ok(requests.every((r) => r.status === 'active'));
    assert.ok(!requests.some((r) => r.client_reference === 'march-17' || r.client_reference === 'march-33'));
    const ids = body.results.filter((r) => r.status === 'active').map((r) => r.id);
    assert.deepEqual(new Set(requests.map((r) => r.id)), new Set(ids));
    assert.equal((await emails(server)).length, 48);
    assert.equal(rowCount(server, 'events'), 48);
    // Each request has its own copy of the PDF, next to the template's.
    assert.equal(blobFiles(server).length, 49);
    const before = await footprint(server);

    await t.test('the same Idempotency-Key answers the stored response and acts not', async () => {
      const again = await bulk(server, batch, { headers: { 'idempotency-key': 'march-batch' } });
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(await again.text(), firstText);
      assert.deepEqual(await footprint(server), before);
    });

    await t.test('the same batch again: every created row is already_exists, nothing is created, mailed or evented', async () => {
      const replay = await ok(await bulk(server, batch));
      assert.deepEqual([replay.total, replay.created, replay.failed], [50, 0, 2]);
      for (const [i, result] of replay.results.entries()) {
        if (i === 17 || i === 33) {
          assert.equal(result.status, 'error');
          continue;
        }
        assert.deepEqual(result, { client_reference: `march-${i}`, status: 'already_exists', id: body.results[i]?.id, signers: [] });
      }
      assert.deepEqual(await footprint(server), before);
      // The links sent the first time still work.
      for (const result of body.results.filter((r) => r.status === 'active')) {
        assert.ok(liveLink(server, result.signers[0]?.signing_url ?? '', result.signers[0]?.id ?? ''));
      }
    });

    await t.test('the batch sent again with its two rows fixed creates just those two', async () => {
      const fixed = structuredClone(batch);
      fixed.recipients[17] = { ...fixed.recipients[17], signers: [person(17)] };
      fixed.recipients[33] = { ...fixed.recipients[33], signers: [person(33)] };
      const resent = await ok(await bulk(server, fixed));
      assert.deepEqual([resent.total, resent.created, resent.failed], [50, 2, 0]);
      assert.equal(resent.results[17]?.status, 'active');
      assert.equal(resent.results[33]?.status, 'active');
      assert.equal(resent.results.filter((r) => r.status === 'already_exists').length, 48);
      const after = await footprint(server);
      assert.equal(after.requests, before.requests + 2);
      assert.equal(after.emails, before.emails + 2);
      assert.equal(after.events, before.events + 2);
    });
  });

  test('the batch itself is checked first: invalid batches answer 400 and create nothing', async (t) => {
    const server = await useServer(t);
    const template = await makeTemplate(server, { fields: ONE_ROLE });
    const row = { client_reference: 'r-1', signers: [person(1)] };
    const valid = { template_id: template.id, recipients: [row] };
    const many = Array.from({ length: 51 }, (_, i) => ({ client_reference: `r-${i}`, signers: [person(i)] }));
    const cases: Array<[string, unknown, string | RegExp]> = [
      ['no body', undefined, 'body.template_id is required'],
      ['no recipients', { template_id: template.id }, 'body.recipients is required'],
      ['an empty recipients list', { ...valid, recipients: [] }, 'body.recipients must have at least 1 item'],
      ['51 recipients', { ...valid, recipients: many }, 'body.recipients must have at most 50 items'],
      ['recipients that are not a list', { ...valid, recipients: row }, 'body.recipients must be an array'],
      ['no template_id', { recipients: [row] }, 'body.template_id is required'],
      ['a template_id that is not a uuid', { ...valid, template_id: 'tpl_1' }, 'body.template_id must be a valid uuid'],
      ['an unknown property', { ...valid, name: 'March batch' }, 'body has an unknown property "name"'],
      ['link_expiry_days 0', { ...valid, link_expiry_days: 0 }, 'body.link_expiry_days must be >= 1'],
      ['link_expiry_days 31', { ...valid, link_expiry_days: 31 }, 'body.link_expiry_days must be <= 30'],
      ['link_expiry_days as a string', { ...valid, link_expiry_days: '7' }, 'body.link_expiry_days must be an integer'],
      ['send_emails not a boolean', { ...valid, send_emails: 'yes' }, 'body.send_emails must be a boolean'],
      ['sequential_signing not a boolean', { ...valid, sequential_signing: 1 }, 'body.sequential_signing must be a boolean'],
      ['a callback_url that is not a URI', { ...valid, callback_url: 'not a url' }, 'body.callback_url must be a valid uri'],
      ['a callback_url over plain http', { ...valid, callback_url: 'http://example.com/hooks' }, 'body.callback_url: callback_url must use https on port 443'],
      [
        'a callback_url to a private address',
        { ...valid, callback_url: 'https://10.0.0.1/hooks' },
        'body.callback_url: callback_url must not point to a private address',
      ],
      ['a loopback callback_url (not allowed on this server)', { ...valid, callback_url: 'http://127.0.0.1:8080/hooks' }, /body\.callback_url: .*loopback/],
      ['a return_url over plain http', { ...valid, return_url: 'http://example.com/done' }, 'body.return_url: return_url must use https'],
      [
        'a return_url over 2048 characters',
        { ...valid, return_url: `https://example.com/${'a'.repeat(2030)}` },
        'body.return_url must be at most 2048 characters',
      ],
      ['an embed_origin with a path', { ...valid, embed_origin: 'https://app.example.com/embed' }, 'body.embed_origin: embed_origin must be an origin only'],
      ['an embed_origin over 255 characters', { ...valid, embed_origin: `https://${'a'.repeat(250)}.com` }, 'body.embed_origin must be at most 255 characters'],
      ['an email subject with a line break', { ...valid, email: { subject: 'a\nb' } }, 'body.email.subject must not contain line breaks'],
      ['an email logo_url over http', { ...valid, email: { logo_url: 'http://example.com/logo.png' } }, 'body.email.logo_url must match the pattern'],
      ['an unknown email property', { ...valid, email: { colour: 'red' } }, 'body.email has an unknown property "colour"'],
    ];
    for (const [name, body, message] of cases) {
      await t.test(name, async () => {
        const res = body === undefined ? await server.call('POST', ROUTE, {}) : await bulk(server, body);
        await expectError(res, 400, 'invalid_request', message);
      });
    }
    await t.test('a body that is not JSON, or not JSON at all', async () => {
      await expectError(await bulk(server, '{"template_id":'), 400, 'invalid_request', /JSON/);
      const res = await server.call('POST', ROUTE, { body: 'template_id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      await expectError(res, 400, 'invalid_request');
    });
    await t.test('options are checked before the template: an invalid batch for an unknown template is 400', async () => {
      const unknown = { ...valid, template_id: '00000000-0000-4000-8000-000000000000', link_expiry_days: 99 };
      await expectError(await bulk(server, unknown), 400, 'invalid_request', 'link_expiry_days');
    });
    await t.test('nothing was created', async () => {
      assert.deepEqual(await allRequests(server), []);
      assert.equal(rowCount(server, 'events'), 0);
      assert.equal(blobFiles(server).length, 1);
    });
  });

  test('a recipient with bad data fails its own row with invalid_request; the other rows go through', async (t) => {
    const server = await useServer(t);
    const template = await makeTemplate(server, { fields: TWO_ROLES });
    const good = (ref: string) => ({ client_reference: ref, signers: [CLIENT, WITNESS] });
    const NOTARY = { reference: 'notary', email: 'notary@example.com', order: 3 };
    const rows: Array<[unknown, string | RegExp | null]> = [
      [good('good-1'), null],
      [{ ...good('missing-role'), signers: [CLIENT] }, 'recipients[1].signers has no signer for the template role "witness"'],
      [{ ...good('extra-signer'), signers: [CLIENT, WITNESS, NOTARY] }, 'recipients[2].signers[2].reference "notary" is not a role of the template'],
      [
        { ...good('same-email'), signers: [CLIENT, { ...WITNESS, email: 'ADA@example.com' }] },
        'recipients[3].signers[1].email ADA@example.com is used by another signer',
      ],
      [{ ...good('same-order'), signers: [CLIENT, { ...WITNESS, order: 1 }] }, /^recipients\[4\]\.signers\[1\]\.order 1 is used by another signer/],
      [{ ...good('unknown-value'), field_values: { colour: 'red' } }, 'recipients[5].field_values.colour does not name any field'],
      [{ ...good('read-only-value'), field_values: { plan: 'Silver' } }, 'recipients[6].field_values.plan names a read_only field'],
      [{ ...good('long-value'), field_values: { company: 'v'.repeat(501) } }, 'recipients[7].field_values.company must be at most 500 characters'],
      [{ ...good('http-return'), return_url: 'http://example.com/back' }, 'recipients[8].return_url: return_url must use https'],
      [{ ...good('bad-return'), return_url: 'example.com/back' }, 'recipients[9].return_url must be a valid uri'],
      [good('good-1'), 'recipients[10].client_reference "good-1" is used by an earlier recipient of this batch'],
      [{ signers: [CLIENT, WITNESS] }, 'recipients[11].client_reference is required'],
      [{ ...good('own-callback'), callback_url: 'https://example.com/hooks' }, 'recipients[12] has an unknown property "callback_url"'],
      [42, 'recipients[13] must be an object'],
      [{ ...good('no-signers'), signers: [] }, 'recipients[14].signers must have at least 1 item'],
      [{ ...good('x'), client_reference: 'c'.repeat(161) }, 'recipients[15].client_reference must be at most 160 characters'],
      [{ ...good('bad-locale'), signers: [CLIENT, { ...WITNESS, locale: 'de' }] }, 'recipients[16].signers[1].locale'],
      [good('good-2'), null],
    ];
    const res = await bulk(server, { template_id: template.id, recipients: rows.map(([row]) => row), sequential_signing: true });
    const body = await ok(res);
    assert.deepEqual([body.total, body.created, body.failed], [18, 2, 16]);
    for (const [i, [row, message]] of rows.entries()) {
      const result = body.results[i];
      assert.ok(result);
      const reference = typeof row === 'object' && row !== null && 'client_reference' in row ? (row as { client_reference: string }).client_reference : '';
      assert.equal(result.client_reference, reference, `row ${i}`);
      if (message === null) {
        assert.equal(result.status, 'active', JSON.stringify(result));
        continue;
      }
      assert.deepEqual(Object.keys(result).sort(), ['client_reference', 'error', 'signers', 'status'], `row ${i}`);
      assert.equal(result.status, 'error');
      assert.deepEqual(result.signers, []);
      assert.equal(result.error?.code, 'invalid_request', `row ${i}`);
      if (typeof message === 'string') assert.ok(result.error?.message.startsWith(message), `row ${i}: ${result.error?.message}`);
      else assert.match(result.error?.message ?? '', message, `row ${i}`);
    }
    const requests = await allRequests(server);
    assert.deepEqual(requests.map((r) => r.client_reference).sort(), ['good-1', 'good-2']);
    assert.equal(blobFiles(server).length, 3, 'no PDF copy is left by a refused row');
  });

  test('a recipient whose client_reference the account already used is already_exists: nothing is created, activated or mailed', async (t) => {
    const server = await useServer(t);
    const template = await makeTemplate(server, { fields: ONE_ROLE });
    // A request made by a single create, not from the template, and left prepared.
    const form = await createForm(payload({ client_reference: 'pre-existing', signers: [person(0)], fields: [sigOf('client')] }));
    const createdRes = await server.call('POST', REQUESTS, { body: form });
    assert.equal(createdRes.status, 201);
    const existingId = (await json<{ id: string }>(createdRes)).id;
    const before = await footprint(server);

    const body = await ok(
      await bulk(server, {
        template_id: template.id,
        send_emails: true,
        recipients: [
          { client_reference: 'pre-existing', signers: [person(0)] },
          { client_reference: 'brand-new', signers: [person(1)] },
        ],
      }),
    );
    assert.deepEqual([body.total, body.created, body.failed], [2, 1, 0]);
    assert.deepEqual(body.results[0], { client_reference: 'pre-existing', status: 'already_exists', id: existingId, signers: [] });
    assert.equal(body.results[1]?.status, 'active');
    assert.equal((await getStatus(server, existingId)).status, 'prepared');
    assert.deepEqual(await emails(server, { signature_request_id: existingId }), []);
    assert.deepEqual(eventTypes(server, existingId), []);
    const after = await footprint(server);
    assert.equal(after.requests, before.requests + 1);
    assert.equal(after.emails, before.emails + 1);
  });

  test("the batch's template: 404 template_not_found when unknown, archived or another account's; 409 template_not_ready", async (t) => {
    const server = await useServer(t);
    const mine = await makeTemplate(server, { fields: ONE_ROLE });
    const archived = await makeTemplate(server, { fields: ONE_ROLE, name: 'Archived' });
    assert.equal((await archive(server, archived.id)).status, 204);
    const other = server.newKey();
    const theirs = await makeTemplate(server, { fields: ONE_ROLE }, other.apiKey);
    const batch = (template: string) => ({ template_id: template, recipients: [{ client_reference: `for-${template}`, signers: [person(1)] }] });

    const unknown = '5b0f6d1e-2a4c-4c1e-9d7b-0f5e4b1a2c3d';
    await expectError(await bulk(server, batch(unknown)), 404, 'template_not_found', unknown);
    await expectError(await bulk(server, batch(archived.id)), 404, 'template_not_found', archived.id);
    await expectError(await bulk(server, batch(theirs.id)), 404, 'template_not_found', theirs.id);
    await expectError(await bulk(server, batch(mine.id), { key: other.apiKey }), 404, 'template_not_found', mine.id);
    assert.deepEqual(await allRequests(server), []);

    // Each template works for its own account.
    assert.equal((await ok(await bulk(server, batch(theirs.id), { key: other.apiKey }))).created, 1);

    // No API call makes a template without fields; a stored one is refused as not ready.
    const { db } = server.running.ctx;
    db.run(db.q.updateTable('templates').set({ fields_json: '[]', field_count: 0 }).where('id', '=', mine.id));
    await expectError(await bulk(server, batch(mine.id)), 409, 'template_not_ready', mine.id);
    assert.deepEqual(await allRequests(server), []);
  });

  test('rows that fail inside paraph: temporarily_unavailable (nothing made) and activation_failed (made, left prepared)', async (t) => {
    const server = await useServer(t, {}, {}, { expectedErrors: /^bulk send: a row could not be (created|activated): simulated/ });
    const template = await makeTemplate(server, { fields: ONE_ROLE });
    const { db } = server.running.ctx;
    // Faults injected into the database for two client_references: the create's insert, and the activation.
    await sql
      .raw(
        `CREATE TRIGGER fail_insert BEFORE INSERT ON signature_requests WHEN NEW.client_reference = 'db-trouble'
         BEGIN SELECT RAISE(ABORT, 'simulated storage failure'); END`,
      )
      .execute(db.q);
    await sql
      .raw(
        `CREATE TRIGGER fail_activation BEFORE UPDATE OF status ON signature_requests
         WHEN NEW.status = 'active' AND NEW.client_reference = 'no-activation'
         BEGIN SELECT RAISE(ABORT, 'simulated activation failure'); END`,
      )
      .execute(db.q);
    const batch = {
      template_id: template.id,
      send_emails: true,
      recipients: ['fine', 'db-trouble', 'no-activation'].map((ref, i) => ({ client_reference: ref, signers: [person(i)] })),
    };
    const body = await ok(await bulk(server, batch));
    assert.deepEqual([body.total, body.created, body.failed], [3, 1, 2]);
    assert.equal(body.results[0]?.status, 'active');

    const trouble = body.results[1];
    assert.deepEqual(Object.keys(trouble ?? {}).sort(), ['client_reference', 'error', 'signers', 'status']);
    assert.equal(trouble?.status, 'error');
    assert.equal(trouble?.error?.code, 'temporarily_unavailable');
    assert.doesNotMatch(trouble?.error?.message ?? '', /simulated/, 'internal causes stay in the server log');

    const noActivation = body.results[2];
    assert.equal(noActivation?.status, 'error');
    assert.equal(noActivation?.error?.code, 'activation_failed');
    assert.match(noActivation?.id ?? '', UUID);
    assert.deepEqual(noActivation?.signers, []);
    assert.ok(noActivation?.error?.message.includes(`/v1/signature-requests/${noActivation.id}/activate`));

    const requests = await allRequests(server);
    assert.deepEqual(requests.map((r) => [r.client_reference, r.status]).sort(), [
      ['fine', 'active'],
      ['no-activation', 'prepared'],
    ]);
    assert.equal(rowCount(server, 'signing_links'), 1);
    assert.deepEqual(await emails(server, { to: 'client-2@example.com' }), []);
    assert.deepEqual(eventTypes(server, noActivation?.id as string), []);
    // The PDF copy of the row that was not created is gone again.
    assert.equal(blobFiles(server).length, 3);

    await t.test('once the trouble is over, the same batch creates the missing row and reports the prepared one as already_exists', async () => {
      await sql.raw('DROP TRIGGER fail_insert').execute(db.q);
      await sql.raw('DROP TRIGGER fail_activation').execute(db.q);
      const again = await ok(await bulk(server, batch));
      assert.deepEqual(
        again.results.map((r) => r.status),
        ['already_exists', 'active', 'already_exists'],
      );
      assert.deepEqual([again.created, again.failed], [1, 0]);
      // The prepared request is activated by hand.
      const activated = await postJson(server, `${REQUESTS}/${noActivation?.id}/activate`, {});
      assert.equal(activated.status, 200, await activated.clone().text());
    });
  });

  test('a keyed batch cut off by a crash: the retry answers the rows done as the first attempt did, activates the row it created, makes the rest, acts once', async (t) => {
    const server = await useServer(t, {}, {}, { expectedErrors: /^bulk send: a row could not be (created|activated): simulated/ });
    const template = await makeTemplate(server, { fields: ONE_ROLE });
    const { db, processId } = server.running.ctx;
    // The first attempt stops in the middle of the batch: 'half' is created and not activated, 'later' not created.
    await sql
      .raw(
        `CREATE TRIGGER stop_activation BEFORE UPDATE OF status ON signature_requests
         WHEN NEW.status = 'active' AND NEW.client_reference = 'half'
         BEGIN SELECT RAISE(ABORT, 'simulated crash before the activation'); END`,
      )
      .execute(db.q);
    await sql
      .raw(
        `CREATE TRIGGER stop_create BEFORE INSERT ON signature_requests WHEN NEW.client_reference = 'later'
         BEGIN SELECT RAISE(ABORT, 'simulated crash before the create'); END`,
      )
      .execute(db.q);
    const references = ['done-1', 'done-2', 'half', 'later'];
    const batch = {
      template_id: template.id,
      send_emails: true,
      recipients: references.map((ref, i) => ({ client_reference: ref, signers: [person(i)] })),
    };
    const headers = { 'idempotency-key': 'cut-off-batch' };
    const first = await ok(await bulk(server, batch, { headers }));
    assert.deepEqual(
      first.results.map((r) => r.error?.code ?? r.status),
      ['active', 'active', 'activation_failed', 'temporarily_unavailable'],
    );
    const half = first.results[2]?.id as string;

    // The kill: the answer never left, the key is still held by the process that is gone.
    await sql.raw('DROP TRIGGER stop_activation').execute(db.q);
    await sql.raw('DROP TRIGGER stop_create').execute(db.q);
    const killed = db.run(
      db.q
        .updateTable('idempotency_keys')
        .set({ state: 'in_progress', owner: 'a-killed-process', status_code: null, content_type: null, body: null })
        .where('account_id', '=', server.accountId)
        .where('key', '=', 'cut-off-batch'),
    );
    assert.equal(killed.changes, 1);
    assert.ok(processId !== 'a-killed-process');
    const before = await footprint(server);

    const retried = await bulk(server, batch, { headers });
    const retryText = await retried.clone().text();
    assert.equal(retried.headers.get('idempotent-replayed'), null, 'the retry acted for the rows the first attempt never reached');
    const retry = await ok(retried);
    assert.deepEqual([retry.total, retry.created, retry.failed], [4, 4, 0]);
    // The rows the first attempt answered: the same answer, the same links and mail outcome.
    assert.deepEqual(retry.results.slice(0, 2), first.results.slice(0, 2));
    for (const result of retry.results) {
      assert.equal(result.status, 'active', JSON.stringify(result.error));
      assert.ok(liveLink(server, result.signers[0]?.signing_url ?? '', result.signers[0]?.id ?? ''), `${result.client_reference}: a live link`);
      assert.equal(result.signers[0]?.email_delivery, 'sent');
    }
    // The row created and not activated is activated now, not created again; the last row is made.
    assert.equal(retry.results[2]?.id, half);
    assert.match(retry.results[3]?.id ?? '', UUID);

    const after = await footprint(server);
    assert.equal(after.requests, before.requests + 1, 'one request made: the row the first attempt never created');
    assert.equal(after.links, before.links + 2, 'links issued for the two rows activated now, none again for the others');
    assert.equal(after.outbox, before.outbox + 2);
    assert.equal(after.emails, before.emails + 2);
    for (const result of retry.results) {
      assert.deepEqual(eventTypes(server, result.id as string), ['signature_request.activated'], `${result.client_reference}: activated once`);
      const audits = db
        .all(
          db.q
            .selectFrom('audit_events')
            .select('type')
            .where('request_id', '=', result.id as string),
        )
        .map((a) => a.type);
      assert.equal(audits.filter((type) => type === 'request_activated').length, 1, `${result.client_reference}: one request_activated`);
      assert.equal(audits.filter((type) => type === 'request_created').length, 1, `${result.client_reference}: one request_created`);
    }

    await t.test('the answer the retry gave is the stored one from then on', async () => {
      const again = await bulk(server, batch, { headers });
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(await again.text(), retryText);
      assert.deepEqual(await footprint(server), after);
    });

    await t.test('after its 24 hours the key names a new call: the same batch then finds every row already_exists', async () => {
      server.running.ctx.clock.advance(DAY_MS + 1000);
      const fresh = await ok(await bulk(server, batch, { headers }));
      assert.deepEqual(
        fresh.results.map((r) => r.status),
        ['already_exists', 'already_exists', 'already_exists', 'already_exists'],
      );
      const rows = db.all(db.q.selectFrom('idempotency_row_answers').select('row_index').where('key', '=', 'cut-off-batch'));
      assert.deepEqual(rows, [], "the expired call's rows are forgotten");
      assert.equal(rowCount(server, 'signing_links'), after.links);
    });
  });

  test('cross-account: client_references and requests are per account', async (t) => {
    const server = await useServer(t);
    const other = server.newKey();
    const mine = await makeTemplate(server, { fields: ONE_ROLE });
    const theirs = await makeTemplate(server, { fields: ONE_ROLE }, other.apiKey);
    const rows = [{ client_reference: 'shared-ref', signers: [person(1)] }];
    const a = await ok(await bulk(server, { template_id: mine.id, recipients: rows }));
    const b = await ok(await bulk(server, { template_id: theirs.id, recipients: rows }, { key: other.apiKey }));
    assert.equal(a.results[0]?.status, 'active');
    assert.equal(b.results[0]?.status, 'active', 'the other account has its own shared-ref');
    assert.notEqual(a.results[0]?.id, b.results[0]?.id);
    assert.deepEqual(
      (await allRequests(server)).map((r) => r.id),
      [a.results[0]?.id],
    );
    assert.deepEqual(
      (await allRequests(server, other.apiKey)).map((r) => r.id),
      [b.results[0]?.id],
    );
    assert.equal((await server.call('GET', `${REQUESTS}/${b.results[0]?.id}`)).status, 404);
    // Mail of one account is not shown to the other.
    assert.deepEqual(await emails(server, {}, other.apiKey), []);
  });

  test('requests sent in bulk outlive their template', async (t) => {
    const server = await useServer(t);
    const template = await makeTemplate(server, { fields: ONE_ROLE });
    const body = await ok(await bulk(server, { template_id: template.id, recipients: [{ client_reference: 'lasting', signers: [person(1)] }] }));
    const id = body.results[0]?.id as string;
    const blob = documentOf(server, id)?.blob_id as string;
    assert.equal((await archive(server, template.id)).status, 204);
    assert.equal((await getStatus(server, id)).status, 'active');
    assert.ok(fs.existsSync(path.join(server.dataDir, 'blobs', `${blob}.blob`)));
    assert.ok(liveLink(server, body.results[0]?.signers[0]?.signing_url ?? '', body.results[0]?.signers[0]?.id ?? ''));
    const reminded = await postJson(server, `${REQUESTS}/${id}/reminders`, {});
    assert.equal(reminded.status, 200, await reminded.clone().text());
    // The archived template is refused for the next batch.
    await expectError(
      await bulk(server, { template_id: template.id, recipients: [{ client_reference: 'next', signers: [person(2)] }] }),
      404,
      'template_not_found',
    );
  });

  test("bulk sends: 10 batches per hour per API key and IP; the 11th is 429 with the bulk bucket's headers", async (t) => {
    const server = await useServer(t, { rateLimit: 'on' });
    const template: TemplateJson = await makeTemplate(server, { fields: ONE_ROLE });
    const batch = (i: number) => ({ template_id: template.id, recipients: [{ client_reference: `hourly-${i}`, signers: [person(i)] }] });
    // A refused batch is no batch: it uses none of the 10.
    for (let i = 0; i < 3; i++) await expectError(await bulk(server, { ...batch(0), link_expiry_days: 0 }), 400, 'invalid_request');
    for (let i = 1; i <= 10; i++) {
      const res = await bulk(server, batch(i));
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal(res.headers.get('x-ratelimit-limit'), '120');
    }
    const refused = await bulk(server, batch(11));
    const text = await refused.clone().text();
    await expectError(refused, 429, 'rate_limit_exceeded', /10 bulk sends per hour/);
    assert.equal(refused.headers.get('x-ratelimit-limit'), '10', text);
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 3600, `retry-after ${retryAfter}`);
    assert.equal((await allRequests(server)).length, 10, 'the refused batches made nothing');

    // Other calls and other keys are not held back by the bulk bucket.
    assert.equal((await server.call('GET', '/v1/templates')).status, 200);
    const second = server.newKey(server.accountId);
    assert.equal((await bulk(server, batch(12), { key: second.apiKey })).status, 200);

    // An hour later on the sandbox clock the bucket is open again.
    const advanced = await postJson(server, '/_sandbox/clock/advance', { seconds: 3600 });
    assert.equal(advanced.status, 200);
    assert.equal((await bulk(server, batch(13))).status, 200);
  });

  test('POST /v1/bulk-sends: an Idempotency-Key reused with another batch is 422', async (t) => {
    const server = await useServer(t);
    const template = await makeTemplate(server, { fields: ONE_ROLE });
    const headers = { 'idempotency-key': 'batch-key' };
    const first = { template_id: template.id, recipients: [{ client_reference: 'k-1', signers: [person(1)] }] };
    assert.equal((await bulk(server, first, { headers })).status, 200);
    const other = { ...first, recipients: [{ client_reference: 'k-2', signers: [person(2)] }] };
    await expectError(await bulk(server, other, { headers }), 422, 'idempotency_key_reused');
    assert.deepEqual(
      (await allRequests(server)).map((r) => r.client_reference),
      ['k-1'],
    );
  });
});
