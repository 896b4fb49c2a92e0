// The request state table (src/domain/request-states.ts) against the API description's state table,
// written out here cell by cell: every action from every status, legal or refused with its 409.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isClosed, requestMove, signerOutstanding, type RequestAction, type RequestStatus, type SignerStatus } from '../../src/domain/request-states.js';

const STATUSES: RequestStatus[] = ['prepared', 'active', 'completed', 'declined', 'cancelled', 'expired', 'purged'];

/** Where each action leads from each status; a status not listed refuses the action. */
const LEGAL: Record<RequestAction, Partial<Record<RequestStatus, RequestStatus>>> = {
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
  purge: { prepared: 'purged', active: 'purged', completed: 'purged', declined: 'purged', cancelled: 'purged', expired: 'purged' },
};

/** The refusal's sentence for a sample status (the spec's wording of each 409). */
const REFUSED: Record<RequestAction, [RequestStatus, string]> = {
  set_fields: ['active', 'fields can only be replaced while the request is prepared; it is active'],
  detect_fields: ['completed', 'field detection is only available before activation; the request is completed'],
  replace_signer: ['declined', 'signers cannot be replaced: the request is declined'],
  activate: ['cancelled', 'the request cannot be activated: it is cancelled'],
  remind: ['prepared', 'reminders need an active request; it is prepared'],
  cancel: ['completed', 'the request cannot be cancelled: it is completed'],
  sign: ['expired', 'the request is expired: it can no longer be signed'],
  complete: ['prepared', 'the request is prepared: it cannot complete'],
  decline: ['completed', 'the request is completed: it can no longer be declined'],
  expire: ['prepared', 'the request is prepared: only an active request can expire'],
  purge: ['purged', 'the request is already purged'],
};

for (const action of Object.keys(LEGAL) as RequestAction[]) {
  test(`state table, ${action}: legal from ${Object.keys(LEGAL[action]).join(', ')}, a 409 conflict from every other status`, () => {
    for (const status of STATUSES) {
      const to = LEGAL[action][status];
      const move = requestMove(status, action);
      if (to) {
        assert.deepEqual(move, { ok: true, to }, `${action} from ${status}`);
      } else {
        assert.equal(move.ok, false, `${action} from ${status} is refused`);
        if (move.ok) continue;
        assert.equal(move.code, 'conflict', `${action} from ${status}`);
        assert.ok(move.message.includes(status) || action === 'purge', `the refusal names the status: ${move.message}`);
      }
    }
    const [status, message] = REFUSED[action];
    assert.deepEqual(requestMove(status, action), { ok: false, code: 'conflict', message });
  });
}

test('state table: the second activate or cancel says "already"', () => {
  const again = requestMove('active', 'activate');
  assert.equal(again.ok, false);
  assert.match(
    again.ok ? '' : again.message,
    /^the request is already active: .*reminder \(POST \/v1\/signature-requests\/\{id\}\/reminders\) issues a signer a new link/,
  );
  assert.deepEqual(requestMove('cancelled', 'cancel'), { ok: false, code: 'conflict', message: 'the request is already cancelled' });
  assert.deepEqual(requestMove('expired', 'activate'), { ok: false, code: 'conflict', message: 'the request cannot be activated: it is expired' });
});

test('state table: nothing leaves purged, and every closed status can only be purged', () => {
  for (const action of Object.keys(LEGAL) as RequestAction[]) assert.equal(requestMove('purged', action).ok, false, action);
  for (const status of ['completed', 'declined', 'cancelled', 'expired'] as const) {
    const legal = (Object.keys(LEGAL) as RequestAction[]).filter((action) => requestMove(status, action).ok);
    assert.deepEqual(legal, ['purge'], status);
  }
});

test('isClosed: only prepared and active are open', () => {
  assert.deepEqual(
    STATUSES.filter((s) => !isClosed(s)),
    ['prepared', 'active'],
  );
});

test('signerOutstanding: pending, viewed and expired signers may still act; signed and declined ones may not', () => {
  const all: SignerStatus[] = ['pending', 'viewed', 'signed', 'declined', 'expired'];
  assert.deepEqual(all.filter(signerOutstanding), ['pending', 'viewed', 'expired']);
});
