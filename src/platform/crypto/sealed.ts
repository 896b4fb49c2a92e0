import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM with a random IV; `aad` binds the ciphertext to what it belongs to (an id, a digest). */
export interface Sealer {
  /** `iv ‖ tag ‖ ciphertext` in one buffer. */
  seal(plaintext: Uint8Array, aad: string): Buffer;
  /** The same sealing a piece at a time, for large values written as they are encrypted. */
  begin(aad: string): Sealing;
  open(sealed: Uint8Array, aad: string): Buffer;
  /** The same opening a piece at a time: `header` is `iv ‖ tag`, then each piece of the ciphertext in order. */
  opening(header: Uint8Array, aad: string): Opening;
}

/** One value being opened; `final` throws when it is not what was sealed under that `aad`. */
export interface Opening {
  update(piece: Uint8Array): Buffer;
  final(): void;
}

/** One value being sealed: its sealed form is `iv ‖ tag ‖ update(…) ‖ … ‖ final().rest`. */
export interface Sealing {
  readonly iv: Buffer;
  update(piece: Uint8Array): Buffer;
  /** Ends the value: the last ciphertext bytes (none for GCM) and the tag, which goes after the IV. */
  final(): { rest: Buffer; tag: Buffer };
}

/** Bytes before the ciphertext in a sealed value: the IV and the tag. */
export const SEALED_HEADER_BYTES = IV_BYTES + TAG_BYTES;

/** One sealer per purpose, each with its own key derived from the master key. */
export function createSealer(masterKey: Buffer, purpose: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `paraph:${purpose}`, 32));
  return {
    seal(plaintext, aad) {
      const sealing = this.begin(aad);
      const body = sealing.update(plaintext);
      const { rest, tag } = sealing.final();
      return Buffer.concat([sealing.iv, tag, body, rest]);
    },
    begin(aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad));
      return {
        iv,
        update: (piece) => cipher.update(piece),
        final: () => {
          const rest = cipher.final();
          return { rest, tag: cipher.getAuthTag() };
        },
      };
    },
    open(sealed, aad) {
      const buffer = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
      const decipher = createDecipheriv('aes-256-gcm', key, buffer.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(buffer.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = decipher.update(buffer.subarray(IV_BYTES + TAG_BYTES));
      const rest = decipher.final();
      // GCM has nothing left at the end: no second copy of a large value.
      return rest.length === 0 ? plain : Buffer.concat([plain, rest]);
    },
    opening(header, aad) {
      const buffer = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
      const decipher = createDecipheriv('aes-256-gcm', key, buffer.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(buffer.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return { update: (piece) => decipher.update(piece), final: () => void decipher.final() };
    },
  };
}

/** HMAC-SHA256 (hex) under a key derived from the master key for `purpose`: proves paraph wrote a value. */
export function createMac(masterKey: Buffer, purpose: string): (data: string) => string {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `paraph:${purpose}`, 32));
  return (data) => createHmac('sha256', key).update(data).digest('hex');
}
