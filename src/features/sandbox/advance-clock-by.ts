import type { Context } from '../../context.js';
import { durationMistake, parseDuration } from '../../domain/duration.js';
import { ParaphError } from '../../domain/errors.js';
import type { ClockState } from '../../contract/sandbox.js';
import { advanceClock } from './advance-clock.js';
import { clockState } from './clock-state.js';

// As over `/_sandbox`: at most ten years at a time, so dates stay far inside what JavaScript represents.
const MAX_MS = 315_360_000 * 1000;

/** Advances the sandbox clock by a duration as the CLI takes it (`90s`, `2h`, `11d`, `1d12h`); answers the new state. */
export async function advanceClockBy(ctx: Context, duration: string): Promise<ClockState> {
  const ms = parseDuration(duration.trim());
  if (ms === null) throw new ParaphError('invalid_request', durationMistake(duration));
  if (ms > MAX_MS) throw new ParaphError('invalid_request', `"${duration}" is more than ten years: advance the clock by at most 3650d at a time`);
  await advanceClock(ctx, ms);
  return clockState(ctx);
}
