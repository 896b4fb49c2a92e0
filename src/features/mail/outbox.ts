import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Context } from '../../context.js';
import type { RequestRow, SignerRow } from '../../model/request-queries.js';
import { requestDocument } from '../../model/documents.js';
import type { EmailBranding } from '../../contract/signature-requests.js';
import { fireFault } from '../faults/fire-fault.js';
import { composeMail, type ComposedMail } from './compose.js';
import type { MailKind } from './messages.js';

const SEND_TIMEOUT_MS = 5000;

export type MailDelivery = 'sent' | 'failed';

/**
 * Queues one of paraph's mails to a signer, inside the transaction of the change that sends it. The
 * composed message is sealed: it carries a signing link or a code.
 */
export function queueMail(
  ctx: Context,
  input: {
    request: RequestRow;
    signer: SignerRow;
    kind: MailKind;
    link?: string;
    linkExpiresAt?: number;
    code?: string;
    waitingFor?: readonly string[];
    signedBefore?: readonly string[];
    reason?: string | null;
  },
): string {
  const { db } = ctx;
  const mail = composeMail({
    kind: input.kind,
    locale: input.signer.locale,
    brand: ctx.brand.word,
    branding: input.request.email_json ? (JSON.parse(input.request.email_json) as EmailBranding) : null,
    document: requestDocument(db, input.request).filename,
    recipientName: input.signer.name,
    ...(input.link !== undefined ? { link: input.link } : {}),
    ...(input.linkExpiresAt !== undefined ? { linkExpiresAt: input.linkExpiresAt } : {}),
    ...(input.code !== undefined ? { code: input.code } : {}),
    ...(input.waitingFor !== undefined ? { waitingFor: input.waitingFor } : {}),
    ...(input.signedBefore !== undefined ? { signedBefore: input.signedBefore } : {}),
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
  });
  const id = randomUUID();
  const message = { ...mail, headers: mailHeaders(ctx, input.request, input.signer, input.kind) };
  db.insert('mail_outbox', {
    id,
    account_id: input.request.account_id,
    request_id: input.request.id,
    signer_id: input.signer.id,
    kind: input.kind,
    recipient: input.signer.email,
    message_sealed: ctx.secrets.seal(Buffer.from(JSON.stringify(message)), `mail:${id}`),
    status: 'pending',
    last_error: null,
    created_at: ctx.clock.now(),
    sent_at: null,
  });
  return id;
}

/**
 * Headers the catcher reads back to tell which account, request and signer a mail belongs to, with a
 * tag only paraph can make, so mail from another SMTP client cannot pose as an account's.
 */
function mailHeaders(ctx: Context, request: RequestRow, signer: SignerRow, kind: MailKind): Record<string, string> {
  return {
    'X-Paraph-Kind': kind,
    'X-Paraph-Account-Id': request.account_id,
    'X-Paraph-Signature-Request-Id': request.id,
    'X-Paraph-Signer-Reference': encodeURIComponent(signer.reference),
    'X-Paraph-Tag': mailTagOf(ctx, { kind, accountId: request.account_id, requestId: request.id, signerReference: signer.reference }),
  };
}

export function mailTagOf(ctx: Context, mail: { kind: string; accountId: string; requestId: string; signerReference: string }): string {
  return ctx.mailTag(JSON.stringify([mail.kind, mail.accountId, mail.requestId, mail.signerReference]));
}

/**
 * Sends queued mails over SMTP (the catcher, or the relay) and records each outcome; answers them by
 * id. A failure is reported, never thrown: the change that queued the mail stands. A mail that meets
 * a mail fault rule of its account fails without being sent.
 */
export async function sendQueuedMail(ctx: Context, ids: readonly string[]): Promise<Map<string, MailDelivery>> {
  const outcomes = new Map<string, MailDelivery>();
  if (ids.length === 0) return outcomes;
  const target = ctx.mailTarget();
  const transport = target
    ? nodemailer.createTransport({
        url: target,
        ignoreTLS: target.startsWith('smtp://') && isLocal(target),
        connectionTimeout: SEND_TIMEOUT_MS,
        greetingTimeout: SEND_TIMEOUT_MS,
        socketTimeout: SEND_TIMEOUT_MS,
      })
    : null;
  try {
    await Promise.all(
      ids.map(async (id) => {
        const row = ctx.db.first(ctx.db.q.selectFrom('mail_outbox').selectAll().where('id', '=', id));
        if (!row) return;
        let error: string | null = null;
        const fault = fireFault(ctx, row.account_id, { target: 'mail', signatureRequestId: row.request_id }, { mail_id: id, kind: row.kind });
        if (fault) {
          error = `SMTP send failed: refused by sandbox fault rule ${fault.id}`;
        } else if (!transport) {
          error = 'no SMTP catcher is running and no relay is configured';
        } else {
          const message = JSON.parse(ctx.secrets.open(row.message_sealed, `mail:${id}`).toString()) as ComposedMail & { headers: Record<string, string> };
          try {
            await transport.sendMail({
              from: { name: message.fromName, address: `no-reply@${ctx.brand.word}.test` },
              to: row.recipient,
              subject: message.subject,
              text: message.text,
              html: message.html,
              headers: message.headers,
            });
          } catch (sendError) {
            error = `SMTP send failed: ${(sendError as Error).message}`.slice(0, 300);
          }
        }
        ctx.db.transaction(() =>
          ctx.db.run(
            ctx.db.q
              .updateTable('mail_outbox')
              .set({ status: error ? 'failed' : 'sent', last_error: error, sent_at: error ? null : ctx.clock.now() })
              .where('id', '=', id),
          ),
        );
        outcomes.set(id, error ? 'failed' : 'sent');
      }),
    );
  } finally {
    transport?.close();
  }
  return outcomes;
}

/** Mails queued by a process that stopped before sending them (sent again at start). */
export function pendingMailIds(ctx: Context): string[] {
  return ctx.db.all(ctx.db.q.selectFrom('mail_outbox').select('id').where('status', '=', 'pending').orderBy('created_at', 'asc')).map((r) => r.id);
}

function isLocal(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}
