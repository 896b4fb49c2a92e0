import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM with a random IV; `aad` binds the ciphertext to what it belongs to (an id, a digest). */
export interface Sealer {
  seal(plaintext: Uint8Array, aad: string): Buffer;
  open(sealed: Uint8Array, aad: string): Buffer;
}

/** One sealer per purpose, each with its own key derived from the master key. */
export function createSealer(masterKey: Buffer, purpose: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `paraph:${purpose}`, 32));
  return {
    seal(plaintext, aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad));
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed, aad) {
      const buffer = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
      const decipher = createDecipheriv('aes-256-gcm', key, buffer.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(buffer.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(buffer.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    },
  };
}

/** HMAC-SHA256 (hex) under a key derived from the master key for `purpose`: proves paraph wrote a value. */
export function createMac(masterKey: Buffer, purpose: string): (data: string) => string {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `paraph:${purpose}`, 32));
  return (data) => createHmac('sha256', key).update(data).digest('hex');
}
