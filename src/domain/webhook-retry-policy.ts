const MINUTE = 60 * 1000;

/** Waits after the 1st, 2nd, 3rd and 4th refused attempt; after the 5th the delivery is failed. */
export const RETRY_DELAYS_MS: readonly number[] = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE];

/** When to try again after `failuresInRow` refused attempts, or null when every retry was refused. */
export function nextRetryAt(failuresInRow: number, lastAttemptAt: number): number | null {
  const delay = RETRY_DELAYS_MS[failuresInRow - 1];
  return delay === undefined ? null : lastAttemptAt + delay;
}
