import { createHash, verify, X509Certificate } from 'node:crypto';
import { children, OID, oidText, parseDer, readCertificate, type DerNode } from './cms.js';
import { HASHES, parseGeneralizedTime, readMessageImprint, stripZeros, type HashName } from './tsa-der.js';

/**
 * RFC 3161 time-stamp tokens read and checked: `readTimestampToken` takes a token (a CMS SignedData
 * over a TSTInfo, RFC 5652 / RFC 5816) apart; `verifyTimestampToken` checks any authority's token
 * against what was stamped and, when known, the authority's certificate.
 */

const ID_KP_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const SIGNING_CERTIFICATE_V1 = '1.2.840.113549.1.9.16.2.12';

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
    serialNumber:
      stripZeros((serial as DerNode).content)
        .toString('hex')
        .toUpperCase() || '00',
    genTime: parseGeneralizedTime((genTime as DerNode).content.toString('latin1')),
    nonce: nonce ? stripZeros(nonce.content) : null,
    certificates: certificates
      ? children(certificates)
          .filter((c) => c.tag === 0x30)
          .map((c) => Buffer.from(c.raw))
      : [],
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
  if (!createHash(certHash.algorithm).update(signerDer).digest().equals(certHash.hash))
    return failed('the signing-certificate attribute names another certificate', authority);

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
  if (at < Date.parse(certificate.validFrom) || at > Date.parse(certificate.validTo))
    return failed('genTime is outside the signer certificate validity', authority);

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
