import type { Context } from '../../context.js';
import { nextDueTime, runDueJobs } from './run-due-jobs.js';
import { settleDeliveriesInFlight } from '../webhooks/deliver-webhook.js';
import { recordClockAdvance } from './last-clock-advance.js';

/**
 * Moves the sandbox clock forward by `ms`, stopping at every due time on the way and running what
 * fell due there, so each deadline is met in order and recorded at its own time, exactly as if the
 * time had passed. Answers once everything up to the new time has run.
 */
export async function advanceClock(ctx: Context, ms: number): Promise<{ now: number; offsetMs: number }> {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('the sandbox clock only moves forward by a whole number of milliseconds');
  const from = ctx.clock.now();
  // The offset, not the time, is the target: the real time spent running jobs must not eat into `ms`.
  const targetOffset = ctx.clock.offsetMs() + ms;
  for (;;) {
    // An attempt already under way (sent by the server's dispatcher) decides what is due next.
    await settleDeliveriesInFlight(ctx);
    const due = nextDueTime(ctx);
    const now = ctx.clock.now();
    if (due === null || due > now - ctx.clock.offsetMs() + targetOffset) break;
    if (due > now) ctx.clock.advance(due - now);
    // Nothing changed although something was due: another process got there first, or it cannot run.
    if ((await runDueJobs(ctx, { deliverWebhooks: true })) === 0 && due <= now) break;
  }
  const remaining = targetOffset - ctx.clock.offsetMs();
  if (remaining > 0) ctx.clock.advance(remaining);
  await runDueJobs(ctx, { deliverWebhooks: true });
  await settleDeliveriesInFlight(ctx);
  // What fell due on the way is read back from this span (the dashboard's clock page).
  recordClockAdvance(ctx, { from, to: from + ms });
  return { now: ctx.clock.now(), offsetMs: ctx.clock.offsetMs() };
}
