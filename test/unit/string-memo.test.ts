// A string function that remembers its answers (src/platform/string-memo.ts): each argument worked out
// once, and the table bounded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { remembering } from '../../src/platform/string-memo.js';

test('each argument is worked out once; past the limit the table starts again', () => {
  const calls: string[] = [];
  const upper = remembering((s) => {
    calls.push(s);
    return s.toUpperCase();
  }, 2);
  assert.equal(upper('a'), 'A');
  assert.equal(upper('a'), 'A');
  assert.equal(upper('b'), 'B');
  assert.deepEqual(calls, ['a', 'b'], 'the second "a" is remembered');
  // A third argument finds the table full: it starts again, so "a" is worked out anew.
  assert.equal(upper('c'), 'C');
  assert.equal(upper('c'), 'C');
  assert.equal(upper('a'), 'A');
  assert.deepEqual(calls, ['a', 'b', 'c', 'a']);
});
