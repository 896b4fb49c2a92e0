import { sql, type Selectable } from 'kysely';
import { isoTime } from '../../platform/clock.js';
import { emailCodeIn } from '../../domain/email-code.js';
import type { Context } from '../../context.js';
import type { EmailsTable } from '../../db/schema/mail.js';
import { notFound } from '../../domain/errors.js';
import type { CaughtEmail } from '../../contract/sandbox.js';

export interface EmailFilter {
  /** null: every message (the operator CLI), including mail from other SMTP clients. */
  accountId: string | null;
  to?: string | undefined;
  signatureRequestId?: string | undefined;
  kind?: string | undefined;
  limit?: number;
}

/** Caught mail, newest first. */
export function listCaughtEmails(ctx: Context, filter: EmailFilter): CaughtEmail[] {
  let query = ctx.db.q
    .selectFrom('emails')
    .selectAll()
    .orderBy('seq', 'desc')
    .limit(filter.limit ?? 100);
  if (filter.accountId !== null) query = query.where('account_id', '=', filter.accountId);
  if (filter.signatureRequestId !== undefined) query = query.where('request_id', '=', filter.signatureRequestId);
  if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
  // Recipients are stored as a JSON array of lowercased addresses.
  if (filter.to) query = query.where(sql<boolean>`instr(recipients, ${JSON.stringify(filter.to.trim().toLowerCase())}) > 0`);
  return ctx.db.all(query).map(emailView);
}

export function showCaughtEmail(ctx: Context, id: string): CaughtEmail & { headers: Array<[string, string]>; raw: string } {
  const row = ctx.db.first(ctx.db.q.selectFrom('emails').selectAll().where('id', '=', id));
  if (!row) throw notFound(`email ${id} does not exist`);
  return { ...emailView(row), headers: JSON.parse(row.headers) as Array<[string, string]>, raw: Buffer.from(row.raw).toString('utf8') };
}

function emailView(row: Selectable<EmailsTable>): CaughtEmail {
  return {
    id: row.id,
    from: row.mail_from,
    to: JSON.parse(row.recipients) as string[],
    subject: row.subject,
    text: row.text,
    html: row.html,
    received_at: isoTime(row.received_at),
    kind: (row.kind as CaughtEmail['kind']) ?? null,
    signature_request_id: row.request_id,
    signer_reference: row.signer_reference,
  };
}

/** The code of the newest OTP mail caught for a signer (what `paraph sign --otp auto` reads). */
export function latestOtpCode(ctx: Context, requestId: string, signerReference: string): string | null {
  const row = ctx.db.first(
    ctx.db.q
      .selectFrom('emails')
      .select('text')
      .where('kind', '=', 'otp')
      .where('request_id', '=', requestId)
      .where('signer_reference', '=', signerReference)
      .orderBy('seq', 'desc'),
  );
  return emailCodeIn(row?.text ?? '');
}
