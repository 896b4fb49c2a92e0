/** Small statistics over samples (milliseconds, rates): the benches print medians and tails. */

export function sorted(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

/** The p-th percentile (0 to 100), nearest rank; NaN for no samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank] as number;
}

/** The median (the mean of the middle two for an even count); NaN for no samples. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** `12.3` for small figures, `1,234` for large ones. */
export function fmt(x: number, digits = 0): string {
  if (!Number.isFinite(x)) return 'n/a';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export const round = (x: number, digits = 0) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);
