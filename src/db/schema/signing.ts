/** A signer's signature or initials, drawn (a PNG) or typed (text). */
export interface SignerMarksTable {
  signer_id: string;
  /** signature or initials */
  kind: string;
  /** drawn or typed */
  method: string;
  text: string | null;
  image: Buffer | null;
  created_at: number;
}

/** An email code; only its SHA-256 is kept. */
export interface SignerOtpsTable {
  id: string;
  signer_id: string;
  code_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  /** Set when the code was used or died after its last attempt. */
  closed_at: number | null;
}

/** Wrong codes, counted over 24 hours to lock a signer's verification. */
export interface OtpFailuresTable {
  signer_id: string;
  at: number;
}

/** One entry of the email code by one browser or client: only the SHA-256 of the secret it holds is kept. */
export interface SignerVerificationsTable {
  id: string;
  signer_id: string;
  secret_hash: string;
  created_at: number;
}
