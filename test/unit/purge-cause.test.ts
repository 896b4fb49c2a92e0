import { test } from 'node:test';
import assert from 'node:assert/strict';
import { purgeCause } from '../../src/model/documents.js';

test("a purge's cause: as recorded, else told apart by its date", () => {
  const deadline = Date.UTC(2026, 11, 10);
  const day = 86_400_000;
  // Recorded causes win over the dates.
  assert.equal(purgeCause('by_hand', deadline + day, deadline), 'by_hand');
  assert.equal(purgeCause('retention', deadline - day, deadline), 'retention');
  // Without a record (a purge from an older data directory): before the deadline only by hand.
  assert.equal(purgeCause(undefined, deadline - 1, deadline), 'by_hand');
  assert.equal(purgeCause(undefined, deadline, deadline), 'retention');
  assert.equal(purgeCause(undefined, deadline + day, deadline), 'retention');
});
