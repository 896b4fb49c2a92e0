// The built-in SMTP catcher as the sandbox contract describes it: `GET /_sandbox/emails` (key, filters,
// accounts), outside SMTP clients and `paraph emails`, the 10 MiB limit, forged X-Paraph-* headers and
// `--smtp-max-messages`. Each test has its own server. The CLI cases run the built binary (npm run build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { listCaughtEmails } from '../../src/features/mail/caught-emails.js';
import { paraph } from '../helpers/cli.js';
import { activate, createRequest, postJson } from '../helpers/flows.js';
import { caughtCount, emails, smtpClient, type CaughtEmail } from '../helpers/mail.js';
import { json, useServer } from '../helpers/server.js';

const ROUTE = '/v1/signature-requests';

test('/_sandbox/emails: key required, signature_request_id must be a uuid, `to` matches case-insensitively', async (t) => {
  const server = await useServer(t);
  // Another request's mail first: the mixed-case invitation below is the newest of several.
  await activate(server, await createRequest(server, {}, { signers: 5 }), { send_emails: true });
  const anonymous = await server.call('GET', '/_sandbox/emails', { key: null });
  assert.equal(anonymous.status, 401);
  assert.ok((await json<{ error: { code: string } }>(anonymous)).error.code);
  const wrongKey = await server.call('GET', '/_sandbox/emails', { key: 'paraph_test_nope' });
  assert.equal(wrongKey.status, 401);

  const bad = await server.call('GET', '/_sandbox/emails?signature_request_id=not-a-uuid');
  assert.equal(bad.status, 400);
  assert.equal((await json<{ error: { code: string } }>(bad)).error.code, 'invalid_request');

  assert.deepEqual(await emails(server, { signature_request_id: randomUUID() }), [], 'an unknown request has no mail');

  const id = await createRequest(server, {}, { signers: [{ reference: 'm', email: 'Mixed.Case@Example.COM' }] });
  await activate(server, id, { send_emails: true });
  for (const to of ['Mixed.Case@Example.COM', 'mixed.case@example.com', 'MIXED.CASE@EXAMPLE.COM']) {
    const found = await emails(server, { to });
    assert.equal(found.length, 1, to);
    assert.equal(found[0]!.signature_request_id, id);
    assert.deepEqual(
      found[0]!.to.map((a) => a.toLowerCase()),
      ['mixed.case@example.com'],
    );
  }
  assert.deepEqual(await emails(server, { to: 'case@example.com' }), [], 'a part of an address matches nothing');
  assert.deepEqual(await emails(server, { to: 'xmixed.case@example.com' }), []);

  // Both filters together.
  assert.equal((await emails(server, { to: 'mixed.case@example.com', signature_request_id: id })).length, 1);
  assert.equal((await emails(server, { to: 'mixed.case@example.com', signature_request_id: randomUUID() })).length, 0);

  // Newest first across the whole account: the five invitations of the first request, then this one.
  const all = await emails(server);
  assert.equal(all.length, 6);
  assert.equal(all[0]!.signature_request_id, id, 'the newest mail first');
  const times = all.map((m) => Date.parse(m.received_at));
  assert.deepEqual(
    times,
    [...times].sort((a, b) => b - a),
  );

  // `kind` is filtered by the server (the newest 100 of that kind, not those among the newest 100 mails).
  assert.equal((await postJson(server, `${ROUTE}/${id}/reminders`, {})).status, 200);
  const reminders = await emails(server, { kind: 'reminder' });
  assert.deepEqual(
    reminders.map((m) => [m.kind, m.signature_request_id]),
    [['reminder', id]],
  );
  assert.equal((await emails(server, { kind: 'invitation' })).length, 6);
  assert.equal((await emails(server, { kind: 'otp' })).length, 0);
  const badKind = await server.call('GET', '/_sandbox/emails?kind=Invitation');
  assert.equal(badKind.status, 400);
});

test("another account sees none of this account's mail", async (t) => {
  const server = await useServer(t);
  const own = await createRequest(server, {}, { signers: [{ reference: 'me', email: 'me.account@example.com' }] });
  await activate(server, own, { send_emails: true });
  const mine = await emails(server);
  assert.ok(mine.length > 0);
  const other = server.newKey();
  assert.notEqual(other.accountId, server.accountId);
  assert.deepEqual(await emails(server, {}, other.apiKey), []);
  assert.deepEqual(await emails(server, { signature_request_id: mine[0]!.signature_request_id! }, other.apiKey), []);
  assert.deepEqual(await emails(server, { to: mine[0]!.to[0]! }, other.apiKey), []);

  // And its own invitations are its alone.
  const id = await createRequest(server, {}, { key: other.apiKey, signers: [{ reference: 'o', email: 'other.account@example.com' }] });
  const res = await postJson(server, `${ROUTE}/${id}/activate`, { send_emails: true }, other.apiKey);
  assert.equal(res.status, 200);
  assert.equal((await emails(server, {}, other.apiKey)).length, 1);
  assert.deepEqual(await emails(server, { to: 'other.account@example.com' }), []);
});

test('outside SMTP clients are accepted, listed by the CLI but not by /_sandbox/emails', async (t) => {
  const server = await useServer(t);
  // The account's own invitation, and one of another account: the CLI lists both, the API neither of the other's.
  await activate(server, await createRequest(server, {}, { signers: [{ reference: 'me', email: 'me.outside@example.com' }] }), { send_emails: true });
  const other = server.newKey();
  await activate(
    server,
    await createRequest(server, {}, { key: other.apiKey, signers: [{ reference: 'o', email: 'o.outside@example.com' }] }),
    { send_emails: true },
    other.apiKey,
  );
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
    const b = await withAuth.sendMail({
      from: 'auth@elsewhere.test',
      to: ['one@elsewhere.test', 'two@elsewhere.test'],
      subject: 'with auth',
      text: 'authenticated body',
    });
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
  assert.deepEqual(
    all.slice(0, 2).map((m) => m.subject),
    ['with auth', 'outside hello'],
    'newest first',
  );
  const outside = all[1]!;
  assert.deepEqual(outside.to, ['outside.person@elsewhere.test']);
  assert.equal(outside.from, 'Outside Sender <outside@elsewhere.test>');
  assert.equal(outside.text.trim(), 'plain body from outside');
  assert.equal(outside.html.trim(), '<p>html body from outside</p>');
  assert.equal(outside.kind, null);
  assert.equal(outside.signature_request_id, null);
  assert.deepEqual(all[0]!.to, ['one@elsewhere.test', 'two@elsewhere.test']);
  assert.equal(all[0]!.text.trim(), 'authenticated body');
  assert.ok(
    all.some((m) => m.kind === 'invitation'),
    "the CLI lists paraph's own mail too",
  );
  assert.equal(all.length, api.length + 2 + 1 /* the other account's invitation */);

  const filtered = await paraph(['emails', 'list', '--json', '--to', 'OUTSIDE.person@elsewhere.test', '--data-dir', server.dataDir]);
  assert.equal(filtered.code, 0, filtered.stderr);
  assert.deepEqual(
    (JSON.parse(filtered.stdout) as CaughtEmail[]).map((m) => m.id),
    [outside.id],
  );

  const shown = await paraph(['emails', 'show', outside.id, '--data-dir', server.dataDir]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^From: +Outside Sender <outside@elsewhere\.test>$/m);
  assert.match(shown.stdout, /^To: +outside\.person@elsewhere\.test$/m);
  assert.match(shown.stdout, /^Subject: +outside hello$/m);
  assert.match(shown.stdout, /plain body from outside/);
});

test('a message over 10 MiB is refused with 552 and not stored', async (t) => {
  const server = await useServer(t);
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

test("mail from an outside SMTP client that copies paraph's X-Paraph-* headers is not attributed to the account", async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, {}, { signers: [{ reference: 'm', email: 'm.forged@example.com' }] });
  await activate(server, id, { send_emails: true });
  assert.equal((await emails(server, { signature_request_id: id })).length, 1);
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
  assert.deepEqual(
    kept.map((m) => m.subject),
    ['m5', 'm4', 'm3'],
  );
});
