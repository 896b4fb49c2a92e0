import type { ColumnType, Generated } from 'kysely';

/** One secret link per signer at a time; only the SHA-256 of its token is kept (and, for a sequential request, the sealed URL). */
export interface SigningLinksTable {
  id: string;
  request_id: string;
  signer_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** rotated, replaced, cancelled, closed, expired */
  revoked_reason: string | null;
  /** A sequential request's signing URL, sealed: the mail of the signer's turn carries it. Null otherwise. */
  url_sealed: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
}

/** The outbox of webhook events: written in the transaction of the state change they describe. */
export interface EventsTable {
  seq: Generated<number>;
  id: string;
  account_id: string;
  request_id: string;
  /** The key that created the request: its secret signs the deliveries. */
  api_key_id: string;
  type: string;
  /** The WebhookEvent JSON, exactly the bytes every delivery sends. */
  payload: string;
  created_at: number;
}

/**
 * The evidence audit trail: a sequential id per request, and who acted. Append-only (triggers refuse
 * UPDATE and DELETE) and hash-chained: `hash` covers the row's content and `prev_hash`.
 */
export interface AuditEventsTable {
  request_id: string;
  id: number;
  type: string;
  actor_type: string;
  actor_id: string | null;
  actor_email: string;
  signer_id: string | null;
  data: string;
  created_at: number;
  /** The previous row's hash (64 zeros for the first row). */
  prev_hash: string | null;
  hash: string | null;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
  /**
   * in_progress while the first call runs; committed once its change committed, with the answer written
   * in the same transaction (mail outcomes still to come); done with the answer as it was sent.
   */
  state: string;
  /** The process that holds an in_progress row; another process's leftover lock is stale. */
  owner: string;
  status_code: number | null;
  content_type: string | null;
  body: Buffer | null;
  /** The X-Request-Id of the stored answer. */
  request_id: string | null;
  created_at: number;
  expires_at: number;
  /** A committed answer's mails: JSON `[{path, mail_id}]`, where `path` leads to an object with `email_delivery`. */
  mails: string | null;
}

/** The answer of one row's step (`create`, `activate`) of a keyed call made of rows: a bulk send. */
export interface IdempotencyRowAnswersTable {
  account_id: string;
  key: string;
  /** The call's fingerprint: a key reused for another body finds no row. */
  fingerprint: string;
  row_index: number;
  step: string;
  /** The step's answer, sealed (it can hold signing links). */
  body: Buffer;
  /** Its mails, as in `idempotency_keys.mails`. */
  mails: string;
  created_at: number;
}
