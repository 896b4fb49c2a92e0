import { createHash, createPrivateKey, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import type { SignatureTimestamper } from './cms.js';
import { requestRemoteTimestamp, signatureImprint, type RemoteAuthority } from './tsa-client.js';
import { issueTimestampToken } from './tsa-protocol.js';
import { commonName, verifyTimestampToken, type TimestampVerification } from './tsa-token.js';

/** Where the seal's signature-time-stamp comes from (a job for the artifact worker carries it). */
export type TimestampPlan = { authority: 'built-in'; certificateDer: Uint8Array; privateKeyDer: Uint8Array } | ({ authority: 'external' } & RemoteAuthority);

/** One timestamp as the evidence states it. */
export interface SealTimestamp {
  /** The authority's subject CN. */
  provider: string;
  hashAlgorithm: 'sha256';
  /** Hex SHA-256 of what was stamped: the seal's signature value. */
  documentHash: string;
  /** The token's genTime (ISO), or null when the token could not be read. */
  generatedAt: string | null;
  verificationStatus: TimestampVerification;
  /** Why it is not verified (for the log); null when verified. */
  reason: string | null;
}

/**
 * A timestamper for one seal and what it stamped: the built-in authority signs here, at `now()`;
 * an external one is asked over HTTP. Each token is checked as soon as it arrives, against the
 * built-in authority's certificate (an external authority has no trust anchor here: `unverified`
 * at best).
 */
export function sealTimestamper(plan: TimestampPlan, now: () => Date): { stamp: SignatureTimestamper; stamped: SealTimestamp[] } {
  const stamped: SealTimestamp[] = [];
  const stamp: SignatureTimestamper = async (signatureValue) => {
    const imprint = signatureImprint(signatureValue);
    const token =
      plan.authority === 'built-in'
        ? issueTimestampToken({ hashAlgorithm: 'sha256', messageImprint: imprint, policy: null, nonce: randomBytes(8), certReq: true }, builtInKey(plan), now())
        : await requestRemoteTimestamp(plan, imprint);
    stamped.push(describeTimestamp(token, imprint, plan.authority === 'built-in' ? Buffer.from(plan.certificateDer) : null, plan));
    return token;
  };
  return { stamp, stamped };
}

/** The evidence's view of a token over `imprint`, checked against `anchor` when there is one. */
export function describeTimestamp(token: Buffer, imprint: Buffer, anchor: Buffer | null, plan?: TimestampPlan): SealTimestamp {
  const check = verifyTimestampToken(token, { hashAlgorithm: 'sha256', imprint }, anchor);
  return {
    provider: check.authority ?? fallbackProvider(anchor, plan),
    hashAlgorithm: 'sha256',
    documentHash: imprint.toString('hex'),
    generatedAt: check.info ? check.info.genTime.toISOString() : null,
    verificationStatus: check.status,
    reason: check.reason,
  };
}

function fallbackProvider(anchor: Buffer | null, plan: TimestampPlan | undefined): string {
  if (anchor) return commonName(new X509Certificate(anchor));
  if (plan?.authority === 'external') return new URL(plan.url).host;
  return 'unknown';
}

let cachedKey: { der: string; key: KeyObject } | undefined;

/** The built-in authority's key, parsed once per worker. */
function builtInKey(plan: Extract<TimestampPlan, { authority: 'built-in' }>): { certificateDer: Buffer; privateKey: KeyObject } {
  const der = Buffer.from(plan.privateKeyDer);
  const id = createHash('sha256').update(der).digest('hex');
  if (cachedKey?.der !== id) cachedKey = { der: id, key: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) };
  return { certificateDer: Buffer.from(plan.certificateDer), privateKey: cachedKey.key };
}
