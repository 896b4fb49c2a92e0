/**
 * The time limits of an analysis: a step waited for until the analysis's deadline, and a scanned page until
 * its own limit, counted as the time it would take on an idle machine.
 */

/** A page is cut after this many times its limit even when other work on the machine kept it from the CPU. */
const STARVED = 4;

export const EXPIRED = Symbol('expired');

/** The CPU time this process (its OCR worker threads with it) has used, in milliseconds. */
const processCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Waits for a page's `work`, EXPIRED once it has taken `pageMs` of the time it would take on an idle
 * machine, or at `deadline`. A page is cut for the work it needs, not for the time a machine busy with other
 * work makes it wait: each moment counts in full while the process gets a core for each OCR worker reading
 * (`busy()`, one at least: the page's rendering), and in part when it gets less, so that on an idle machine
 * a page is cut at `pageMs` however its parts are shared between the workers (one part much longer than
 * the other leaves one worker reading alone); when other processes take the cores, later, at STARVED times
 * `pageMs` at the latest (never the whole analysis's time for one page). The page's time counts from when
 * `after` settles (its OCR workers started); the deadline counts all along. (`cpuMs` tells the process's
 * CPU time; tests stand in for it.)
 */
export async function untilPage<T>(
  work: Promise<T>,
  pageMs: number,
  deadline: number,
  after: Promise<unknown>,
  busy: () => number,
  cpuMs: () => number = processCpuMs,
): Promise<T | typeof EXPIRED> {
  work.catch(() => {});
  let started: number | undefined;
  let last = 0;
  let cpu = cpuMs();
  let progress = 0;
  const begin = () => {
    started = last = performance.now();
    cpu = cpuMs();
  };
  after.then(begin, begin);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof EXPIRED>((resolve) => {
    const check = () => {
      const now = performance.now();
      if (now >= deadline) return resolve(EXPIRED);
      if (started !== undefined) {
        const dt = now - last;
        const used = cpuMs();
        if (dt > 0) progress += dt * Math.min(1, (used - cpu) / (Math.max(1, busy()) * dt));
        last = now;
        cpu = used;
        if (now - started >= STARVED * pageMs || progress >= pageMs) return resolve(EXPIRED);
      }
      timer = setTimeout(check, Math.max(1, Math.min(started === undefined || progress < pageMs - 100 ? 50 : 25, deadline - now)));
    };
    check();
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
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

/** Engines whose OCR workers were stopped with a page cut short and started again at once. */
const restarted = new WeakSet<object>();

/** Marks `engine`'s workers as started again after a page cut short (pageClock). */
export function restartedAfterCut(engine: object): void {
  restarted.add(engine);
}

/**
 * When the next page's time starts counting (untilPage's `after`): when its workers are ready, their first
 * start being the process's cost; but at once after they were started again for a page cut short, as a
 * document sent right after that one waits for them (its page would otherwise end half a second past its limit).
 */
export function pageClock(engine: object, ready: () => Promise<unknown>): Promise<unknown> {
  return restarted.delete(engine) ? Promise.resolve() : ready();
}
