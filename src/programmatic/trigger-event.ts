import fs from 'node:fs';
import path from 'node:path';
import { EventType } from '../contract/webhooks.js';
import { PACKAGE_ROOT } from '../platform/package-files.js';
import { emailCodeFromCatcher } from './catcher-code.js';
import { sandboxFetch } from './sandbox-http.js';
import { actAsSigner, callSignerApi, parseSigningLink } from '../signer-client/act-as-signer.js';
import { cannotReach } from '../platform/unreachable-server.js';

/**
 * `paraph trigger EVENT`: makes the situation an event describes happen for real, over paraph's own
 * HTTP API (create, activate, the signer's API, the sandbox controls), so every event can be produced in
 * one command. On a throwaway request made for it, or on one of the caller's own prepared requests.
 */

/** Every event the API sends can be triggered. */
export const TRIGGERABLE: readonly EventType[] = EventType.enum;

export interface TriggerTarget {
  /** The server root, `http://127.0.0.1:4010`. */
  origin: string;
  apiKey: string;
}

export interface TriggerOptions {
  /** A prepared request of the caller's to act on; default a throwaway one made for it. */
  requestId?: string;
  /** The throwaway request's `callback_url`, so its events are delivered there too. */
  callbackUrl?: string;
}

export interface TriggerResult {
  signature_request_id: string;
  /** What was done, in order: `created`, `activated`, `viewed by signer`, … */
  steps: string[];
  /** The events those steps record, in order (the one asked for among them). */
  events: EventType[];
}

/** Why the trigger could not be done: the event is unknown, or the request is not in a state to do it. */
export class TriggerError extends Error {
  override name = 'TriggerError';
}

const SIGNER = { reference: 'signer', name: 'Test Signer', email: 'signer@example.com' };
// On the example contract's page 2: the first signature line, and the date line under it.
const FIELDS = [
  { signer_reference: SIGNER.reference, type: 'signature', page: 2, x: 64, y: 344, width: 200, height: 42 },
  { signer_reference: SIGNER.reference, type: 'date', field_key: 'sign_date', page: 2, x: 64, y: 438, width: 120, height: 16 },
];

export async function triggerEvent(target: TriggerTarget, event: string, options: TriggerOptions = {}): Promise<TriggerResult> {
  if (!(TRIGGERABLE as readonly string[]).includes(event)) {
    throw new TriggerError(`"${event}" is not an event paraph sends; one of: ${TRIGGERABLE.join(', ')}`);
  }
  const call = <T>(method: string, route: string, body?: unknown) => sandboxFetch<T>(target.origin, target.apiKey, method, route, body);
  const steps: string[] = [];
  const events: EventType[] = [];
  const id = options.requestId ?? (await createThrowaway(target, options.callbackUrl));
  if (options.requestId === undefined) steps.push('created');
  const route = `/v1/signature-requests/${encodeURIComponent(id)}`;

  const request = await call<{ status: string; signers: Array<{ reference: string; email: string; status: string }> }>('GET', route);
  if (request.status !== 'prepared') {
    throw new TriggerError(
      `signature request ${id} is ${request.status}: paraph triggers events on a prepared request (it activates it first), or on a throwaway one (leave out --request)`,
    );
  }
  const activated = await call<{ signers: Array<{ reference: string; signing_url: string }> }>('POST', `${route}/activate`, {});
  steps.push('activated');
  events.push('signature_request.activated');
  const first = activated.signers[0];
  if (!first) throw new TriggerError(`signature request ${id} has no signer`);
  const link = parseSigningLink(first.signing_url);

  switch (event as EventType) {
    case 'signature_request.activated':
      break;
    case 'signer.viewed':
      await callSignerApi(link, 'view');
      steps.push(`viewed by ${first.reference}`);
      events.push('signer.viewed');
      break;
    case 'signer.completed':
    case 'signature_request.completed': {
      const all = event === 'signature_request.completed' ? activated.signers : [first];
      for (const signer of all) {
        // A field the signer must type gets a sample value: every event works on any prepared request.
        await actAsSigner(parseSigningLink(signer.signing_url), { otp: codeFromCatcher(target), sampleValues: true });
        steps.push(`signed by ${signer.reference}`);
        events.push('signer.viewed', 'signer.completed');
      }
      if (all.length === activated.signers.length) events.push('signature_request.completed');
      break;
    }
    case 'signer.declined':
    case 'signature_request.declined':
      await actAsSigner(link, { decline: 'declined by paraph trigger', otp: codeFromCatcher(target) });
      steps.push(`declined by ${first.reference}`);
      events.push('signer.viewed', 'signer.declined', 'signature_request.declined');
      break;
    case 'signer.replaced':
      await call('POST', `${route}/signers/${encodeURIComponent(first.reference)}/replace`, { email: 'replacement@example.com', name: 'Replacement Signer' });
      steps.push(`${first.reference} replaced`);
      events.push('signer.replaced');
      break;
    case 'signer.expired':
    case 'signature_request.expired':
      await call('POST', `/_sandbox/signature-requests/${encodeURIComponent(id)}/expire`);
      steps.push('links expired');
      events.push(...activated.signers.map((): EventType => 'signer.expired'), 'signature_request.expired');
      break;
    case 'signature_request.cancelled':
      await call('POST', `${route}/cancel`, { reason: 'cancelled by paraph trigger' });
      steps.push('cancelled');
      events.push('signature_request.cancelled');
      break;
  }
  return { signature_request_id: id, steps, events };
}

async function createThrowaway(target: TriggerTarget, callbackUrl: string | undefined): Promise<string> {
  const pdf = path.join(PACKAGE_ROOT, 'fixtures', 'contract.pdf');
  const form = new FormData();
  form.append('document', new Blob([fs.readFileSync(pdf)], { type: 'application/pdf' }), 'contract.pdf');
  const body = {
    client_reference: `trigger-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    signers: [{ ...SIGNER, order: 1 }],
    fields: FIELDS,
    ...(callbackUrl ? { callback_url: callbackUrl } : {}),
  };
  form.append('request', new Blob([JSON.stringify(body)], { type: 'application/json' }), 'request.json');
  const response = await fetch(`${target.origin}/v1/signature-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.apiKey}` },
    body: form,
  }).catch((error: unknown) => {
    throw new TriggerError(cannotReach(target.origin, error));
  });
  const answer = (await response.json().catch(() => ({}))) as { id?: string; error?: { message?: string } };
  if (response.status !== 201 || !answer.id) {
    throw new TriggerError(`creating the throwaway request answered ${response.status}: ${answer.error?.message ?? 'no answer'}`);
  }
  return answer.id;
}

/** A signer of a request that asks for an email code: the code caught for them. */
function codeFromCatcher(target: TriggerTarget) {
  return (view: { request?: { id: string } | null; signer?: { reference: string } | null }) =>
    emailCodeFromCatcher(target, { requestId: view.request?.id ?? '', reference: view.signer?.reference ?? '' });
}
