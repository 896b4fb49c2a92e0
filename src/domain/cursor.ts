import { invalidRequest } from './errors.js';

/** What seals a cursor (the data directory's secrets: AES-256-GCM under the master key). */
export interface CursorSealer {
  seal(plaintext: Uint8Array, aad: string): Buffer;
  open(sealed: Uint8Array, aad: string): Buffer;
}

/**
 * Opaque list cursors: the sequence number of the last row seen, tagged with the list it belongs to, sealed for
 * the account (`scope`) whose list it is, in base64url. The sequence is shared by every account, so a cursor
 * written in the clear would tell how many rows the others made; sealed and padded, it tells nothing, and a
 * cursor of another account, another list or anything else is not a cursor this API returned.
 */
export function encodeCursor(sealer: CursorSealer, scope: string, list: string, seq: number): string {
  return sealer.seal(Buffer.from(`${list}:${String(seq).padStart(16, '0')}`), aadOf(scope, list)).toString('base64url');
}

export function decodeCursor(sealer: CursorSealer, scope: string, list: string, cursor: string): number {
  let text = '';
  try {
    if (/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) text = sealer.open(Buffer.from(cursor, 'base64url'), aadOf(scope, list)).toString();
  } catch {
    // Not sealed for this list of this account.
  }
  const match = /^([a-z0-9]+):(\d{16})$/.exec(text);
  const seq = match ? Number(match[2]) : 0;
  if (!match || match[1] !== list || seq < 1) throw invalidRequest('cursor is not a cursor this API returned');
  return seq;
}

/** The scope of a list of every account's rows (the dashboard's, the CLI's). */
export const ALL_ACCOUNTS = '*';

const aadOf = (scope: string, list: string) => `cursor:${list}:${scope}`;
