// A scanned page's time limit counts the time the page would take on an idle machine: in full while the
// process gets a core for each OCR worker reading, in part when it gets less.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { EXPIRED, untilPage } from '../../src/pdf/detect/time-limits.js';

/** A thread that keeps one core busy until stopped (an OCR worker reading). */
function spinner(): { stop: () => Promise<number> } {
  const worker = new Worker(
    'const { parentPort } = require("node:worker_threads"); let on = true; parentPort.on("message", () => { on = false; }); (function spin() { const end = Date.now() + 20; while (Date.now() < end) {} if (on) setImmediate(spin); })();',
    {
      eval: true,
    },
  );
  return { stop: () => (worker.postMessage('stop'), worker.terminate()) };
}

/** How long a page that never finishes waits before it is cut, with `busy` workers said to be reading while one thread is. */
async function cutAfter(busy: number, pageMs: number): Promise<number> {
  const spin = spinner();
  try {
    const started = performance.now();
    const read = await untilPage(new Promise<never>(() => {}), pageMs, started + 60_000, Promise.resolve(), () => busy);
    assert.equal(read, EXPIRED);
    return performance.now() - started;
  } finally {
    await spin.stop();
  }
}

test("a page's time limit: one worker reading on its own core is cut at the limit; two said to read while only one core's worth is used, later (the page waits for the cores it lacks)", async () => {
  const alone = await cutAfter(1, 400);
  const shared = await cutAfter(2, 400);
  assert.ok(alone >= 400, `cut at ${Math.round(alone)} ms, not before its limit`);
  assert.ok(shared > 1.4 * alone, `two workers sharing one core's time: cut at ${Math.round(shared)} ms, against ${Math.round(alone)} ms`);
  assert.ok(shared <= 4 * 400 + 400, `never past four times the limit (${Math.round(shared)} ms)`);
});
