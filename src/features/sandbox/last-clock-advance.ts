import type { Context } from '../../context.js';
import { readSetting, writeSetting } from '../../db/settings.js';

const KEY = 'clock.last_advance';

/** The last advance of the sandbox clock (sandbox times), whoever made it: the CLI, `/_sandbox` or the dashboard. */
export interface ClockAdvanceRecord {
  from: number;
  to: number;
}

export function recordClockAdvance(ctx: Context, advance: ClockAdvanceRecord): void {
  writeSetting(ctx.db, KEY, JSON.stringify(advance));
}

export function lastClockAdvance(ctx: Context): ClockAdvanceRecord | null {
  const value = readSetting(ctx.db, KEY);
  if (value === undefined) return null;
  try {
    const parsed = JSON.parse(value) as Partial<ClockAdvanceRecord>;
    return typeof parsed.from === 'number' && typeof parsed.to === 'number' ? { from: parsed.from, to: parsed.to } : null;
  } catch {
    return null;
  }
}
