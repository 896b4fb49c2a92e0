import type { Context } from '../../context.js';
import { durationMistake, parseDuration } from '../../domain/duration.js';
import { ParaphError } from '../../domain/errors.js';
import { clockAdvanceMistake } from '../../domain/limits.js';
import type { ClockState } from '../../contract/sandbox.js';
import { advanceClock } from './advance-clock.js';
import { clockState } from './clock-state.js';

/** Advances the sandbox clock by a duration as the CLI takes it (`90s`, `2h`, `11d`, `1d12h`); answers the new state. */
export async function advanceClockBy(ctx: Context, duration: string): Promise<ClockState> {
  const ms = parseDuration(duration.trim());
  if (ms === null) throw new ParaphError('invalid_request', durationMistake(duration));
  const tooFar = clockAdvanceMistake(ms, duration);
  if (tooFar !== null) throw new ParaphError('invalid_request', tooFar);
  await advanceClock(ctx, ms);
  return clockState(ctx);
}
