// A scanned page's time limit counts the time the page would take on an idle machine: in full while no other
// process keeps a core busy, or while the process gets a core for each OCR worker reading; in part when other
// work leaves it less. In its last moments, the next page's preparation waits (PageGate), so that no step of it
// holds the thread that cuts the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLOSING_MS, EXPIRED, PageGate, untilPage, waitedMs } from '../../src/pdf/detect/time-limits.js';

/**
 * When a page that never finishes is cut, with `busy` workers reading, the process getting `cores` cores' worth of CPU time
 * and other processes `others`.
 */
async function cutAfter(pageMs: number, busy: number, cores: number, others: number): Promise<number> {
  const started = performance.now();
  // The process's CPU time as the machine would give it: `cores` milliseconds a millisecond; the machine's, with the others'.
  const cpuMs = () => (performance.now() - started) * cores;
  const machineMs = () => (performance.now() - started) * (cores + others);
  const read = await untilPage(new Promise<never>(() => {}), pageMs, started + 60_000, () => busy, cpuMs, undefined, machineMs);
  assert.equal(read, EXPIRED);
  return performance.now() - started;
}

test("a page's time limit: counted in full on a machine idle but for it and while each worker reading has its core, in part when other work leaves them fewer, never past four times the limit", async () => {
  const pageMs = 300;
  // One worker reading alone (the other's part done) on an idle machine, and two with a core each: cut at the limit.
  const alone = await cutAfter(pageMs, 1, 1, 0);
  const both = await cutAfter(pageMs, 2, 2, 0);
  // Two workers with a tenth of a core's worth of CPU time between them (waiting on their own process), no other process busy: the wall clock.
  const waiting = await cutAfter(pageMs, 2, 0.1, 0);
  // Two workers sharing one core (other work took the other): the page waits, cut at twice the limit.
  const shared = await cutAfter(pageMs, 2, 1, 1);
  // Starved (a tenth of a core for two, other work taking the rest): cut at four times the limit.
  const starved = await cutAfter(pageMs, 2, 0.1, 1.9);
  for (const [name, ms] of Object.entries({ alone, both, waiting })) assert.ok(ms >= pageMs && ms < shared, `${name}: cut at ${Math.round(ms)} ms`);
  assert.ok(shared >= 1.9 * pageMs, `shared: cut at ${Math.round(shared)} ms`);
  assert.ok(starved >= 4 * pageMs && starved < 4 * pageMs + 1000, `starved: cut at ${Math.round(starved)} ms`);
});

test("a page's time counts from the call: the start of its OCR workers (no worker reading yet, the process busy starting them) is part of it", async () => {
  const pageMs = 300;
  const started = performance.now();
  // No worker reads for the first 200 ms (they start), then two read, a core each.
  const busy = () => (performance.now() - started < 200 ? 0 : 2);
  const cpuMs = () => (performance.now() - started) * (performance.now() - started < 200 ? 1 : 2);
  // (No other process on the machine: its busy time is the process's own.)
  const read = await untilPage(new Promise<never>(() => {}), pageMs, started + 60_000, busy, cpuMs, undefined, cpuMs);
  assert.equal(read, EXPIRED);
  const ms = performance.now() - started;
  // (Counted from the workers' start, it would be cut at 500 ms.)
  assert.ok(ms >= pageMs && ms < 450, `cut at ${Math.round(ms)} ms, not ${pageMs} ms after the workers started`);
});

test("in a page's last CLOSING_MS the next page's preparation waits until the page ends; the page being read never waits", async () => {
  const pageMs = CLOSING_MS + 300;
  const started = performance.now();
  const cpuMs = () => performance.now() - started;
  const gate = new PageGate();
  gate.reading(1);
  /** When each call to pass(page) resolved, after the page's start. */
  const passed: Array<[number, number]> = [];
  const pass = (page: number) => gate.pass(page).then(() => passed.push([page, performance.now() - started]));
  let finish = (_: string) => {};
  const work = new Promise<string>((resolve) => {
    finish = resolve;
  });
  const read = untilPage(work, pageMs, started + 60_000, () => 1, cpuMs, gate, cpuMs);
  // Before the last CLOSING_MS: nothing waits.
  await pass(2);
  await new Promise((r) => setTimeout(r, 400));
  // (When the 400 ms timer fired, as measured: a timer may fire a fraction of a millisecond early, so not 400.)
  const slept = performance.now() - started;
  // In them: the page read ahead (2) waits; the page being read (1) does not.
  const held = pass(2);
  await pass(1);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(passed.length, 2, JSON.stringify(passed));
  // (Held until the page is read: compared with when it was, not with the 100 ms timer, which may fire a little early.)
  const readAt = performance.now() - started;
  finish('read');
  assert.equal(await read, 'read');
  await held;
  const [early, own, late] = passed;
  // (The page being read passed at once after the timer, not held till the page's end at pageMs.)
  assert.ok(early?.[0] === 2 && own?.[0] === 1 && own[1] - slept < 100 && late?.[0] === 2, JSON.stringify(passed));
  assert.ok(late[1] >= readAt, `held until the page was read (at ${Math.round(readAt)} ms): ${JSON.stringify(passed)}`);
  // Opened with the page's end: the next page goes on at once.
  await pass(2);
  assert.equal(passed.length, 4);

  // A page cut at its limit opens the gate too.
  gate.reading(3);
  const cut = untilPage(new Promise<never>(() => {}), pageMs, performance.now() + 60_000, () => 1, cpuMs, gate, cpuMs);
  await new Promise((r) => setTimeout(r, 400));
  const heldUntilCut = gate.pass(4).then(() => 'passed');
  assert.equal(await Promise.race([heldUntilCut, new Promise((r) => setTimeout(() => r('waiting'), 100))]), 'waiting');
  assert.equal(await cut, EXPIRED);
  assert.equal(await heldUntilCut, 'passed');
});

test("the wait before the analysis began comes off the first limited page's limit: up to a third of it, none when asked behind another document", () => {
  const now = 1_000_000;
  assert.equal(waitedMs(now - 450, 2500, now), 450, 'a child started for the document: its start');
  assert.equal(waitedMs(now - 5000, 2500, now), 2500 / 3, 'a start slowed by a busy machine: a third of the limit at most');
  assert.equal(waitedMs(undefined, 2500, now), 0, 'asked behind another document');
  assert.equal(waitedMs(now + 200, 2500, now), 0, 'a clock that went back');
});
