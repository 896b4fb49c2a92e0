import type { RequestStatus } from './request-states.js';

/** Why a request's content went: its retention deadline passed, or an operator purged it by hand. */
export type PurgeCause = 'retention' | 'by_hand';

/** An event that records no data (`{}` in the trail). */
export type NoData = Record<string, never>;

/**
 * The evidence audit trail's event types, each with the `data` its row records (stored as JSON). The
 * recording function (`audit` in src/features/events/record-events.ts) takes only these, and the
 * evidence report has a label for each in every language (src/pdf/evidence-pdf-text-*.ts).
 */
export interface AuditEventData {
  request_created: { document_sha256: string; signers: number; fields: number; template_id?: string };
  request_activated: { link_expiry_days: number | null; send_emails: boolean };
  fields_confirmed: { field_count: number };
  link_issued: { by: 'dashboard' };
  reminder_sent: NoData;
  signer_viewed: NoData;
  otp_sent: NoData;
  /** `verification`: how many times this signer has entered a code. */
  otp_verified: { verification: number };
  /** `attempt`: the wrong attempts at the current code. */
  otp_failed: { attempt: number };
  /** `fields`: how many of the signer's fields the signature filled. */
  signer_signed: { fields: number };
  signer_declined: { reason: string };
  signer_replaced: { replaced_signer_id: string };
  signer_corrected: { reference: string };
  signer_expired: NoData;
  request_completed: NoData;
  request_declined: NoData;
  request_cancelled: { reason?: string };
  request_expired: NoData;
  request_purged: { previous_status: RequestStatus; cause: PurgeCause };
  /** The SHA-256 of each artifact stored (a missing one is left out). */
  artifacts_generated: { signed_pdf_sha256?: string; evidence_pdf_sha256?: string; evidence_json_sha256?: string };
}

export type AuditEventType = keyof AuditEventData;

/** Every audit event type, in the order of a request's life. */
export const AUDIT_EVENT_TYPES = [
  'request_created',
  'request_activated',
  'fields_confirmed',
  'link_issued',
  'reminder_sent',
  'signer_viewed',
  'otp_sent',
  'otp_verified',
  'otp_failed',
  'signer_signed',
  'signer_declined',
  'signer_replaced',
  'signer_corrected',
  'signer_expired',
  'request_completed',
  'request_declined',
  'request_cancelled',
  'request_expired',
  'request_purged',
  'artifacts_generated',
] as const satisfies readonly AuditEventType[];
// The list names every type of AuditEventData: a type added to one and not the other fails the build.
true satisfies AuditEventType extends (typeof AUDIT_EVENT_TYPES)[number] ? true : false;

const KNOWN: ReadonlySet<string> = new Set(AUDIT_EVENT_TYPES);

/** Whether a stored row's type is one paraph records (rows are read back as plain strings). */
export function isAuditEventType(type: string): type is AuditEventType {
  return KNOWN.has(type);
}
