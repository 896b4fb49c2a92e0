import { randomBytes, randomUUID } from 'node:crypto';
import { randomBase62 } from '../../platform/crypto/tokens.js';
import { signWebhook } from '../../platform/webhooks/sign-webhook.js';
import type { EventType, WebhookData, WebhookEvent, WebhookSigner } from '../../contract/webhooks.js';

/**
 * The events of a receiver check: shaped exactly as paraph's webhook events (ids, request ids,
 * signers), about a signature request that does not exist, and signed with the real signing code.
 */

/** A throwaway request the events speak of: its id is a fresh UUID that no stored request has. */
export interface SampleRequest {
  id: string;
  client_reference: string;
  signers: [WebhookSigner, WebhookSigner];
}

/** One test delivery: the bytes and the headers it carries (the test-delivery header is added when sent). */
export interface Shot {
  event: WebhookEvent;
  body: string;
  headers: Record<string, string>;
}

export function sampleRequest(): SampleRequest {
  const signer = (reference: string, email: string): WebhookSigner => ({ id: randomUUID(), reference, email, status: 'pending' });
  return {
    id: randomUUID(),
    client_reference: `receiver-check-${randomBase62(6)}`,
    signers: [signer('buyer', 'ada.lovelace@example.com'), signer('seller', 'grace.hopper@example.com')],
  };
}

/** What each event type says: the request's status after it, and the signer it is about. */
function dataOf(type: EventType, request: SampleRequest): WebhookData {
  const base = { signature_request_id: request.id, client_reference: request.client_reference };
  const [first, second] = request.signers;
  switch (type) {
    case 'signature_request.activated':
      return { ...base, status: 'active' };
    case 'signer.viewed':
      return { ...base, status: 'active', signer: { ...first, status: 'viewed' } };
    case 'signer.completed':
      return { ...base, status: 'active', signer: { ...first, status: 'signed' } };
    case 'signer.declined':
      return { ...base, status: 'declined', signer: { ...first, status: 'declined' }, reason: 'The delivery date is wrong.' };
    case 'signer.replaced':
      return {
        ...base,
        status: 'active',
        signer: { id: randomUUID(), reference: second.reference, email: 'katherine.johnson@example.com', status: 'pending' },
        replaced_signer: second,
      };
    case 'signer.expired':
      return { ...base, status: 'expired', signer: { ...first, status: 'expired' } };
    case 'signature_request.completed':
      return { ...base, status: 'completed' };
    case 'signature_request.declined':
      return { ...base, status: 'declined' };
    case 'signature_request.cancelled':
      return { ...base, status: 'cancelled' };
    case 'signature_request.expired':
      return { ...base, status: 'expired' };
  }
}

/** A fresh event (new `evt_` id) of `type` about `request`, created at `createdAt` (sandbox time). */
export function sampleEvent(type: EventType, request: SampleRequest, createdAt: string): WebhookEvent {
  return { id: `evt_${randomBase62(16)}`, type, created_at: createdAt, data: dataOf(type, request) };
}

/**
 * The event as paraph delivers it: its JSON bytes, signed with `secret` at `atMs` (real time), the
 * Standard Webhooks way (src/platform/webhooks/sign-webhook.ts). `id` signs under another webhook-id.
 */
export function signedShot(event: WebhookEvent, secret: string, atMs: number, id: string = event.id): Shot {
  const body = JSON.stringify(event);
  return { event, body, headers: { ...signWebhook(secret, id, body, atMs) } };
}

/** A well-formed secret that is not the key's (the Standard Webhooks format: `whsec_` + Base64 of 32 bytes). */
export function strangerSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A signature of the right form that no secret made. */
export function forgedSignature(): string {
  return `v1,${randomBytes(32).toString('base64')}`;
}
