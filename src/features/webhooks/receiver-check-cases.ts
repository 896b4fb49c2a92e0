import { EventType } from '../../contract/webhooks.js';
import type { ReceiverCheckGroup } from '../../contract/receiver-check.js';
import { forgedSignature, sampleEvent, sampleRequest, signedShot, strangerSecret, type SampleRequest, type Shot } from './receiver-check-events.js';

/**
 * The battery of a receiver check: each case, the deliveries it sends (in order), the answer it
 * expects to every one of them, what a receiver that fails it does wrong in production, and a fix.
 */

export interface CaseKit {
  /** The `whsec_` secret of the key the check signs with. */
  secret: string;
  /** Real time of the check's start (timestamps are always real time, never the sandbox clock). */
  nowMs: number;
  /** The timestamp tolerance the receiver is assumed to apply. */
  toleranceSeconds: number;
  /** Sandbox time, as the events' `created_at`. */
  createdAt: string;
  /** The throwaway request most events speak of. */
  request: SampleRequest;
}

export interface CaseDefinition {
  id: string;
  group: ReceiverCheckGroup;
  title: string;
  expected: '2xx' | '4xx';
  risk: string;
  fix: string;
  note: string | null;
  shots(kit: CaseKit): Shot[];
}

const VERIFY_FIX = "verify with the key's whsec_ secret over the raw body bytes, then answer 2xx to every event type, even one you ignore";

/** A valid delivery of each event type: 2xx. */
const validCases: CaseDefinition[] = EventType.enum.map((type) => ({
  id: `valid-${type}`,
  group: 'valid',
  title: `a valid ${type}`,
  expected: '2xx',
  risk: `refuses real ${type} deliveries: paraph retries each for 2 h 36 min, marks it failed, and the application never learns of it`,
  fix: VERIFY_FIX,
  note: null,
  shots: (kit) => [signedShot(sampleEvent(type, kit.request, kit.createdAt), kit.secret, kit.nowMs)],
}));

/** A delivery changed after it was signed with the key's secret, sent at the check's time. */
function tampered(kit: CaseKit, change: (shot: Shot) => void): Shot[] {
  const shot = signedShot(sampleEvent('signer.completed', kit.request, kit.createdAt), kit.secret, kit.nowMs);
  change(shot);
  return [shot];
}

function stampedAt(kit: CaseKit, atMs: number): Shot[] {
  return [signedShot(sampleEvent('signature_request.completed', kit.request, kit.createdAt), kit.secret, atMs)];
}

const minutes = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`);

const otherCases = (toleranceSeconds: number): CaseDefinition[] => [
  {
    id: 'retry-same-webhook-id',
    group: 'retry',
    title: 'the same webhook-id delivered again (a retry), freshly signed',
    expected: '2xx',
    risk: 'a refused retry is retried again until the delivery fails; a retry processed again acts twice (two emails, two shipments)',
    fix: 'remember processed webhook-ids; for one seen before answer 2xx without acting again',
    note: 'paraph sees only the answers: that the receiver did not act twice is for your own test to check',
    shots: (kit) => {
      const event = sampleEvent('signer.completed', kit.request, kit.createdAt);
      return [signedShot(event, kit.secret, kit.nowMs), signedShot(event, kit.secret, kit.nowMs + 1000)];
    },
  },
  {
    id: 'forged-signature',
    group: 'signature',
    title: 'a forged webhook-signature (v1, random bytes)',
    expected: '4xx',
    risk: 'anyone who learns the URL can make the application believe a request was signed, declined or completed',
    fix: 'compute HMAC-SHA256 of id.timestamp.body with the secret, compare in constant time, answer 400/401 when no v1 entry matches',
    note: null,
    shots: (kit) => tampered(kit, (shot) => (shot.headers['webhook-signature'] = forgedSignature())),
  },
  {
    id: 'wrong-secret',
    group: 'signature',
    title: 'a signature made with another secret',
    expected: '4xx',
    risk: 'events signed with any secret (another account, another environment, an attacker’s) are acted on',
    fix: 'verify with the whsec_ secret of the API key that creates your requests (`paraph keys list` shows its last characters)',
    note: null,
    shots: (kit) => [signedShot(sampleEvent('signer.completed', kit.request, kit.createdAt), strangerSecret(), kit.nowMs)],
  },
  {
    id: 'body-changed',
    group: 'signature',
    title: 'the body changed after signing (its status edited)',
    expected: '4xx',
    risk: 'someone on the path edits an event (its status, its signer) and the application acts on the edit',
    fix: 'verify the raw body bytes as received, before parsing JSON, and act only on what was verified',
    note: null,
    shots: (kit) =>
      tampered(kit, (shot) => {
        // The last signature's event, edited to say the request is completed while it is still active.
        shot.event = { ...shot.event, data: { ...shot.event.data, status: 'completed' } };
        shot.body = JSON.stringify(shot.event);
      }),
  },
  {
    id: 'missing-webhook-signature',
    group: 'headers',
    title: 'no webhook-signature header',
    expected: '4xx',
    risk: 'an unsigned request is taken for an event: anyone can forge one',
    fix: 'reject a request without webhook-signature with 400',
    note: null,
    shots: (kit) => tampered(kit, (shot) => delete shot.headers['webhook-signature']),
  },
  {
    id: 'malformed-webhook-signature',
    group: 'headers',
    title: 'a webhook-signature without its v1, version prefix',
    expected: '4xx',
    risk: 'a verifier that takes any form of signature compares the wrong thing, or skips the comparison',
    fix: 'accept only space-separated v1,<base64> entries; reject when none of them matches',
    note: null,
    shots: (kit) => tampered(kit, (shot) => (shot.headers['webhook-signature'] = (shot.headers['webhook-signature'] ?? '').replace(/^v1,/, ''))),
  },
  {
    id: 'missing-webhook-id',
    group: 'headers',
    title: 'no webhook-id header',
    expected: '4xx',
    risk: 'with no id to deduplicate on, every retry is processed again; the signature, which covers the id, cannot be checked',
    fix: 'reject a request without webhook-id with 400',
    note: null,
    shots: (kit) => tampered(kit, (shot) => delete shot.headers['webhook-id']),
  },
  {
    id: 'empty-webhook-id',
    group: 'headers',
    title: 'an empty webhook-id (signed as empty)',
    expected: '4xx',
    risk: 'every empty id looks like the same event: deduplication drops real events, or lets replays through',
    fix: 'reject an empty webhook-id with 400 (the Standard Webhooks libraries do)',
    note: null,
    shots: (kit) => [signedShot(sampleEvent('signer.completed', kit.request, kit.createdAt), kit.secret, kit.nowMs, '')],
  },
  {
    id: 'missing-webhook-timestamp',
    group: 'headers',
    title: 'no webhook-timestamp header',
    expected: '4xx',
    risk: 'with no timestamp to check, a delivery captured once can be replayed for ever',
    fix: 'reject a request without webhook-timestamp with 400',
    note: null,
    shots: (kit) => tampered(kit, (shot) => delete shot.headers['webhook-timestamp']),
  },
  {
    id: 'stale-timestamp',
    group: 'timestamp',
    title: `a webhook-timestamp ${minutes(2 * toleranceSeconds)} old (validly signed)`,
    expected: '4xx',
    risk: 'a delivery captured once (in a log, a proxy, a browser extension) can be replayed later and is acted on again',
    fix: `reject a webhook-timestamp more than ${minutes(toleranceSeconds)} from your clock (the Standard Webhooks libraries do)`,
    note: `tolerance assumed: ${minutes(toleranceSeconds)}; the check takes another (--tolerance)`,
    shots: (kit) => stampedAt(kit, kit.nowMs - 2 * toleranceSeconds * 1000),
  },
  {
    id: 'future-timestamp',
    group: 'timestamp',
    title: `a webhook-timestamp ${minutes(2 * toleranceSeconds)} ahead (validly signed)`,
    expected: '4xx',
    risk: 'a delivery stamped in the future stays replayable for as long as it is ahead',
    fix: `reject a webhook-timestamp more than ${minutes(toleranceSeconds)} ahead of your clock, too`,
    note: `tolerance assumed: ${minutes(toleranceSeconds)}; the check takes another (--tolerance)`,
    shots: (kit) => stampedAt(kit, kit.nowMs + 2 * toleranceSeconds * 1000),
  },
  {
    id: 'timestamp-in-milliseconds',
    group: 'timestamp',
    title: 'a webhook-timestamp in milliseconds instead of seconds (validly signed)',
    expected: '4xx',
    risk: 'a receiver that does not read the timestamp as Unix seconds cannot tell a stale delivery from a fresh one',
    fix: 'parse webhook-timestamp as whole Unix seconds and check it against your clock',
    note: null,
    shots: (kit) => stampedAt(kit, kit.nowMs * 1000),
  },
  {
    id: 'out-of-order',
    group: 'order',
    title: 'signature_request.completed, then the signer.completed that led to it',
    expected: '2xx',
    risk: 'an event that arrives before the one it follows is refused (retried until failed) or moves the state backwards',
    fix: 'accept every event; read the current state with GET /v1/signature-requests/{id} instead of trusting the order',
    note: 'paraph sees only the answers: that the state did not move backwards is for your own test to check',
    shots: (kit) => {
      const request = sampleRequest();
      const signed = sampleEvent('signer.completed', request, kit.createdAt);
      const completed = sampleEvent('signature_request.completed', request, kit.createdAt);
      // The signer's event as the last signature leaves the request: completed.
      signed.data = { ...signed.data, status: 'completed' };
      return [signedShot(completed, kit.secret, kit.nowMs), signedShot(signed, kit.secret, kit.nowMs)];
    },
  },
];

/** Every case of a check that assumes `toleranceSeconds`, in the order of the report. */
export function checkCases(toleranceSeconds: number): CaseDefinition[] {
  return [...validCases, ...otherCases(toleranceSeconds)];
}

/** The timing case: computed from the answers to the valid deliveries, sends nothing of its own. */
export const TIMING_CASE = {
  id: 'answer-time',
  group: 'timing' as const,
  risk: "a receiver that works before it answers runs past paraph's delivery timeout under load: the attempt counts as failed and is retried, so the work runs twice",
  fix: 'answer 2xx as soon as the delivery is verified and stored; do the slow work afterwards (a queue, a job)',
};
