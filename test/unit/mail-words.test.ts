// paraph's mails composed (src/features/mail/compose.ts): reminders and turn mails say what they are in
// each language, also on the sender's own subject; a waiting signer is told whom they wait for; a
// cancellation carries its reason and no link; in Arabic a file name keeps its own direction.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { composeMail, type ComposeInput } from '../../src/features/mail/compose.js';

const base: ComposeInput = {
  kind: 'invitation',
  locale: 'en',
  brand: 'paraph',
  branding: { sender_name: 'Northwind', subject: 'Lease 12B' },
  document: 'Northwind-lease-2026.pdf',
  recipientName: 'Ada',
  link: 'https://sign.example/sign/abc',
  linkExpiresAt: Date.UTC(2026, 11, 5),
};

test('reminder and turn subjects carry their prefix in the signer language, on a custom subject too', () => {
  const expected = {
    en: ['Reminder: Lease 12B', 'Your turn: Lease 12B'],
    fr: ['Rappel : Lease 12B', 'À vous de signer : Lease 12B'],
    ar: ['تذكير: Lease 12B', 'حان دورك: Lease 12B'],
  };
  for (const [locale, [reminder, turn]] of Object.entries(expected)) {
    assert.equal(composeMail({ ...base, locale, kind: 'reminder' }).subject, reminder);
    assert.equal(composeMail({ ...base, locale, kind: 'turn', signedBefore: ['Bob'] }).subject, turn);
    assert.equal(composeMail({ ...base, locale, kind: 'invitation' }).subject, 'Lease 12B', 'an invitation keeps the subject as given');
  }
  assert.match(composeMail({ ...base, branding: null, kind: 'reminder' }).subject, /^Reminder: /);
});

test('a reminder says earlier links stopped working; a waiting signer is told whom they wait for', () => {
  const reminder = composeMail({ ...base, kind: 'reminder', waitingFor: ['Bob Martin', 'Chloé'] });
  assert.match(reminder.text, /the links they carried no longer work/);
  assert.match(reminder.text, /Bob Martin and Chloé must sign first/);
  const replacement = composeMail({ ...base, locale: 'fr', kind: 'replacement', waitingFor: ['Bob Martin'] });
  assert.match(replacement.text, /Bob Martin doit signer avant vous/);
  assert.doesNotMatch(replacement.text, /ne fonctionnent plus/);
  const turn = composeMail({ ...base, kind: 'turn', signedBefore: ['Bob Martin', 'Chloé'] });
  assert.match(turn.text, /Bob Martin and Chloé signed the document "Northwind-lease-2026\.pdf"\. It is now your turn/);
  assert.ok(turn.text.includes(base.link!));
});

test('a cancellation carries the reason, no link and no button', () => {
  const mail = composeMail({ ...base, kind: 'cancelled', link: undefined, linkExpiresAt: undefined, reason: 'The price changed.' } as ComposeInput);
  assert.match(mail.subject, /^Cancelled: /);
  assert.match(mail.text, /Reason given by Northwind:\nThe price changed\./);
  assert.doesNotMatch(mail.html, /<a\s/);
  assert.doesNotMatch(mail.text, /Review and sign/);
});

test('in Arabic, the file name is isolated from the sentence direction', () => {
  const mail = composeMail({ ...base, locale: 'ar', branding: null, kind: 'invitation' });
  assert.ok(mail.subject.includes('\u2068Northwind-lease-2026.pdf\u2069'), mail.subject);
  assert.ok(mail.html.includes('\u2068Northwind-lease-2026.pdf\u2069'));
  assert.ok(!composeMail({ ...base, branding: null }).subject.includes('\u2068'), 'left-to-right mails are unchanged');
});

test('an email-code mail says how long the code is valid, in the text and the HTML, in each language', () => {
  const expected = { en: 'valid for 10 minutes', fr: 'valable 10 minutes', ar: 'صالح لمدة 10 دقائق' };
  for (const [locale, words] of Object.entries(expected)) {
    const mail = composeMail({ ...base, locale, kind: 'otp', code: '042917', link: undefined, linkExpiresAt: undefined });
    assert.ok(mail.text.includes(words), `${locale} text: ${mail.text}`);
    assert.ok(mail.html.includes(words), `${locale} html`);
  }
});

test("the sender's own greeting replaces paraph's only when the message opens with one as a word of its own", () => {
  const opening = (message: string) => composeMail({ ...base, branding: { sender_name: 'Northwind', message } }).text.split('\n')[0];
  for (const message of ['Hi Ada, the lease is ready.', 'Hello,\nthe lease is ready.', 'Dear Ada: please sign.', 'Bonjour Ada', 'مرحبًا آدا'])
    assert.notEqual(opening(message), 'Hello Ada,', `"${message}" greets on its own`);
  for (const message of ['Higher prices apply from May.', 'History of this lease: v2', 'Heyday rates', 'Hiring update: please sign', 'Please sign by Friday.'])
    assert.equal(opening(message), 'Hello Ada,', `"${message}" is no greeting`);
});

test("every line break of the sender's message is kept in the HTML, a lone CR too", () => {
  const html = composeMail({ ...base, branding: { sender_name: 'Northwind', message: 'Section 4.\r\nThanks\r\rbye\nAda' } }).html;
  assert.ok(html.includes('Section 4.<br>Thanks<br><br>bye<br>Ada'), html);
});
