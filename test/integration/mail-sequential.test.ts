// Sequential requests by mail, over real HTTP and SMTP: who is invited at activation, the turn mail
// that carries the activation link, waiting signers named in reminders and replacements, what the
// signer's view and sign answer say, and the cancellation notice with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activate, createRequest, postJson, signerAction } from '../helpers/flows.js';
import { buttonHrefs, emails, linkWorks, remind, replace, type CaughtEmail } from '../helpers/mail.js';
import { json, useServer, type TestServer } from '../helpers/server.js';

const people = [
  { reference: 'client', name: 'Ada Lovelace', email: 'ada.seq@example.com', locale: 'en' },
  { reference: 'supplier', name: 'Benoît Durand', email: 'benoit.seq@example.com', locale: 'fr' },
  { reference: 'witness', name: 'فاطمة الزهراء', email: 'fatima.seq@example.com', locale: 'ar' },
];

/**
 * The mails the catcher holds for `to`, at least `count`: turn and cancellation mails are sent after
 * the answer, in the server's background work, which is awaited first.
 */
async function mailsOf(server: TestServer, to: string, count: number): Promise<CaughtEmail[]> {
  await server.running.ctx.background.idle();
  const mails = await emails(server, { to });
  assert.ok(mails.length >= count, `${mails.length} mails for ${to}, expected at least ${count}`);
  return mails;
}

const sign = async (link: string) => {
  const response = await signerAction(link, 'sign', { signature: { type: 'typed', text: 'Signed' } });
  assert.equal(response.status, 200, await response.clone().text());
  return json<{ status: string; request_status: string; next?: string; next_names?: string[] }>(response);
};

test('sequential with send_emails: the first signer is invited, each next one mailed at their turn with the activation link', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, { sequential_signing: true, email: { sender_name: 'Northwind', subject: 'Contract to sign' } }, { signers: people });
  const activated = await activate(server, id, { send_emails: true });
  const link = Object.fromEntries(activated.signers.map((s) => [s.reference, s.signing_url]));
  assert.deepEqual(
    activated.signers.map((s) => s.email_delivery),
    ['sent', 'not_requested', 'not_requested'],
  );
  assert.deepEqual(
    (await emails(server, { to: people[0]!.email })).map((m) => m.kind),
    ['invitation'],
  );
  assert.deepEqual(await emails(server, { to: people[1]!.email }), [], 'signer 2 waits: no mail yet');
  assert.deepEqual(await emails(server, { to: people[2]!.email }), []);

  // Signer 2's page names who they wait for.
  const view = await json<{ waiting_for: string[]; waiting_for_names: string[]; can_sign: boolean }>(await signerAction(link.supplier!, 'view'));
  assert.deepEqual(view.waiting_for, ['client']);
  assert.deepEqual(view.waiting_for_names, ['Ada Lovelace']);
  assert.equal(view.can_sign, false);

  const first = await sign(link.client!);
  assert.equal(first.next, 'next_mailed');
  assert.deepEqual(first.next_names, ['Benoît Durand']);
  const [turn] = await mailsOf(server, people[1]!.email, 1);
  assert.equal(turn?.kind, 'turn');
  assert.equal(turn?.subject, 'À vous de signer : Contract to sign', "the prefix in the signer's language, on the custom subject");
  assert.match(turn!.text, /signé par Ada Lovelace/);
  assert.deepEqual(buttonHrefs(turn!.html), [link.supplier], 'the link the client got at activation, not a new one');
  assert.ok(linkWorks(server, link.supplier!));
  assert.deepEqual(await emails(server, { to: people[2]!.email }), [], 'signer 3 still waits');

  await sign(link.supplier!);
  const [third] = await mailsOf(server, people[2]!.email, 1);
  assert.equal(third?.kind, 'turn');
  assert.match(third!.subject, /^حان دورك: /);
  assert.ok(third!.text.includes('Ada Lovelace') && third!.text.includes('Benoît Durand'), 'names both earlier signers');
  assert.deepEqual(buttonHrefs(third!.html), [link.witness]);

  // Signer 3 sees what the two earlier signers put on the document.
  const last = await json<{ earlier_fields: Array<{ type: string; value: string; image: string }> }>(await signerAction(link.witness!, 'view'));
  assert.deepEqual(
    last.earlier_fields.map((f) => [f.type, f.value]),
    [
      ['signature', 'Signed'],
      ['signature', 'Signed'],
    ],
  );
  assert.equal((await sign(link.witness!)).next, 'completed');
});

test('a waiting signer reminded or replaced is told who signs first; reminders say earlier links stopped working', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, { sequential_signing: true }, { signers: people.slice(0, 2) });
  const activated = await activate(server, id, { send_emails: true });
  const reminders = await remind(server, id);
  const waiting = (await mailsOf(server, people[1]!.email, 1))[0]!;
  assert.equal(waiting.kind, 'reminder');
  assert.match(waiting.subject, /^Rappel : /);
  assert.match(waiting.text, /Ada Lovelace doit signer avant vous/);
  assert.match(waiting.text, /ne fonctionnent plus/);
  const reminded = (await emails(server, { to: people[0]!.email }))[0]!;
  assert.match(reminded.text, /no longer work/);
  assert.doesNotMatch(reminded.text, /must sign first/);

  const replaced = await replace(server, id, 'supplier', { email: 'chloe.seq@example.com', name: 'Chloé', locale: 'fr', send_email: true });
  const replacement = (await mailsOf(server, 'chloe.seq@example.com', 1))[0]!;
  assert.equal(replacement.kind, 'replacement');
  assert.match(replacement.text, /Ada Lovelace doit signer avant vous/);

  // The replaced signer's turn mail carries the replacement's link.
  const clientLink = reminders.reminders.find((r) => r.reference === 'client')!.signing_url;
  assert.notEqual(clientLink, activated.signers[0]!.signing_url);
  await sign(clientLink);
  const mails = await mailsOf(server, 'chloe.seq@example.com', 2);
  assert.equal(mails[0]?.kind, 'turn');
  assert.deepEqual(buttonHrefs(mails[0]!.html), [replaced.signer.signing_url]);
});

test('without send_emails nobody is mailed at their turn, and the sign answer says the sender passes the link on', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, { sequential_signing: true }, { signers: people.slice(0, 2) });
  const activated = await activate(server, id);
  const outcome = await sign(activated.signers[0]!.signing_url);
  assert.equal(outcome.next, 'next_not_mailed');
  assert.deepEqual(outcome.next_names, ['Benoît Durand']);
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(await emails(server, { to: people[1]!.email }), []);
});

test('cancel mails every mailed signer the reason; the closed link shows it', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, { sequential_signing: true }, { signers: people });
  const activated = await activate(server, id, { send_emails: true });
  await sign(activated.signers[0]!.signing_url);
  await mailsOf(server, people[1]!.email, 1);
  const response = await postJson(server, `/v1/signature-requests/${id}/cancel`, { reason: 'The price changed.' });
  assert.equal(response.status, 200, await response.clone().text());
  for (const [person, count] of [
    [people[0]!, 2],
    [people[1]!, 2],
  ] as const) {
    const notice = (await mailsOf(server, person.email, count))[0]!;
    assert.equal(notice.kind, 'cancelled');
    assert.ok(notice.text.includes('The price changed.'), 'the reason is in the mail');
    assert.deepEqual(buttonHrefs(notice.html), [], 'no link to a closed request');
  }
  assert.match((await mailsOf(server, people[1]!.email, 2))[0]!.subject, /^Annulé : « .+\.pdf » n’est plus à signer$/, "in the signer's language");
  assert.deepEqual(await emails(server, { to: people[2]!.email }), [], 'a signer never mailed is not mailed now');
  const closed = await json<{ state: string; closed_reason: string; request: { cancellation_reason: string } }>(
    await signerAction(activated.signers[2]!.signing_url, 'view'),
  );
  assert.equal(closed.closed_reason, 'cancelled');
  assert.equal(closed.request.cancellation_reason, 'The price changed.');
});
