import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/domain/duration.js';

test('durations: a positive whole number with a unit, units may be combined', () => {
  assert.equal(parseDuration('90s'), 90_000);
  assert.equal(parseDuration('2h'), 7_200_000);
  assert.equal(parseDuration('11d'), 11 * 86_400_000);
  assert.equal(parseDuration('1w'), 7 * 86_400_000);
  assert.equal(parseDuration('1d12h'), 36 * 3_600_000);
  assert.equal(parseDuration('5m'), 300_000);
  for (const bad of ['', '0s', '-2h', '2', 'h', '1.5h', '2 h', '2H', 'soon', '1d-2h', '99999999999999999d']) {
    assert.equal(parseDuration(bad), null, bad);
  }
});
