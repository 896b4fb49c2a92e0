import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const EMPTY = new Uint8Array(0);
/** One sealer per purpose, each with its own key derived from the master key. */
export function createSealer(masterKey, purpose) {
    const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `paraph:${purpose}`, 32));
    return {
        seal(plaintext, aad, prefix = EMPTY) {
            const iv = randomBytes(IV_BYTES);
            const cipher = createCipheriv('aes-256-gcm', key, iv);
            cipher.setAAD(Buffer.from(aad));
            const body = cipher.update(plaintext);
            const rest = cipher.final();
            const out = Buffer.allocUnsafe(prefix.length + IV_BYTES + TAG_BYTES + body.length + rest.length);
            out.set(prefix, 0);
            out.set(iv, prefix.length);
            out.set(cipher.getAuthTag(), prefix.length + IV_BYTES);
            out.set(body, prefix.length + IV_BYTES + TAG_BYTES);
            out.set(rest, prefix.length + IV_BYTES + TAG_BYTES + body.length);
            return out;
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
export function createMac(masterKey, purpose) {
    const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `paraph:${purpose}`, 32));
    return (data) => createHmac('sha256', key).update(data).digest('hex');
}
//# sourceMappingURL=sealed.js.map