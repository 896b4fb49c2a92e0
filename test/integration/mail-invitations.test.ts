// Every line: mail from the server to the SMTP catcher on the line.
// paraph's invitations end to end over real HTTP and SMTP: `send_emails` on activate, its absence, the
// spec's EmailBranding and the signer's locale. Each test has its own server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activate, createRequest } from '../helpers/flows.js';
import { buttonHrefs, displayName, emails, remind, replace, tokenOf } from '../helpers/mail.js';
import { useServer } from '../helpers/server.js';

test("activate with send_emails mails each signer an invitation carrying that signer's link", async (t) => {
  const server = await useServer(t);
  const id = await createRequest(
    server,
    {},
    {
      signers: [
        { reference: 'client', name: 'Ada Lovelace', email: 'ada.invite@example.com' },
        { reference: 'witness', email: 'wendy.invite@example.com' },
      ],
    },
  );
  const signers = (await activate(server, id, { send_emails: true })).signers;
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
    assert.ok(mail.text.includes(signer.signing_url), "the text carries the signer's link");
    assert.deepEqual(buttonHrefs(mail.html), [signer.signing_url], "the button links to the signer's link");
    assert.ok(!mail.text.includes(other.signing_url) && !mail.html.includes(tokenOf(other.signing_url)), "never another signer's link");
    assert.match(mail.subject, /contract\.pdf/, 'the default subject names the document');
    assert.ok(mail.id && !Number.isNaN(Date.parse(mail.received_at)));
    assert.equal(displayName(mail.from), 'paraph', 'without branding the mail comes from the brand');
    assert.match(mail.text, /sent by paraph on behalf of its client/);
  }
});

test('activate without send_emails mails nobody: email_delivery not_requested', async (t) => {
  const server = await useServer(t);
  for (const options of [{}, { send_emails: false }]) {
    const id = await createRequest(server, {}, { signers: 2 });
    const signers = (await activate(server, id, options)).signers;
    for (const signer of signers) assert.equal(signer.email_delivery, 'not_requested');
    assert.deepEqual(await emails(server, { signature_request_id: id }), []);
  }
});

test('branding: sender name, subject, message (line breaks kept, HTML escaped), logo, on-behalf line', async (t) => {
  const server = await useServer(t);
  const branding = {
    sender_name: 'Étude Dupont & Associés',
    subject: 'Your lease — please sign',
    message: 'Dear tenant,\nplease sign before Friday.\n<script>alert(1)</script> & thanks',
    logo_url: 'https://cdn.example.com/logo.png',
  };
  const id = await createRequest(server, { email: branding }, { signers: [{ reference: 'tenant', name: 'Tom', email: 'tom.brand@example.com' }] });
  const [signer] = (await activate(server, id, { send_emails: true })).signers;
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
    // A reminder says it is one, also on the sender's own subject.
    assert.equal(mail.subject, mail.kind === 'reminder' ? `Reminder: ${branding.subject}` : branding.subject, mail.kind ?? '');
    assert.equal(displayName(mail.from), branding.sender_name);
    assert.ok(mail.text.includes(branding.message));
    assert.match(mail.html, /<img\s[^>]*height="40"/);
  }
  assert.ok(reminder!.text.includes(reminded.reminders[0]!.signing_url));
});

test("mail speaks the signer's locale: fr, ar (right to left), English by default", async (t) => {
  const server = await useServer(t);
  const id = await createRequest(
    server,
    {},
    {
      signers: [
        { reference: 'fr', name: 'Jeanne', email: 'jeanne.locale@example.com', locale: 'fr' },
        { reference: 'ar', name: 'Layla', email: 'layla.locale@example.com', locale: 'ar' },
        { reference: 'en', name: 'Emma', email: 'emma.locale@example.com' },
      ],
    },
  );
  const signers = (await activate(server, id, { send_emails: true })).signers;
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
