/** The numbers of the API description's "Limits" table that code (not a schema) enforces. */
export const MAX_PDF_BYTES = 8 * 1024 * 1024;
export const RETENTION_MS = 10 * 24 * 60 * 60 * 1000;
export const DEFAULT_PAGE_SIZE = 25;

/** Sandbox fault rules: how many operations one rule affects, and the longest delay it can add. */
export const MAX_FAULT_COUNT = 1000;
export const MAX_FAULT_DELAY_MS = 30_000;

/**
 * The longest single move of the sandbox clock, over HTTP, the dashboard and the CLI alike: ten
 * years, so dates stay far inside what JavaScript can represent.
 */
export const MAX_CLOCK_ADVANCE_SECONDS = 315_360_000;

/** Why a clock move of `ms` is refused (`shown` as the caller wrote it), or null when it is allowed. */
export function clockAdvanceMistake(ms: number, shown: string): string | null {
  return ms > MAX_CLOCK_ADVANCE_SECONDS * 1000 ? `"${shown}" is more than ten years: advance the clock by at most 3650d at a time` : null;
}
