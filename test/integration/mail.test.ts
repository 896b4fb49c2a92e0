// paraph's mail, end to end over real HTTP and real SMTP: invitations (`send_emails`), reminders and
// replacement mails, their branding (spec "EmailBranding") and language (signer `locale`), delivery
// outcomes (`email_delivery`), and the built-in SMTP catcher as the sandbox contract describes it
// (`--smtp-port`, `GET /_sandbox/emails`, `paraph emails`, `--smtp-relay`, `--smtp-max-messages`).
//
// The CLI cases run the built binary: run `npx tsc -p tsconfig.json` first so dist/ is current.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { resolveSigningLink } from '../../src/features/signing/resolve-signing-link.js';
import { listCaughtEmails } from '../../src/features/mail/caught-emails.js';
import { paraph } from '../helpers/cli.js';
import { activate, createRequest, postJson, status } from '../helpers/flows.js';
import { createForm, payload } from '../helpers/requests.js';
import { json, useServer, type TestServer } from '../helpers/server.js';

const ROUTE = '/v1/signature-requests';

interface CaughtEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  received_at: string;
  kind: string | null;
  signature_request_id: string | null;
  signer_reference: string | null;
}

interface ActivatedSigner {
  id: string;
  reference: string;
  status: string;
  signing_url: string;
  email_delivery: string;
  embed_url: string;
}

interface SignerInput {
  reference: string;
  email: string;
  name?: string;
  locale?: string;
}

/** A request with these signers (one signature field each), plus any other create fields. */
async function createWith(server: TestServer, signers: SignerInput[], extra: Record<string, unknown> = {}): Promise<string> {
  const people = signers.map((s, i) => ({ ...s, order: i + 1 }));
  const fields = people.map((p, i) => ({ signer_reference: p.reference, type: 'signature', page: 1, x: 50, y: 50 + i * 60, width: 150, height: 40 }));
  const response = await server.call('POST', ROUTE, { body: await createForm(payload({ signers: people, fields, ...extra })) });
  assert.equal(response.status, 201, await response.clone().text());
  return (await json<{ id: string }>(response)).id;
}

async function activateFull(server: TestServer, id: string, options: Record<string, unknown> = {}): Promise<ActivatedSigner[]> {
  return ((await activate(server, id, options)) as unknown as { signers: ActivatedSigner[] }).signers;
}

/** GET /_sandbox/emails with a query; asserts 200. */
async function emails(server: TestServer, query: Record<string, string> = {}, key?: string): Promise<CaughtEmail[]> {
  const qs = new URLSearchParams(query).toString();
  const response = await server.call('GET', `/_sandbox/emails${qs ? `?${qs}` : ''}`, key === undefined ? {} : { key });
  assert.equal(response.status, 200, await response.clone().text());
  return (await json<{ data: CaughtEmail[] }>(response)).data;
}

async function remind(server: TestServer, id: string, body: Record<string, unknown> = {}) {
  const response = await postJson(server, `${ROUTE}/${id}/reminders`, body);
  assert.equal(response.status, 200, await response.clone().text());
  return json<{ id: string; status: string; reminders: Array<{ reference: string; email_delivery: string; signing_url: string }> }>(response);
}

async function replace(server: TestServer, id: string, reference: string, body: Record<string, unknown>) {
  const response = await postJson(server, `${ROUTE}/${id}/signers/${reference}/replace`, body);
  assert.equal(response.status, 200, await response.clone().text());
  return json<{ id: string; signer: { id: string; reference: string; email: string; signing_url: string; email_delivery: string } }>(response);
}

const unescapeHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '');

/** The href of every `<a>` in the HTML that is styled as a button (has a background). */
function buttonHrefs(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*style="[^"]*background[^"]*"[^>]*>/g)].map((m) => unescapeHtml(m[1] ?? ''));
}

/** The display name of a caught mail's From (`Name <address>`). */
function displayName(from: string): string {
  const match = /^"?(.*?)"?\s*<[^>]+>$/.exec(from);
  assert.ok(match, `From "${from}" should carry a display name`);
  return match[1] ?? '';
}

function tokenOf(url: string): string {
  return new URL(url).pathname.split('/').pop() ?? '';
}

function linkWorks(server: TestServer, url: string): boolean {
  return resolveSigningLink(server.running.ctx, tokenOf(url)).ok;
}

function smtpClient(server: TestServer, auth?: { user: string; pass: string }) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: server.running.smtpPort,
    secure: false,
    ignoreTLS: true,
    ...(auth ? { auth } : {}),
  });
}

function caughtCount(server: TestServer): number {
  return listCaughtEmails(server.running.ctx, { accountId: null, limit: 10_000 }).length;
}

test('paraph mail through the built-in catcher', async (t) => {
  const server = await useServer(t);

  await t.test('activate with send_emails mails each signer an invitation carrying that signer\'s link', async () => {
    const id = await createWith(server, [
      { reference: 'client', name: 'Ada Lovelace', email: 'ada.invite@example.com' },
      { reference: 'witness', email: 'wendy.invite@example.com' },
    ]);
    const signers = await activateFull(server, id, { send_emails: true });
    assert.equal(signers.length, 2);
    for (const signer of signers) assert.equal(signer.email_delivery, 'sent', signer.reference);

    const byRequest = await emails(server, { signature_request_id: id });
    assert.equal(byRequest.length, 2, 'one invitation per signer');
    assert.deepEqual(byRequest.map((m) => m.signer_reference).sort(), ['client', 'witness']);

    const addresses: Record<string, string> = { client: 'ada.invite@example.com', witness: 'wendy.invite@example.com' };
    for (const signer of signers) {
      const other = signers.find((s) => s.id !== signer.id)!;
      const mails = await emails(server, { to: addresses[signer.reference]! });
      assert.equal(mails.length, 1, `exactly one mail to ${signer.reference}`);
      const mail = mails[0]!;
      assert.equal(mail.kind, 'invitation');
      assert.equal(mail.signature_request_id, id);
      assert.equal(mail.signer_reference, signer.reference);
      assert.deepEqual(mail.to, [addresses[signer.reference]]);
      assert.ok(mail.text.includes(signer.signing_url), 'the text carries the signer\'s link');
      assert.deepEqual(buttonHrefs(mail.html), [signer.signing_url], 'the button links to the signer\'s link');
      assert.ok(!mail.text.includes(other.signing_url) && !mail.html.includes(tokenOf(other.signing_url)), 'never another signer\'s link');
      assert.match(mail.subject, /contract\.pdf/, 'the default subject names the document');
      assert.ok(mail.id && !Number.isNaN(Date.parse(mail.received_at)));
      assert.equal(displayName(mail.from), 'paraph', 'without branding the mail comes from the brand');
      assert.match(mail.text, /sent by paraph on behalf of its client/);
    }
  });

  await t.test('activate without send_emails mails nobody: email_delivery not_requested', async () => {
    for (const options of [{}, { send_emails: false }]) {
      const id = await createRequest(server, {}, 2);
      const signers = await activateFull(server, id, options);
      for (const signer of signers) assert.equal(signer.email_delivery, 'not_requested');
      assert.deepEqual(await emails(server, { signature_request_id: id }), []);
    }
  });

  await t.test('branding: sender name, subject, message (line breaks kept, HTML escaped), logo, on-behalf line', async () => {
    const branding = {
      sender_name: 'Étude Dupont & Associés',
      subject: 'Your lease — please sign',
      message: 'Dear tenant,\nplease sign before Friday.\n<script>alert(1)</script> & thanks',
      logo_url: 'https://cdn.example.com/logo.png',
    };
    const id = await createWith(server, [{ reference: 'tenant', name: 'Tom', email: 'tom.brand@example.com' }], { email: branding });
    const [signer] = await activateFull(server, id, { send_emails: true });
    assert.equal(signer?.email_delivery, 'sent');
    const [mail] = await emails(server, { signature_request_id: id });
    assert.ok(mail);

    assert.equal(displayName(mail.from), branding.sender_name, 'sender_name is the From display name');
    assert.ok(mail.text.includes(branding.sender_name), 'sender_name appears in the text');
    assert.equal(mail.subject, branding.subject, 'subject replaces the default');

    // The message, above the button, line breaks kept.
    const textAt = mail.text.indexOf(branding.message);
    assert.ok(textAt >= 0, `the text carries the message verbatim with its line breaks:\n${mail.text}`);
    assert.ok(textAt < mail.text.indexOf(signer.signing_url), 'the message comes before the link in the text');
    const escaped = 'Dear tenant,<br>please sign before Friday.<br>&lt;script&gt;alert(1)&lt;/script&gt; &amp; thanks';
    const htmlAt = mail.html.indexOf(escaped);
    assert.ok(htmlAt >= 0, `the HTML carries the escaped message with <br> line breaks:\n${mail.html}`);
    assert.ok(htmlAt < mail.html.search(/<a\s[^>]*style="[^"]*background/), 'the message comes above the button');
    assert.ok(!/<script/i.test(mail.html), 'no raw <script> in the HTML');

    assert.match(mail.html, /<img\s[^>]*src="https:\/\/cdn\.example\.com\/logo\.png"[^>]*height="40"/, 'the logo, 40 px high');

    assert.ok(mail.text.includes('This email is sent by paraph on behalf of Étude Dupont & Associés.'), mail.text);
    assert.ok(mail.html.includes('This email is sent by paraph on behalf of Étude Dupont &amp; Associés.'));
    assert.deepEqual(buttonHrefs(mail.html), [signer.signing_url]);

    // Reminders and replacement mails carry the same branding.
    const reminded = await remind(server, id);
    const replaced = await replace(server, id, 'tenant', { email: 'tina.brand@example.com', send_email: true });
    assert.equal(replaced.signer.email_delivery, 'sent');
    const [latest, reminder] = await emails(server, { signature_request_id: id });
    assert.equal(reminder?.kind, 'reminder');
    assert.equal(latest?.kind, 'replacement');
    for (const mail of [reminder!, latest!]) {
      assert.equal(mail.subject, branding.subject, mail.kind ?? '');
      assert.equal(displayName(mail.from), branding.sender_name);
      assert.ok(mail.text.includes(branding.message));
      assert.match(mail.html, /<img\s[^>]*height="40"/);
    }
    assert.ok(reminder!.text.includes(reminded.reminders[0]!.signing_url));
  });

  await t.test('mail speaks the signer\'s locale: fr, ar (right to left), English by default', async () => {
    const id = await createWith(server, [
      { reference: 'fr', name: 'Jeanne', email: 'jeanne.locale@example.com', locale: 'fr' },
      { reference: 'ar', name: 'Layla', email: 'layla.locale@example.com', locale: 'ar' },
      { reference: 'en', name: 'Emma', email: 'emma.locale@example.com' },
    ]);
    const signers = await activateFull(server, id, { send_emails: true });
    const link = (ref: string) => signers.find((s) => s.reference === ref)!.signing_url;

    const [fr] = await emails(server, { to: 'jeanne.locale@example.com' });
    assert.ok(fr);
    assert.ok(fr.text.includes('Bonjour Jeanne'), fr.text);
    assert.ok(fr.text.includes('Consulter et signer'));
    assert.match(fr.subject, /vous invite à signer/);
    assert.match(fr.html, /<html lang="fr" dir="ltr">/);
    assert.ok(!fr.text.includes('Hello'));
    assert.ok(fr.text.includes(link('fr')));

    const [ar] = await emails(server, { to: 'layla.locale@example.com' });
    assert.ok(ar);
    assert.match(ar.html, /<html lang="ar" dir="rtl">/);
    assert.ok(ar.text.includes('مرحبًا Layla'), ar.text);
    assert.ok(ar.text.includes('مراجعة وتوقيع'));
    assert.ok(!ar.text.includes('Hello') && !ar.text.includes('Review and sign'));
    assert.ok(ar.text.includes(link('ar')));

    const [en] = await emails(server, { to: 'emma.locale@example.com' });
    assert.ok(en);
    assert.ok(en.text.includes('Hello Emma'), en.text);
    assert.ok(en.text.includes('Review and sign'));
    assert.match(en.html, /<html lang="en" dir="ltr">/);
    assert.ok(!en.text.includes('Bonjour'));
  });

  await t.test('reminders mail each reminded signer the new link; newest first', async () => {
    const id = await createWith(server, [
      { reference: 's1', email: 'rem1@example.com' },
      { reference: 's2', email: 'rem2@example.com' },
    ]);
    const first = await activateFull(server, id, { send_emails: true });
    const answer = await remind(server, id);
    assert.equal(answer.reminders.length, 2);
    for (const reminder of answer.reminders) {
      assert.equal(reminder.email_delivery, 'sent');
      const old = first.find((s) => s.reference === reminder.reference)!.signing_url;
      assert.notEqual(reminder.signing_url, old, 'a new link');
      const to = reminder.reference === 's1' ? 'rem1@example.com' : 'rem2@example.com';
      const mails = await emails(server, { to });
      assert.deepEqual(mails.map((m) => m.kind), ['reminder', 'invitation'], 'newest first');
      const mail = mails[0]!;
      assert.equal(mail.signature_request_id, id);
      assert.equal(mail.signer_reference, reminder.reference);
      assert.ok(mail.text.includes(reminder.signing_url), 'the reminder carries the new link');
      assert.deepEqual(buttonHrefs(mail.html), [reminder.signing_url]);
      assert.ok(!mail.text.includes(old) && !mail.html.includes(tokenOf(old)), 'never the dead link');
      assert.match(mail.subject, /^Reminder/);
      assert.ok(Date.parse(mails[0]!.received_at) >= Date.parse(mails[1]!.received_at));
    }

    // One signer only.
    const one = await remind(server, id, { signer_reference: 's2' });
    assert.deepEqual(one.reminders.map((r) => [r.reference, r.email_delivery]), [['s2', 'sent']]);
    assert.equal((await emails(server, { to: 'rem1@example.com' })).length, 2);
    const s2 = await emails(server, { to: 'rem2@example.com' });
    assert.deepEqual(s2.map((m) => m.kind), ['reminder', 'reminder', 'invitation']);
    assert.ok(s2[0]!.text.includes(one.reminders[0]!.signing_url));

    // A reminder emails even when the request was activated without send_emails.
    const quiet = await createWith(server, [{ reference: 'q', email: 'quiet.rem@example.com' }]);
    await activateFull(server, quiet);
    assert.deepEqual(await emails(server, { to: 'quiet.rem@example.com' }), []);
    const reminded = await remind(server, quiet);
    assert.equal(reminded.reminders[0]?.email_delivery, 'sent');
    const quietMails = await emails(server, { to: 'quiet.rem@example.com' });
    assert.deepEqual(quietMails.map((m) => m.kind), ['reminder']);
    assert.ok(quietMails[0]!.text.includes(reminded.reminders[0]!.signing_url));
  });

  await t.test('replace with send_email mails the new signer their link; otherwise, and before activation, no mail', async () => {
    const id = await createWith(server, [
      { reference: 's1', email: 'orig1.rep@example.com' },
      { reference: 's2', email: 'orig2.rep@example.com' },
    ]);
    await activateFull(server, id);

    const replaced = await replace(server, id, 's1', { email: 'carol.rep@example.com', name: 'Carole', locale: 'fr', send_email: true });
    assert.equal(replaced.signer.email_delivery, 'sent');
    const mails = await emails(server, { to: 'carol.rep@example.com' });
    assert.equal(mails.length, 1);
    const mail = mails[0]!;
    assert.equal(mail.kind, 'replacement');
    assert.equal(mail.signature_request_id, id);
    assert.equal(mail.signer_reference, 's1');
    assert.deepEqual(mail.to, ['carol.rep@example.com']);
    assert.ok(mail.text.includes(replaced.signer.signing_url), 'the new signer\'s link');
    assert.deepEqual(buttonHrefs(mail.html), [replaced.signer.signing_url]);
    assert.ok(mail.text.includes('Bonjour Carole'), 'in the new signer\'s language');
    assert.deepEqual(await emails(server, { to: 'orig1.rep@example.com' }), [], 'the replaced signer gets nothing');

    const silent = await replace(server, id, 's2', { email: 'dan.rep@example.com' });
    assert.equal(silent.signer.email_delivery, 'not_requested');
    assert.deepEqual(await emails(server, { to: 'dan.rep@example.com' }), []);
    const explicitFalse = await replace(server, id, 's2', { email: 'dora.rep@example.com', send_email: false });
    assert.equal(explicitFalse.signer.email_delivery, 'not_requested');
    assert.deepEqual(await emails(server, { to: 'dora.rep@example.com' }), []);

    const prepared = await createWith(server, [{ reference: 'p', email: 'prep.rep@example.com' }]);
    const corrected = await replace(server, prepared, 'p', { email: 'fixed.rep@example.com', send_email: true });
    assert.equal(corrected.signer.email_delivery, 'not_requested');
    assert.equal(corrected.signer.signing_url, '');
    assert.deepEqual(await emails(server, { signature_request_id: prepared }), []);
    assert.deepEqual(await emails(server, { to: 'fixed.rep@example.com' }), []);
  });

  await t.test('/_sandbox/emails: key required, signature_request_id must be a uuid, `to` matches case-insensitively', async () => {
    const anonymous = await server.call('GET', '/_sandbox/emails', { key: null });
    assert.equal(anonymous.status, 401);
    assert.ok((await json<{ error: { code: string } }>(anonymous)).error.code);
    const wrongKey = await server.call('GET', '/_sandbox/emails', { key: 'paraph_test_nope' });
    assert.equal(wrongKey.status, 401);

    const bad = await server.call('GET', '/_sandbox/emails?signature_request_id=not-a-uuid');
    assert.equal(bad.status, 400);
    assert.equal((await json<{ error: { code: string } }>(bad)).error.code, 'invalid_request');

    assert.deepEqual(await emails(server, { signature_request_id: randomUUID() }), [], 'an unknown request has no mail');

    const id = await createWith(server, [{ reference: 'm', email: 'Mixed.Case@Example.COM' }]);
    await activateFull(server, id, { send_emails: true });
    for (const to of ['Mixed.Case@Example.COM', 'mixed.case@example.com', 'MIXED.CASE@EXAMPLE.COM']) {
      const found = await emails(server, { to });
      assert.equal(found.length, 1, to);
      assert.equal(found[0]!.signature_request_id, id);
      assert.deepEqual(found[0]!.to.map((a) => a.toLowerCase()), ['mixed.case@example.com']);
    }
    assert.deepEqual(await emails(server, { to: 'case@example.com' }), [], 'a part of an address matches nothing');
    assert.deepEqual(await emails(server, { to: 'xmixed.case@example.com' }), []);

    // Both filters together.
    assert.equal((await emails(server, { to: 'mixed.case@example.com', signature_request_id: id })).length, 1);
    assert.equal((await emails(server, { to: 'mixed.case@example.com', signature_request_id: randomUUID() })).length, 0);

    // Newest first across the whole account.
    const all = await emails(server);
    assert.ok(all.length > 5);
    assert.equal(all[0]!.signature_request_id, id, 'the newest mail first');
    const times = all.map((m) => Date.parse(m.received_at));
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
  });

  await t.test('another account sees none of this account\'s mail', async () => {
    const mine = await emails(server);
    assert.ok(mine.length > 0);
    const other = server.newKey();
    assert.notEqual(other.accountId, server.accountId);
    assert.deepEqual(await emails(server, {}, other.apiKey), []);
    assert.deepEqual(await emails(server, { signature_request_id: mine[0]!.signature_request_id! }, other.apiKey), []);
    assert.deepEqual(await emails(server, { to: mine[0]!.to[0]! }, other.apiKey), []);

    // And its own invitations are its alone.
    const id = await createWith({ ...server, call: (m, r, init = {}) => server.call(m, r, { key: other.apiKey, ...init }) }, [
      { reference: 'o', email: 'other.account@example.com' },
    ]);
    const res = await postJson(server, `${ROUTE}/${id}/activate`, { send_emails: true }, other.apiKey);
    assert.equal(res.status, 200);
    assert.equal((await emails(server, {}, other.apiKey)).length, 1);
    assert.deepEqual(await emails(server, { to: 'other.account@example.com' }), []);
  });

  await t.test('outside SMTP clients are accepted, listed by the CLI but not by /_sandbox/emails', async () => {
    const anonymous = smtpClient(server);
    const withAuth = smtpClient(server, { user: 'someone', pass: 'anything' });
    try {
      const a = await anonymous.sendMail({
        from: 'Outside Sender <outside@elsewhere.test>',
        to: 'Outside.Person@Elsewhere.test',
        subject: 'outside hello',
        text: 'plain body from outside',
        html: '<p>html body from outside</p>',
      });
      assert.equal(a.accepted.length, 1);
      assert.equal(a.rejected.length, 0);
      const b = await withAuth.sendMail({ from: 'auth@elsewhere.test', to: ['one@elsewhere.test', 'two@elsewhere.test'], subject: 'with auth', text: 'authenticated body' });
      assert.equal(b.accepted.length, 2);
    } finally {
      anonymous.close();
      withAuth.close();
    }

    // Not the account's mail.
    const api = await emails(server);
    assert.ok(!api.some((m) => m.subject === 'outside hello' || m.subject === 'with auth'));
    assert.deepEqual(await emails(server, { to: 'outside.person@elsewhere.test' }), []);

    const listed = await paraph(['emails', 'list', '--json', '--data-dir', server.dataDir]);
    assert.equal(listed.code, 0, listed.stderr);
    const all = JSON.parse(listed.stdout) as CaughtEmail[];
    assert.deepEqual(all.slice(0, 2).map((m) => m.subject), ['with auth', 'outside hello'], 'newest first');
    const outside = all[1]!;
    assert.deepEqual(outside.to, ['outside.person@elsewhere.test']);
    assert.equal(outside.from, 'Outside Sender <outside@elsewhere.test>');
    assert.equal(outside.text.trim(), 'plain body from outside');
    assert.equal(outside.html.trim(), '<p>html body from outside</p>');
    assert.equal(outside.kind, null);
    assert.equal(outside.signature_request_id, null);
    assert.deepEqual(all[0]!.to, ['one@elsewhere.test', 'two@elsewhere.test']);
    assert.equal(all[0]!.text.trim(), 'authenticated body');
    assert.ok(all.some((m) => m.kind === 'invitation'), 'the CLI lists paraph\'s own mail too');
    assert.equal(all.length, api.length + 2 + 1 /* the other account's invitation */);

    const filtered = await paraph(['emails', 'list', '--json', '--to', 'OUTSIDE.person@elsewhere.test', '--data-dir', server.dataDir]);
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.deepEqual((JSON.parse(filtered.stdout) as CaughtEmail[]).map((m) => m.id), [outside.id]);

    const shown = await paraph(['emails', 'show', outside.id, '--data-dir', server.dataDir]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^From: +Outside Sender <outside@elsewhere\.test>$/m);
    assert.match(shown.stdout, /^To: +outside\.person@elsewhere\.test$/m);
    assert.match(shown.stdout, /^Subject: +outside hello$/m);
    assert.match(shown.stdout, /plain body from outside/);
  });

  await t.test('a message over 10 MiB is refused with 552 and not stored', async () => {
    const before = caughtCount(server);
    const client = smtpClient(server);
    try {
      await assert.rejects(
        client.sendMail({ from: 'big@elsewhere.test', to: 'big@elsewhere.test', subject: 'too big', text: 'x'.repeat(10 * 1024 * 1024 + 1024) }),
        (error: Error & { responseCode?: number }) => {
          assert.equal(error.responseCode, 552, error.message);
          return true;
        },
      );
      assert.equal(caughtCount(server), before, 'nothing stored');
      // A large message under the limit is still taken.
      await client.sendMail({ from: 'big@elsewhere.test', to: 'big@elsewhere.test', subject: 'large but fine', text: 'y'.repeat(2 * 1024 * 1024) });
      assert.equal(caughtCount(server), before + 1);
    } finally {
      client.close();
    }
  });

  await t.test(
    'mail from an outside SMTP client that copies paraph\'s X-Paraph-* headers is not attributed to the account',
    async () => {
      const id = (await emails(server))[0]!.signature_request_id!;
      const client = smtpClient(server);
      try {
        await client.sendMail({
          from: 'paraph <no-reply@paraph.test>',
          to: 'forged@example.com',
          subject: 'forged invitation',
          text: 'Review and sign: https://evil.example/sign/x',
          headers: {
            'X-Paraph-Kind': 'invitation',
            'X-Paraph-Account-Id': server.accountId,
            'X-Paraph-Signature-Request-Id': id,
            'X-Paraph-Signer-Reference': 'm',
            'X-Paraph-Tag': 'f'.repeat(64),
          },
        });
      } finally {
        client.close();
      }
      assert.deepEqual(await emails(server, { to: 'forged@example.com' }), []);
    },
  );
});

test('a failing SMTP relay: the change stands, email_delivery is failed, nothing is caught', async (t) => {
  const server = await useServer(t, { smtpRelay: 'smtp://127.0.0.1:9' });
  const id = await createWith(server, [
    { reference: 's1', email: 'relay1@example.com' },
    { reference: 's2', email: 'relay2@example.com' },
  ]);
  const response = await postJson(server, `${ROUTE}/${id}/activate`, { send_emails: true });
  assert.equal(response.status, 200, await response.clone().text());
  const signers = (await json<{ status: string; signers: ActivatedSigner[] }>(response)).signers;
  assert.deepEqual(signers.map((s) => s.email_delivery), ['failed', 'failed']);
  assert.equal((await status(server, id)).status, 'active');
  for (const signer of signers) assert.ok(linkWorks(server, signer.signing_url), 'the link works');

  const reminded = await remind(server, id);
  assert.deepEqual(reminded.reminders.map((r) => r.email_delivery), ['failed', 'failed']);
  for (const reminder of reminded.reminders) assert.ok(linkWorks(server, reminder.signing_url));
  for (const signer of signers) assert.ok(!linkWorks(server, signer.signing_url), 'the reminder still rotated the link');

  const replaced = await replace(server, id, 's1', { email: 'relay3@example.com', send_email: true });
  assert.equal(replaced.signer.email_delivery, 'failed');
  assert.ok(linkWorks(server, replaced.signer.signing_url));

  assert.deepEqual(await emails(server), []);
  assert.equal(caughtCount(server), 0, 'the catcher caught nothing');
});

test('--smtp-max-messages keeps only the newest messages', async (t) => {
  const server = await useServer(t, { smtpMaxMessages: '3' });
  const client = smtpClient(server);
  try {
    for (let i = 1; i <= 5; i++) {
      await client.sendMail({ from: 'a@elsewhere.test', to: 'b@elsewhere.test', subject: `m${i}`, text: `body ${i}` });
    }
  } finally {
    client.close();
  }
  const kept = listCaughtEmails(server.running.ctx, { accountId: null });
  assert.deepEqual(kept.map((m) => m.subject), ['m5', 'm4', 'm3']);
});
