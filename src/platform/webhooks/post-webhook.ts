import http from 'node:http';
import https from 'node:https';
import { isIpLiteral } from '../../domain/ip-ranges.js';

export const SEND_TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One POST of the stored body to a checked address. Redirects are never followed, proxies from the
 * environment are ignored (node's http client does not read them), at most 64 KiB of the answer is
 * read, and the whole exchange is bounded by 15 s.
 */
export function postWebhook(input: {
  url: URL;
  address: string;
  family: 4 | 6;
  body: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  /** Stops the attempt (the process is stopping). */
  signal?: AbortSignal;
}): Promise<PostResult> {
  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? SEND_TIMEOUT_MS;
  const secure = input.url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', abort);
      resolve({ statusCode, error, durationMs: Math.round(performance.now() - started) });
    };
    const request = (secure ? https : http).request(
      {
        protocol: input.url.protocol,
        host: input.address,
        family: input.family,
        port: input.url.port || (secure ? 443 : 80),
        path: `${input.url.pathname}${input.url.search}`,
        method: 'POST',
        // TLS checks the certificate against the name, while the socket goes to the checked address.
        servername: secure && !isIpLiteral(input.url.hostname.replace(/^\[|\]$/g, '')) ? input.url.hostname : undefined,
        agent: false,
        headers: {
          ...input.headers,
          host: input.url.host,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(input.body)),
          'user-agent': 'paraph-webhooks/1',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received >= MAX_RESPONSE_BYTES) {
            response.destroy();
            finish(status, describe(status));
          }
        });
        response.on('end', () => finish(status, describe(status)));
        response.on('error', () => finish(status, describe(status)));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish(null, `timed out after ${timeoutMs / 1000} s`);
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => finish(null, `connection failed: ${error.code ?? error.message}`.slice(0, 200)));
    const abort = () => {
      request.destroy();
      finish(null, 'stopped');
    };
    if (input.signal?.aborted) return abort();
    input.signal?.addEventListener('abort', abort, { once: true });
    request.end(input.body);
  });
}

function describe(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `answered ${status}: redirects are not followed`;
  return `answered ${status}`;
}
