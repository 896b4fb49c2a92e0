import type { Socket } from 'node:net';

/** What a client handed over in one SMTP transaction. */
export interface SmtpEnvelope {
  /** The MAIL FROM address, `''` for the null sender (`<>`). */
  mailFrom: string;
  rcptTo: string[];
}

/** A refusal from the message handler: the client gets `code message` instead of 250. */
export class SmtpRefusal extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export interface SmtpSessionOptions {
  /** Name the server gives in its greeting and EHLO answer. */
  name: string;
  /** The greeting's text after the name. */
  banner: string;
  /** Largest message accepted (the SIZE extension advertises it); bigger ones get 552 and are not stored. */
  maxMessageBytes: number;
  /** A connection with nothing said for this long is closed with 421. */
  idleTimeoutMs: number;
  /** Stores one message; the client hears 250 once it resolves, or the refusal's code when it rejects. */
  onMessage(envelope: SmtpEnvelope, raw: Buffer): Promise<void>;
  /** A socket error or a failed store (not a refusal), for the log. */
  onError(error: Error): void;
}

const MAX_COMMAND_LINE = 4096;
const MAX_RECIPIENTS = 1000;
/** After this many refused commands in a row the connection is closed (a client talking another protocol). */
const MAX_BAD_COMMANDS = 10;
const LF = 0x0a;
const CR = 0x0d;
const DOT = 0x2e;
const LF_DOT = Buffer.from('\n.');

type Mode = 'command' | 'data' | 'auth-plain' | 'auth-login-user' | 'auth-login-pass' | 'busy' | 'closed';

/**
 * One SMTP connection to the catcher (RFC 5321 with PIPELINING, SIZE, 8BITMIME, SMTPUTF8,
 * ENHANCEDSTATUSCODES and AUTH PLAIN/LOGIN accepting any login). Commands are read in order; while a
 * message is being stored, later pipelined commands wait for its answer.
 */
export class SmtpSession {
  private buffer: Buffer = Buffer.alloc(0);
  private mode: Mode = 'command';
  private greeted = false;
  private authenticated = false;
  private envelope: SmtpEnvelope | null = null;
  private message: Buffer[] = [];
  private messageBytes = 0;
  private atLineStart = true;
  private badCommands = 0;
  private idle: NodeJS.Timeout | null = null;
  /** Replies not yet written: those of one batch of input leave in one write. */
  private out = '';

  private readonly socket: Socket;
  private readonly options: SmtpSessionOptions;

  constructor(socket: Socket, options: SmtpSessionOptions) {
    this.socket = socket;
    this.options = options;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => this.options.onError(error));
    socket.on('close', () => this.stop());
    this.touch();
    this.reply(220, `${options.name} ESMTP ${options.banner}`);
    this.flush();
  }

  /** Ends the connection politely (server shutting down). */
  shutDown(): void {
    if (this.mode === 'closed') return;
    this.reply(421, '4.3.2 Service shutting down');
    this.close();
  }

  private stop(): void {
    this.mode = 'closed';
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
  }

  private close(): void {
    this.stop();
    this.flush();
    this.socket.end();
  }

  private touch(): void {
    if (this.idle) this.idle.refresh();
    else {
      this.idle = setTimeout(() => {
        this.reply(421, '4.4.2 Timeout: closing the connection');
        this.close();
      }, this.options.idleTimeoutMs);
      this.idle.unref();
    }
  }

  private reply(code: number, text: string): void {
    this.out += `${code} ${text}\r\n`;
  }

  private replyLines(code: number, lines: readonly string[]): void {
    const last = lines.length - 1;
    for (let i = 0; i <= last; i += 1) this.out += `${code}${i === last ? ' ' : '-'}${lines[i]}\r\n`;
  }

  private flush(): void {
    if (this.out === '') return;
    if (this.socket.writable) this.socket.write(this.out);
    this.out = '';
  }

  private receive(chunk: Buffer): void {
    if (this.mode === 'closed') return;
    this.touch();
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    this.process();
  }

  /** Works through the buffered input until it runs out or a message is being stored. */
  private process(): void {
    try {
      while (this.buffer.length > 0 && this.mode !== 'busy' && this.mode !== 'closed') {
        if (this.mode === 'data') {
          if (!this.readData()) break;
          continue;
        }
        const end = this.buffer.indexOf(LF);
        if (end === -1) {
          if (this.buffer.length > MAX_COMMAND_LINE) {
            this.reply(500, '5.5.2 Line too long');
            this.close();
          }
          break;
        }
        const line = this.buffer.subarray(0, end > 0 && this.buffer[end - 1] === CR ? end - 1 : end).toString('utf8');
        this.buffer = this.buffer.subarray(end + 1);
        if (line.length > MAX_COMMAND_LINE) this.reply(500, '5.5.2 Line too long');
        else this.line(line);
      }
    } finally {
      this.flush();
    }
  }

  /**
   * Reads message data from the buffer (dot-unstuffing as it goes) up to the line holding a single
   * dot. Answers whether it got there; when not, the whole buffer was taken (or it waits for the
   * byte after a dot at a line start).
   */
  private readData(): boolean {
    const buf = this.buffer;
    let i = 0;
    while (i < buf.length) {
      if (this.atLineStart && buf[i] === DOT) {
        if (i + 1 >= buf.length) break;
        const crlf = buf[i + 1] === CR;
        if (crlf && i + 2 >= buf.length) break;
        if (buf[i + 1] === LF || (crlf && buf[i + 2] === LF)) {
          this.buffer = buf.subarray(i + (crlf ? 3 : 2));
          this.endOfData();
          return true;
        }
        i += 1; // a stuffed dot: dropped
      }
      // Everything up to the next line that starts with a dot is taken as it is.
      const dotLine = buf.indexOf(LF_DOT, i);
      const to = dotLine === -1 ? buf.length : dotLine + 1;
      this.append(buf.subarray(i, to));
      this.atLineStart = buf[to - 1] === LF;
      i = to;
    }
    this.buffer = buf.subarray(i);
    return false;
  }

  private append(part: Buffer): void {
    this.messageBytes += part.length;
    if (this.messageBytes <= this.options.maxMessageBytes) this.message.push(part);
  }

  private endOfData(): void {
    const envelope = this.envelope!;
    const size = this.messageBytes;
    const raw = Buffer.concat(this.message);
    this.resetTransaction();
    if (size > this.options.maxMessageBytes) {
      this.mode = 'command';
      this.reply(552, `5.3.4 Message exceeds the catcher limit of ${this.options.maxMessageBytes / 1024 / 1024} MiB`);
      return;
    }
    this.mode = 'busy';
    this.options.onMessage(envelope, raw).then(
      () => this.resume(250, '2.0.0 Message kept by the catcher'),
      (error: unknown) => {
        if (error instanceof SmtpRefusal) this.resume(error.code, error.message);
        else {
          this.options.onError(error instanceof Error ? error : new Error(String(error)));
          this.resume(451, '4.3.0 The catcher could not store the message');
        }
      },
    );
  }

  private resume(code: number, text: string): void {
    if (this.mode === 'closed') return;
    this.mode = 'command';
    // The answer and those to commands pipelined behind the message leave in one write.
    this.reply(code, text);
    this.process();
  }

  private resetTransaction(): void {
    this.envelope = null;
    this.message = [];
    this.messageBytes = 0;
    this.atLineStart = true;
  }

  private bad(code: number, text: string): void {
    this.reply(code, text);
    this.badCommands += 1;
    if (this.badCommands >= MAX_BAD_COMMANDS) {
      this.reply(421, '4.7.0 Too many errors: closing the connection');
      this.close();
    }
  }

  private line(line: string): void {
    if (this.mode === 'auth-plain') return this.authPlain(line);
    if (this.mode === 'auth-login-user') {
      if (line === '*') return this.authCancelled();
      this.mode = 'auth-login-pass';
      return this.reply(334, 'UGFzc3dvcmQ6');
    }
    if (this.mode === 'auth-login-pass') {
      if (line === '*') return this.authCancelled();
      return this.authAccepted();
    }
    const space = line.indexOf(' ');
    const verb = (space === -1 ? line : line.slice(0, space)).toUpperCase();
    const arg = space === -1 ? '' : line.slice(space + 1).trim();
    switch (verb) {
      case 'EHLO':
      case 'HELO':
        return this.hello(verb, arg);
      case 'MAIL':
        return this.mailFrom(arg);
      case 'RCPT':
        return this.rcptTo(arg);
      case 'DATA':
        return this.data(arg);
      case 'RSET':
        this.resetTransaction();
        this.badCommands = 0;
        return this.reply(250, '2.0.0 Flushed');
      case 'NOOP':
        return this.reply(250, '2.0.0 OK');
      case 'QUIT':
        this.reply(221, '2.0.0 Bye');
        return this.close();
      case 'VRFY':
        return this.reply(252, '2.5.0 Cannot VRFY user, but will accept message');
      case 'HELP':
        return this.reply(214, '2.0.0 paraph SMTP catcher: EHLO, MAIL, RCPT, DATA, RSET, NOOP, AUTH, QUIT');
      case 'AUTH':
        return this.auth(arg);
      case 'STARTTLS':
        return this.bad(502, '5.5.1 STARTTLS is not offered: the catcher speaks plain SMTP on the loopback');
      case '':
        return this.bad(500, '5.5.2 Empty command');
      default:
        return this.bad(502, `5.5.1 Unknown command ${verb.slice(0, 32)}`);
    }
  }

  private hello(verb: string, domain: string): void {
    if (domain === '') return this.bad(501, `5.5.4 Syntax: ${verb} hostname`);
    this.greeted = true;
    this.resetTransaction();
    this.badCommands = 0;
    if (verb === 'HELO') return this.reply(250, `${this.options.name} greets ${domain}`);
    this.replyLines(250, [
      `${this.options.name} greets ${domain}`,
      'PIPELINING',
      '8BITMIME',
      'SMTPUTF8',
      'ENHANCEDSTATUSCODES',
      `SIZE ${this.options.maxMessageBytes}`,
      'AUTH PLAIN LOGIN',
    ]);
  }

  private mailFrom(arg: string): void {
    if (!this.greeted) return this.bad(503, '5.5.1 Send HELO or EHLO first');
    if (this.envelope) return this.bad(503, '5.5.1 Nested MAIL command');
    const parsed = pathArgument(arg, 'FROM');
    if (!parsed) return this.bad(501, '5.5.4 Syntax: MAIL FROM:<address>');
    const size = /(?:^|\s)SIZE=(\d+)/i.exec(parsed.params);
    if (size && Number(size[1]) > this.options.maxMessageBytes) {
      return this.reply(552, `5.3.4 Message exceeds the catcher limit of ${this.options.maxMessageBytes / 1024 / 1024} MiB`);
    }
    this.envelope = { mailFrom: parsed.address, rcptTo: [] };
    this.badCommands = 0;
    this.reply(250, '2.1.0 Accepted');
  }

  private rcptTo(arg: string): void {
    if (!this.envelope) return this.bad(503, '5.5.1 Need MAIL command first');
    const parsed = pathArgument(arg, 'TO');
    if (!parsed || parsed.address === '') return this.bad(501, '5.5.4 Syntax: RCPT TO:<address>');
    if (this.envelope.rcptTo.length >= MAX_RECIPIENTS) return this.reply(452, '4.5.3 Too many recipients');
    this.envelope.rcptTo.push(parsed.address);
    this.badCommands = 0;
    this.reply(250, '2.1.5 Accepted');
  }

  private data(arg: string): void {
    if (arg !== '') return this.bad(501, '5.5.4 Syntax: DATA takes no argument');
    if (!this.envelope) return this.bad(503, '5.5.1 Need MAIL command first');
    if (this.envelope.rcptTo.length === 0) return this.bad(503, '5.5.1 Need RCPT command first');
    this.mode = 'data';
    this.message = [];
    this.messageBytes = 0;
    this.atLineStart = true;
    this.reply(354, 'End data with <CR><LF>.<CR><LF>');
  }

  private auth(arg: string): void {
    if (!this.greeted) return this.bad(503, '5.5.1 Send HELO or EHLO first');
    if (this.authenticated) return this.bad(503, '5.5.1 Already authenticated');
    if (this.envelope) return this.bad(503, '5.5.1 AUTH is not allowed during a mail transaction');
    const [mechanism = '', initial] = arg.split(/\s+/);
    switch (mechanism.toUpperCase()) {
      case 'PLAIN':
        if (initial !== undefined) return this.authPlain(initial);
        this.mode = 'auth-plain';
        return this.reply(334, '');
      case 'LOGIN':
        if (initial !== undefined) {
          this.mode = 'auth-login-pass';
          return this.reply(334, 'UGFzc3dvcmQ6');
        }
        this.mode = 'auth-login-user';
        return this.reply(334, 'VXNlcm5hbWU6');
      default:
        return this.bad(504, '5.5.4 Unrecognized authentication type: PLAIN and LOGIN are offered');
    }
  }

  private authPlain(response: string): void {
    if (response === '*') return this.authCancelled();
    // Any login is accepted; the response only has to be the PLAIN shape (authzid NUL user NUL password).
    const parts = Buffer.from(response, 'base64').toString('utf8').split('\0');
    if (parts.length !== 3) {
      this.mode = 'command';
      return this.bad(501, '5.5.2 Cannot decode the PLAIN response');
    }
    this.authAccepted();
  }

  private authAccepted(): void {
    this.mode = 'command';
    this.authenticated = true;
    this.reply(235, '2.7.0 Authentication successful (the catcher accepts any login)');
  }

  private authCancelled(): void {
    this.mode = 'command';
    this.reply(501, '5.7.0 Authentication cancelled');
  }
}

const FROM_PATH = /^FROM:\s*(?:<([^>]*)>|([^\s<>]+))(.*)$/i;
const TO_PATH = /^TO:\s*(?:<([^>]*)>|([^\s<>]+))(.*)$/i;

/** `FROM:<a@b> SIZE=12` → the address and the parameters; null when it is not that shape. */
function pathArgument(arg: string, keyword: 'FROM' | 'TO'): { address: string; params: string } | null {
  const match = (keyword === 'FROM' ? FROM_PATH : TO_PATH).exec(arg);
  if (!match) return null;
  let address = (match[1] ?? match[2] ?? '').trim();
  // A source route (`<@a,@b:user@host>`) is ignored, as RFC 5321 allows.
  const route = /^@[^:]+:(.*)$/.exec(address);
  if (route) address = route[1]!;
  return { address, params: match[3]!.trim() };
}
