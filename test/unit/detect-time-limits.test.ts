// A scanned page's time limit counts the time the page would take on an idle machine: in full while the
// process gets a core for each OCR worker reading, in part when it gets less.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXPIRED, untilPage } from '../../src/pdf/detect/time-limits.js';

/** When a page that never finishes is cut, with `busy` workers reading and the process getting `cores` cores' worth of CPU time. */
async function cutAfter(pageMs: number, busy: number, cores: number): Promise<number> {
  const started = performance.now();
  // The process's CPU time as the machine would give it: `cores` milliseconds a millisecond.
  const cpuMs = () => (performance.now() - started) * cores;
  const read = await untilPage(new Promise<never>(() => {}), pageMs, started + 60_000, () => busy, cpuMs);
  assert.equal(read, EXPIRED);
  return performance.now() - started;
}

test("a page's time limit: counted in full while each worker reading has its core, in part when they share fewer, never past four times the limit", async () => {
  const pageMs = 300;
  // One worker reading alone (the other's part done) on an idle machine, and two with a core each: cut at the limit.
  const alone = await cutAfter(pageMs, 1, 1);
  const both = await cutAfter(pageMs, 2, 2);
  // Two workers sharing one core (other work took the other): the page waits, cut at twice the limit.
  const shared = await cutAfter(pageMs, 2, 1);
  // Starved (a tenth of a core for two): cut at four times the limit.
  const starved = await cutAfter(pageMs, 2, 0.1);
  for (const [name, ms] of Object.entries({ alone, both })) assert.ok(ms >= pageMs && ms < shared, `${name}: cut at ${Math.round(ms)} ms`);
  assert.ok(shared >= 1.9 * pageMs, `shared: cut at ${Math.round(shared)} ms`);
  assert.ok(starved >= 4 * pageMs && starved < 4 * pageMs + 1000, `starved: cut at ${Math.round(starved)} ms`);
});

test("a page's time counts from the call: the start of its OCR workers (no worker reading yet, the process busy starting them) is part of it", async () => {
  const pageMs = 300;
  const started = performance.now();
  // No worker reads for the first 200 ms (they start), then two read, a core each.
  const busy = () => (performance.now() - started < 200 ? 0 : 2);
  const cpuMs = () => (performance.now() - started) * (performance.now() - started < 200 ? 1 : 2);
  const read = await untilPage(new Promise<never>(() => {}), pageMs, started + 60_000, busy, cpuMs);
  assert.equal(read, EXPIRED);
  const ms = performance.now() - started;
  // (Counted from the workers' start, it would be cut at 500 ms.)
  assert.ok(ms >= pageMs && ms < 450, `cut at ${Math.round(ms)} ms, not ${pageMs} ms after the workers started`);
});
