import type { Generated } from 'kysely';
import type { RequestStatus } from '../../domain/request-states.js';

export interface SignatureRequestsTable {
  /** Insertion order: lists page on it, newest first. */
  seq: Generated<number>;
  id: string;
  account_id: string;
  api_key_id: string;
  client_reference: string;
  template_id: string | null;
  status: RequestStatus;
  document_id: string;
  callback_url: string | null;
  sequential_signing: number;
  return_url: string | null;
  embed_origin: string | null;
  /** EmailBranding as JSON, or null. */
  email_json: string | null;
  created_at: number;
  updated_at: number;
  retention_expires_at: number;
  activated_at: number | null;
  completed_at: number | null;
  cancelled_at: number | null;
  cancellation_reason: string | null;
  /** Set at activation: replaced and reminded signers get links of the same lifetime. */
  link_expiry_days: number | null;
  /** 1 when activated with `send_emails`: a sequential request then mails each signer when their turn comes. */
  send_emails: Generated<number>;
}
