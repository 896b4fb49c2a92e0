import { lookup } from 'node:dns/promises';
import { postWebhook, type PostResult } from '../platform/webhooks/post-webhook.js';
import { WEBHOOK_HEADER_NAMES } from '../platform/webhooks/sign-webhook.js';
import { UsageError } from './output.js';

/** `--forward-to`: an http(s) URL; loopback and private hosts are fine (the developer's own machine). */
export function parseForwardUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--forward-to must be an http(s) URL such as http://127.0.0.1:8080/webhooks, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--forward-to must be an http(s) URL, got "${url.protocol}"`);
  }
  return url;
}

/**
 * POSTs the event's body exactly as the stream carried it, with the webhook headers the server signed
 * it with, through the same client as a delivery (no redirects followed, 15 s at most).
 */
export async function forwardEvent(url: URL, body: string, fields: Readonly<Record<string, string>>, signal: AbortSignal): Promise<PostResult> {
  const headers: Record<string, string> = {};
  for (const name of WEBHOOK_HEADER_NAMES) {
    const value = fields[name];
    if (value === undefined) return { statusCode: null, error: `the stream sent no ${name} for this event`, durationMs: 0 };
    headers[name] = value;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let target: { address: string; family: number };
  try {
    target = await lookup(host);
  } catch (error) {
    return { statusCode: null, error: `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? 'unknown host'}`, durationMs: 0 };
  }
  return postWebhook({ url, address: target.address, family: target.family === 6 ? 6 : 4, body, headers, signal });
}
