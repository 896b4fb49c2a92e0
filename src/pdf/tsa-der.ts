import { randomBytes } from 'node:crypto';
import { children, NULL, octets, oid, oidText, seq, tlv, type DerNode } from './cms.js';

/**
 * The DER shapes RFC 3161 requests, replies and tokens share: hash algorithms and message imprints,
 * unsigned INTEGERs (nonces, serial numbers) and GeneralizedTime, written and read. The request and
 * reply messages are in tsa-protocol.ts, reading and checking tokens in tsa-token.ts.
 */

export type HashName = 'sha1' | 'sha256' | 'sha384' | 'sha512';

export const HASHES: ReadonlyArray<{ name: HashName; oid: string; bytes: number }> = [
  { name: 'sha1', oid: '1.3.14.3.2.26', bytes: 20 },
  { name: 'sha256', oid: '2.16.840.1.101.3.4.2.1', bytes: 32 },
  { name: 'sha384', oid: '2.16.840.1.101.3.4.2.2', bytes: 48 },
  { name: 'sha512', oid: '2.16.840.1.101.3.4.2.3', bytes: 64 },
];

/** Input that is not an acceptable time-stamp request; the message says what is wrong. */
export class TimestampRequestError extends Error {
  override name = 'TimestampRequestError';
}

/** A MessageImprint (hash algorithm and hash), as requests and TSTInfos carry it. */
export function readMessageImprint(node: DerNode | undefined, fail: (why: string) => never): { hashAlgorithm: HashName; messageImprint: Buffer } {
  if (node?.tag !== 0x30) return fail('messageImprint is missing');
  const [algorithm, hashed] = children(node);
  const algorithmOid = algorithm?.tag === 0x30 ? children(algorithm)[0] : undefined;
  if (algorithmOid?.tag !== 0x06 || hashed?.tag !== 0x04) return fail('messageImprint must be a hash algorithm and an OCTET STRING');
  const dotted = oidText(algorithmOid.content);
  const hash = HASHES.find((h) => h.oid === dotted);
  if (!hash) throw new TimestampRequestError(`unsupported hash algorithm ${dotted}: use SHA-256, SHA-384, SHA-512 or SHA-1`);
  if (hashed.content.length !== hash.bytes) fail(`a ${hash.name} hash has ${hash.bytes} bytes, not ${hashed.content.length}`);
  return { hashAlgorithm: hash.name, messageImprint: Buffer.from(hashed.content) };
}

export function messageImprintOf(hashAlgorithm: HashName, imprint: Buffer): Buffer {
  const hash = HASHES.find((h) => h.name === hashAlgorithm) as (typeof HASHES)[number];
  return seq(seq(oid(hash.oid), NULL), octets(imprint));
}

/** A non-negative INTEGER from big-endian bytes. */
export function unsignedInteger(bytes: Buffer): Buffer {
  const value = stripZeros(bytes);
  if (value.length === 0) return tlv(0x02, Buffer.from([0]));
  return tlv(0x02, (value[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

export function stripZeros(bytes: Buffer): Buffer {
  let at = 0;
  while (at < bytes.length && bytes[at] === 0) at += 1;
  return Buffer.from(bytes.subarray(at));
}

export function randomSerial(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x10;
  return bytes;
}

/** GeneralizedTime in UTC with milliseconds when there are any (DER: no trailing zeros). */
export function generalizedTime(at: Date): Buffer {
  const iso = at.toISOString(); // 2026-01-02T03:04:05.678Z
  const millis = iso.slice(20, 23).replace(/0+$/, '');
  const text = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}${millis ? `.${millis}` : ''}Z`;
  return tlv(0x18, Buffer.from(text, 'latin1'));
}

export function parseGeneralizedTime(text: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{1,9}))?Z$/.exec(text);
  if (!match) throw new Error(`not an RFC 3161 timestamp token: genTime "${text}" is not a UTC GeneralizedTime`);
  const [, y, mo, d, h, mi, s, fraction] = match;
  return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Math.floor(Number(`0.${fraction ?? '0'}`) * 1000)));
}
