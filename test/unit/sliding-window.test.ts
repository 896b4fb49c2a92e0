import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SlidingWindow } from '../../src/http/sliding-window.js';

test('a sliding window counts up to its limit, refuses past it, and frees a slot as each event leaves', () => {
  const window = new SlidingWindow(3, 1000);
  const at = (now: number) => window.consume('key', now);
  assert.deepEqual(at(0), { allowed: true, limit: 3, remaining: 2, retryAfterSeconds: 0 });
  assert.equal(at(10).remaining, 1);
  assert.equal(at(500).remaining, 0);
  assert.deepEqual(at(600), { allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 1 });
  // The event at 0 leaves at 1000; the refused call at 600 was never counted.
  assert.deepEqual(at(1000), { allowed: true, limit: 3, remaining: 0, retryAfterSeconds: 0 });
  assert.equal(at(1001).allowed, false);
  // 10 and 500 leave by 1500; 1000 is still in.
  assert.equal(at(1500).remaining, 1);
  assert.equal(window.consume('other', 1500).remaining, 2, 'keys are counted apart');
});

test('retry-after is the whole seconds until the oldest counted event leaves, at least 1', () => {
  const window = new SlidingWindow(1, 60_000);
  window.consume('key', 0);
  assert.equal(window.consume('key', 1).retryAfterSeconds, 60);
  assert.equal(window.consume('key', 59_500).retryAfterSeconds, 1);
});

test('a window holds at most twice its limit of timestamps, however many calls came before', () => {
  const window = new SlidingWindow(120, 10 * 60_000);
  let allowed = 0;
  // A million calls, 1 ms apart: with the limits off, every one past the limit is answered anyway.
  for (let now = 0; now < 1_000_000; now++) if (window.consume('key', now).allowed) allowed++;
  assert.ok(window.heldFor('key') <= 240, `held ${window.heldFor('key')}`);
  // 120 in each 10-minute window: the first at 0 and each next batch once the oldest have left.
  assert.equal(allowed, 120 * Math.ceil(1_000_000 / 600_000));
});
