import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';

/**
 * CMS SignedData for PAdES baseline B-B (ETSI EN 319 142-1, CAdES detached): one SignerInfo whose
 * signed attributes are content-type, message-digest and ESS signing-certificate-v2, with no
 * signing-time (PAdES puts the time in the signature dictionary's /M). For B-T the SignerInfo also
 * carries an RFC 3161 token over its signature value as the unsigned signature-time-stamp attribute.
 * Encoded by hand in DER so the certificate and its issuer name are embedded byte for byte; signed
 * with node:crypto.
 */

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
} as const;

export interface CmsSigner {
  certificateDer: Buffer;
  privateKey: KeyObject | Buffer;
}

/**
 * Asks a timestamp authority for a token over a signature value: answers the token's DER
 * (a ContentInfo holding SignedData over a TSTInfo).
 */
export type SignatureTimestamper = (signatureValue: Buffer) => Promise<Buffer>;

/** The DER ContentInfo of a detached signature over content whose SHA-256 is `contentDigest` (B-B). */
export function cadesDetachedSignature(contentDigest: Buffer, signer: CmsSigner): Buffer {
  const { signerInfo, signedData } = cadesParts(contentDigest, signer);
  return signedData(signerInfo());
}

/** The same with the signature value timestamped (B-T): `stamp` gets the signature value. */
export async function cadesTimestampedSignature(contentDigest: Buffer, signer: CmsSigner, stamp: SignatureTimestamper): Promise<Buffer> {
  const { signerInfo, signedData, signature } = cadesParts(contentDigest, signer);
  const token = await stamp(signature);
  return signedData(signerInfo(tlv(0xa1, attribute(OID.signatureTimeStampToken, token))));
}

function cadesParts(contentDigest: Buffer, signer: CmsSigner) {
  const cert = readCertificate(signer.certificateDer);
  const issuerAndSerial = seq(cert.issuer, cert.serial);
  const sha256Algorithm = seq(oid(OID.sha256));

  const essCertIdV2 = seq(
    // hashAlgorithm is left out: its DEFAULT is SHA-256.
    octets(createHash('sha256').update(signer.certificateDer).digest()),
    seq(seq(tagged(0xa4, cert.issuer)), cert.serial),
  );
  const attributes = [
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(contentDigest)),
    attribute(OID.signingCertificateV2, seq(seq(essCertIdV2))),
  ].sort(Buffer.compare); // DER: a SET OF is ordered by encoding
  const signedAttributes = Buffer.concat(attributes);

  const key = Buffer.isBuffer(signer.privateKey) ? createPrivateKey({ key: signer.privateKey, format: 'der', type: 'pkcs8' }) : signer.privateKey;
  // The signature covers the attributes encoded as a SET (tag 0x31), not as the [0] they travel in.
  const signature = sign('sha256', tlv(0x31, signedAttributes), key);

  const signerInfo = (unsignedAttributes?: Buffer) =>
    seq(
      integer(1),
      issuerAndSerial,
      sha256Algorithm,
      tlv(0xa0, signedAttributes),
      seq(oid(OID.sha256WithRSAEncryption), NULL),
      octets(signature),
      ...(unsignedAttributes ? [unsignedAttributes] : []),
    );
  const signedData = (info: Buffer) =>
    seq(
      oid(OID.signedData),
      tagged(
        0xa0,
        seq(
          integer(1),
          set(sha256Algorithm),
          seq(oid(OID.data)), // detached: no eContent
          tlv(0xa0, signer.certificateDer),
          set(info),
        ),
      ),
    );
  return { signature, signerInfo, signedData };
}

// --- DER writing ---

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

export const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
export const tagged = (tag: number, ...items: Buffer[]) => tlv(tag, Buffer.concat(items));
export const octets = (bytes: Buffer) => tlv(0x04, bytes);
export const NULL = Buffer.from([0x05, 0x00]);
/** A small non-negative INTEGER (0 to 127). */
export const integer = (n: number) => tlv(0x02, Buffer.from([n]));
export const attribute = (type: string, value: Buffer) => seq(oid(type), set(value));

/** An OBJECT IDENTIFIER; arcs may be longer than 53 bits (2.25.<UUID> ones are). */
export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map((part) => BigInt(part));
  const bytes: number[] = [Number((parts[0] ?? 0n) * 40n + (parts[1] ?? 0n))];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [Number(part & 0x7fn)];
    for (let v = part >> 7n; v > 0n; v >>= 7n) chunk.unshift(Number(v & 0x7fn) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** The dotted form of an OBJECT IDENTIFIER's content bytes. */
export function oidText(content: Buffer): string {
  const arcs: bigint[] = [];
  let value = 0n;
  for (const byte of content) {
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) {
      arcs.push(value);
      value = 0n;
    }
  }
  const first = arcs.shift() ?? 0n;
  const head = first < 80n ? [first / 40n, first % 40n] : [2n, first - 80n];
  return [...head, ...arcs].join('.');
}

// --- DER reading: just enough to lift the issuer Name and serialNumber out of a certificate ---

export interface DerNode {
  tag: number;
  /** The whole encoding (tag, length, content). */
  raw: Buffer;
  content: Buffer;
}

function readNode(buffer: Buffer, offset: number): DerNode {
  const tag = buffer[offset];
  const first = buffer[offset + 1];
  if (tag === undefined || first === undefined) throw new Error('truncated DER');
  if ((tag & 0x1f) === 0x1f) throw new Error('unsupported DER tag');
  let size = first;
  let header = 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    // 0 is BER's indefinite length, which DER does not allow; over 4 bytes no input here can be.
    if (count === 0 || count > 4) throw new Error('invalid DER length');
    size = 0;
    for (let i = 0; i < count; i += 1) size = size * 256 + (buffer[offset + 2 + i] ?? 0);
    header += count;
  }
  const end = offset + header + size;
  if (end > buffer.length) throw new Error('truncated DER');
  return { tag, raw: buffer.subarray(offset, end), content: buffer.subarray(offset + header, end) };
}

export function children(node: DerNode): DerNode[] {
  const out: DerNode[] = [];
  for (let at = 0; at < node.content.length; ) {
    const child = readNode(node.content, at);
    out.push(child);
    at += child.raw.length;
  }
  return out;
}

/** One DER element that must span the whole buffer (no trailing bytes). */
export function parseDer(buffer: Buffer): DerNode {
  const node = readNode(buffer, 0);
  if (node.raw.length !== buffer.length) throw new Error('trailing bytes after the DER element');
  return node;
}

export function readCertificate(der: Buffer): { issuer: Buffer; serial: Buffer } {
  const tbs = children(parseDer(der))[0];
  if (!tbs) throw new Error('not a certificate');
  const fields = children(tbs);
  // TBSCertificate: [0] version (explicit, optional), serialNumber, signature, issuer, ...
  const at = fields[0]?.tag === 0xa0 ? 1 : 0;
  const serial = fields[at];
  const issuer = fields[at + 2];
  if (serial?.tag !== 0x02 || issuer?.tag !== 0x30) throw new Error('not a certificate');
  return { issuer: issuer.raw, serial: serial.raw };
}
