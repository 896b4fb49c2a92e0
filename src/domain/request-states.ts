import type { ErrorCode } from './errors.js';

/**
 * The request state table of the API description, as data. Services ask `requestMove` whether an
 * action is legal from a status; a refusal carries the spec's 409 code and a sentence for the client.
 */
/** Every status a request can have; the API contract and the database columns use this list. */
export const REQUEST_STATUSES = ['prepared', 'active', 'completed', 'declined', 'cancelled', 'expired', 'purged'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export type RequestAction =
  | 'set_fields'
  | 'detect_fields'
  | 'replace_signer'
  | 'activate'
  | 'remind'
  | 'cancel'
  | 'sign'
  | 'decline'
  | 'complete'
  | 'expire'
  | 'purge';

const ALL_BUT_PURGED = ['prepared', 'active', 'completed', 'declined', 'cancelled', 'expired'] as const;

const MOVES: Readonly<Record<RequestAction, Partial<Record<RequestStatus, RequestStatus>>>> = {
  set_fields: { prepared: 'prepared' },
  detect_fields: { prepared: 'prepared' },
  replace_signer: { prepared: 'prepared', active: 'active' },
  activate: { prepared: 'active' },
  remind: { active: 'active' },
  cancel: { prepared: 'cancelled', active: 'cancelled' },
  sign: { active: 'active' },
  complete: { active: 'completed' },
  decline: { active: 'declined' },
  expire: { active: 'expired' },
  purge: Object.fromEntries(ALL_BUT_PURGED.map((s) => [s, 'purged'])),
};

/** What the refusal says, per action: the spec's wording for each 409. */
const REFUSALS: Readonly<Record<RequestAction, (status: RequestStatus) => string>> = {
  set_fields: (s) => `fields can only be replaced while the request is prepared; it is ${s}`,
  detect_fields: (s) => `field detection is only available before activation; the request is ${s}`,
  replace_signer: (s) => `signers cannot be replaced: the request is ${s}`,
  activate: (s) =>
    s === 'active'
      ? 'the request is already active: its signing links were issued at activation; a reminder (POST /v1/signature-requests/{id}/reminders) issues a signer a new link'
      : `the request cannot be activated: it is ${s}`,
  remind: (s) => `reminders need an active request; it is ${s}`,
  cancel: (s) => (s === 'cancelled' ? 'the request is already cancelled' : `the request cannot be cancelled: it is ${s}`),
  sign: (s) => `the request is ${s}: it can no longer be signed`,
  complete: (s) => `the request is ${s}: it cannot complete`,
  decline: (s) => `the request is ${s}: it can no longer be declined`,
  expire: (s) => `the request is ${s}: only an active request can expire`,
  purge: () => 'the request is already purged',
};

export type Move = { ok: true; to: RequestStatus } | { ok: false; code: ErrorCode; message: string };

export function requestMove(status: RequestStatus, action: RequestAction): Move {
  const to = MOVES[action][status];
  return to ? { ok: true, to } : { ok: false, code: 'conflict', message: REFUSALS[action](status) };
}

/** Statuses from which nothing but the retention purge can happen. */
export function isClosed(status: RequestStatus): boolean {
  return status !== 'prepared' && status !== 'active';
}

/** Signer states: who may still act. */
export const SIGNER_STATUSES = ['pending', 'viewed', 'signed', 'declined', 'expired'] as const;
export type SignerStatus = (typeof SIGNER_STATUSES)[number];

/** A signer who has neither signed nor declined (an expired one can be given a fresh link). */
export function signerOutstanding(status: SignerStatus): boolean {
  return status === 'pending' || status === 'viewed' || status === 'expired';
}
