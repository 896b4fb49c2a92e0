import { createHash, createPrivateKey, sign } from 'node:crypto';
/**
 * CMS SignedData for PAdES baseline B-B (ETSI EN 319 142-1, CAdES detached): one SignerInfo whose
 * signed attributes are content-type, message-digest and ESS signing-certificate-v2, with no
 * signing-time (PAdES puts the time in the signature dictionary's /M). Encoded by hand in DER so the
 * certificate and its issuer name are embedded byte for byte; signed with node:crypto.
 */
export const OID = {
    data: '1.2.840.113549.1.7.1',
    signedData: '1.2.840.113549.1.7.2',
    contentType: '1.2.840.113549.1.9.3',
    messageDigest: '1.2.840.113549.1.9.4',
    signingTime: '1.2.840.113549.1.9.5',
    signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
    sha256: '2.16.840.1.101.3.4.2.1',
    sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
};
/** The DER ContentInfo of a detached signature over content whose SHA-256 is `contentDigest`. */
export function cadesDetachedSignature(contentDigest, signer) {
    const cert = readCertificate(signer.certificateDer);
    const issuerAndSerial = seq(cert.issuer, cert.serial);
    const sha256Algorithm = seq(oid(OID.sha256));
    const essCertIdV2 = seq(
    // hashAlgorithm is left out: its DEFAULT is SHA-256.
    octets(createHash('sha256').update(signer.certificateDer).digest()), seq(seq(tagged(0xa4, cert.issuer)), cert.serial));
    const attributes = [
        attribute(OID.contentType, oid(OID.data)),
        attribute(OID.messageDigest, octets(contentDigest)),
        attribute(OID.signingCertificateV2, seq(seq(essCertIdV2))),
    ].sort(Buffer.compare); // DER: a SET OF is ordered by encoding
    const signedAttributes = Buffer.concat(attributes);
    const key = Buffer.isBuffer(signer.privateKey)
        ? createPrivateKey({ key: signer.privateKey, format: 'der', type: 'pkcs8' })
        : signer.privateKey;
    // The signature covers the attributes encoded as a SET (tag 0x31), not as the [0] they travel in.
    const signature = sign('sha256', tlv(0x31, signedAttributes), key);
    const signerInfo = seq(integer(1), issuerAndSerial, sha256Algorithm, tlv(0xa0, signedAttributes), seq(oid(OID.sha256WithRSAEncryption), NULL), octets(signature));
    const signedData = seq(integer(1), set(sha256Algorithm), seq(oid(OID.data)), // detached: no eContent
    tlv(0xa0, signer.certificateDer), set(signerInfo));
    return seq(oid(OID.signedData), tagged(0xa0, signedData));
}
// --- DER writing ---
function length(n) {
    if (n < 0x80)
        return Buffer.from([n]);
    const bytes = [];
    for (let v = n; v > 0; v = Math.floor(v / 256))
        bytes.unshift(v & 0xff);
    return Buffer.from([0x80 | bytes.length, ...bytes]);
}
export function tlv(tag, content) {
    return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}
const seq = (...items) => tlv(0x30, Buffer.concat(items));
const set = (...items) => tlv(0x31, Buffer.concat(items));
const tagged = (tag, ...items) => tlv(tag, Buffer.concat(items));
const octets = (bytes) => tlv(0x04, bytes);
const NULL = Buffer.from([0x05, 0x00]);
const integer = (n) => tlv(0x02, Buffer.from([n]));
const attribute = (type, value) => seq(oid(type), set(value));
export function oid(dotted) {
    const parts = dotted.split('.').map(Number);
    const bytes = [(parts[0] ?? 0) * 40 + (parts[1] ?? 0)];
    for (const part of parts.slice(2)) {
        const chunk = [part & 0x7f];
        for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128))
            chunk.unshift((v & 0x7f) | 0x80);
        bytes.push(...chunk);
    }
    return tlv(0x06, Buffer.from(bytes));
}
function readNode(buffer, offset) {
    const tag = buffer[offset];
    const first = buffer[offset + 1];
    if (tag === undefined || first === undefined)
        throw new Error('truncated DER');
    let size = first;
    let header = 2;
    if (first & 0x80) {
        const count = first & 0x7f;
        size = 0;
        for (let i = 0; i < count; i += 1)
            size = size * 256 + (buffer[offset + 2 + i] ?? 0);
        header += count;
    }
    const end = offset + header + size;
    if (end > buffer.length)
        throw new Error('truncated DER');
    return { tag, raw: buffer.subarray(offset, end), content: buffer.subarray(offset + header, end) };
}
export function children(node) {
    const out = [];
    for (let at = 0; at < node.content.length;) {
        const child = readNode(node.content, at);
        out.push(child);
        at += child.raw.length;
    }
    return out;
}
export function parseDer(buffer) {
    return readNode(buffer, 0);
}
function readCertificate(der) {
    const tbs = children(parseDer(der))[0];
    if (!tbs)
        throw new Error('not a certificate');
    const fields = children(tbs);
    // TBSCertificate: [0] version (explicit, optional), serialNumber, signature, issuer, ...
    const at = fields[0]?.tag === 0xa0 ? 1 : 0;
    const serial = fields[at];
    const issuer = fields[at + 2];
    if (serial?.tag !== 0x02 || issuer?.tag !== 0x30)
        throw new Error('not a certificate');
    return { issuer: issuer.raw, serial: serial.raw };
}
//# sourceMappingURL=cms.js.map