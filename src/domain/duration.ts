const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90s`, `2h`, `11d`, `1d12h` -> milliseconds; null for anything else (negative, zero, no unit). */
export function parseDuration(text: string): number | null {
  if (!/^(\d+[smhdw])+$/.test(text)) return null;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([smhdw])/g)) ms += Number(amount) * (UNIT_MS[unit as string] ?? 0);
  return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}

/** What `parseDuration` accepts, in words, for messages and help. */
export const DURATION_SYNTAX = 'a positive whole number with s, m, h, d or w (90s, 2h, 11d, 1w), or several combined (1d12h)';

/** Why `text` is not a duration, and what to give instead. */
export function durationMistake(text: string): string {
  if (/^-/.test(text)) return `the sandbox clock only moves forward, so "${text}" cannot be a duration: give ${DURATION_SYNTAX}`;
  return `"${text}" is not a duration: give ${DURATION_SYNTAX}`;
}
