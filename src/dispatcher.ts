import type { Context } from './context.js';
import { attemptDelivery, claimDueDeliveries } from './features/webhooks/deliver-webhook.js';
import { BATCH } from './features/webhooks/dispatch-due-deliveries.js';

export interface Dispatcher {
  stop(): Promise<void>;
}

/**
 * The sender inside `serve`: four times a second it leases what is due (including rows a CLI process
 * committed) and sends each without holding up the others; a slow receiver delays only its own delivery.
 */
export function startDispatcher(ctx: Context, intervalMs = 250): Dispatcher {
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    let ids: string[];
    try {
      ids = claimDueDeliveries(ctx, BATCH);
    } catch (error) {
      ctx.log.error({ err: error }, 'claiming webhook deliveries failed');
      return;
    }
    for (const id of ids) {
      const sending: Promise<void> = attemptDelivery(ctx, id, 'automatic')
        .catch((error: unknown) => ctx.log.error({ err: error, delivery: id }, 'webhook attempt failed'))
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}
