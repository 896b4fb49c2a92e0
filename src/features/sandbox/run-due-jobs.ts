import fs from 'node:fs';
import type { Context } from '../../context.js';
import { generateMissingArtifacts, signingIdentity } from '../artifacts/generate-artifacts.js';
import { expireIdempotencyKeys } from '../idempotency/idempotency-keys.js';
import { expireDueLinks } from '../requests/expire-links.js';
import { dispatchDueDeliveries } from '../webhooks/dispatch-due-deliveries.js';
import { purgeDueRequests } from '../requests/purge-requests.js';
import { sweepUnreferencedBlobs } from './unreferenced-blobs.js';

/**
 * Runs every job whose time has come on the sandbox clock; answers how many things changed. Webhook
 * attempts run here only when asked (a clock advance waits for them); inside `serve` the dispatcher
 * sends them on its own so a slow receiver never holds up the other jobs. Artifact generation follows
 * the same rule: awaited by a clock advance, in the background on the server's tick.
 */
export async function runDueJobs(ctx: Context, options: { deliverWebhooks: boolean }): Promise<number> {
  let changed = expireDueLinks(ctx);
  // Events written by expiry are sent before the purge of the same moment.
  if (options.deliverWebhooks) changed += await dispatchDueDeliveries(ctx);
  changed += await purgeDueRequests(ctx);
  // (Files a crash left without a row: not a change a clock advance reports.)
  await sweepUnreferencedBlobs(ctx);
  changed += expireIdempotencyKeys(ctx);
  // The signing certificate is made in the background on the first tick after the first start (an
  // ephemeral data directory may be gone by the time it is written: nothing to report then).
  signingIdentity(ctx).catch((error: unknown) => {
    if (fs.existsSync(ctx.dataDir)) ctx.log.error({ err: error }, 'the signing certificate cannot be read or made');
  });
  // Completed requests still without artifacts (the kick after the last signature failed, or the
  // process stopped first): retried here. A clock advance waits for them; the server's tick does not.
  changed += await generateMissingArtifacts(ctx, { wait: options.deliverWebhooks });
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
