// Every line: the SMTP catcher on the line's sockets, with real SMTP clients.
// The catcher's SMTP protocol (src/smtp/smtp-session.ts) over real sockets: raw command exchanges,
// pipelining, dot-stuffing across every chunk split, the size limit, AUTH, refusals and time-outs,
// and real clients (nodemailer and curl) against it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import { SmtpRefusal, SmtpSession, type SmtpEnvelope, type SmtpSessionOptions } from '../../src/smtp/smtp-session.js';

interface Caught {
  envelope: SmtpEnvelope;
  raw: string;
}

async function startServer(t: { after(fn: () => unknown): void }, overrides: Partial<SmtpSessionOptions> = {}) {
  const caught: Caught[] = [];
  const errors: Error[] = [];
  const sessions = new Set<SmtpSession>();
  const server = net.createServer((socket) => {
    const session = new SmtpSession(socket, {
      name: 'test-catcher',
      banner: 'ready',
      maxMessageBytes: 1024,
      idleTimeoutMs: 5000,
      onMessage: async (envelope, raw) => {
        caught.push({ envelope, raw: raw.toString('utf8') });
      },
      onError: (error) => errors.push(error),
      ...overrides,
    });
    sessions.add(session);
    socket.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.shutDown();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, caught, errors };
}

/** A raw client: sends pieces, collects every reply line. */
async function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk) => {
    received += chunk.toString('utf8');
  });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const replies = () => received.split('\r\n').filter((line) => line !== '');
  /** Waits until `count` final reply lines (`NNN text`, not `NNN-text`) have arrived. */
  const finalReplies = async (count: number, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const finals = replies().filter((line) => /^\d{3}(?: |$)/.test(line));
      if (finals.length >= count) return finals;
      if (Date.now() > deadline) throw new Error(`waited for ${count} replies, got: ${JSON.stringify(replies())}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return {
    send: (data: string | Buffer) => socket.write(data),
    finalReplies,
    replies,
    closed,
    end: () => socket.end(),
  };
}

const codes = (lines: string[]) => lines.map((line) => line.slice(0, 3));

test('a pipelined transaction: every command answered in order, the message kept with its envelope', async (t) => {
  const server = await startServer(t);
  const client = await connect(server.port);
  client.send(
    'EHLO client.example\r\nMAIL FROM:<a@example.com> SIZE=100\r\nRCPT TO:<b@example.com>\r\nRCPT TO:<C@Example.com>\r\nDATA\r\n' +
      'Subject: hi\r\n\r\nline one\r\n..dot line\r\n.\r\nQUIT\r\n',
  );
  const finals = await client.finalReplies(8);
  assert.deepEqual(codes(finals), ['220', '250', '250', '250', '250', '354', '250', '221']);
  const all = client.replies();
  const ehlo = all.slice(1, all.findIndex((line) => line.startsWith('250 ')) + 1);
  assert.equal(ehlo[0], '250-test-catcher greets client.example');
  assert.ok(
    ehlo.some((line) => line.includes('PIPELINING')),
    'EHLO advertises PIPELINING',
  );
  assert.ok(
    ehlo.some((line) => line.includes('SIZE 1024')),
    'EHLO advertises the size limit',
  );
  assert.ok(
    ehlo.some((line) => line.includes('AUTH PLAIN LOGIN')),
    'EHLO advertises AUTH',
  );
  await client.closed;
  assert.equal(server.caught.length, 1);
  assert.deepEqual(server.caught[0]!.envelope, { mailFrom: 'a@example.com', rcptTo: ['b@example.com', 'C@Example.com'] });
  assert.equal(server.caught[0]!.raw, 'Subject: hi\r\n\r\nline one\r\n.dot line\r\n');
});

test('dot-stuffing and the end of data are read the same whatever way the bytes are split', async (t) => {
  const server = await startServer(t);
  const body = 'Subject: split\r\n\r\n.leading\r\n...three\r\nmid.dle\r\n.\r\n';
  const expected = 'Subject: split\r\n\r\nleading\r\n..three\r\nmid.dle\r\n';
  for (const size of [1, 2, 3, 7]) {
    const client = await connect(server.port);
    client.send('HELO x\r\nMAIL FROM:<> \r\nRCPT TO:<r@example.com>\r\nDATA\r\n');
    await client.finalReplies(5);
    for (let i = 0; i < body.length; i += size) {
      client.send(body.slice(i, i + size));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const finals = await client.finalReplies(6);
    assert.equal(codes(finals).at(-1), '250', `split in pieces of ${size}`);
    client.end();
    await client.closed;
  }
  assert.equal(server.caught.length, 4);
  for (const mail of server.caught) {
    assert.equal(mail.raw, expected);
    assert.equal(mail.envelope.mailFrom, '', 'the null sender');
  }
});

test('bare LF line ends are accepted, the end of data included', async (t) => {
  const server = await startServer(t);
  const client = await connect(server.port);
  client.send('HELO x\nMAIL FROM:<a@example.com>\nRCPT TO:<b@example.com>\nDATA\nSubject: lf\n\nbody\n.\nQUIT\n');
  await client.finalReplies(7);
  assert.deepEqual(codes(client.replies()), ['220', '250', '250', '250', '354', '250', '221']);
  assert.equal(server.caught[0]!.raw, 'Subject: lf\n\nbody\n');
});

test('a message over the limit gets 552 and is not kept; the connection goes on', async (t) => {
  const server = await startServer(t);
  const client = await connect(server.port);
  client.send('EHLO x\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<b@example.com>\r\nDATA\r\n');
  await client.finalReplies(5);
  client.send(`${'x'.repeat(100)}\r\n`.repeat(20) + '.\r\n');
  const finals = await client.finalReplies(6);
  assert.match(finals.at(-1)!, /^552 5\.3\.4 /);
  client.send('MAIL FROM:<a@example.com> SIZE=999999\r\n');
  assert.match((await client.finalReplies(7)).at(-1)!, /^552 /, 'a declared SIZE over the limit is refused at MAIL');
  client.send('MAIL FROM:<a@example.com>\r\nRCPT TO:<b@example.com>\r\nDATA\r\nsmall\r\n.\r\n');
  assert.deepEqual(codes(await client.finalReplies(11)).slice(7), ['250', '250', '354', '250']);
  assert.equal(server.caught.length, 1);
  assert.equal(server.caught[0]!.raw, 'small\r\n');
});

test('commands out of order, unknown commands and bad syntax are refused with their codes', async (t) => {
  const server = await startServer(t);
  const client = await connect(server.port);
  const steps: Array<[string, RegExp]> = [
    ['MAIL FROM:<a@example.com>', /^503 /],
    ['EHLO', /^501 /],
    ['HELO x', /^250 /],
    ['RCPT TO:<b@example.com>', /^503 /],
    ['DATA', /^503 /],
    ['MAIL FROM:a@example.com', /^250 /],
    ['MAIL FROM:<a@example.com>', /^503 5\.5\.1 Nested/],
    ['DATA', /^503 5\.5\.1 Need RCPT/],
    ['RCPT TO:<>', /^501 /],
    ['RCPT TO:<@relay.example:b@example.com>', /^250 /],
    ['RSET', /^250 /],
    ['DATA', /^503 /],
    ['STARTTLS', /^502 /],
    ['FOO bar', /^502 /],
    ['NOOP', /^250 /],
    ['VRFY someone', /^252 /],
    ['HELP', /^214 /],
  ];
  let expected = 1;
  for (const [command, reply] of steps) {
    client.send(`${command}\r\n`);
    expected += 1;
    const finals = await client.finalReplies(expected);
    assert.match(finals.at(-1)!, reply, command);
  }
  client.send(`${'A'.repeat(5000)}\r\n`);
  assert.match((await client.finalReplies(expected + 1)).at(-1)!, /^500 5\.5\.2 Line too long/);
  assert.equal(server.caught.length, 0);
});

test('AUTH PLAIN and LOGIN accept any login, with and without an initial response; cancel and unknown mechanisms are refused', async (t) => {
  const server = await startServer(t);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const plain = await connect(server.port);
  plain.send(`EHLO x\r\nAUTH PLAIN ${b64('\0user\0secret')}\r\nAUTH PLAIN\r\n`);
  const finals = await plain.finalReplies(4);
  assert.deepEqual(codes(finals), ['220', '250', '235', '503']);

  const login = await connect(server.port);
  login.send('EHLO x\r\nAUTH LOGIN\r\n');
  assert.equal((await login.finalReplies(3)).at(-1), '334 VXNlcm5hbWU6');
  login.send(`${b64('user')}\r\n`);
  assert.equal((await login.finalReplies(4)).at(-1), '334 UGFzc3dvcmQ6');
  login.send(`${b64('pass')}\r\n`);
  assert.match((await login.finalReplies(5)).at(-1)!, /^235 /);

  const other = await connect(server.port);
  other.send('EHLO x\r\nAUTH CRAM-MD5\r\nAUTH PLAIN\r\n');
  assert.deepEqual(codes(await other.finalReplies(4)), ['220', '250', '504', '334']);
  other.send('*\r\n');
  assert.match((await other.finalReplies(5)).at(-1)!, /^501 /);
  other.send(`AUTH PLAIN ${b64('no-separators')}\r\n`);
  assert.match((await other.finalReplies(6)).at(-1)!, /^501 /);
});

test('a refusal from the store reaches the client; a failed store answers 451 and is reported', async (t) => {
  let calls = 0;
  const server = await startServer(t, {
    onMessage: async () => {
      calls += 1;
      if (calls === 1) throw new SmtpRefusal(550, '5.7.1 Not today');
      throw new Error('disk full');
    },
  });
  const client = await connect(server.port);
  const mail = 'MAIL FROM:<a@example.com>\r\nRCPT TO:<b@example.com>\r\nDATA\r\nx\r\n.\r\n';
  client.send(`HELO x\r\n${mail}${mail}`);
  const finals = await client.finalReplies(10);
  assert.equal(finals[5], '550 5.7.1 Not today');
  assert.match(finals[9]!, /^451 /);
  assert.equal(server.errors.length, 1);
  assert.equal(server.errors[0]!.message, 'disk full');
});

test('an idle connection is closed with 421; ten refused commands in a row close it too', async (t) => {
  const server = await startServer(t, { idleTimeoutMs: 200 });
  const idle = await connect(server.port);
  await idle.closed;
  assert.match(idle.replies().at(-1)!, /^421 4\.4\.2 /);

  const noisy = await connect(server.port);
  noisy.send('GET / HTTP/1.1\r\n'.repeat(10));
  await noisy.closed;
  assert.match(noisy.replies().at(-1)!, /^421 4\.7\.0 /);
});

test('real clients: nodemailer (pooled, with and without AUTH) and curl deliver, and what they sent is what is kept', async (t) => {
  const server = await startServer(t, { maxMessageBytes: 10 * 1024 * 1024 });
  for (const auth of [undefined, { user: 'someone', pass: 'anything' }]) {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: server.port,
      secure: false,
      ignoreTLS: true,
      pool: true,
      maxConnections: 3,
      ...(auth ? { auth } : {}),
    });
    try {
      const sent = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          transport.sendMail({ from: 'sender@example.com', to: `r${i}@example.com`, subject: `pooled ${i}`, text: `.starts with a dot\nnumber ${i}\n.` }),
        ),
      );
      assert.equal(sent.filter((info) => info.accepted.length === 1).length, 20);
    } finally {
      transport.close();
    }
  }
  assert.equal(server.caught.length, 40);
  const one = server.caught.find((mail) => mail.raw.includes('Subject: pooled 7'))!;
  assert.deepEqual(one.envelope.rcptTo, ['r7@example.com']);
  assert.match(one.raw, /\r\n\.starts with a dot\r\nnumber 7\r\n\./, 'dots at line starts come back unstuffed');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-smtp-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'mail.txt');
  fs.writeFileSync(file, 'From: curl@example.com\r\nTo: x@example.com\r\nSubject: from curl\r\n\r\nsent by curl\r\n');
  await promisify(execFile)('curl', [
    '--silent',
    '--show-error',
    `smtp://127.0.0.1:${server.port}`,
    '--mail-from',
    'curl@example.com',
    '--mail-rcpt',
    'x@example.com',
    '--upload-file',
    file,
  ]);
  const fromCurl = server.caught.at(-1)!;
  assert.deepEqual(fromCurl.envelope, { mailFrom: 'curl@example.com', rcptTo: ['x@example.com'] });
  assert.match(fromCurl.raw, /Subject: from curl\r\n\r\nsent by curl\r\n$/);
});
