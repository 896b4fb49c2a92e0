import type { Context } from '../../context.js';
import { nextDueTime, runDueJobs } from './run-due-jobs.js';
import { settleDeliveriesInFlight } from '../webhooks/deliver-webhook.js';
import { recordClockAdvance } from './last-clock-advance.js';
import { ParaphError } from '../../domain/errors.js';
import { LATEST_CLOCK_TIME } from '../../domain/limits.js';
import { certificatesEnd } from '../../pdf/certificate.js';

/**
 * Moves the sandbox clock forward by `ms`, stopping at every due time on the way and running what
 * fell due there, so each deadline is met in order and recorded at its own time, exactly as if the
 * time had passed. Answers once everything up to the new time has run.
 */
export async function advanceClock(ctx: Context, ms: number): Promise<{ now: number; offsetMs: number }> {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('the sandbox clock only moves forward by a whole number of milliseconds');
  const from = ctx.clock.now();
  const tooLate = pastLatestTime(ctx, from + ms);
  if (tooLate !== null) throw new ParaphError('invalid_request', tooLate);
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

/**
 * Why the sandbox clock cannot show `at`, or null when it can: past the year 9999 dates no longer fit RFC 3339, and
 * past the end of the data directory's test certificates every seal and timestamp would fail its check.
 */
function pastLatestTime(ctx: Context, at: number): string | null {
  const iso = (t: number) => new Date(t).toISOString();
  if (at >= LATEST_CLOCK_TIME) {
    return `that would take the sandbox clock to ${iso(at)}: it goes no further than ${iso(LATEST_CLOCK_TIME - 1)} (later dates do not fit RFC 3339)`;
  }
  const end = certificatesEnd(ctx.dataDir);
  if (end !== null && at > end) {
    return (
      `that would take the sandbox clock to ${iso(at)}, after this data directory's test certificates end (${iso(end)}), ` +
      'and every seal and timestamp made then would fail its check: delete signing-certificate.json and timestamp-authority.json ' +
      'from the data directory, and paraph makes new ones, valid as far as the clock goes, at its next start'
    );
  }
  return null;
}
