// One instance per process for its holders (src/platform/process-shared.ts): the PDF reader and the
// artifact worker that servers started with `shareWorkers` hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessShared } from '../../src/platform/process-shared.js';

/** A stand-in whose calls answer when the test says so, and which counts its closes. */
function makeThing(made: Array<{ closes: number; answer: (value: string) => void; ask(): Promise<string> }>) {
  return () => {
    let answer: (value: string) => void = () => {};
    const thing = {
      closes: 0,
      answer: (value: string) => answer(value),
      ask: () =>
        new Promise<string>((resolve) => {
          answer = resolve;
        }),
      async close() {
        thing.closes += 1;
      },
    };
    made.push(thing);
    return thing;
  };
}

const closedError = () => new Error('the thing was closed');

test('holders share one instance, kept while one holds it and for the linger after the last let go', async () => {
  const made: Parameters<typeof makeThing>[0] = [];
  // (A linger long beside the test's own steps, so that a slow machine does not see it pass between them.)
  const shared = new ProcessShared(makeThing(made), 400);
  const first = shared.hold(closedError);
  const second = shared.hold(closedError);
  assert.equal(made.length, 1);
  assert.equal(first.value, second.value);
  first.release();
  await sleep(600);
  assert.equal(made[0]?.closes, 0, 'still held by the second');
  second.release();
  // Held again within the linger: the same instance, not closed.
  const third = shared.hold(closedError);
  assert.equal(third.value, made[0]);
  await sleep(600);
  assert.equal(made[0]?.closes, 0);
  third.release();
  await sleep(600);
  assert.equal(made[0]?.closes, 1, 'closed once the linger passed with no holder');
  // The next hold makes a new one.
  const fourth = shared.hold(closedError);
  assert.equal(made.length, 2);
  assert.notEqual(fourth.value, made[0]);
  fourth.release();
});

test("a released hold fails its own unanswered calls and refuses new ones; the other holders' calls go on", async () => {
  const made: Parameters<typeof makeThing>[0] = [];
  const shared = new ProcessShared(makeThing(made), 60);
  const leaving = shared.hold(closedError);
  const staying = shared.hold(closedError);
  const pending = leaving.run((thing) => thing.ask());
  leaving.release();
  await assert.rejects(pending, /the thing was closed/);
  await assert.rejects(
    leaving.run((thing) => thing.ask()),
    /the thing was closed/,
  );
  assert.equal(leaving.released, true);
  const asked = staying.run((thing) => thing.ask());
  made[0]?.answer('answered');
  assert.equal(await asked, 'answered');
  assert.equal(made[0]?.closes, 0);
  staying.release();
});
