import type { Context } from '../context.js';
import { expireIdempotencyKeys } from '../services/idempotency-keys.js';
import { expireDueLinks } from './expire-links.js';
import { dispatchDueDeliveries } from './dispatch-webhooks.js';
import { purgeDueRequests } from './purge-requests.js';

/**
 * Runs every job whose time has come on the sandbox clock; answers how many things changed. Webhook
 * attempts run here only when asked (a clock advance waits for them); inside `serve` the dispatcher
 * sends them on its own so a slow receiver never holds up the other jobs.
 */
export async function runDueJobs(ctx: Context, options: { deliverWebhooks: boolean }): Promise<number> {
  let changed = expireDueLinks(ctx);
  // Events written by expiry are sent before the purge of the same moment.
  if (options.deliverWebhooks) changed += await dispatchDueDeliveries(ctx);
  changed += await purgeDueRequests(ctx);
  changed += expireIdempotencyKeys(ctx);
  return changed;
}

/** The earliest sandbox time at which some job has work, or null when nothing is scheduled. */
export function nextDueTime(ctx: Context): number | null {
  const { db } = ctx;
  const link = db.first(
    db.q
      .selectFrom('signing_links')
      .innerJoin('signature_requests', 'signature_requests.id', 'signing_links.request_id')
      .select((eb) => eb.fn.min<number>('signing_links.expires_at').as('at'))
      .where('signing_links.revoked_at', 'is', null)
      .where('signature_requests.status', '=', 'active'),
  );
  const retention = db.first(
    db.q
      .selectFrom('signature_requests')
      .select((eb) => eb.fn.min<number>('retention_expires_at').as('at'))
      .where('status', '!=', 'purged'),
  );
  const key = db.first(db.q.selectFrom('idempotency_keys').select((eb) => eb.fn.min<number>('expires_at').as('at')));
  const webhook = db.first(
    db.q
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min<number>('next_attempt_at').as('at'))
      .where('status', '=', 'pending'),
  );
  const times = [link?.at, retention?.at, key?.at, webhook?.at].filter((t): t is number => typeof t === 'number');
  return times.length === 0 ? null : Math.min(...times);
}
