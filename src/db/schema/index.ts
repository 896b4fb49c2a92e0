import type { AccountsTable } from './accounts.js';
import type { ApiKeysTable } from './api-keys.js';
import type { ArtifactsTable } from './artifacts.js';
import type { DocumentsTable } from './documents.js';
import type { FaultRulesTable } from './faults.js';
import type { FieldsTable } from './fields.js';
import type { AuditEventsTable, EventsTable, IdempotencyKeysTable, SigningLinksTable } from './lifecycle.js';
import type { EmailsTable, MailOutboxTable } from './mail.js';
import type { SettingsTable } from './settings.js';
import type { OtpFailuresTable, SignerMarksTable, SignerOtpsTable, SignerVerificationsTable } from './signing.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from './webhooks.js';
import type { SignatureRequestsTable } from './signature-requests.js';
import type { SignersTable } from './signers.js';
import type { TemplatesTable } from './templates.js';

export interface DatabaseSchema {
  settings: SettingsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  documents: DocumentsTable;
  signature_requests: SignatureRequestsTable;
  signers: SignersTable;
  fields: FieldsTable;
  signing_links: SigningLinksTable;
  events: EventsTable;
  audit_events: AuditEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  artifacts: ArtifactsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  emails: EmailsTable;
  mail_outbox: MailOutboxTable;
  templates: TemplatesTable;
  signer_marks: SignerMarksTable;
  signer_otps: SignerOtpsTable;
  otp_failures: OtpFailuresTable;
  signer_verifications: SignerVerificationsTable;
  fault_rules: FaultRulesTable;
}
