import type { Generated } from 'kysely';
import type { MailStatus } from '../../domain/outbox-states.js';

/** A message caught by the built-in SMTP catcher. */
export interface EmailsTable {
  seq: Generated<number>;
  id: string;
  received_at: number;
  mail_from: string;
  /** JSON array of the envelope recipients, lowercased. */
  recipients: string;
  subject: string;
  text: string;
  html: string;
  /** JSON array of [name, value] header pairs, in order. */
  headers: string;
  raw: Buffer;
  size: number;
  /** For paraph's own mails (from their X-Paraph-* headers): invitation, reminder, replacement, otp. */
  kind: string | null;
  account_id: string | null;
  request_id: string | null;
  signer_reference: string | null;
}

/** paraph's outgoing mail, queued in the transaction of the change that sends it. */
export interface MailOutboxTable {
  id: string;
  account_id: string;
  request_id: string;
  signer_id: string | null;
  kind: string;
  recipient: string;
  /** The composed message, sealed: it carries a signing link or a code. */
  message_sealed: Buffer;
  status: MailStatus;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}
