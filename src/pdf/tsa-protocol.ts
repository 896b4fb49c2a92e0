import { createHash, sign, type KeyObject } from 'node:crypto';
import { attribute, children, integer, NULL, octets, OID, oid, oidText, parseDer, readCertificate, seq, set, tagged, tlv, type DerNode } from './cms.js';
import {
  generalizedTime,
  messageImprintOf,
  randomSerial,
  readMessageImprint,
  stripZeros,
  TimestampRequestError,
  unsignedInteger,
  type HashName,
} from './tsa-der.js';

/**
 * RFC 3161 messages in DER, both ways: time-stamp requests (TimeStampReq) and replies
 * (TimeStampResp), and the tokens the sandbox's own authority issues with `issueTimestampToken` (a
 * CMS SignedData over a TSTInfo, RFC 5652 / RFC 5816). Reading and checking any authority's token is
 * tsa-token.ts.
 */

export { TimestampRequestError, type HashName } from './tsa-der.js';

/** The test authority's policy: a UUID-based OID (X.667), so it names no real policy. */
export const TSA_POLICY = '2.25.158638165192945812183714778727877752701';

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
    if (nonce.content.length === 0 || nonce.content.length > 64 || ((nonce.content[0] ?? 0) & 0x80) !== 0)
      fail('the nonce must be a positive INTEGER of at most 64 bytes');
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

// --- Issuing tokens, replies ---

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
