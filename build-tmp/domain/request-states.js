const ALL_BUT_PURGED = ['prepared', 'active', 'completed', 'declined', 'cancelled', 'expired'];
const MOVES = {
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
const REFUSALS = {
    set_fields: (s) => `fields can only be replaced while the request is prepared; it is ${s}`,
    detect_fields: (s) => `field detection is only available before activation; the request is ${s}`,
    replace_signer: (s) => `signers cannot be replaced: the request is ${s}`,
    activate: (s) => (s === 'active' ? 'the request is already active' : `the request cannot be activated: it is ${s}`),
    remind: (s) => `reminders need an active request; it is ${s}`,
    cancel: (s) => (s === 'cancelled' ? 'the request is already cancelled' : `the request cannot be cancelled: it is ${s}`),
    sign: (s) => `the request is ${s}: it can no longer be signed`,
    complete: (s) => `the request is ${s}: it cannot complete`,
    decline: (s) => `the request is ${s}: it can no longer be declined`,
    expire: (s) => `the request is ${s}: only an active request can expire`,
    purge: () => 'the request is already purged',
};
export function requestMove(status, action) {
    const to = MOVES[action][status];
    return to ? { ok: true, to } : { ok: false, code: 'conflict', message: REFUSALS[action](status) };
}
/** Statuses from which nothing but the retention purge can happen. */
export function isClosed(status) {
    return status !== 'prepared' && status !== 'active';
}
/** A signer who has neither signed nor declined (an expired one can be given a fresh link). */
export function signerOutstanding(status) {
    return status === 'pending' || status === 'viewed' || status === 'expired';
}
//# sourceMappingURL=request-states.js.map