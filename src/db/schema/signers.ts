import type { Locale } from '../../domain/locales.js';
import type { SignerStatus } from '../../domain/request-states.js';

export interface SignersTable {
  id: string;
  request_id: string;
  /** Position in the create payload, to list signers as they were given. */
  position: number;
  reference: string;
  name: string | null;
  email: string;
  signing_order: number;
  locale: Locale | null;
  verification: string | null;
  status: SignerStatus;
  signed_at: number | null;
  expires_at: number | null;
  verified_at: number | null;
  /** First load of the signing view. */
  viewed_at: number | null;
  /** Set when the role was given to another person: the row stays for the audit trail. */
  replaced_at: number | null;
  created_at: number;
  updated_at: number;
}
