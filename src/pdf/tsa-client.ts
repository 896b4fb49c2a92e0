import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIpLiteral } from '../domain/ip-ranges.js';
import { resolveDestination } from '../platform/webhooks/ssrf-guard.js';
import { decodeTimestampReply, encodeTimestampRequest } from './tsa-protocol.js';
import { readTimestampToken } from './tsa-token.js';

const MAX_REPLY_BYTES = 256 * 1024;

/** An external RFC 3161 authority (`paraph serve --tsa-url`). */
export interface RemoteAuthority {
  url: string;
  /** The webhooks' loopback opt-in: the same address rules apply to the authority. */
  allowLoopback: boolean;
  timeoutMs: number;
}

/**
 * Asks an external authority for a token over SHA-256 `imprint` (with a nonce and certReq) and
 * answers the token. The host is resolved once and must be public (loopback only with the opt-in),
 * as for webhooks; redirects are not followed; the reply must be granted, echo the nonce and stamp
 * `imprint`. Throws with what went wrong otherwise.
 */
export async function requestRemoteTimestamp(authority: RemoteAuthority, imprint: Buffer): Promise<Buffer> {
  const url = new URL(authority.url);
  const destination = await resolveDestination(url, authority.allowLoopback);
  if (!destination.ok) throw new Error(`timestamp authority ${url.host}: ${destination.error}`);
  const nonce = randomBytes(8);
  nonce[0] = ((nonce[0] ?? 0) & 0x7f) | 0x01;
  const query = encodeTimestampRequest({ hashAlgorithm: 'sha256', messageImprint: imprint, policy: null, nonce, certReq: true });
  const answer = await post(url, destination.address, destination.family, query, authority.timeoutMs);
  let token: Buffer | null;
  try {
    const reply = decodeTimestampReply(answer);
    if (reply.status > 1) throw new Error(`refused the request (status ${reply.status}${reply.statusText ? `: ${reply.statusText}` : ''})`);
    token = reply.token;
  } catch (error) {
    throw new Error(`timestamp authority ${url.host}: ${(error as Error).message}`);
  }
  if (!token) throw new Error(`timestamp authority ${url.host}: granted without a token`);
  let info: ReturnType<typeof readTimestampToken>;
  try {
    info = readTimestampToken(token);
  } catch (error) {
    throw new Error(`timestamp authority ${url.host}: ${(error as Error).message}`);
  }
  if (!info.nonce?.equals(nonce)) throw new Error(`timestamp authority ${url.host}: the token does not echo the nonce`);
  if (info.hashAlgorithm !== 'sha256' || !info.messageImprint.equals(imprint)) throw new Error(`timestamp authority ${url.host}: the token stamps other data`);
  return token;
}

/** SHA-256 of a signature value: what a signature-time-stamp stamps. */
export function signatureImprint(signatureValue: Buffer): Buffer {
  return createHash('sha256').update(signatureValue).digest();
}

function post(url: URL, address: string, family: 4 | 6, body: Buffer, timeoutMs: number): Promise<Buffer> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(
      {
        protocol: url.protocol,
        host: address,
        family,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        servername: secure && !isIpLiteral(url.hostname.replace(/^\[|\]$/g, '')) ? url.hostname : undefined,
        agent: false,
        headers: {
          host: url.host,
          'content-type': 'application/timestamp-query',
          accept: 'application/timestamp-reply',
          'content-length': String(body.length),
          'user-agent': 'paraph-tsa-client/1',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_REPLY_BYTES) {
            response.destroy();
            fail(`the reply is over ${MAX_REPLY_BYTES / 1024} KiB`);
          } else chunks.push(chunk);
        });
        response.on('end', () => {
          if (status !== 200) return fail(status >= 300 && status < 400 ? `answered ${status}: redirects are not followed` : `answered ${status}`);
          const type = String(response.headers['content-type'] ?? '');
          if (!type.startsWith('application/timestamp-reply')) return fail(`answered ${type || 'no content type'}, not application/timestamp-reply`);
          clearTimeout(timer);
          resolve(Buffer.concat(chunks));
        });
        response.on('error', (error) => fail(`connection failed: ${error.message}`));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      fail(`timed out after ${timeoutMs / 1000} s`);
    }, timeoutMs);
    function fail(why: string) {
      clearTimeout(timer);
      reject(new Error(`timestamp authority ${url.host}: ${why}`));
    }
    request.on('error', (error: NodeJS.ErrnoException) => fail(`connection failed: ${error.code ?? error.message}`));
    request.end(body);
  });
}
