// The catcher's synchronous reader of common messages (src/smtp/common-mail.ts) against postal-mime:
// on every message it reads, it must give exactly what postal-mime gives for the fields the catcher
// keeps, and it must hand everything else back (null). Messages composed by nodemailer as clients
// send them (paraph's own included), hand-written edge cases, and seeded random mutations of both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import nodemailer from 'nodemailer';
import PostalMime from 'postal-mime';
import { parseCommonMail, type ParsedMail } from '../../src/smtp/common-mail.js';

type MailOptions = Parameters<ReturnType<typeof nodemailer.createTransport>['sendMail']>[0];

async function compose(options: MailOptions): Promise<Buffer> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return (await composer.sendMail(options)).message as Buffer;
}

/** postal-mime's result, cut to what the catcher keeps. */
async function reference(raw: Uint8Array): Promise<ParsedMail | Error> {
  try {
    const parsed = await PostalMime.parse(raw);
    const mail: ParsedMail = { headers: parsed.headers.map(({ key, originalKey, value }) => ({ key, originalKey, value })) };
    if (parsed.from) mail.from = parsed.from;
    if (parsed.subject !== undefined) mail.subject = parsed.subject;
    if (parsed.text !== undefined) mail.text = parsed.text;
    if (parsed.html !== undefined) mail.html = parsed.html;
    return mail;
  } catch (error) {
    return error as Error;
  }
}

/** Reads `raw` both ways: answers whether the fast reader took it (and then agreed). */
async function agrees(raw: Buffer, label: string): Promise<boolean> {
  const fast = parseCommonMail(raw);
  if (fast === null) return false;
  const slow = await reference(raw);
  assert.ok(!(slow instanceof Error), `${label}: postal-mime failed (${String(slow)}) where the fast reader answered`);
  assert.deepEqual(fast, slow, label);
  return true;
}

const LONG_LINE = 'A line long enough to be folded by the composer, with words and more words and still more words until it wraps.';

async function composedMessages(): Promise<Array<{ label: string; raw: Buffer; common: boolean }>> {
  const base = { from: 'Sender <sender@example.com>', to: 'rcpt@example.com' };
  const list: Array<{ label: string; options: MailOptions; common: boolean }> = [
    { label: 'text and html', options: { ...base, subject: 'Hello', text: 'Hello,\n\nplain body\n', html: '<p>Hello</p>' }, common: true },
    { label: 'text only', options: { ...base, subject: 'Text', text: 'Just text.\nTwo lines.' }, common: true },
    { label: 'html only', options: { ...base, subject: 'Html', html: '<html><body><b>bold</b></body></html>' }, common: true },
    { label: 'empty text', options: { ...base, subject: 'Empty', text: '' }, common: true },
    { label: 'no subject', options: { ...base, text: 'no subject here' }, common: true },
    {
      label: 'encoded subject and sender name',
      options: {
        from: { name: 'Zoë Ça Œuvre', address: 'zoe@example.com' },
        to: base.to,
        subject: 'Réunion à 10 h — ordre du jour ✓',
        text: 'Bonjour,\nà bientôt.',
        html: '<p>à bientôt</p>',
      },
      common: true,
    },
    {
      label: 'arabic',
      options: {
        from: { name: 'مرسل', address: 'a@example.com' },
        to: base.to,
        subject: 'مرحبا بكم في التوقيع',
        text: 'مرحبا،\nيرجى التوقيع على المستند.\n'.repeat(6),
        html: `<p dir="rtl">${'يرجى التوقيع '.repeat(20)}</p>`,
      },
      common: true,
    },
    { label: 'cjk and emoji', options: { ...base, subject: '請簽署文件 📄', text: '文件已準備好。'.repeat(30), html: '<p>文件 😀</p>' }, common: true },
    {
      label: 'long lines and folded headers',
      options: {
        ...base,
        subject: `${LONG_LINE} ${LONG_LINE}`,
        text: `${LONG_LINE} ${LONG_LINE} ${LONG_LINE}`,
        html: `<p>${LONG_LINE.repeat(4)}</p>`,
        headers: { 'X-Long': `${LONG_LINE} ${LONG_LINE}` },
      },
      common: true,
    },
    {
      label: 'many recipients, cc, reply-to',
      options: {
        ...base,
        to: ['a@example.com', 'B <b@example.com>', '"Last, First" <c@example.com>'],
        cc: 'd@example.com',
        replyTo: 'e@example.com',
        subject: 'Many',
        text: 'x',
      },
      common: true,
    },
    {
      label: 'paraph headers',
      options: {
        from: { name: 'Acme via paraph', address: 'no-reply@paraph.test' },
        to: 'signer@example.com',
        subject: 'Please sign: contract.pdf',
        text: 'Hello Ann,\n\nSign here: http://127.0.0.1:1/s/abc?x=1&y=2\n\n--\nSent on behalf of Acme',
        html: '<p>Hello Ann,</p><p><a href="http://127.0.0.1:1/s/abc?x=1&amp;y=2">Sign</a></p>',
        headers: {
          'X-Paraph-Kind': 'invitation',
          'X-Paraph-Account-Id': 'acc_1',
          'X-Paraph-Signature-Request-Id': '0b7f7c1e-0000-4000-8000-000000000000',
          'X-Paraph-Signer-Reference': encodeURIComponent('réf 1/2'),
          'X-Paraph-Tag': 'tag',
        },
      },
      common: true,
    },
    {
      label: 'dots and leading spaces',
      options: { ...base, subject: '.dot', text: '.\n..\n . \n.leading dot\n\ttab\n   spaces   \n', html: '<p>.</p>' },
      common: true,
    },
    {
      label: 'latin-1 text',
      options: {
        ...base,
        subject: 'Latin',
        text: { content: Buffer.from('caf\u00e9 cr\u00e8me', 'latin1'), contentType: 'text/plain; charset=iso-8859-1' } as unknown as string,
      },
      common: true,
    },
    { label: 'attachment', options: { ...base, subject: 'Att', text: 'see attached', attachments: [{ filename: 'a.txt', content: 'hello' }] }, common: false },
    {
      label: 'attachment with html',
      options: { ...base, subject: 'Att', text: 't', html: '<p>h</p>', attachments: [{ filename: 'é.pdf', content: Buffer.from('%PDF-1.4') }] },
      common: false,
    },
    {
      label: 'inline image',
      options: { ...base, subject: 'Img', html: '<img src="cid:x">', attachments: [{ filename: 'x.png', content: Buffer.from([1, 2, 3]), cid: 'x' }] },
      common: false,
    },
    {
      label: 'calendar',
      options: { ...base, subject: 'Cal', text: 'invite', icalEvent: { method: 'REQUEST', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR' } },
      common: false,
    },
    {
      label: 'amp alternative',
      options: { ...base, subject: 'Amp', text: 't', html: '<p>h</p>', amp: '<!doctype html><html ⚡4email><body>a</body></html>' },
      common: false,
    },
  ];
  const composed = [];
  for (const { label, options, common } of list) composed.push({ label, raw: await compose(options), common });
  return composed;
}

const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'));

const HANDWRITTEN: Array<{ label: string; raw: Buffer }> = [
  { label: 'LF line ends', raw: Buffer.from('From: a@example.com\nSubject: lf\n\nbody\nline\n') },
  { label: 'no final newline', raw: crlf('Subject: x\n\nlast line without end').subarray(0, -0 || undefined) },
  { label: 'no body', raw: crlf('Subject: only headers\nFrom: a@example.com\n') },
  { label: 'bare CR in a header and in the body', raw: Buffer.from('Subject: a\rb\r\nX-Y: 1\r\r\n\r\nbo\rdy\r\r\n') },
  { label: 'BOM at the start of a header line and of the body', raw: Buffer.from('\ufeffSubject: bom\r\n\r\n\ufeffbody\r\n') },
  { label: 'folded with tabs and spaces', raw: crlf('Subject: one\n\ttwo\n   three\nFrom: "A\n B" <a@example.com>\n\nx\n') },
  { label: 'continuation as the first line', raw: crlf(' Subject: odd\nFrom: a@example.com\n\nx\n') },
  { label: 'header without colon', raw: crlf('Subject: x\nNoColonHere\n\nx\n') },
  { label: 'empty from and subject', raw: crlf('From:\nSubject:\nFrom: b@example.com\n\nx\n') },
  { label: 'group sender', raw: crlf('From: Team: a@example.com, b@example.com;\nSubject: g\n\nx\n') },
  {
    label: 'encoded words, q and b, adjacent',
    raw: crlf('Subject: =?UTF-8?Q?caf=C3=A9?= =?UTF-8?B?w6AgbGE=?= suite\nFrom: =?ISO-8859-1?Q?Andr=E9?= <andre@example.com>\n\nx\n'),
  },
  { label: 'raw utf-8 headers', raw: Buffer.from('Subject: Grüße aus Köln ☕\r\nFrom: Jürgen <j@example.com>\r\n\r\nHallo\r\n') },
  { label: 'invalid utf-8 in a header', raw: Buffer.concat([Buffer.from('Subject: bad '), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from('\r\n\r\nx\r\n')]) },
  {
    label: 'quoted-printable edge cases',
    raw: crlf(
      'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\na=3Db =ZZ =4 end=\nsoft=\n=C3=A9t=C3=A9=\n\n=\n=3d=3D\n',
    ),
  },
  {
    label: 'base64 with padding on every line',
    raw: crlf('Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\naGk=\nIHRo\nZXJl\nIQ==\n!!*\nQ\nQUJD\nR\n'),
  },
  { label: 'base64 upper case name', raw: crlf('Content-Transfer-Encoding: BASE64\n\nw6nDqQ==\n') },
  { label: 'transfer encoding with a comment', raw: crlf('Content-Transfer-Encoding: (c) base64\n\naGk=\n') },
  { label: 'odd transfer encoding', raw: crlf('Content-Transfer-Encoding: x-uuencode\n\nbegin\n') },
  { label: 'windows-1252', raw: Buffer.concat([crlf('Content-Type: text/plain; charset="windows-1252"\n\n'), Buffer.from([0x80, 0x20, 0xe9, 0x0d, 0x0a])]) },
  { label: 'us-ascii with high bytes', raw: Buffer.concat([crlf('Content-Type: text/plain; charset=US-ASCII\n\n'), Buffer.from([0xe9, 0x0d, 0x0a])]) },
  { label: 'koi8-r', raw: Buffer.concat([crlf('Content-Type: text/plain; charset=koi8-r\n\n'), Buffer.from([0xf0, 0xd2, 0x0d, 0x0a])]) },
  { label: 'unknown charset', raw: crlf('Content-Type: text/plain; charset=x-unknown\n\nabc\n') },
  { label: 'flowed', raw: crlf('Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\nsoft \nbreak\n') },
  { label: 'content-type comment', raw: crlf('Content-Type: text/plain (comment); charset=utf-8\n\nx\n') },
  { label: 'rfc 2231 charset', raw: crlf("Content-Type: text/plain; charset*=utf-8''utf-8\n\nx\n") },
  {
    label: 'duplicate content-type and parameters',
    raw: crlf('Content-Type: text/html; charset=utf-8; charset=latin1\nContent-Type: text/plain\n\n<b>x</b>\n'),
  },
  { label: 'parameter without value', raw: crlf('Content-Type: text/plain; flag; charset=utf-8\n\nx\n') },
  { label: 'empty content-type', raw: crlf('Content-Type:\n\nx\n') },
  { label: 'upper case type', raw: crlf('Content-Type: TEXT/HTML; CHARSET=UTF-8\n\n<i>x</i>\n') },
  { label: 'inline disposition', raw: crlf('Content-Type: text/plain\nContent-Disposition: inline\n\nx\n') },
  { label: 'attachment disposition', raw: crlf('Content-Type: text/plain\nContent-Disposition: attachment; filename=a.txt\n\nx\n') },
  { label: 'other type', raw: crlf('Content-Type: application/json\n\n{}\n') },
  {
    label: 'alternative with preamble, epilogue and whitespace after the boundary',
    raw: crlf(
      'Subject: alt\nContent-Type: multipart/alternative; boundary=b1=x\n\npreamble\n--b1=x  \nContent-Type: text/plain\n\nplain\n--b1=x\t\nContent-Type: text/html\n\n<p>html</p>\n--b1=x-- \nepilogue\n--b1=x\nContent-Type: text/plain\n\nafter the end\n',
    ),
  },
  {
    label: 'alternative without terminator',
    raw: crlf('Content-Type: multipart/alternative; boundary="b"\n\n--b\nContent-Type: text/plain\n\none\n--b\nContent-Type: text/plain\n\ntwo\n'),
  },
  {
    label: 'alternative, part without headers',
    raw: crlf('Content-Type: multipart/alternative; boundary="b"\n\n--b\n\nno headers\n--b\nContent-Type: text/html\n\n<p>x</p>\n--b--\n'),
  },
  {
    label: 'alternative, part headers never end',
    raw: crlf('Content-Type: multipart/alternative; boundary="b"\n\n--b\nContent-Type: text/plain\n--b\nContent-Type: text/plain\n\nx\n--b--\n'),
  },
  { label: 'alternative with only text', raw: crlf('Content-Type: multipart/alternative; boundary="b"\n\n--b\nContent-Type: text/plain\n\nx\n--b--\n') },
  {
    label: 'mixed of two text parts',
    raw: crlf(
      'Content-Type: multipart/mixed; boundary="m"\n\n--m\nContent-Type: text/plain\n\none\n--m\nContent-Type: text/plain; charset=utf-8\n\ntwo\n--m--\n',
    ),
  },
  {
    label: 'mixed of text and html',
    raw: crlf('Content-Type: multipart/mixed; boundary="m"\n\n--m\nContent-Type: text/plain\n\none\n--m\nContent-Type: text/html\n\n<p>two</p>\n--m--\n'),
  },
  {
    label: 'boundary look-alikes',
    raw: crlf('Content-Type: multipart/alternative; boundary="b"\n\n--b\nContent-Type: text/plain\n\n--bb\n--b x\n-b\n--\n--b--x\n--b--\n'),
  },
  { label: 'multipart without boundary', raw: crlf('Content-Type: multipart/mixed\n\n--x\n\nbody\n') },
  { label: 'multipart with no parts', raw: crlf('Content-Type: multipart/mixed; boundary="z"\n\nnothing\n') },
  { label: 'related', raw: crlf('Content-Type: multipart/related; boundary="r"\n\n--r\nContent-Type: text/html\n\n<p>x</p>\n--r--\n') },
  {
    label: 'nested multipart',
    raw: crlf(
      'Content-Type: multipart/mixed; boundary="o"\n\n--o\nContent-Type: multipart/alternative; boundary="i"\n\n--i\nContent-Type: text/plain\n\nx\n--i--\n--o--\n',
    ),
  },
  { label: 'digest', raw: crlf('Content-Type: multipart/digest; boundary="d"\n\n--d\n\nSubject: inner\n\nx\n--d--\n') },
  {
    label: 'message/rfc822 part',
    raw: crlf('Content-Type: multipart/mixed; boundary="m"\n\n--m\nContent-Type: message/rfc822\n\nSubject: inner\n\ninner body\n--m--\n'),
  },
  {
    label: 'non-ascii boundary',
    raw: Buffer.from('Content-Type: multipart/alternative; boundary="é"\r\n\r\n--é\r\nContent-Type: text/plain\r\n\r\nx\r\n--é--\r\n'),
  },
  { label: 'empty message', raw: Buffer.alloc(0) },
  { label: 'blank line only', raw: Buffer.from('\r\n') },
];

test('composed messages: the common ones are read fast, and every one read agrees with postal-mime', async () => {
  for (const { label, raw, common } of await composedMessages()) {
    const taken = await agrees(raw, label);
    if (common) assert.ok(taken, `${label}: a common message should be read without postal-mime`);
    else assert.equal(taken, false, `${label}: should be left to postal-mime`);
  }
});

test("hand-written edge cases: read fast only where the result is postal-mime's", async () => {
  let taken = 0;
  for (const { label, raw } of HANDWRITTEN) if (await agrees(raw, label)) taken += 1;
  // Most of them are shapes the fast reader takes; the rest are handed back.
  assert.ok(taken >= 25, `only ${taken} of ${HANDWRITTEN.length} read fast`);
});

test('seeded random mutations of every message: read fast only when postal-mime agrees', async () => {
  let seed = 0x2545f491;
  const random = (n: number) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const pieces = [
    '\r\n',
    '\n',
    '\r',
    ' ',
    '\t',
    '=',
    '==',
    '=3D',
    '=C3',
    '--',
    '"',
    ';',
    '(',
    ')',
    '\\',
    ':',
    'é',
    '\ufeff',
    '\u00a0',
    '*',
    "'",
    'boundary',
    '=?UTF-8?B?w6k=?=',
    '\r\n\r\n',
    '\r\n ',
  ];
  const seeds = [...(await composedMessages()).map((m) => m.raw), ...HANDWRITTEN.map((m) => m.raw)];
  let taken = 0;
  let runs = 0;
  for (const original of seeds) {
    for (let round = 0; round < 40; round += 1) {
      let raw = Buffer.from(original);
      for (let edits = 1 + random(3); edits > 0; edits -= 1) {
        const at = random(raw.length + 1);
        const action = random(3);
        if (action === 0) raw = Buffer.concat([raw.subarray(0, at), Buffer.from(pieces[random(pieces.length)]!), raw.subarray(at)]);
        else if (action === 1) raw = Buffer.concat([raw.subarray(0, at), raw.subarray(Math.min(raw.length, at + 1 + random(8)))]);
        else if (at < raw.length) raw[at] = random(256);
      }
      runs += 1;
      if (
        await agrees(
          raw,
          `mutation ${round} of a message starting ${JSON.stringify(original.subarray(0, 40).toString())}: ${JSON.stringify(raw.toString('latin1'))}`,
        )
      )
        taken += 1;
    }
  }
  assert.ok(taken > runs / 4, `only ${taken} of ${runs} mutations read fast`);
});
