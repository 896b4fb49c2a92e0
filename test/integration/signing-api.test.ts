// The signer's side over real HTTP against the real server: the JSON API under a signing link
// (`/sign/<token>/api/{view,document,otp,otp/verify,sign,decline}`) and the page's headers.
// Spec "Signer states", SignerInput (`locale`, `verification`), return URL
// parameters, Events; contract "A signer is viewed when ... loaded", "Email OTP", `--brand`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { a4Pdf } from '../helpers/requests.js';
import { activeRequest, advance, auditOf, DAY, eventsOf, postJson, status } from '../helpers/flows.js';
import { wrongCodeFor } from '../helpers/mail.js';
import { useReceiver, type Receiver } from '../helpers/receiver.js';
import { json, useServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

const MINUTE = 60_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A real 1x1 PNG. */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const JPEG_BYTES = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);
const png = (base64: string) => `data:image/png;base64,${base64}`;
const typed = (text: string) => ({ type: 'typed', text });
const drawn = (image: string) => ({ type: 'drawn', image });

// ---------------------------------------------------------------------------------------------
// Helpers

/** The URL of an action of the JSON API under a signing (or embed) link. */
function apiUrl(link: string, action: string, query = ''): string {
  const url = new URL(link);
  url.pathname = `${url.pathname.replace(/^\/embed\//, '/sign/')}/api/${action}`;
  url.search = query;
  return url.href;
}

/** POST an action (view, otp, otp/verify, sign, decline) with a JSON body. */
function act(link: string, action: string, body: unknown = {}, init: { query?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(apiUrl(link, action, init.query), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: JSON.stringify(body),
  });
}

function documentOf(link: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(apiUrl(link, 'document'), { headers });
}

async function ok<T = Json>(response: Response): Promise<T> {
  assert.equal(response.status, 200, `${response.url}: ${await response.clone().text()}`);
  return json<T>(response);
}

async function view(link: string, init: { query?: string; headers?: Record<string, string> } = {}): Promise<Json> {
  return ok(await act(link, 'view', {}, init));
}

/**
 * Asserts the error envelope and answers its message. `reason` is the machine-readable reason the
 * error must carry (with `locked_until` for otp_locked); without it, the error must carry none.
 */
async function expectError(response: Response, httpStatus: number, message?: RegExp, reason?: string): Promise<string> {
  const body = await json<Json>(response);
  assert.equal(response.status, httpStatus, JSON.stringify(body));
  const code = httpStatus === 409 ? 'conflict' : httpStatus === 429 ? 'rate_limit_exceeded' : 'invalid_request';
  assert.equal(body.error?.code, code, JSON.stringify(body));
  assert.equal(typeof body.error?.request_id, 'string');
  assert.equal(body.error.reason, reason, JSON.stringify(body));
  const keys = ['code', 'message', 'request_id', ...(reason ? ['reason'] : []), ...(reason === 'otp_locked' ? ['locked_until'] : [])];
  assert.deepEqual(Object.keys(body.error).sort(), keys.sort(), JSON.stringify(body));
  if (reason === 'otp_locked') assert.ok(body.error.message.includes(body.error.locked_until), 'the message and locked_until name the same time');
  if (message) assert.match(body.error.message as string, message);
  return body.error.message as string;
}

interface Started {
  id: string;
  links: Record<string, string>;
  embeds: Record<string, string>;
  signers: Record<string, string>;
}

/** Creates and activates a request (flows.ts); answers its id and each signer's signing_url / embed_url / id. */
async function start(server: TestServer, overrides: Record<string, unknown> = {}, signers = 1, activation: Record<string, unknown> = {}): Promise<Started> {
  const started = await activeRequest(server, overrides, { signers, activation });
  return {
    id: started.id,
    links: started.links,
    embeds: started.embeds,
    signers: Object.fromEntries(started.signers.map((s) => [s.reference, s.id])),
  };
}

async function fullStatus(server: TestServer, id: string): Promise<Json> {
  return (await status(server, id)) as unknown as Json;
}

function signerIn(state: Json, reference: string): Json {
  const signer = (state.signers as Json[]).find((s) => s.reference === reference);
  assert.ok(signer, `signer ${reference} in ${JSON.stringify(state.signers)}`);
  return signer;
}

function fieldIn(state: Json, name: string): Json {
  const field = (state.fields as Json[]).find((f) => f.name === name);
  assert.ok(field, `field ${name} in ${JSON.stringify(state.fields)}`);
  return field;
}

const typesOf = (server: TestServer, id: string) => eventsOf(server, id).map((e) => e.type);

async function sandboxNow(server: TestServer): Promise<string> {
  return (await ok<{ now: string }>(await server.call('GET', '/_sandbox/clock'))).now;
}

/** The newest OTP code caught for an address, read through `GET /_sandbox/emails?to=`. */
async function otpCode(server: TestServer, to: string, requestId: string): Promise<{ code: string; count: number }> {
  const list = await ok<{ data: Json[] }>(await server.call('GET', `/_sandbox/emails?to=${encodeURIComponent(to)}`));
  const otps = list.data.filter((m) => m.kind === 'otp');
  const newest = otps[0];
  assert.ok(newest, `an otp email to ${to}`);
  assert.equal(newest.signature_request_id, requestId);
  const code = /\b(\d{6})\b/.exec(newest.text as string)?.[1];
  assert.ok(code, newest.text as string);
  return { code, count: otps.length };
}

/** A 6-digit code that is not `code`. */

function assertPrivate(response: Response, what: string): void {
  assert.equal(response.headers.get('cache-control'), 'no-store', `${what}: cache-control`);
  assert.equal(response.headers.get('referrer-policy'), 'no-referrer', `${what}: referrer-policy`);
}

function frameAncestors(response: Response): string {
  const csp = response.headers.get('content-security-policy') ?? '';
  return /frame-ancestors ([^;]+)/.exec(csp)?.[1]?.trim() ?? `(none in "${csp}")`;
}

/** A request whose signer s1 has every kind of field, and s2 a few of its own. */
const RICH_FIELDS = (dateFieldOfS2 = true) => ({
  signers: [
    { reference: 's1', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 },
    { reference: 's2', email: 'bob@example.com', order: 2 },
  ],
  fields: [
    { signer_reference: 's1', type: 'signature', page: 1, x: 50, y: 50, width: 150, height: 40 },
    { signer_reference: 's1', type: 'initials', page: 1, x: 250, y: 50, width: 60, height: 30 },
    { signer_reference: 's1', type: 'text', name: 'company', field_key: 'company', page: 1, x: 50, y: 100, width: 200, height: 20 },
    { signer_reference: 's1', type: 'date', name: 'start_date', page: 1, x: 50, y: 130, width: 200, height: 20 },
    { signer_reference: 's1', type: 'text', name: 'full_name', field_key: 'signer_name', page: 1, x: 50, y: 160, width: 200, height: 20 },
    { signer_reference: 's1', type: 'text', name: 'contact', field_key: 'signer_email', page: 1, x: 50, y: 190, width: 200, height: 20 },
    { signer_reference: 's1', type: 'date', name: 'signed_on', field_key: 'sign_date', page: 1, x: 50, y: 220, width: 200, height: 20 },
    { signer_reference: 's1', type: 'text', name: 'ref_no', value: 'REF-42', read_only: true, page: 1, x: 50, y: 250, width: 200, height: 20 },
    { signer_reference: 's1', type: 'text', name: 'note', value: 'prefilled note', page: 1, x: 50, y: 280, width: 200, height: 20 },
    { signer_reference: 's2', type: 'signature', page: 1, x: 50, y: 400, width: 150, height: 40 },
    { signer_reference: 's2', type: 'text', name: 's2_name', field_key: 'signer_name', page: 1, x: 50, y: 450, width: 200, height: 20 },
    { signer_reference: 's2', type: 'text', name: 'title', field_key: 'job_title', page: 1, x: 50, y: 480, width: 200, height: 20 },
    ...(dateFieldOfS2 ? [{ signer_reference: 's2', type: 'date', page: 1, x: 50, y: 510, width: 200, height: 20 }] : []),
  ],
});

/** Everything s1 of RICH_FIELDS must send. */
const s1Complete = () => ({
  signature: drawn(png(TINY_PNG)),
  initials: typed('AL'),
  fields: { company: 'ACME', start_date: '2025-01-31' },
});

// ---------------------------------------------------------------------------------------------
// View

// Each test has its own server: they run side by side.
describe('signing API', { concurrency: 3 }, () => {
  test('view: the SignerView, viewed once on the first load, never on a bare GET of the page', async (t) => {
    const server = await useServer(t);
    const { id, links, signers, embeds } = await start(server, { client_reference: 'view-1' }, 2);
    const s1 = links.s1 as string;

    // A mail scanner fetches the page (and the embed page): nothing changes.
    const page = await fetch(s1);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    await page.text();
    assert.equal(embeds.s1, '', 'no embed_url without an embed_origin');
    const embedPage = await fetch(s1.replace('/sign/', '/embed/'));
    await embedPage.text();
    assert.equal(signerIn(await fullStatus(server, id), 's1').status, 'pending', 'a bare GET does not mark the signer viewed');
    assert.deepEqual(typesOf(server, id), ['signature_request.activated']);

    const first = await view(s1);
    assert.deepEqual(Object.keys(first).sort(), [
      'brand',
      'can_sign',
      'closed_reason',
      'code_live',
      'earlier_fields',
      'embed_origin',
      'fields',
      'lang',
      'request',
      'return_url',
      'signed_pdf',
      'signer',
      'state',
      'verification_required',
      'waiting_for',
      'waiting_for_names',
    ]);
    assert.equal(first.signed_pdf, 'none');
    assert.equal(first.state, 'open');
    assert.equal(first.closed_reason, null);
    assert.equal(first.lang, 'en');
    assert.equal(first.brand, 'paraph');
    assert.equal(first.embed_origin, '');
    assert.equal(first.return_url, '');
    assert.deepEqual(first.request, {
      id,
      client_reference: 'view-1',
      status: 'active',
      document_name: 'contract.pdf',
      sequential_signing: false,
      sender_name: '',
      message: '',
      logo_url: '',
      cancellation_reason: '',
      pages: [{ width: 595.28, height: 841.89, rotation: 0 }],
    });
    assert.equal(first.signer.id, signers.s1);
    assert.equal(first.signer.reference, 's1');
    assert.equal(first.signer.email, 's1@example.com');
    assert.equal(first.signer.status, 'viewed');
    assert.equal(first.signer.verification, '');
    assert.equal(first.signer.verified_at, null);
    assert.match(first.signer.expires_at as string, ISO);
    assert.equal(first.verification_required, false);
    assert.equal(first.can_sign, true);
    assert.deepEqual(first.waiting_for, []);
    assert.equal(first.fields.length, 1, "only the signer's own field");
    assert.deepEqual(
      { ...first.fields[0], id: undefined },
      {
        id: undefined,
        type: 'signature',
        page: 1,
        x: 50,
        y: 50,
        width: 150,
        height: 40,
        name: '',
        field_key: '',
        value: '',
        read_only: false,
        editable: false,
      },
    );

    const after = await fullStatus(server, id);
    assert.equal(signerIn(after, 's1').status, 'viewed');
    assert.equal(signerIn(after, 's2').status, 'pending', 'only the signer who loaded the view');
    assert.equal(after.status, 'active');
    const viewed = eventsOf(server, id).filter((e) => e.type === 'signer.viewed');
    assert.equal(viewed.length, 1);
    assert.deepEqual(viewed[0]?.data.signer, { id: signers.s1, reference: 's1', email: 's1@example.com', status: 'viewed' });
    assert.equal(viewed[0]?.data.status, 'active');

    const again = await view(s1);
    assert.equal(again.state, 'open');
    assert.equal(again.signer.status, 'viewed');
    assert.equal(eventsOf(server, id).filter((e) => e.type === 'signer.viewed').length, 1, 'a second load writes no second event');
    assert.equal(auditOf(server, id).filter((e) => e.type === 'signer_viewed').length, 1);
  });

  test('sign without loading the view first: the signer goes pending -> viewed -> signed, with signer.viewed first', async (t) => {
    const server = await useServer(t);
    const { id, links, signers } = await start(server, { client_reference: 'sign-unviewed' }, 2);
    assert.equal(signerIn(await fullStatus(server, id), 's1').status, 'pending');
    await ok(await act(links.s1 as string, 'sign', { signature: typed('One') }));
    const s1Events = eventsOf(server, id).filter((e) => (e.data.signer as Json | undefined)?.id === signers.s1);
    assert.deepEqual(
      s1Events.map((e) => [e.type, (e.data.signer as Json).status]),
      [
        ['signer.viewed', 'viewed'],
        ['signer.completed', 'signed'],
      ],
    );
    assert.deepEqual(
      auditOf(server, id)
        .filter((e) => e.type === 'signer_viewed' || e.type === 'signer_signed')
        .map((e) => e.type),
      ['signer_viewed', 'signer_signed'],
    );
    const after = signerIn(await fullStatus(server, id), 's1');
    assert.equal(after.status, 'signed');
    // A signer who loaded the view first gets no second signer.viewed when signing.
    await view(links.s2 as string);
    await ok(await act(links.s2 as string, 'sign', { signature: typed('Two') }));
    assert.equal(eventsOf(server, id).filter((e) => e.type === 'signer.viewed').length, 2);
  });

  test('headers: no-store and no-referrer on the page and every API answer; frame-ancestors by link kind', async (t) => {
    const server = await useServer(t);
    const plain = await start(server, {}, 2);
    const embedded = await start(server, { embed_origin: 'https://app.example.com:8443' }, 1);
    const otp = await start(server, {
      signers: [{ reference: 'o', email: 'otp-h@example.com', order: 1, verification: 'email_otp' }],
      fields: [{ signer_reference: 'o', type: 'signature', page: 1, x: 50, y: 50, width: 100, height: 40 }],
    });

    await t.test('the signing page: no-store, no-referrer, frame-ancestors none', async () => {
      const response = await fetch(plain.links.s1 as string);
      await response.text();
      assertPrivate(response, 'GET /sign/<token>');
      assert.equal(frameAncestors(response), "'none'");
    });

    await t.test('the embed page of a request with an embed_origin may be framed by that origin only', async () => {
      const embedUrl = embedded.embeds.s1 as string;
      assert.match(embedUrl, /\/embed\/[0-9A-Za-z]+/);
      const response = await fetch(embedUrl);
      await response.text();
      assertPrivate(response, 'GET /embed/<token>');
      assert.equal(frameAncestors(response), 'https://app.example.com:8443');
      const signing = await fetch(embedded.links.s1 as string);
      await signing.text();
      assert.equal(frameAncestors(signing), "'none'", 'the signing_url itself is never framed');
      assert.equal((await view(embedUrl)).embed_origin, 'https://app.example.com:8443');
    });

    await t.test('an embed path for a request without embed_origin, or an unknown token, stays frame-ancestors none', async () => {
      const noOrigin = await fetch((plain.links.s1 as string).replace('/sign/', '/embed/'));
      await noOrigin.text();
      assert.equal(frameAncestors(noOrigin), "'none'");
      const unknown = await fetch(new URL(`/embed/${'Z'.repeat(43)}`, plain.links.s1).href);
      await unknown.text();
      assert.equal(frameAncestors(unknown), "'none'");
    });

    await t.test('every successful API answer is private', async () => {
      assertPrivate(await act(plain.links.s1 as string, 'view'), 'view');
      const document = await documentOf(plain.links.s1 as string);
      assert.equal(document.status, 200);
      await document.arrayBuffer();
      assertPrivate(document, 'document');
      const sent = await act(otp.links.o as string, 'otp');
      assert.equal(sent.status, 200);
      assertPrivate(sent, 'otp');
      const checked = await act(otp.links.o as string, 'otp/verify', { code: wrongCodeFor((await otpCode(server, 'otp-h@example.com', otp.id)).code) });
      assert.equal(checked.status, 200);
      assertPrivate(checked, 'otp/verify');
      const signed = await act(plain.links.s1 as string, 'sign', { signature: typed('S One') });
      assert.equal(signed.status, 200);
      assertPrivate(signed, 'sign');
      const declined = await act(plain.links.s2 as string, 'decline', { reason: 'no' });
      assert.equal(declined.status, 200);
      assertPrivate(declined, 'decline');
    });

    // s1 signed and s2 declined above: both links are closed now.
    const errorAnswers = async () => {
      const answers: Array<[string, Response]> = [];
      for (const action of ['otp', 'otp/verify', 'sign', 'decline']) {
        const body = action === 'otp/verify' ? { code: '123456' } : action === 'decline' ? { reason: 'x' } : {};
        answers.push([`409 ${action} on a closed link`, await act(plain.links.s1 as string, action, body)]);
      }
      answers.push(['409 document on a closed link', await documentOf(plain.links.s1 as string)]);
      answers.push(['400 sign with an unknown property', await act(embedded.links.s1 as string, 'sign', { bogus: 1 })]);
      answers.push(['400 decline without a reason', await act(embedded.links.s1 as string, 'decline', {})]);
      for (const [what, response] of answers) {
        assert.ok(response.status === 409 || response.status === 400, `${what}: ${response.status}`);
        await response.arrayBuffer();
      }
      return answers;
    };

    await t.test('error answers under a link are never cached', async () => {
      for (const [what, response] of await errorAnswers()) assert.equal(response.headers.get('cache-control'), 'no-store', what);
    });

    await t.test('error answers under a link carry referrer-policy no-referrer too', async () => {
      for (const [what, response] of await errorAnswers()) assert.equal(response.headers.get('referrer-policy'), 'no-referrer', what);
    });
  });

  test('view: lang is the signer locale, else ?lang=, else Accept-Language, else en', async (t) => {
    const server = await useServer(t);
    const { links } = await start(server, {
      signers: [
        { reference: 'fr', email: 'fr@example.com', order: 1, locale: 'fr' },
        { reference: 'none', email: 'none@example.com', order: 2 },
      ],
      fields: [
        { signer_reference: 'fr', type: 'signature', page: 1, x: 50, y: 50, width: 100, height: 40 },
        { signer_reference: 'none', type: 'signature', page: 1, x: 50, y: 150, width: 100, height: 40 },
      ],
    });
    const fr = links.fr as string;
    const none = links.none as string;
    assert.equal(new URL(fr).searchParams.get('lang'), 'fr', 'the link carries the locale as lang');
    assert.equal(new URL(none).searchParams.get('lang'), null);

    assert.equal((await view(fr, { query: '?lang=ar', headers: { 'accept-language': 'ar' } })).lang, 'fr', 'the signer locale wins');
    assert.equal((await view(none, { query: '?lang=ar', headers: { 'accept-language': 'fr-FR,fr;q=0.9' } })).lang, 'ar', '?lang= before Accept-Language');
    assert.equal((await view(none, { query: '?lang=de', headers: { 'accept-language': 'fr-FR,fr;q=0.9' } })).lang, 'fr', 'an unknown ?lang= falls through');
    assert.equal((await view(none, { headers: { 'accept-language': 'de-DE, ar;q=0.8, fr;q=0.5' } })).lang, 'ar', 'the first known Accept-Language');
    assert.equal((await view(none, { headers: { 'accept-language': 'de-DE, es' } })).lang, 'en');
    assert.equal((await view(none)).lang, 'en');
  });

  test("view: only the signer's fields, identity values prefilled from the sandbox clock, sender values kept, editable flags", async (t) => {
    const server = await useServer(t);
    // The sandbox date differs from today's date: sign_date must come from the sandbox clock.
    await advance(server, 3 * DAY);
    const sandboxDate = (await sandboxNow(server)).slice(0, 10);
    assert.notEqual(sandboxDate, new Date().toISOString().slice(0, 10));
    const { links } = await start(server, RICH_FIELDS());

    const s1 = await view(links.s1 as string);
    const byName = Object.fromEntries((s1.fields as Json[]).filter((f) => f.name !== '').map((f) => [f.name, f]));
    assert.equal(s1.fields.length, 9, "only s1's fields");
    assert.deepEqual(Object.keys(byName).sort(), ['company', 'contact', 'full_name', 'note', 'ref_no', 'signed_on', 'start_date']);
    const marks = (s1.fields as Json[]).filter((f) => f.type === 'signature' || f.type === 'initials');
    assert.deepEqual(marks.map((f) => [f.type, f.value, f.editable]).sort(), [
      ['initials', '', false],
      ['signature', '', false],
    ]);
    const summary = (name: string) => {
      const f = byName[name] as Json;
      return { type: f.type, field_key: f.field_key, value: f.value, read_only: f.read_only, editable: f.editable };
    };
    assert.deepEqual(summary('company'), { type: 'text', field_key: 'company', value: '', read_only: false, editable: true });
    assert.deepEqual(summary('start_date'), { type: 'date', field_key: '', value: '', read_only: false, editable: true });
    assert.deepEqual(summary('full_name'), { type: 'text', field_key: 'signer_name', value: 'Ada Lovelace', read_only: false, editable: false });
    assert.deepEqual(summary('contact'), { type: 'text', field_key: 'signer_email', value: 'ada@example.com', read_only: false, editable: false });
    assert.deepEqual(summary('signed_on'), { type: 'date', field_key: 'sign_date', value: sandboxDate, read_only: false, editable: false });
    assert.deepEqual(summary('ref_no'), { type: 'text', field_key: '', value: 'REF-42', read_only: true, editable: false });
    assert.deepEqual(summary('note'), { type: 'text', field_key: '', value: 'prefilled note', read_only: false, editable: true });
    const company = byName.company as Json;
    assert.deepEqual([company.page, company.x, company.y, company.width, company.height], [1, 50, 100, 200, 20]);

    // s2 has no name: the signer_name field is theirs to type.
    const s2 = await view(links.s2 as string);
    assert.equal(s2.fields.length, 4);
    const s2Name = (s2.fields as Json[]).find((f) => f.name === 's2_name') as Json;
    assert.deepEqual([s2Name.value, s2Name.editable], ['', true]);
    const title = (s2.fields as Json[]).find((f) => f.name === 'title') as Json;
    assert.deepEqual([title.value, title.editable], ['', true]);
  });

  // ---------------------------------------------------------------------------------------------
  // Sign

  test('sign: required marks and values, unknown keys, image rules; then signed, values stored, link closed; last signature completes', async (t) => {
    const server = await useServer(t);
    await advance(server, 2 * DAY);
    const sandboxDate = (await sandboxNow(server)).slice(0, 10);
    const { id, links, signers } = await start(server, { ...RICH_FIELDS(), client_reference: 'sign-1' });
    const s1 = links.s1 as string;
    await view(s1);
    const sign = (body: Json) => act(s1, 'sign', body);
    const base = s1Complete();

    await t.test('every signature and initials field needs its mark', async () => {
      await expectError(await sign({ ...base, signature: undefined }), 400, /signature/);
      await expectError(await sign({ ...base, initials: undefined }), 400, /initials/);
    });

    await t.test('text and date fields need a value (400 naming the field)', async () => {
      await expectError(await sign({ ...base, fields: { start_date: '2025-01-31' } }), 400, /"company"/);
      await expectError(await sign({ ...base, fields: { company: '   ', start_date: '2025-01-31' } }), 400, /"company"/);
      // Invisible characters are no value either: they would draw nothing.
      for (const blank of ['\u00a0', '\u200b', ' \u2060 ']) {
        await expectError(await sign({ ...base, fields: { company: blank, start_date: '2025-01-31' } }), 400, /"company" needs a value/);
      }
      await expectError(await sign({ ...base, fields: { company: 'ACME' } }), 400, /"start_date"/);
      await expectError(await sign({ ...base, fields: { company: 'x'.repeat(501), start_date: '2025-01-31' } }), 400, /500/);
    });

    await t.test('a date is one calendar date written YYYY-MM-DD, as the document writes every date (400 naming the field)', async () => {
      for (const date of ['not a date', '31/01/2025', '2025-1-31', '2026-02-30', '2025-01-31T10:00:00Z', ' 2025-01-31'])
        await expectError(await sign({ ...base, fields: { company: 'ACME', start_date: date } }), 400, /"start_date" is a date: give it as YYYY-MM-DD/);
    });

    await t.test('an unknown field key, or one of another signer, is a 400', async () => {
      await expectError(await sign({ ...base, fields: { ...base.fields, bogus: 'x' } }), 400, /bogus/);
      await expectError(await sign({ ...base, fields: { ...base.fields, s2_name: 'x' } }), 400, /s2_name/);
    });

    await t.test('a drawn mark must be a PNG data URL of at most 512 KiB', async () => {
      const jpeg = JPEG_BYTES.toString('base64');
      await expectError(await sign({ ...base, signature: drawn(`data:image/jpeg;base64,${jpeg}`) }), 400);
      await expectError(await sign({ ...base, signature: drawn(png(jpeg)) }), 400, /PNG/);
      await expectError(await sign({ ...base, signature: drawn(png(Buffer.from('not an image at all').toString('base64'))) }), 400, /PNG/);
      await expectError(await sign({ ...base, signature: drawn('hello') }), 400);
      await expectError(await sign({ ...base, initials: drawn(png(jpeg)) }), 400, /initials/);
      const big = Buffer.concat([PNG_MAGIC, Buffer.alloc(512 * 1024 + 1 - PNG_MAGIC.length, 7)]);
      await expectError(await sign({ ...base, signature: drawn(png(big.toString('base64'))) }), 400, /512 KiB/);
      await expectError(await sign({ ...base, signature: typed('') }), 400);
      // The size a PNG says it has is what drawing it decodes: 30000 x 30000 pixels in a file of a few bytes is refused.
      const claimed = Buffer.from(TINY_PNG, 'base64');
      claimed.writeUInt32BE(30_000, 16);
      claimed.writeUInt32BE(30_000, 20);
      await expectError(
        await sign({ ...base, signature: drawn(png(claimed.toString('base64'))) }),
        400,
        /signature\.image is 30000 x 30000 pixels: a drawn mark may be at most 4096 pixels a side/,
      );
    });

    await t.test('text the signed PDF cannot draw is refused, naming the characters; every script its fonts hold passes', async () => {
      await expectError(
        await sign({ ...base, fields: { company: '株式会社テスト', start_date: '2025-01-31' } }),
        400,
        /^field "company" holds characters the signed PDF's fonts cannot draw \(株 式 会 社 テ …\): they would be printed as empty boxes/,
      );
      await expectError(
        await sign({ ...base, signature: typed('Ada 😀') }),
        400,
        /^signature\.text holds characters the signed PDF's fonts cannot draw \(😀\)/,
      );
      await expectError(await sign({ ...base, initials: typed('株') }), 400, /^initials\.text holds characters/);
    });

    await t.test('a typed mark must show something: blank or invisible text is refused', async () => {
      for (const blank of ['   ', '\u00a0', '\u200b\u200b']) {
        await expectError(await sign({ ...base, signature: typed(blank) }), 400, /signature\.text is blank/);
        await expectError(await sign({ ...base, initials: typed(blank) }), 400, /initials\.text is blank/);
      }
    });

    await t.test('refused attempts change nothing', async () => {
      const state = await fullStatus(server, id);
      assert.equal(signerIn(state, 's1').status, 'viewed');
      assert.equal(fieldIn(state, 'company').value, '');
      assert.equal(fieldIn(state, 'start_date').value, '');
      assert.ok(!typesOf(server, id).includes('signer.completed'));
    });

    let signedAt = '';
    await t.test('signing: signer signed, values stored, read-only and identity values kept whatever is sent', async () => {
      // A drawn signature of exactly 512 KiB is accepted.
      const image = Buffer.concat([Buffer.from(TINY_PNG, 'base64'), Buffer.alloc(512 * 1024 - Buffer.from(TINY_PNG, 'base64').length, 0)]);
      const outcome = await ok(
        await sign({
          signature: drawn(png(image.toString('base64'))),
          initials: typed('AL'),
          fields: {
            company: 'ACME',
            start_date: '2025-01-31',
            ref_no: 'HACKED',
            full_name: 'Mallory',
            contact: 'mallory@example.com',
            signed_on: '1999-01-01',
          },
        }),
      );
      assert.deepEqual(Object.keys(outcome).sort(), ['next', 'next_names', 'request_status', 'return_url', 'signed_at', 'status']);
      assert.equal(outcome.status, 'signed');
      assert.equal(outcome.request_status, 'active');
      assert.equal(outcome.next, 'others', 'not sequential: the other signers sign with their own links');
      assert.match(outcome.signed_at as string, ISO);
      assert.equal(outcome.return_url, '');
      signedAt = outcome.signed_at as string;

      const state = await fullStatus(server, id);
      assert.equal(state.status, 'active');
      const signer = signerIn(state, 's1');
      assert.equal(signer.status, 'signed');
      assert.equal(signer.signed_at, signedAt);
      assert.equal(signerIn(state, 's2').status, 'pending');
      const values = Object.fromEntries((state.fields as Json[]).filter((f) => f.signer_reference === 's1').map((f) => [f.name, [f.value, f.completed]]));
      assert.deepEqual(values, {
        company: ['ACME', true],
        start_date: ['2025-01-31', true],
        full_name: ['Ada Lovelace', true],
        contact: ['ada@example.com', true],
        signed_on: [sandboxDate, true],
        ref_no: ['REF-42', true],
        note: ['prefilled note', true],
      });
      assert.ok((state.fields as Json[]).filter((f) => f.signer_reference === 's2').every((f) => f.completed === false));

      const { db } = server.running.ctx;
      const marks = db.all(
        db.q
          .selectFrom('signer_marks')
          .selectAll()
          .where('signer_id', '=', signers.s1 as string),
      );
      const byKind = Object.fromEntries(marks.map((m) => [m.kind, m]));
      assert.equal(byKind.signature?.method, 'drawn');
      assert.ok(Buffer.from(byKind.signature?.image as Uint8Array).equals(image), 'the drawn PNG is stored as sent');
      assert.deepEqual([byKind.initials?.method, byKind.initials?.text], ['typed', 'AL']);

      const completed = eventsOf(server, id).filter((e) => e.type === 'signer.completed');
      assert.equal(completed.length, 1);
      assert.deepEqual(completed[0]?.data.signer, { id: signers.s1, reference: 's1', email: 'ada@example.com', status: 'signed' });
      assert.equal(completed[0]?.data.status, 'active');
      assert.ok(!typesOf(server, id).includes('signature_request.completed'));
    });

    await t.test('the link cannot be used again', async () => {
      const closed = await view(s1);
      assert.equal(closed.state, 'closed');
      assert.equal(closed.closed_reason, 'signed');
      assert.deepEqual(closed.fields, []);
      assert.equal(closed.can_sign, false);
      await expectError(await sign(s1Complete()), 409, /already used|signed/);
      await expectError(await act(s1, 'decline', { reason: 'changed my mind' }), 409, /signed/);
      const document = await documentOf(s1);
      await expectError(document, 409, /signed/);
    });

    await t.test('the last signature (typed, by field id too) completes the request', async () => {
      const s2 = links.s2 as string;
      const s2View = await view(s2);
      const unnamed = (s2View.fields as Json[]).find((f) => f.type === 'date') as Json;
      assert.equal(unnamed.name, '');
      await expectError(
        await act(s2, 'sign', { signature: typed('Bob'), fields: { s2_name: 'Bob Builder', title: 'CTO' } }),
        400,
        new RegExp(unnamed.id as string),
      );
      const outcome = await ok(
        await act(s2, 'sign', { signature: typed('Bob Builder'), fields: { s2_name: 'Bob Builder', title: 'CTO', [unnamed.id]: '2025-02-01' } }),
      );
      assert.equal(outcome.status, 'signed');
      assert.equal(outcome.request_status, 'completed');
      const state = await fullStatus(server, id);
      assert.equal(state.status, 'completed');
      assert.equal(signerIn(state, 's2').status, 'signed');
      assert.equal(fieldIn(state, 's2_name').value, 'Bob Builder', 'a nameless signer types their signer_name');
      assert.equal(fieldIn(state, 'title').value, 'CTO');
      assert.ok((state.fields as Json[]).every((f) => f.completed === true));

      const events = eventsOf(server, id);
      assert.deepEqual(
        events.map((e) => e.type).filter((type) => type !== 'signer.viewed'),
        ['signature_request.activated', 'signer.completed', 'signer.completed', 'signature_request.completed'],
      );
      const last = events.filter((e) => e.type === 'signer.completed')[1];
      assert.equal(last?.data.signer.reference, 's2');
      assert.equal(last?.data.signer.status, 'signed');
      assert.equal(last?.data.status, 'completed', 'data.status is the status after the event');
      const done = events.find((e) => e.type === 'signature_request.completed');
      assert.equal(done?.data.status, 'completed');
      assert.equal(done?.data.signature_request_id, id);
      assert.equal(done?.data.client_reference, 'sign-1');
    });
  });

  // ---------------------------------------------------------------------------------------------
  // Decline

  test('decline: a reason is required; signer and request declined, events, other links closed', async (t) => {
    const server = await useServer(t);
    const { id, links, signers } = await start(server, { client_reference: 'decline-1' }, 3);
    const s2 = links.s2 as string;
    await ok(await act(links.s1 as string, 'sign', { signature: typed('One') }));

    await expectError(await act(s2, 'decline', {}), 400, /reason/);
    await expectError(await act(s2, 'decline', { reason: '' }), 400, /reason/);
    await expectError(await act(s2, 'decline', { reason: 'x'.repeat(501) }), 400, /500/);
    assert.equal((await fullStatus(server, id)).status, 'active');

    const reason = `${'r'.repeat(487)} not my terms`;
    assert.equal(reason.length, 500);
    const outcome = await ok(await act(s2, 'decline', { reason }));
    assert.deepEqual(outcome, { status: 'declined', request_status: 'declined', signed_at: null, return_url: '', next: 'none' });

    const state = await fullStatus(server, id);
    assert.equal(state.status, 'declined');
    assert.equal(signerIn(state, 's2').status, 'declined');
    assert.equal(signerIn(state, 's1').status, 'signed', 'a signature already given stays');

    const events = eventsOf(server, id);
    const declined = events.filter((e) => e.type === 'signer.declined');
    assert.equal(declined.length, 1);
    assert.equal(declined[0]?.data.reason, reason);
    assert.deepEqual(declined[0]?.data.signer, { id: signers.s2, reference: 's2', email: 's2@example.com', status: 'declined' });
    assert.equal(declined[0]?.data.status, 'declined');
    const requestDeclined = events.filter((e) => e.type === 'signature_request.declined');
    assert.equal(requestDeclined.length, 1);
    assert.equal(requestDeclined[0]?.data.status, 'declined');
    assert.equal(requestDeclined[0]?.data.reason, undefined);

    for (const [ref, expected] of [
      ['s2', 'declined'],
      ['s3', 'declined'],
      ['s1', 'signed'],
    ] as const) {
      const closed = await view(links[ref] as string);
      assert.equal(closed.state, 'closed', ref);
      assert.equal(closed.closed_reason, expected, ref);
    }
    await expectError(await act(links.s3 as string, 'sign', { signature: typed('Three') }), 409, /declined/);
    await expectError(await act(links.s3 as string, 'decline', { reason: 'me too' }), 409, /declined/);
    await expectError(await documentOf(links.s3 as string), 409, /declined/);
    assert.equal(eventsOf(server, id).filter((e) => e.type === 'signer.declined').length, 1);
  });

  test('decline: a reason of only blanks is no reason (400)', async (t) => {
    const server = await useServer(t);
    const { id, links } = await start(server, {}, 1);
    await expectError(await act(links.s1 as string, 'decline', { reason: '   ' }), 400, /reason/);
    assert.equal((await fullStatus(server, id)).status, 'active');
  });

  // ---------------------------------------------------------------------------------------------
  // Closed links

  test('closed links: cancelled, revoked by rotation or replacement, expired, unavailable; every action 409 saying why', async (t) => {
    const server = await useServer(t);
    const tryEverything = async (link: string, why: RegExp) => {
      await expectError(await act(link, 'sign', { signature: typed('X') }), 409, why);
      await expectError(await act(link, 'decline', { reason: 'no' }), 409, why);
      await expectError(await act(link, 'otp'), 409, why);
      await expectError(await act(link, 'otp/verify', { code: '123456' }), 409, why);
      await expectError(await documentOf(link), 409, why);
    };
    const closedView = async (link: string, reason: string) => {
      const answer = await view(link);
      assert.equal(answer.state, 'closed');
      assert.equal(answer.closed_reason, reason);
      assert.equal(answer.can_sign, false);
      assert.deepEqual(answer.fields, []);
      return answer;
    };
    const expiring = await start(server, {}, 1);

    await t.test('after cancel: cancelled', async () => {
      const { id, links } = await start(server, {}, 2);
      await view(links.s1 as string);
      assert.equal((await postJson(server, `/v1/signature-requests/${id}/cancel`, { reason: 'wrong file' })).status, 200);
      const closed = await closedView(links.s1 as string, 'cancelled');
      assert.equal(closed.request.id, id);
      assert.equal(closed.signer.reference, 's1');
      await closedView(links.s2 as string, 'cancelled');
      await tryEverything(links.s2 as string, /cancelled/);
      assert.equal(signerIn(await fullStatus(server, id), 's2').status, 'pending', 'a closed view marks nothing');
    });

    await t.test('after a reminder: the old link is revoked, the new one opens', async () => {
      const { id, links } = await start(server, {}, 1);
      const reminded = await ok<{ reminders: Array<{ reference: string; signing_url: string }> }>(
        await postJson(server, `/v1/signature-requests/${id}/reminders`, {}),
      );
      const fresh = reminded.reminders[0]?.signing_url as string;
      assert.notEqual(fresh, links.s1);
      await closedView(links.s1 as string, 'revoked');
      await tryEverything(links.s1 as string, /replaced by a newer/);
      assert.equal((await view(fresh)).state, 'open');
      await ok(await act(fresh, 'sign', { signature: typed('S One') }));
    });

    await t.test("after replace: the old signer's link is revoked", async () => {
      const { id, links } = await start(server, {}, 2);
      const replaced = await ok<{ signer: { signing_url: string; email: string } }>(
        await postJson(server, `/v1/signature-requests/${id}/signers/s2/replace`, { email: 'carol@example.com', name: 'Carol' }),
      );
      await closedView(links.s2 as string, 'revoked');
      await tryEverything(links.s2 as string, /replaced|cannot be used/);
      const fresh = await view(replaced.signer.signing_url);
      assert.equal(fresh.state, 'open');
      assert.equal(fresh.signer.email, 'carol@example.com');
      assert.equal(fresh.signer.name, 'Carol');
      assert.equal((await view(links.s1 as string)).state, 'open', 'the other signer is untouched');
    });

    await t.test('an unknown or malformed token: unavailable', async () => {
      const origin = new URL(expiring.links.s1 as string).origin;
      for (const token of ['A'.repeat(43), 'abc', 'not-a-token_!']) {
        const link = `${origin}/sign/${token}`;
        const answer = await closedView(link, 'unavailable');
        assert.equal(answer.request, null);
        assert.equal(answer.signer, null);
        assert.equal(answer.return_url, '');
      }
      await tryEverything(`${origin}/sign/${'A'.repeat(43)}`, /cannot be used/);
    });

    await t.test('after the link expiry (8 days later): expired', async () => {
      await advance(server, 8 * DAY);
      await closedView(expiring.links.s1 as string, 'expired');
      await tryEverything(expiring.links.s1 as string, /expired/);
    });
  });

  // ---------------------------------------------------------------------------------------------
  // Sequential signing

  test('sequential signing: a later signer can open but not sign until every lower order has signed', async (t) => {
    const server = await useServer(t);
    const { id, links } = await start(server, { sequential_signing: true }, 3);
    const s2 = links.s2 as string;
    const s3 = links.s3 as string;

    const blocked = await view(s2);
    assert.equal(blocked.state, 'open');
    assert.equal(blocked.request.sequential_signing, true);
    assert.equal(blocked.can_sign, false);
    assert.deepEqual(blocked.waiting_for, ['s1']);
    assert.deepEqual((await view(s3)).waiting_for, ['s1', 's2']);
    assert.equal(signerIn(await fullStatus(server, id), 's2').status, 'viewed', 'opening is allowed and counts as viewed');
    const document = await documentOf(s2);
    assert.equal(document.status, 200, 'the document can be read before it is your turn');
    await document.arrayBuffer();
    await expectError(await act(s2, 'sign', { signature: typed('Two') }), 409, /sequential.*"s1" must sign first/);
    await expectError(await act(s3, 'sign', { signature: typed('Three') }), 409, /"s1", "s2" must sign first/);
    assert.equal(signerIn(await fullStatus(server, id), 's2').status, 'viewed');

    await ok(await act(links.s1 as string, 'sign', { signature: typed('One') }));
    const open = await view(s2);
    assert.equal(open.can_sign, true);
    assert.deepEqual(open.waiting_for, []);
    assert.deepEqual((await view(s3)).waiting_for, ['s2']);
    await expectError(await act(s3, 'sign', { signature: typed('Three') }), 409, /"s2" must sign first/);
    await ok(await act(s2, 'sign', { signature: typed('Two') }));
    const last = await ok(await act(s3, 'sign', { signature: typed('Three') }));
    assert.equal(last.request_status, 'completed');
  });

  test('without sequential_signing any signer signs in any order', async (t) => {
    const server = await useServer(t);
    const { id, links } = await start(server, {}, 3);
    const s3 = await view(links.s3 as string);
    assert.equal(s3.request.sequential_signing, false);
    assert.equal(s3.can_sign, true);
    assert.deepEqual(s3.waiting_for, []);
    assert.equal((await ok(await act(links.s3 as string, 'sign', { signature: typed('Three') }))).request_status, 'active');
    assert.equal((await ok(await act(links.s2 as string, 'sign', { signature: typed('Two') }))).request_status, 'active');
    assert.equal((await ok(await act(links.s1 as string, 'sign', { signature: typed('One') }))).request_status, 'completed');
    assert.equal((await fullStatus(server, id)).status, 'completed');
  });

  // ---------------------------------------------------------------------------------------------
  // Email OTP

  function otpRequest(email: string, extra: Record<string, unknown> = {}) {
    return {
      signers: [
        { reference: 'v', name: 'Vera Verified', email, order: 1, verification: 'email_otp' },
        { reference: 'p', email: `plain-${email}`, order: 2 },
      ],
      fields: [
        { signer_reference: 'v', type: 'signature', page: 1, x: 50, y: 50, width: 100, height: 40 },
        { signer_reference: 'p', type: 'signature', page: 1, x: 50, y: 150, width: 100, height: 40 },
      ],
      ...extra,
    };
  }

  test('email OTP: locked until verified, a 6-digit code by email, attempts counted, then verified and the document downloads', async (t) => {
    const server = await useServer(t);
    const email = 'vera@example.com';
    const prefilled = {
      signer_reference: 'v',
      type: 'text',
      name: 'salary',
      value: 'EUR 95,000',
      read_only: true,
      page: 1,
      x: 50,
      y: 100,
      width: 120,
      height: 20,
    };
    const request = otpRequest(email);
    const { id, links } = await start(server, { ...request, fields: [...request.fields, prefilled] });
    const v = links.v as string;

    const locked = await view(v);
    assert.equal(locked.state, 'open');
    assert.equal(locked.verification_required, true);
    // Nothing of the document before the code: the fields are listed without the values put on them.
    assert.deepEqual(
      locked.fields.map((f: Json) => [f.type, f.name, f.value]),
      [
        ['signature', '', ''],
        ['text', 'salary', ''],
      ],
    );
    assert.ok(!JSON.stringify(locked).includes('95,000'));
    assert.equal(locked.code_live, false, 'no code mailed yet: the page mails one');
    assert.equal(locked.can_sign, false);
    assert.equal(locked.signer.verification, 'email_otp');
    assert.equal(locked.signer.verified_at, null);
    assert.equal(signerIn(await fullStatus(server, id), 'v').verification, 'email_otp');

    await expectError(await documentOf(v), 409, /code/);
    await expectError(await act(v, 'sign', { signature: typed('Vera') }), 409, /code/);
    await expectError(await act(v, 'decline', { reason: 'no' }), 409, /code/);
    await expectError(await act(v, 'otp/verify', { code: '123456' }), 409, /no valid code/, 'otp_code_expired');
    await expectError(await act(v, 'otp/verify', { code: '12345' }), 400);
    await expectError(await act(v, 'otp/verify', { code: 'abcdef' }), 400);

    const before = Date.parse(await sandboxNow(server));
    const sent = await ok(await act(v, 'otp'));
    assert.equal(sent.sent, true);
    assert.equal(sent.email_delivery, 'sent');
    const validFor = Date.parse(sent.expires_at as string) - before;
    assert.ok(validFor >= 10 * MINUTE - 1000 && validFor <= 10 * MINUTE + 5000, `valid for ${validFor} ms`);
    const { code, count } = await otpCode(server, email, id);
    assert.match(code, /^\d{6}$/);
    assert.equal(count, 1);
    assert.equal((await view(v)).code_live, true, 'a reload asks for the code mailed, and mails no other');
    const list = await ok<{ data: Json[] }>(await server.call('GET', `/_sandbox/emails?to=${email}`));
    assert.equal(list.data[0]?.signer_reference, 'v');

    assert.deepEqual(await ok(await act(v, 'otp/verify', { code: wrongCodeFor(code) })), {
      verified: false,
      verified_at: null,
      attempts_left: 4,
      locked_until: null,
    });
    assert.deepEqual(await ok(await act(v, 'otp/verify', { code: wrongCodeFor(wrongCodeFor(code)) })), {
      verified: false,
      verified_at: null,
      attempts_left: 3,
      locked_until: null,
    });
    await expectError(await documentOf(v), 409, /code/);

    const right = await act(v, 'otp/verify', { code });
    const checked = await ok(right);
    assert.equal(checked.verified, true);
    assert.match(checked.verified_at as string, ISO);
    // The code unlocks the link for this client only: it holds the secret (a cookie on the link's path, or the header).
    const secret = right.headers.get('signer-verification') ?? '';
    assert.match(secret, /^[0-9A-Za-z]{40,}$/);
    const cookie = right.headers.get('set-cookie') ?? '';
    assert.match(cookie, new RegExp(`^signer_verification=${secret}; Path=/sign/[0-9A-Za-z]+; HttpOnly; SameSite=Strict$`));
    assert.equal(new URL(v).pathname, /Path=([^;]+)/.exec(cookie)?.[1]);
    const here = { 'signer-verification': secret };
    const verified = await view(v, { headers: here });
    assert.equal(verified.verification_required, false);
    assert.equal(verified.code_live, false);
    assert.equal((await view(v)).code_live, false, 'the code entered is used: another browser gets a new one');
    assert.equal(verified.fields.find((f: Json) => f.name === 'salary')?.value, 'EUR 95,000');
    assert.equal(verified.can_sign, true);
    assert.equal(verified.signer.verified_at, checked.verified_at);
    assert.equal((await view(v, { headers: { cookie: `signer_verification=${secret}` } })).can_sign, true, 'the cookie works as the header');
    assert.equal(signerIn(await fullStatus(server, id), 'v').verified_at, checked.verified_at);
    await expectError(await act(v, 'otp', {}, { headers: here }), 409, /already/);
    assert.equal((await view(v, { headers: { 'signer-verification': 'x'.repeat(43) } })).verification_required, true, 'a made-up secret unlocks nothing');

    const document = await documentOf(v, here);
    assert.equal(document.status, 200);
    assert.match(document.headers.get('content-type') ?? '', /^application\/pdf/);
    assert.ok(Buffer.from(await document.arrayBuffer()).equals(Buffer.from(await a4Pdf())), 'the uploaded PDF, byte for byte');
    await ok(await act(v, 'sign', { signature: typed('Vera') }, { headers: here }));
    assert.ok(auditOf(server, id).some((e) => e.type === 'otp_verified'));

    // A signer without verification asks for no code.
    await expectError(await act(links.p as string, 'otp'), 409, /no email verification/);
    await expectError(await act(links.p as string, 'otp/verify', { code: '123456' }), 409, /no email verification/);
  });

  test('email OTP: a forwarded verified link asks a fresh client for a new code; each verification is in the audit trail', async (t) => {
    const server = await useServer(t);
    const email = 'fwd@example.com';
    const { id, links } = await start(server, otpRequest(email));
    const v = links.v as string;
    await ok(await act(v, 'otp'));
    const first = await act(v, 'otp/verify', { code: (await otpCode(server, email, id)).code });
    assert.equal((await ok(first)).verified, true);
    const mine = { 'signer-verification': first.headers.get('signer-verification') ?? '' };
    assert.equal((await view(v, { headers: mine })).can_sign, true);

    // The link forwarded: a client without the secret sees a locked link and the document stays closed to it.
    const forwarded = await view(v);
    assert.equal(forwarded.verification_required, true);
    assert.equal(forwarded.can_sign, false);
    await expectError(await documentOf(v), 409, /code/);
    await expectError(await act(v, 'sign', { signature: typed('Mallory') }), 409, /code/);
    await expectError(await act(v, 'decline', { reason: 'not me' }), 409, /code/);
    // It needs a code of its own (mailed to the signer), and gets its own secret.
    await ok(await act(v, 'otp'));
    const second = await act(v, 'otp/verify', { code: (await otpCode(server, email, id)).code });
    assert.equal((await ok(second)).verified, true);
    const theirs = second.headers.get('signer-verification') ?? '';
    assert.notEqual(theirs, mine['signer-verification']);
    assert.equal((await view(v, { headers: { 'signer-verification': theirs } })).can_sign, true);
    assert.equal((await view(v, { headers: mine })).can_sign, true, 'the first client stays verified');
    const verifications = auditOf(server, id).filter((e) => e.type === 'otp_verified');
    assert.equal(verifications.length, 2, 'each verification is recorded');
    assert.deepEqual(
      verifications.map((e) => (JSON.parse((e as unknown as { data: string }).data) as { verification: number }).verification),
      [1, 2],
    );
  });

  test('email OTP: "send me a code" at most 5 times per link in 10 minutes, then 429 with Retry-After', async (t) => {
    const server = await useServer(t);
    const email = 'many@example.com';
    const { id, links } = await start(server, otpRequest(email));
    const v = links.v as string;
    for (let i = 0; i < 5; i++) await ok(await act(v, 'otp'));
    const refused = await act(v, 'otp');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 600, `Retry-After ${refused.headers.get('retry-after')}`);
    const message = await expectError(refused, 429, /5 codes were sent for this link in the last 10 minutes/);
    assert.match(message, new RegExp(`in ${retryAfter} s`));
    assert.equal((await otpCode(server, email, id)).count, 5, 'the refused request sent no mail');
    await advance(server, 10 * MINUTE + 1000);
    await ok(await act(v, 'otp'));
    assert.equal((await otpCode(server, email, id)).count, 6);
  });

  test('email OTP: the fifth wrong attempt kills the code; a new code can be requested; a new code replaces the old one', async (t) => {
    const server = await useServer(t);
    const email = 'five@example.com';
    const { id, links } = await start(server, otpRequest(email));
    const v = links.v as string;
    await ok(await act(v, 'otp'));
    const { code } = await otpCode(server, email, id);
    const wrong = wrongCodeFor(code);
    const left: number[] = [];
    for (let i = 0; i < 5; i++) left.push((await ok(await act(v, 'otp/verify', { code: wrong }))).attempts_left as number);
    assert.deepEqual(left, [4, 3, 2, 1, 0]);
    await expectError(await act(v, 'otp/verify', { code }), 409, /no valid code/, 'otp_code_expired');
    assert.equal((await view(v)).verification_required, true);

    await ok(await act(v, 'otp'));
    const second = await otpCode(server, email, id);
    assert.equal(second.count, 2);
    await ok(await act(v, 'otp'));
    const third = await otpCode(server, email, id);
    assert.equal(third.count, 3);
    if (second.code !== third.code) {
      // The replaced code is dead: refused outright, or counted as a wrong attempt on the live code.
      const stale = await act(v, 'otp/verify', { code: second.code });
      const body = await json<Json>(stale);
      assert.ok(stale.status === 409 || (stale.status === 200 && body.verified === false), JSON.stringify(body));
      assert.equal((await view(v)).verification_required, true);
    }
    const checked = await ok(await act(v, 'otp/verify', { code: third.code }));
    assert.equal(checked.verified, true);
  });

  test('email OTP: a code is valid 10 minutes on the sandbox clock', async (t) => {
    const server = await useServer(t);
    const email = 'ten@example.com';
    const { id, links } = await start(server, otpRequest(email));
    const v = links.v as string;
    await ok(await act(v, 'otp'));
    const { code } = await otpCode(server, email, id);
    await advance(server, 9 * MINUTE);
    assert.equal((await ok(await act(v, 'otp/verify', { code: wrongCodeFor(code) }))).verified, false, 'still alive after 9 minutes');
    assert.equal((await view(v)).code_live, true);
    await advance(server, 2 * MINUTE);
    assert.equal((await view(v)).code_live, false, 'expired: the page mails a new one');
    await expectError(await act(v, 'otp/verify', { code }), 409, /no valid code/, 'otp_code_expired');
    await ok(await act(v, 'otp'));
    const fresh = await otpCode(server, email, id);
    assert.equal((await ok(await act(v, 'otp/verify', { code: fresh.code }))).verified, true);
  });

  test('email OTP: 15 wrong codes in 24 hours lock verification until the window has passed', async (t) => {
    const server = await useServer(t);
    const email = 'lock@example.com';
    const { id, links } = await start(server, otpRequest(email));
    const v = links.v as string;
    let last: Json = {};
    for (let round = 0; round < 3; round++) {
      await ok(await act(v, 'otp'));
      const { code } = await otpCode(server, email, id);
      for (let i = 0; i < 5; i++) {
        last = await ok(await act(v, 'otp/verify', { code: wrongCodeFor(code) }));
        assert.equal(last.verified, false, `round ${round} attempt ${i}`);
        // The 15th wrong code is the one that locks: its answer says so; the 14 before it do not.
        if (round * 5 + i < 14) assert.equal(last.locked_until, null, `round ${round} attempt ${i}`);
      }
    }
    const now = Date.parse(await sandboxNow(server));
    assert.match(last.locked_until as string, ISO);
    assert.equal(last.attempts_left, 0);
    const message = await expectError(await act(v, 'otp'), 409, /locked until \d{4}-\d{2}-\d{2}T/, 'otp_locked');
    const until = Date.parse(/until (\S+)/.exec(message)?.[1] ?? '');
    assert.ok(until > now && until <= now + DAY + 1000, message);
    assert.equal(Date.parse(last.locked_until as string), until, 'the 15th answer and the later refusals name the same time');
    await expectError(await act(v, 'otp/verify', { code: '123456' }), 409, /locked until/, 'otp_locked');
    assert.equal((await view(v)).verification_required, true);

    await advance(server, 23 * 60 * MINUTE);
    await expectError(await act(v, 'otp'), 409, /locked until/, 'otp_locked');
    await advance(server, 61 * MINUTE);
    await ok(await act(v, 'otp'));
    const { code } = await otpCode(server, email, id);
    const checked = await ok(await act(v, 'otp/verify', { code }));
    assert.equal(checked.verified, true);
    assert.match(signerIn(await fullStatus(server, id), 'v').verified_at as string, ISO);
  });

  // ---------------------------------------------------------------------------------------------
  // Return URL

  function assertReturnUrl(
    returnUrl: string,
    expected: { base: string; status: string; id: string; clientReference: string; signer: string; param?: string; extra?: Record<string, string> },
  ) {
    const url = new URL(returnUrl);
    assert.equal(`${url.origin}${url.pathname}`, expected.base, returnUrl);
    const params = Object.fromEntries(url.searchParams);
    assert.deepEqual(params, {
      ...expected.extra,
      [expected.param ?? 'paraph_status']: expected.status,
      signature_request_id: expected.id,
      client_reference: expected.clientReference,
      signer_reference: expected.signer,
    });
  }

  test('return URL: outcome parameters appended to an existing query; closed views carry it; empty without one', async (t) => {
    const server = await useServer(t);
    const returnUrl = 'https://app.example.com/done?x=1';
    const expect = (answer: string, status: string, id: string, clientReference: string, signer: string) =>
      assertReturnUrl(answer, { base: 'https://app.example.com/done', status, id, clientReference, signer, extra: { x: '1' } });

    await t.test('sign and decline outcomes', async () => {
      const { id, links } = await start(server, { return_url: returnUrl, client_reference: 'ret-1' }, 2);
      const signed = await ok(await act(links.s1 as string, 'sign', { signature: typed('One') }));
      expect(signed.return_url as string, 'signed', id, 'ret-1', 's1');
      const afterSigning = await view(links.s1 as string);
      expect(afterSigning.return_url as string, 'signed', id, 'ret-1', 's1');
      assert.equal((await view(links.s2 as string)).return_url, '', 'an open view has no return_url yet');
      const declined = await ok(await act(links.s2 as string, 'decline', { reason: 'no' }));
      expect(declined.return_url as string, 'declined', id, 'ret-1', 's2');
      expect((await view(links.s2 as string)).return_url as string, 'declined', id, 'ret-1', 's2');
    });

    await t.test('a cancelled request', async () => {
      const { id, links } = await start(server, { return_url: returnUrl, client_reference: 'ret-2' }, 1);
      assert.equal((await postJson(server, `/v1/signature-requests/${id}/cancel`, {})).status, 200);
      const closed = await view(links.s1 as string);
      assert.equal(closed.closed_reason, 'cancelled');
      expect(closed.return_url as string, 'cancelled', id, 'ret-2', 's1');
    });

    await t.test('a request without return_url: empty everywhere', async () => {
      const { id, links } = await start(server, {}, 2);
      assert.equal((await ok(await act(links.s1 as string, 'sign', { signature: typed('One') }))).return_url, '');
      assert.equal((await view(links.s1 as string)).return_url, '');
      assert.equal((await ok(await act(links.s2 as string, 'decline', { reason: 'no' }))).return_url, '');
      assert.equal((await fullStatus(server, id)).status, 'declined');
    });

    await t.test('an expired request', async () => {
      const { id, links } = await start(server, { return_url: 'http://localhost:3000/back', client_reference: 'ret-3' }, 1);
      await advance(server, 8 * DAY);
      const closed = await view(links.s1 as string);
      assert.equal(closed.closed_reason, 'expired');
      assertReturnUrl(closed.return_url as string, { base: 'http://localhost:3000/back', status: 'expired', id, clientReference: 'ret-3', signer: 's1' });
    });
  });

  test('return URL and view under --brand acme: acme_status, brand acme', async (t) => {
    const server = await useServer(t, { brand: 'acme' });
    const { id, links } = await start(server, { return_url: 'https://app.example.com/done', client_reference: 'brand-1' }, 1);
    const opened = await view(links.s1 as string);
    assert.equal(opened.brand, 'acme');
    const signed = await ok(await act(links.s1 as string, 'sign', { signature: typed('One') }));
    assertReturnUrl(signed.return_url as string, {
      base: 'https://app.example.com/done',
      status: 'signed',
      id,
      clientReference: 'brand-1',
      signer: 's1',
      param: 'acme_status',
    });
    assert.equal(new URL(signed.return_url as string).searchParams.get('paraph_status'), null);
  });

  // ---------------------------------------------------------------------------------------------
  // Webhooks

  async function eventsFor(receiver: Receiver, requestId: string, count: number): Promise<Json[]> {
    const deadline = Date.now() + 8000;
    for (;;) {
      const mine = receiver.received.map((r) => JSON.parse(r.body) as Json).filter((e) => e.data.signature_request_id === requestId);
      if (mine.length >= count || Date.now() > deadline) return mine;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  test('webhooks: signer.viewed, signer.completed, signature_request.completed, signer.declined, signature_request.declined arrive with their data', async (t) => {
    const server = await useServer(t, { allowLoopbackWebhooks: true });
    const receiver = await useReceiver(t);

    const signing = await start(server, { callback_url: receiver.url, client_reference: 'wh-sign' }, 2);
    await view(signing.links.s1 as string);
    await view(signing.links.s1 as string);
    await ok(await act(signing.links.s1 as string, 'sign', { signature: typed('One') }));
    // s2 signs without loading the view: marked viewed as it signs.
    await ok(await act(signing.links.s2 as string, 'sign', { signature: typed('Two') }));
    const signed = await eventsFor(receiver, signing.id, 6);
    assert.deepEqual(signed.map((e) => e.type).sort(), [
      'signature_request.activated',
      'signature_request.completed',
      'signer.completed',
      'signer.completed',
      'signer.viewed',
      'signer.viewed',
    ]);
    for (const event of signed) {
      assert.equal(event.data.client_reference, 'wh-sign');
      assert.match(event.id as string, /^evt_/);
      assert.match(event.created_at as string, ISO);
    }
    const byType = (events: Json[], type: string) => events.filter((e) => e.type === type);
    const viewed = byType(signed, 'signer.viewed').find((e) => e.data.signer.reference === 's1') as Json;
    assert.deepEqual(viewed.data, {
      signature_request_id: signing.id,
      client_reference: 'wh-sign',
      status: 'active',
      signer: { id: signing.signers.s1, reference: 's1', email: 's1@example.com', status: 'viewed' },
    });
    const completedSigners = byType(signed, 'signer.completed')
      .map((e) => [e.data.signer.reference, e.data.signer.status, e.data.status])
      .sort();
    assert.deepEqual(completedSigners, [
      ['s1', 'signed', 'active'],
      ['s2', 'signed', 'completed'],
    ]);
    const completed = byType(signed, 'signature_request.completed')[0] as Json;
    assert.deepEqual(completed.data, { signature_request_id: signing.id, client_reference: 'wh-sign', status: 'completed' });

    const declining = await start(server, { callback_url: receiver.url, client_reference: 'wh-decline' }, 2);
    await ok(await act(declining.links.s2 as string, 'decline', { reason: 'Terms changed' }));
    const declined = await eventsFor(receiver, declining.id, 3);
    assert.deepEqual(declined.map((e) => e.type).sort(), ['signature_request.activated', 'signature_request.declined', 'signer.declined']);
    const signerDeclined = byType(declined, 'signer.declined')[0] as Json;
    assert.deepEqual(signerDeclined.data, {
      signature_request_id: declining.id,
      client_reference: 'wh-decline',
      status: 'declined',
      reason: 'Terms changed',
      signer: { id: declining.signers.s2, reference: 's2', email: 's2@example.com', status: 'declined' },
    });
    const requestDeclined = byType(declined, 'signature_request.declined')[0] as Json;
    assert.deepEqual(requestDeclined.data, { signature_request_id: declining.id, client_reference: 'wh-decline', status: 'declined' });

    // Nothing more arrives: s1's second view wrote no second signer.viewed. The declined request's events,
    // written later, have arrived; a one-second advance answers once no attempt is in flight.
    await advance(server, 1000);
    assert.equal((await eventsFor(receiver, signing.id, 0)).length, 6);
    assert.deepEqual(
      eventsOf(server, signing.id)
        .filter((e) => e.type === 'signer.viewed')
        .map((e) => e.data.signer.reference),
      ['s1', 's2'],
      'one signer.viewed written per signer',
    );
  });
});
