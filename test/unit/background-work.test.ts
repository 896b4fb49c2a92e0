// The background work a context owns (src/platform/background-work.ts): idle() waits for everything in
// flight, work added meanwhile included; destroy() waits up to its deadline and says whether all ended;
// a failure stays the caller's and does not stop the wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBackgroundWork } from '../../src/platform/background-work.js';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

test('idle() resolves once the work in flight and the work it added have settled', async () => {
  const work = createBackgroundWork();
  const done: string[] = [];
  void work.add(later(20, 'a').then((v) => done.push(v)));
  void work.add(
    later(10, 'b').then((v) => {
      done.push(v);
      void work.add(later(20, 'c').then((c) => done.push(c)));
    }),
  );
  assert.equal(work.size, 2);
  await work.idle();
  assert.deepEqual(done.sort(), ['a', 'b', 'c']);
  assert.equal(work.size, 0);
  await work.idle();
});

test("add() answers the work itself; a rejection stays the caller's and idle() still resolves", async () => {
  const work = createBackgroundWork();
  assert.equal(await work.add(Promise.resolve(7)), 7);
  const failing = work.add(later(5, null).then(() => Promise.reject(new Error('failed'))));
  await assert.rejects(failing, /failed/);
  await work.idle();
  assert.equal(work.size, 0);
});

test('destroy() waits for the work up to its deadline and says whether all of it ended', async () => {
  const work = createBackgroundWork();
  void work.add(later(10, 1));
  assert.equal(await work.destroy(1000), true);
  let release!: () => void;
  void work.add(new Promise<void>((resolve) => (release = resolve)));
  const started = performance.now();
  assert.equal(await work.destroy(50), false);
  assert.ok(performance.now() - started < 1000, 'the deadline ends the wait');
  release();
  await work.idle();
});
