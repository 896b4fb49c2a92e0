import type { Context } from '../context.js';
import { nextDueTime, runDueJobs } from '../jobs/run-due-jobs.js';

/**
 * Moves the sandbox clock forward by `ms`, stopping at every due time on the way and running what
 * fell due there, so each deadline is met in order and recorded at its own time, exactly as if the
 * time had passed. Answers once everything up to the new time has run.
 */
export async function advanceClock(ctx: Context, ms: number): Promise<{ now: number; offsetMs: number }> {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('the sandbox clock only moves forward by a whole number of milliseconds');
  const target = ctx.clock.now() + ms;
  for (;;) {
    const due = nextDueTime(ctx);
    if (due === null || due > target) break;
    const now = ctx.clock.now();
    if (due > now) ctx.clock.advance(due - now);
    // Nothing changed although something was due: another process got there first, or it cannot run.
    if ((await runDueJobs(ctx)) === 0 && due <= now) break;
  }
  const now = ctx.clock.now();
  if (target > now) ctx.clock.advance(target - now);
  await runDueJobs(ctx);
  return { now: ctx.clock.now(), offsetMs: ctx.clock.offsetMs() };
}
