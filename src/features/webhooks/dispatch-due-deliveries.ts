import type { Context } from '../../context.js';
import { attemptDelivery, claimDueDeliveries } from './deliver-webhook.js';

/** How many due deliveries are leased at a time. */
export const BATCH = 8;

/** Sends every delivery whose automatic attempt is due, waiting for the answers (used by clock advances). */
export async function dispatchDueDeliveries(ctx: Context): Promise<number> {
  let sent = 0;
  for (;;) {
    const ids = claimDueDeliveries(ctx, BATCH);
    if (ids.length === 0) return sent;
    await Promise.all(ids.map((id) => attemptDelivery(ctx, id, 'automatic')));
    sent += ids.length;
  }
}
