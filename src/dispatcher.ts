import type { Context } from './context.js';
import { attemptDelivery, claimDueDeliveries } from './features/webhooks/deliver-webhook.js';

export interface Dispatcher {
  stop(): Promise<void>;
}

/**
 * At most this many attempts under way at once: a burst of due deliveries goes out in one tick, as fast as
 * the receivers answer (it went out 8 a tick, 32 a second, whatever the receivers did), and a flood of slow
 * receivers holds no more sockets than this.
 */
const MAX_IN_FLIGHT = 64;

/**
 * The sender inside `serve`: four times a second it leases what is due (including rows a CLI process
 * committed), as much as there is room for, and sends each without holding up the others; a slow receiver
 * delays only its own delivery.
 */
export function startDispatcher(ctx: Context, intervalMs = 250): Dispatcher {
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    const room = MAX_IN_FLIGHT - inFlight.size;
    if (room <= 0) return;
    let ids: string[];
    try {
      ids = claimDueDeliveries(ctx, room);
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
