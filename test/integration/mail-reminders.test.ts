// Reminders and signer replacement mails over real HTTP and SMTP, and what a failing SMTP relay does to
// them (the change stands, `email_delivery` is failed). Each test has its own server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activate, createRequest, postJson, status, type ActivatedSigner } from '../helpers/flows.js';
import { buttonHrefs, caughtCount, emails, linkWorks, remind, replace, tokenOf } from '../helpers/mail.js';
import { json, useServer } from '../helpers/server.js';

const ROUTE = '/v1/signature-requests';

test('reminders mail each reminded signer the new link; newest first', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(
    server,
    {},
    {
      signers: [
        { reference: 's1', email: 'rem1@example.com' },
        { reference: 's2', email: 'rem2@example.com' },
      ],
    },
  );
  const first = (await activate(server, id, { send_emails: true })).signers;
  const answer = await remind(server, id);
  assert.equal(answer.reminders.length, 2);
  for (const reminder of answer.reminders) {
    assert.equal(reminder.email_delivery, 'sent');
    const old = first.find((s) => s.reference === reminder.reference)!.signing_url;
    assert.notEqual(reminder.signing_url, old, 'a new link');
    const to = reminder.reference === 's1' ? 'rem1@example.com' : 'rem2@example.com';
    const mails = await emails(server, { to });
    assert.deepEqual(
      mails.map((m) => m.kind),
      ['reminder', 'invitation'],
      'newest first',
    );
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
  assert.deepEqual(
    one.reminders.map((r) => [r.reference, r.email_delivery]),
    [['s2', 'sent']],
  );
  assert.equal((await emails(server, { to: 'rem1@example.com' })).length, 2);
  const s2 = await emails(server, { to: 'rem2@example.com' });
  assert.deepEqual(
    s2.map((m) => m.kind),
    ['reminder', 'reminder', 'invitation'],
  );
  assert.ok(s2[0]!.text.includes(one.reminders[0]!.signing_url));

  // A reminder emails even when the request was activated without send_emails.
  const quiet = await createRequest(server, {}, { signers: [{ reference: 'q', email: 'quiet.rem@example.com' }] });
  await activate(server, quiet);
  assert.deepEqual(await emails(server, { to: 'quiet.rem@example.com' }), []);
  const reminded = await remind(server, quiet);
  assert.equal(reminded.reminders[0]?.email_delivery, 'sent');
  const quietMails = await emails(server, { to: 'quiet.rem@example.com' });
  assert.deepEqual(
    quietMails.map((m) => m.kind),
    ['reminder'],
  );
  assert.ok(quietMails[0]!.text.includes(reminded.reminders[0]!.signing_url));
});

test('replace with send_email mails the new signer their link; otherwise, and before activation, no mail', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(
    server,
    {},
    {
      signers: [
        { reference: 's1', email: 'orig1.rep@example.com' },
        { reference: 's2', email: 'orig2.rep@example.com' },
      ],
    },
  );
  await activate(server, id);

  const replaced = await replace(server, id, 's1', { email: 'carol.rep@example.com', name: 'Carole', locale: 'fr', send_email: true });
  assert.equal(replaced.signer.email_delivery, 'sent');
  const mails = await emails(server, { to: 'carol.rep@example.com' });
  assert.equal(mails.length, 1);
  const mail = mails[0]!;
  assert.equal(mail.kind, 'replacement');
  assert.equal(mail.signature_request_id, id);
  assert.equal(mail.signer_reference, 's1');
  assert.deepEqual(mail.to, ['carol.rep@example.com']);
  assert.ok(mail.text.includes(replaced.signer.signing_url), "the new signer's link");
  assert.deepEqual(buttonHrefs(mail.html), [replaced.signer.signing_url]);
  assert.ok(mail.text.includes('Bonjour Carole'), "in the new signer's language");
  assert.deepEqual(await emails(server, { to: 'orig1.rep@example.com' }), [], 'the replaced signer gets nothing');

  const silent = await replace(server, id, 's2', { email: 'dan.rep@example.com' });
  assert.equal(silent.signer.email_delivery, 'not_requested');
  assert.deepEqual(await emails(server, { to: 'dan.rep@example.com' }), []);
  const explicitFalse = await replace(server, id, 's2', { email: 'dora.rep@example.com', send_email: false });
  assert.equal(explicitFalse.signer.email_delivery, 'not_requested');
  assert.deepEqual(await emails(server, { to: 'dora.rep@example.com' }), []);

  const prepared = await createRequest(server, {}, { signers: [{ reference: 'p', email: 'prep.rep@example.com' }] });
  const corrected = await replace(server, prepared, 'p', { email: 'fixed.rep@example.com', send_email: true });
  assert.equal(corrected.signer.email_delivery, 'not_requested');
  assert.equal(corrected.signer.signing_url, '');
  assert.deepEqual(await emails(server, { signature_request_id: prepared }), []);
  assert.deepEqual(await emails(server, { to: 'fixed.rep@example.com' }), []);
});

test('a failing SMTP relay: the change stands, email_delivery is failed, nothing is caught', async (t) => {
  const server = await useServer(t, { smtpRelay: 'smtp://127.0.0.1:9' });
  const id = await createRequest(
    server,
    {},
    {
      signers: [
        { reference: 's1', email: 'relay1@example.com' },
        { reference: 's2', email: 'relay2@example.com' },
      ],
    },
  );
  const response = await postJson(server, `${ROUTE}/${id}/activate`, { send_emails: true });
  assert.equal(response.status, 200, await response.clone().text());
  const signers = (await json<{ status: string; signers: ActivatedSigner[] }>(response)).signers;
  assert.deepEqual(
    signers.map((s) => s.email_delivery),
    ['failed', 'failed'],
  );
  assert.equal((await status(server, id)).status, 'active');
  for (const signer of signers) assert.ok(linkWorks(server, signer.signing_url), 'the link works');

  const reminded = await remind(server, id);
  assert.deepEqual(
    reminded.reminders.map((r) => r.email_delivery),
    ['failed', 'failed'],
  );
  for (const reminder of reminded.reminders) assert.ok(linkWorks(server, reminder.signing_url));
  for (const signer of signers) assert.ok(!linkWorks(server, signer.signing_url), 'the reminder still rotated the link');

  const replaced = await replace(server, id, 's1', { email: 'relay3@example.com', send_email: true });
  assert.equal(replaced.signer.email_delivery, 'failed');
  assert.ok(linkWorks(server, replaced.signer.signing_url));

  assert.deepEqual(await emails(server), []);
  assert.equal(caughtCount(server), 0, 'the catcher caught nothing');
});
