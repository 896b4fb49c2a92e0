import { Webhook } from 'standardwebhooks';

/** The Standard Webhooks headers of one send of an event. */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export const WEBHOOK_HEADER_NAMES = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** The header every delivery of a receiver check carries (`true`), so a receiver's logs can tell it from a real one. */
export const TEST_DELIVERY_HEADER = 'paraph-test-delivery';

/**
 * Signs the exact body bytes for one send: `webhook-id` is the event id (stable across sends),
 * `webhook-timestamp` the real time of this send in Unix seconds (never the sandbox clock: verifiers
 * reject stamps 5 minutes off), `webhook-signature` `v1,` + Base64 HMAC-SHA256 of `id.timestamp.body`.
 */
export function signWebhook(secret: string, eventId: string, body: string, realNowMs: number): WebhookHeaders {
  const sentAt = new Date(realNowMs);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, sentAt, body),
  };
}
