/**
 * The time limits of an analysis: a step waited for until the analysis's deadline, and a scanned page until
 * its own limit, counted as the time it would take on an idle machine.
 */

import os from 'node:os';

/** A page is cut after this many times its limit even when other work on the machine kept it from the CPU. */
const STARVED = 4;

export const EXPIRED = Symbol('expired');

/** The CPU time this process (its OCR worker threads with it) has used, in milliseconds. */
export const processCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The CPU time every process of the machine has used (its cores' busy time), in milliseconds. */
export const machineCpuMs = (): number => os.cpus().reduce((sum, { times: t }) => sum + t.user + t.nice + t.sys + t.irq, 0);

/**
 * Other processes used less than half a core over `wallMs`: the machine was idle but for this one. `machineMs` is what the
 * machine's cores were busy for over that time, `ownMs` this process's share of it.
 */
const idleBesides = (machineMs: number, ownMs: number, wallMs: number): boolean => Math.max(0, machineMs - ownMs) <= 0.5 * wallMs;

/** Where a step of a page starts, for `stepMs`. */
export const stepStart = (): { wall: number; cpu: number; machine: number } => ({ wall: performance.now(), cpu: processCpuMs(), machine: machineCpuMs() });

/**
 * The time a step of a page took, as it counts against the page's limit: its wall-clock time on a machine idle but for
 * this process, else no more than this process's CPU time (other work slows a page down rather than cutting it).
 */
export function stepMs(start: { wall: number; cpu: number; machine: number }): number {
  const [wall, own] = [performance.now() - start.wall, processCpuMs() - start.cpu];
  return idleBesides(machineCpuMs() - start.machine, own, wall) ? wall : Math.min(wall, own);
}

/**
 * What the first page with a time limit takes off it for the wait before the analysis began (DetectJob.askedAt): the
 * milliseconds since the server asked, at most a third of the limit (a page keeps most of its room even when the
 * machine made a process start slowly); none for a job asked behind another document, or a clock that went back.
 */
export function waitedMs(askedAt: number | undefined, pageMs: number, now = Date.now()): number {
  return askedAt === undefined ? 0 : Math.min(pageMs / 3, Math.max(0, now - askedAt));
}

/** In the last this many milliseconds of a page's limit, the next page's preparation waits (PageGate). */
export const CLOSING_MS = 500;

/**
 * Holds the preparation of the next scanned page while the page being read is in the last CLOSING_MS of its
 * limit: each step of it (a render, a pass over the pixels) holds the thread that checks the page's time for up
 * to a few hundred milliseconds, so a step begun then would let the page run that much past its limit. The
 * page being read is never held: once the page prepared ahead is read, its own steps go on.
 */
export class PageGate {
  #reading = 0;
  #held: { promise: Promise<void>; resolve: () => void } | undefined;

  /** The page now read. */
  reading(page: number): void {
    this.#reading = page;
  }

  /** Called by untilPage as its page nears its limit. */
  close(): void {
    if (this.#held) return;
    let resolve = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    this.#held = { promise, resolve };
  }

  /** Called by untilPage when its page is read or cut. */
  open(): void {
    this.#held?.resolve();
    this.#held = undefined;
  }

  /** Before a step of preparing `page`: resolves at once, or, for a page prepared ahead, when the page being read ends. */
  pass(page: number): Promise<void> {
    return (page !== this.#reading && this.#held?.promise) || Promise.resolve();
  }
}

/**
 * Waits for a page's `work`, EXPIRED once it has taken `pageMs` of the time it would take on an idle
 * machine, or at `deadline`. A page is cut for the work it needs, not for the time a machine busy with other
 * work makes it wait: each moment counts in full while no other process takes half a core or more (`machineMs`, the busy
 * time of the machine's cores, tells; tests stand in for it), or while the process gets a core for each OCR worker reading
 * (`busy()`, one at least: the page's rendering), and in part when it gets less, so that on an idle machine
 * a page is cut at `pageMs` however its parts are shared between the workers (one part much longer than
 * the other leaves one worker reading alone); when other processes take the cores, later, at STARVED times
 * `pageMs` at the latest (never the whole analysis's time for one page). The page's time counts from the
 * call, its OCR workers' start included (their first start, or their start again after 10 s without a scan
 * or after a page cut short: a page is no slower for it); the deadline counts all along. (`cpuMs` tells the
 * process's CPU time; tests stand in for it.) `gate` is closed in the page's last CLOSING_MS and opened when it ends.
 */
export async function untilPage<T>(
  work: Promise<T>,
  pageMs: number,
  deadline: number,
  busy: () => number,
  cpuMs: () => number = processCpuMs,
  gate?: PageGate,
  machineMs: () => number = machineCpuMs,
): Promise<T | typeof EXPIRED> {
  work.catch(() => {});
  const started = performance.now();
  let last = started;
  let cpu = cpuMs();
  let machine = machineMs();
  let progress = 0;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof EXPIRED>((resolve) => {
    const check = () => {
      const now = performance.now();
      if (now >= deadline) return resolve(EXPIRED);
      const dt = now - last;
      const [used, all] = [cpuMs(), machineMs()];
      // (On a machine idle but for this process, the wall clock: a page waiting on its own process is no slower for the machine.)
      if (dt > 0) progress += idleBesides(all - machine, used - cpu, dt) ? dt : dt * Math.min(1, (used - cpu) / (Math.max(1, busy()) * dt));
      last = now;
      cpu = used;
      machine = all;
      if (now - started >= STARVED * pageMs || progress >= pageMs) return resolve(EXPIRED);
      if (progress >= pageMs - CLOSING_MS || now - started >= STARVED * pageMs - CLOSING_MS) gate?.close();
      timer = setTimeout(check, Math.max(1, Math.min(progress < pageMs - 100 ? 50 : 25, deadline - now)));
    };
    check();
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    gate?.open();
  }
}

/** Waits for `work` until `deadline` (a performance.now() time): EXPIRED if it is not done by then. */
export async function until<T>(work: Promise<T>, deadline: number): Promise<T | typeof EXPIRED> {
  // Whatever the abandoned work ends with later is of no interest.
  work.catch(() => {});
  const left = deadline - performance.now();
  if (left <= 0) return EXPIRED;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof EXPIRED>((resolve) => {
    timer = setTimeout(() => resolve(EXPIRED), left);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
