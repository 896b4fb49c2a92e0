export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  key_hash: string;
  /** The last characters of the key, so a human can tell keys apart. */
  key_hint: string;
  /** The `whsec_` secret sealed with the master key (paraph signs webhooks with it, so it cannot be hashed). */
  webhook_secret_sealed: string;
  created_at: number;
  revoked_at: number | null;
}
