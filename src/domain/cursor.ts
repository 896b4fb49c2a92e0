import { invalidRequest } from './errors.js';

/**
 * Opaque list cursors: the sequence number of the last row seen, tagged with the list it belongs to,
 * in base64url. Anything else is not a cursor this API returned.
 */
export function encodeCursor(list: string, seq: number): string {
  return Buffer.from(`${list}:${seq}`).toString('base64url');
}

export function decodeCursor(list: string, cursor: string): number {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const match = /^([a-z0-9]+):([1-9]\d{0,15})$/.exec(text);
  if (!match || match[1] !== list) throw invalidRequest('cursor is not a cursor this API returned');
  return Number(match[2]);
}
