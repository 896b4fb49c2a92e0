import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import type { Context } from '../context.js';
import { safeEqual } from '../platform/crypto/tokens.js';
import { storeCaughtEmails, type CaughtEmailRow } from '../features/mail/store-caught-emails.js';
import { mailTagOf } from '../features/mail/outbox.js';
import { parseCommonMail, type ParsedMail } from './common-mail.js';
import { SmtpSession, type SmtpEnvelope } from './smtp-session.js';

export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** A connection with nothing said for a minute is closed (421). */
const IDLE_TIMEOUT_MS = 60_000;

export interface Catcher {
  port: number;
  close(): Promise<void>;
}

/**
 * The built-in SMTP catcher: accepts any sender, recipient and login, keeps each message (raw source,
 * parsed headers, text, HTML, envelope recipients) in the database, at most `maxMessages` of them
 * (the oldest go first). Nothing leaves the machine.
 */
export async function startCatcher(ctx: Context, options: { host: string; port: number; maxMessages: number }): Promise<Catcher> {
  const sessions = new Set<SmtpSession>();
  const store = emailStore(ctx, options.maxMessages);
  const server = net.createServer((socket) => {
    const session = new SmtpSession(socket, {
      name: 'paraph-catcher',
      banner: 'paraph SMTP catcher: mail is kept, never delivered',
      maxMessageBytes: MAX_MESSAGE_BYTES,
      idleTimeoutMs: IDLE_TIMEOUT_MS,
      onMessage: store,
      onError: (error) => ctx.log.warn({ err: error }, 'SMTP catcher connection error'),
    });
    sessions.add(session);
    socket.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`SMTP catcher port ${options.port} is already in use (choose another --smtp-port, or 0 for a free one)`)
          : error,
      ),
    );
    server.listen(options.port, options.host, () => {
      server.removeAllListeners('error');
      server.on('error', (error) => ctx.log.warn({ err: error }, 'SMTP catcher error'));
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.shutDown();
      }),
  };
}

/** A parsed message waiting for the next write of the batch it joins. */
interface PendingEmail {
  row: CaughtEmailRow;
  done: { resolve(): void; reject(error: unknown): void };
}

/**
 * Parses each message as it arrives and stores the messages that arrived in the same turn of the
 * event loop in one transaction (each client still hears 250 only once its message is stored). The
 * common shapes of message are read synchronously (src/smtp/common-mail.ts, which gives what
 * postal-mime gives); postal-mime reads the others.
 */
function emailStore(ctx: Context, maxMessages: number) {
  let pending: PendingEmail[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    try {
      storeCaughtEmails(
        ctx,
        batch.map((pendingEmail) => pendingEmail.row),
        maxMessages,
      );
    } catch (error) {
      for (const { done } of batch) done.reject(error);
      return;
    }
    for (const { done } of batch) done.resolve();
  };
  const enqueue = (row: CaughtEmailRow) =>
    new Promise<void>((resolve, reject) => {
      if (pending.push({ row, done: { resolve, reject } }) === 1) setImmediate(flush);
    });
  return (envelope: SmtpEnvelope, raw: Buffer): Promise<void> => {
    let parsed: ParsedMail | null = null;
    try {
      parsed = parseCommonMail(raw);
    } catch {
      // Never expected; postal-mime reads the message as it reads any other.
    }
    if (!parsed) return PostalMime.parse(raw).then((email) => enqueue(emailRow(ctx, envelope, raw, email)));
    let row: CaughtEmailRow;
    try {
      row = emailRow(ctx, envelope, raw, parsed);
    } catch (error) {
      return Promise.reject(error);
    }
    return enqueue(row);
  };
}

function emailRow(ctx: Context, envelope: SmtpEnvelope, raw: Buffer, parsed: ParsedMail): CaughtEmailRow {
  const header = (name: string) => parsed.headers.find((h) => h.key === name)?.value.trim() || null;
  const own = ownMail(ctx, header);
  return {
    id: randomUUID(),
    received_at: 0,
    mail_from: parsed.from?.address ? formatAddress(parsed.from) : envelope.mailFrom,
    recipients: JSON.stringify(envelope.rcptTo.map((address) => address.toLowerCase())),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: parsed.html ?? '',
    headers: JSON.stringify(parsed.headers.map((h) => [h.originalKey, h.value])),
    raw,
    size: raw.length,
    kind: own?.kind ?? null,
    account_id: own?.accountId ?? null,
    request_id: own?.requestId ?? null,
    signer_reference: own?.signerReference ?? null,
  };
}

/** paraph's own mail, recognised by its tag; anything else belongs to no account. */
function ownMail(ctx: Context, header: (name: string) => string | null) {
  const kind = header('x-paraph-kind');
  const accountId = header('x-paraph-account-id');
  const requestId = header('x-paraph-signature-request-id');
  const reference = header('x-paraph-signer-reference');
  const tag = header('x-paraph-tag');
  if (!kind || !accountId || !requestId || reference === null || !tag) return null;
  let signerReference: string;
  try {
    signerReference = decodeURIComponent(reference);
  } catch {
    return null;
  }
  const mail = { kind, accountId, requestId, signerReference };
  return safeEqual(tag, mailTagOf(ctx, mail)) ? mail : null;
}

function formatAddress(address: { name?: string; address?: string }): string {
  return address.name ? `${address.name} <${address.address ?? ''}>` : (address.address ?? '');
}
