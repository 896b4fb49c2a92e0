import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 of `byteCount` random bytes: letters and digits only, so a key double-click selects whole. */
export function randomBase62(byteCount: number): string {
  let n = BigInt(`0x${randomBytes(byteCount).toString('hex')}`);
  const width = Math.ceil((byteCount * 8) / Math.log2(62));
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, '0');
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
