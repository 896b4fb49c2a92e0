import { createHash } from 'node:crypto';

/** The `prev_hash` of a request's first audit event. */
export const AUDIT_GENESIS = '0'.repeat(64);

/** What one audit row says, as stored: the hash covers exactly these columns. */
export interface AuditContent {
  request_id: string;
  id: number;
  type: string;
  actor_type: string;
  actor_id: string | null;
  actor_email: string;
  signer_id: string | null;
  /** JSON text, hashed as stored. */
  data: string;
  created_at: number;
}

/**
 * SHA-256 of one row's content and the hash of the row before it. A JSON array is an unambiguous
 * encoding (no field can run into the next), and the leading tag versions the rule.
 */
export function auditRowHash(row: AuditContent, prevHash: string): string {
  const content = [
    'paraph.audit/1',
    row.request_id,
    row.id,
    row.type,
    row.actor_type,
    row.actor_id,
    row.actor_email,
    row.signer_id,
    row.data,
    row.created_at,
    prevHash,
  ];
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

export type AuditBreak =
  | { id: number; reason: 'gap'; message: string }
  | { id: number; reason: 'link'; message: string }
  | { id: number; reason: 'content'; message: string };

export interface ChainCheck {
  count: number;
  /** Hash of the last row (the genesis value for an empty trail). */
  head: string;
  broken: AuditBreak | null;
}

/** Walks a request's rows in id order and names the first one that breaks the chain. */
export function checkAuditChain(rows: ReadonlyArray<AuditContent & { prev_hash: string | null; hash: string | null }>): ChainCheck {
  let previous = AUDIT_GENESIS;
  let expectedId = 1;
  for (const row of rows) {
    if (row.id !== expectedId) {
      const message =
        row.id > expectedId
          ? `event #${row.id} follows #${expectedId - 1}: ${expectedId === row.id - 1 ? `#${expectedId} is` : `#${expectedId} to #${row.id - 1} are`} missing`
          : `event #${row.id} is out of sequence`;
      return { count: rows.length, head: previous, broken: { id: row.id, reason: 'gap', message } };
    }
    if (row.prev_hash !== previous) {
      return {
        count: rows.length,
        head: previous,
        broken: {
          id: row.id,
          reason: 'link',
          message: `event #${row.id} does not link to the hash of ${row.id === 1 ? 'the chain start' : `event #${row.id - 1}`}`,
        },
      };
    }
    if (row.hash !== auditRowHash(row, previous)) {
      return {
        count: rows.length,
        head: previous,
        broken: { id: row.id, reason: 'content', message: `event #${row.id} does not match its hash: its content was changed` },
      };
    }
    previous = row.hash;
    expectedId += 1;
  }
  return { count: rows.length, head: previous, broken: null };
}
