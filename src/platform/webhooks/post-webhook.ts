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
 * environment are ignored (node's http client does not read them), the answer is its status line (at
 * most 64 KiB of the body after it is read), and the whole exchange is bounded by 15 s: no status line
 * by then is a time-out, and a body still coming then is cut off.
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
        // The status line is the answer (any 2xx accepts), whatever the body does after it: the body is
        // read and dropped, up to 64 KiB, and the connection closed at the time limit if it never ends.
        const status = response.statusCode ?? 0;
        finish(status, describe(status));
        // (What is left of it never keeps the process from exiting.)
        response.socket.unref();
        timer.unref();
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received >= MAX_RESPONSE_BYTES) request.destroy();
        });
        response.on('error', () => {});
      },
    );
    // Done once the connection is: the time limit and the stop signal no longer apply. A connection that ends
    // without a status line and without an error (Node drops one that switched protocols) is a failed attempt too.
    request.on('close', () => {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', abort);
      finish(null, 'connection closed without an answer');
    });
    // `101 Switching Protocols` is no answer to a delivery: a failed attempt, its connection closed.
    request.on('upgrade', (response, socket) => {
      socket.destroy();
      finish(response.statusCode ?? 101, describe(response.statusCode ?? 101));
    });
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
  if (status >= 300 && status < 400 && status !== 304) return `answered ${status}: redirects are not followed`;
  return `answered ${status}`;
}
