import { createHash, randomBytes, sign, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { attribute, children, integer, NULL, octets, OID, oid, oidText, parseDer, readCertificate, seq, set, tagged, tlv, type DerNode } from './cms.js';

/**
 * RFC 3161 in DER, both ways: time-stamp requests (TimeStampReq), replies (TimeStampResp) and
 * tokens (a CMS SignedData over a TSTInfo, RFC 5652 / RFC 5816). The sandbox's own authority issues
 * tokens with `issueTimestampToken`; `verifyTimestampToken` checks any authority's token against
 * what was stamped and, when known, the authority's certificate.
 */

/** The test authority's policy: a UUID-based OID (X.667), so it names no real policy. */
export const TSA_POLICY = '2.25.158638165192945812183714778727877752701';

const ID_KP_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const SIGNING_CERTIFICATE_V1 = '1.2.840.113549.1.9.16.2.12';

export type HashName = 'sha1' | 'sha256' | 'sha384' | 'sha512';

const HASHES: ReadonlyArray<{ name: HashName; oid: string; bytes: number }> = [
  { name: 'sha1', oid: '1.3.14.3.2.26', bytes: 20 },
  { name: 'sha256', oid: '2.16.840.1.101.3.4.2.1', bytes: 32 },
  { name: 'sha384', oid: '2.16.840.1.101.3.4.2.2', bytes: 48 },
  { name: 'sha512', oid: '2.16.840.1.101.3.4.2.3', bytes: 64 },
];

/** Signature algorithms a token may use, with the digest they imply (rsaEncryption: the SignerInfo's). */
const SIGNATURE_ALGORITHMS: Readonly<Record<string, HashName | 'signer'>> = {
  '1.2.840.113549.1.1.1': 'signer',
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};

/** Input that is not an acceptable time-stamp request; the message says what is wrong. */
export class TimestampRequestError extends Error {
  override name = 'TimestampRequestError';
}

export interface TimestampRequest {
  hashAlgorithm: HashName;
  /** The hash of what is to be stamped. */
  messageImprint: Buffer;
  /** The policy the client asks for, or null. */
  policy: string | null;
  /** The nonce as its unsigned big-endian bytes, or null. */
  nonce: Buffer | null;
  /** Whether the authority's certificate goes into the token. */
  certReq: boolean;
}

// --- Requests ---

export function encodeTimestampRequest(request: TimestampRequest): Buffer {
  return seq(
    integer(1),
    messageImprintOf(request.hashAlgorithm, request.messageImprint),
    ...(request.policy ? [oid(request.policy)] : []),
    ...(request.nonce ? [unsignedInteger(request.nonce)] : []),
    ...(request.certReq ? [Buffer.from([0x01, 0x01, 0xff])] : []),
  );
}

/** Reads a TimeStampReq; throws TimestampRequestError on anything else. */
export function decodeTimestampRequest(der: Buffer): TimestampRequest {
  const fail = (why: string): never => {
    throw new TimestampRequestError(`not an RFC 3161 time-stamp request: ${why}`);
  };
  let fields: DerNode[];
  try {
    const root = parseDer(der);
    if (root.tag !== 0x30) fail('a TimeStampReq is a DER SEQUENCE');
    fields = children(root);
  } catch (error) {
    if (error instanceof TimestampRequestError) throw error;
    return fail(`the body is not DER (${(error as Error).message})`);
  }
  const [version, imprint, ...rest] = fields;
  if (version?.tag !== 0x02 || !version.content.equals(Buffer.from([1]))) fail('version must be 1');
  const { hashAlgorithm, messageImprint } = readMessageImprint(imprint, fail);
  const request: TimestampRequest = { hashAlgorithm, messageImprint, policy: null, nonce: null, certReq: false };
  let at = 0;
  const next = rest[at];
  if (next?.tag === 0x06) {
    request.policy = oidText(next.content);
    at += 1;
  }
  const nonce = rest[at];
  if (nonce?.tag === 0x02) {
    if (nonce.content.length === 0 || nonce.content.length > 64 || ((nonce.content[0] ?? 0) & 0x80) !== 0) fail('the nonce must be a positive INTEGER of at most 64 bytes');
    request.nonce = stripZeros(nonce.content);
    at += 1;
  }
  const certReq = rest[at];
  if (certReq?.tag === 0x01) {
    if (certReq.content.length !== 1) fail('certReq must be a BOOLEAN');
    request.certReq = certReq.content[0] !== 0;
    at += 1;
  }
  if (rest[at]?.tag === 0xa0) throw new TimestampRequestError('this authority accepts no request extensions');
  if (at !== rest.length) fail('unexpected fields after messageImprint');
  if (request.policy !== null && request.policy !== TSA_POLICY) {
    throw new TimestampRequestError(`this authority issues tokens under policy ${TSA_POLICY} only, not ${request.policy}`);
  }
  return request;
}

function readMessageImprint(node: DerNode | undefined, fail: (why: string) => never): { hashAlgorithm: HashName; messageImprint: Buffer } {
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

// --- Tokens ---

export interface TsaKey {
  certificateDer: Buffer;
  privateKey: KeyObject;
}

/**
 * A token (ContentInfo/SignedData over a TSTInfo) for `request`, at `genTime`: the request's
 * message imprint and nonce echoed, this authority's policy, a random serial number, an accuracy of
 * one second, the certificate when `certReq` asks for it. Signed attributes: content-type,
 * message-digest and ESS signing-certificate-v2 (RFC 5816).
 */
export function issueTimestampToken(request: TimestampRequest, tsa: TsaKey, genTime: Date, serial: Buffer = randomSerial()): Buffer {
  const tstInfo = seq(
    integer(1),
    oid(TSA_POLICY),
    messageImprintOf(request.hashAlgorithm, request.messageImprint),
    unsignedInteger(serial),
    generalizedTime(genTime),
    seq(integer(1)), // accuracy: one second
    ...(request.nonce ? [unsignedInteger(request.nonce)] : []),
  );
  const cert = readCertificate(tsa.certificateDer);
  const sha256Algorithm = seq(oid(OID.sha256));
  const essCertIdV2 = seq(octets(createHash('sha256').update(tsa.certificateDer).digest()), seq(seq(tagged(0xa4, cert.issuer)), cert.serial));
  const signedAttributes = Buffer.concat(
    [
      attribute(OID.contentType, oid(OID.tstInfo)),
      attribute(OID.messageDigest, octets(createHash('sha256').update(tstInfo).digest())),
      attribute(OID.signingCertificateV2, seq(seq(essCertIdV2))),
    ].sort(Buffer.compare),
  );
  const signature = sign('sha256', tlv(0x31, signedAttributes), tsa.privateKey);
  const signerInfo = seq(
    integer(1),
    seq(cert.issuer, cert.serial),
    sha256Algorithm,
    tlv(0xa0, signedAttributes),
    seq(oid(OID.sha256WithRSAEncryption), NULL),
    octets(signature),
  );
  const signedData = seq(
    integer(3), // RFC 5652 5.1: the content is not id-data
    set(sha256Algorithm),
    seq(oid(OID.tstInfo), tagged(0xa0, octets(tstInfo))),
    ...(request.certReq ? [tlv(0xa0, tsa.certificateDer)] : []),
    set(signerInfo),
  );
  return seq(oid(OID.signedData), tagged(0xa0, signedData));
}

/** A TimeStampResp granting `token`. */
export function encodeTimestampReply(token: Buffer): Buffer {
  return seq(seq(integer(0)), token);
}

export interface TimestampReply {
  /** PKIStatus: 0 granted, 1 granted with modifications, 2 rejection, 3 waiting, 4-5 revocation. */
  status: number;
  statusText: string | null;
  token: Buffer | null;
}

export function decodeTimestampReply(der: Buffer): TimestampReply {
  const root = parseDer(der);
  const [statusInfo, token] = children(root);
  if (root.tag !== 0x30 || statusInfo?.tag !== 0x30) throw new Error('not an RFC 3161 time-stamp reply');
  const [status, text] = children(statusInfo);
  if (status?.tag !== 0x02 || status.content.length !== 1) throw new Error('not an RFC 3161 time-stamp reply');
  const statusText =
    text?.tag === 0x30
      ? children(text)
          .map((s) => s.content.toString('utf8'))
          .join('; ')
      : null;
  return { status: status.content[0] ?? 0, statusText, token: token ? Buffer.from(token.raw) : null };
}

export interface TimestampTokenInfo {
  policy: string;
  hashAlgorithm: HashName;
  messageImprint: Buffer;
  /** Hex, as openssl prints it. */
  serialNumber: string;
  genTime: Date;
  nonce: Buffer | null;
  /** Certificates the token carries (DER). */
  certificates: Buffer[];
  tstInfo: Buffer;
  signer: {
    issuerAndSerial: { issuer: Buffer; serial: Buffer } | null;
    digestAlgorithm: HashName;
    /** The [0] signed attributes as they travel (tag 0xa0). */
    signedAttributes: Buffer | null;
    attributes: Map<string, DerNode>;
    signatureAlgorithm: string;
    signature: Buffer;
  };
}

/** Reads a token; throws when it is not a CMS SignedData over a TSTInfo. */
export function readTimestampToken(token: Buffer): TimestampTokenInfo {
  const bad = (why: string): never => {
    throw new Error(`not an RFC 3161 timestamp token: ${why}`);
  };
  const [type, wrapped] = children(parseDer(token));
  if (type?.tag !== 0x06 || oidText(type.content) !== OID.signedData || wrapped?.tag !== 0xa0) bad('not a CMS SignedData');
  const signedData = children(wrapped as DerNode)[0];
  if (signedData?.tag !== 0x30) return bad('not a CMS SignedData');
  const fields = children(signedData);
  const encap = fields[2];
  const [contentType, explicit] = encap?.tag === 0x30 ? children(encap) : [];
  if (contentType?.tag !== 0x06 || oidText(contentType.content) !== OID.tstInfo || explicit?.tag !== 0xa0) bad('the content is not a TSTInfo');
  const tstOctets = children(explicit as DerNode)[0];
  if (tstOctets?.tag !== 0x04) return bad('the TSTInfo is not in an OCTET STRING');
  const tstInfo = Buffer.from(tstOctets.content);
  const certificates = fields.find((f, i) => i > 2 && f.tag === 0xa0);
  const signerInfos = fields.at(-1);
  const signerInfo = signerInfos?.tag === 0x31 ? children(signerInfos)[0] : undefined;
  if (signerInfo?.tag !== 0x30) return bad('no SignerInfo');

  const [version, policy, imprint, serial, genTime, ...optional] = children(parseDer(tstInfo));
  if (version?.tag !== 0x02 || policy?.tag !== 0x06 || serial?.tag !== 0x02 || genTime?.tag !== 0x18) bad('malformed TSTInfo');
  const { hashAlgorithm, messageImprint } = readMessageImprint(imprint, bad);
  const nonce = optional.find((f) => f.tag === 0x02);

  const [, sid, digestAlgorithm, ...signerRest] = children(signerInfo);
  const signedAttributes = signerRest[0]?.tag === 0xa0 ? signerRest[0] : null;
  const [signatureAlgorithm, signature] = signedAttributes ? signerRest.slice(1) : signerRest;
  const digestOid = digestAlgorithm?.tag === 0x30 ? children(digestAlgorithm)[0] : undefined;
  const digest = HASHES.find((h) => digestOid?.tag === 0x06 && h.oid === oidText(digestOid.content));
  const signatureOid = signatureAlgorithm?.tag === 0x30 ? children(signatureAlgorithm)[0] : undefined;
  if (!digest || signatureOid?.tag !== 0x06 || signature?.tag !== 0x04) return bad('malformed SignerInfo');
  const attributes = new Map<string, DerNode>();
  for (const attr of signedAttributes ? children(signedAttributes) : []) {
    const [attrType, values] = children(attr);
    const value = values ? children(values)[0] : undefined;
    if (attrType?.tag === 0x06 && value) attributes.set(oidText(attrType.content), value);
  }
  const sidParts = sid?.tag === 0x30 ? children(sid) : [];
  return {
    policy: oidText((policy as DerNode).content),
    hashAlgorithm,
    messageImprint,
    serialNumber: stripZeros((serial as DerNode).content).toString('hex').toUpperCase() || '00',
    genTime: parseGeneralizedTime((genTime as DerNode).content.toString('latin1')),
    nonce: nonce ? stripZeros(nonce.content) : null,
    certificates: certificates ? children(certificates).filter((c) => c.tag === 0x30).map((c) => Buffer.from(c.raw)) : [],
    tstInfo,
    signer: {
      issuerAndSerial: sidParts[0] && sidParts[1] ? { issuer: Buffer.from(sidParts[0].raw), serial: Buffer.from(sidParts[1].raw) } : null,
      digestAlgorithm: digest.name,
      signedAttributes: signedAttributes ? Buffer.from(signedAttributes.raw) : null,
      attributes,
      signatureAlgorithm: oidText(signatureOid.content),
      signature: Buffer.from(signature.content),
    },
  };
}

export type TimestampVerification = 'verified' | 'unverified' | 'failed';

export interface TimestampCheck {
  status: TimestampVerification;
  /** Why it failed or could not be verified; null when verified. */
  reason: string | null;
  info: TimestampTokenInfo | null;
  /** The CN of the certificate that signed the token, when the token or the anchor has it. */
  authority: string | null;
}

/**
 * Checks a token: it stamps `expected` (same hash algorithm and value), its signed attributes match
 * its TSTInfo and signing certificate, the signature holds, the signer may stamp time (extended key
 * usage timeStamping) and was valid at genTime. `failed` when any of that does not hold; otherwise
 * `verified` when the signer is `anchor` or issued by it, `unverified` when no anchor is known.
 */
export function verifyTimestampToken(token: Buffer, expected: { hashAlgorithm: HashName; imprint: Buffer }, anchor: Buffer | null): TimestampCheck {
  let info: TimestampTokenInfo;
  try {
    info = readTimestampToken(token);
  } catch (error) {
    return { status: 'failed', reason: (error as Error).message, info: null, authority: null };
  }
  const failed = (reason: string, authority: string | null = null): TimestampCheck => ({ status: 'failed', reason, info, authority });
  if (info.hashAlgorithm !== expected.hashAlgorithm || !info.messageImprint.equals(expected.imprint)) return failed('the token stamps other data');
  const { signer } = info;
  if (!signer.signedAttributes) return failed('the SignerInfo has no signed attributes');
  const contentType = signer.attributes.get(OID.contentType);
  if (contentType?.tag !== 0x06 || oidText(contentType.content) !== OID.tstInfo) return failed('the content-type attribute is not TSTInfo');
  const digest = signer.attributes.get(OID.messageDigest);
  if (digest?.tag !== 0x04 || !digest.content.equals(createHash(signer.digestAlgorithm).update(info.tstInfo).digest())) {
    return failed('the message-digest attribute does not match the TSTInfo');
  }

  const candidates = [...info.certificates, ...(anchor ? [anchor] : [])];
  const signerDer = candidates.find((der) => {
    try {
      const cert = readCertificate(der);
      return signer.issuerAndSerial !== null && cert.issuer.equals(signer.issuerAndSerial.issuer) && cert.serial.equals(signer.issuerAndSerial.serial);
    } catch {
      return false;
    }
  });
  if (!signerDer) {
    return anchor
      ? failed('the token was not signed by the expected authority')
      : { status: 'unverified', reason: 'the token carries no certificate to check it with', info, authority: null };
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(signerDer);
  } catch {
    return failed('the signer certificate cannot be read');
  }
  const authority = commonName(certificate);
  const certHash = essCertificateHash(signer.attributes);
  if (!certHash) return failed('the token has no signing-certificate attribute', authority);
  if (!createHash(certHash.algorithm).update(signerDer).digest().equals(certHash.hash)) return failed('the signing-certificate attribute names another certificate', authority);

  const scheme = SIGNATURE_ALGORITHMS[signer.signatureAlgorithm];
  if (!scheme) return { status: 'unverified', reason: `signature algorithm ${signer.signatureAlgorithm} is not supported here`, info, authority };
  const signedBytes = Buffer.concat([Buffer.from([0x31]), signer.signedAttributes.subarray(1)]);
  let valid: boolean;
  try {
    valid = verify(scheme === 'signer' ? signer.digestAlgorithm : scheme, signedBytes, certificate.publicKey, signer.signature);
  } catch {
    valid = false;
  }
  if (!valid) return failed('the signature does not match', authority);
  if (!(certificate.keyUsage ?? []).includes(ID_KP_TIME_STAMPING)) return failed('the signer certificate is not for timestamping', authority);
  const at = info.genTime.getTime();
  if (at < Date.parse(certificate.validFrom) || at > Date.parse(certificate.validTo)) return failed('genTime is outside the signer certificate validity', authority);

  if (!anchor) return { status: 'unverified', reason: 'no trust anchor for this authority', info, authority };
  let trusted: X509Certificate;
  try {
    trusted = new X509Certificate(anchor);
  } catch {
    return { status: 'unverified', reason: 'the trust anchor cannot be read', info, authority };
  }
  const chained = signerDer.equals(anchor) || (certificate.checkIssued(trusted) && certificate.verify(trusted.publicKey));
  return chained ? { status: 'verified', reason: null, info, authority } : failed('the signer is not the trusted authority', authority);
}

/** The CN of a certificate's subject, or the whole subject when it has none. */
export function commonName(certificate: X509Certificate): string {
  const lines = certificate.subject.split('\n');
  const cn = lines.find((line) => line.startsWith('CN='));
  return (cn ? cn.slice(3) : lines.join(', ')).replace(/\\(.)/g, '$1');
}

function essCertificateHash(attributes: Map<string, DerNode>): { algorithm: HashName; hash: Buffer } | null {
  const v2 = attributes.get(OID.signingCertificateV2);
  const v1 = attributes.get(SIGNING_CERTIFICATE_V1);
  const certs = (v2 ?? v1)?.tag === 0x30 ? children((v2 ?? v1) as DerNode)[0] : undefined;
  const first = certs?.tag === 0x30 ? children(certs)[0] : undefined;
  if (first?.tag !== 0x30) return null;
  const parts = children(first);
  if (v1) return parts[0]?.tag === 0x04 ? { algorithm: 'sha1', hash: parts[0].content } : null;
  // ESSCertIDv2: hashAlgorithm (DEFAULT SHA-256) then certHash.
  let algorithm: HashName = 'sha256';
  let at = 0;
  if (parts[0]?.tag === 0x30) {
    const algOid = children(parts[0])[0];
    const found = HASHES.find((h) => algOid?.tag === 0x06 && h.oid === oidText(algOid.content));
    if (!found) return null;
    algorithm = found.name;
    at = 1;
  }
  const hash = parts[at];
  return hash?.tag === 0x04 ? { algorithm, hash: hash.content } : null;
}

// --- DER pieces ---

function messageImprintOf(hashAlgorithm: HashName, imprint: Buffer): Buffer {
  const hash = HASHES.find((h) => h.name === hashAlgorithm) as (typeof HASHES)[number];
  return seq(seq(oid(hash.oid), NULL), octets(imprint));
}

/** A non-negative INTEGER from big-endian bytes. */
function unsignedInteger(bytes: Buffer): Buffer {
  const value = stripZeros(bytes);
  if (value.length === 0) return tlv(0x02, Buffer.from([0]));
  return tlv(0x02, (value[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

function stripZeros(bytes: Buffer): Buffer {
  let at = 0;
  while (at < bytes.length && bytes[at] === 0) at += 1;
  return Buffer.from(bytes.subarray(at));
}

function randomSerial(): Buffer {
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

function parseGeneralizedTime(text: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{1,9}))?Z$/.exec(text);
  if (!match) throw new Error(`not an RFC 3161 timestamp token: genTime "${text}" is not a UTC GeneralizedTime`);
  const [, y, mo, d, h, mi, s, fraction] = match;
  return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Math.floor(Number(`0.${fraction ?? '0'}`) * 1000)));
}
