import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { Context } from '../../context.js';
import { invalidRequest } from '../../domain/errors.js';
import { loadOrCreateTsaIdentity, type SigningIdentity } from '../../pdf/certificate.js';
import { slot } from '../../platform/slots.js';
import type { TimestampPlan } from '../../pdf/tsa-seal.js';
import { decodeTimestampRequest, encodeTimestampReply, issueTimestampToken, TimestampRequestError } from '../../pdf/tsa-protocol.js';

interface AuthorityState {
  identity?: Promise<SigningIdentity & { privateKey: KeyObject }>;
}

/** How long an external authority may take to answer before the attempt fails (and is retried). */
const EXTERNAL_TSA_TIMEOUT_MS = 15_000;

const AUTHORITY = slot<AuthorityState>('timestamp-authority', () => ({}));

/** The built-in test timestamp authority's certificate and key, made on first use (kept for the process once read). */
export function tsaIdentity(ctx: Context): Promise<SigningIdentity & { privateKey: KeyObject }> {
  const held = ctx.state.get(AUTHORITY);
  if (!held.identity) {
    const loading = loadOrCreateTsaIdentity(ctx.dataDir, ctx.secrets, new Date(Math.min(ctx.clock.realNow(), ctx.clock.now()))).then((identity) => ({
      ...identity,
      privateKey: createPrivateKey({ key: identity.privateKeyDer, format: 'der', type: 'pkcs8' }),
    }));
    held.identity = loading;
    loading.catch(() => {
      if (held.identity === loading) delete held.identity;
    });
  }
  return held.identity;
}

/** The built-in authority's certificate in PEM: the trust anchor for `openssl ts -verify -CAfile`. */
export async function tsaCertificatePem(ctx: Context): Promise<string> {
  return new X509Certificate((await tsaIdentity(ctx)).certificateDer).toString();
}

/**
 * `POST /_sandbox/tsa`: a DER TimeStampReq in, a granted TimeStampResp out, stamped with the
 * sandbox clock. A body that is not an acceptable request is a 400 in the API's error envelope.
 */
export async function answerTimestampQuery(ctx: Context, body: Buffer): Promise<Buffer> {
  let request;
  try {
    request = decodeTimestampRequest(body);
  } catch (error) {
    if (error instanceof TimestampRequestError) throw invalidRequest(error.message);
    throw error;
  }
  const identity = await tsaIdentity(ctx);
  const token = issueTimestampToken(request, identity, new Date(ctx.clock.now()));
  return encodeTimestampReply(token);
}

/** Where the seals' timestamps come from: null with `--timestamps off`, the external authority with `--tsa-url`, else the built-in one. */
export async function timestampPlan(ctx: Context): Promise<TimestampPlan | null> {
  if (!ctx.policy.timestamps) return null;
  if (ctx.policy.tsaUrl) {
    return { authority: 'external', url: ctx.policy.tsaUrl, allowLoopback: ctx.policy.allowLoopbackWebhooks, timeoutMs: EXTERNAL_TSA_TIMEOUT_MS };
  }
  const identity = await tsaIdentity(ctx);
  return { authority: 'built-in', certificateDer: identity.certificateDer, privateKeyDer: identity.privateKeyDer };
}
