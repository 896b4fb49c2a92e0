import { isoTime } from '../../platform/clock.js';
import type { Context } from '../../context.js';
import type { ClockState } from '../../contract/sandbox.js';

export function clockState(ctx: Context): ClockState {
  return { now: isoTime(ctx.clock.now()), offset_seconds: Math.floor(ctx.clock.offsetMs() / 1000) };
}
