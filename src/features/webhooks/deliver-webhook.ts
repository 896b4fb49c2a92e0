import type { Context } from '../../context.js';
import { postWebhook } from '../../platform/webhooks/post-webhook.js';
import { nextRetryAt } from '../../domain/webhook-retry-policy.js';
import { signWebhook } from '../../platform/webhooks/sign-webhook.js';
import { resolveDestination } from '../../platform/webhooks/ssrf-guard.js';
import { webhookFaultOutcome } from '../../domain/fault-rules.js';
import { webhookSecretOf } from '../keys/create-api-key.js';
import { fireFault } from '../faults/fire-fault.js';

export type AttemptTrigger = 'automatic' | 'replay';

/** A lease outlives the longest attempt, so a delivery still being sent is never taken twice. */
const leaseMs = (ctx: Context) => ctx.policy.webhookTimeoutMs + 30_000;

/** `pid:processId`: whoever holds a lease, so a lease of a process that died can be taken over. */
export function leaseOwner(ctx: Context): string {
  return `${process.pid}:${ctx.processId}`;
}

/**
 * Leases the deliveries whose automatic attempt is due on the sandbox clock, oldest due first, so
 * that of several processes on one data directory exactly one sends each attempt.
 */
export function claimDueDeliveries(ctx: Context, limit: number): string[] {
  const { db } = ctx;
  return db.transaction(() => {
    const realNow = ctx.clock.realNow();
    const due = db.all(
      db.q
        .selectFrom('webhook_deliveries')
        .select(['id', 'lease_owner', 'lease_until'])
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', ctx.clock.now())
        .orderBy('next_attempt_at', 'asc')
        .orderBy('seq', 'asc')
        .limit(limit * 4),
    );
    const free = due.filter((d) => d.lease_until === null || d.lease_until < realNow || !ownerAlive(d.lease_owner)).slice(0, limit);
    for (const { id } of free) {
      db.run(
        db.q
          .updateTable('webhook_deliveries')
          .set({ lease_owner: leaseOwner(ctx), lease_until: realNow + leaseMs(ctx) })
          .where('id', '=', id),
      );
    }
    return free.map((d) => d.id);
  });
}

/**
 * Waits until no due delivery is being sent by a live process (this one or another), so that a clock
 * advance sees the outcome of attempts already under way before it moves on.
 */
export async function settleDeliveriesInFlight(ctx: Context): Promise<void> {
  const deadline = ctx.clock.realNow() + leaseMs(ctx);
  for (;;) {
    const realNow = ctx.clock.realNow();
    const leased = ctx.db.all(
      ctx.db.q
        .selectFrom('webhook_deliveries')
        .select('lease_owner')
        .where('status', '=', 'pending')
        .where('lease_until', '>=', realNow)
        .where('next_attempt_at', '<=', ctx.clock.now()),
    );
    if (!leased.some((d) => ownerAlive(d.lease_owner)) || realNow > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function ownerAlive(owner: string | null): boolean {
  const pid = Number(owner?.split(':')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One attempt: POST the stored event bytes, signed (Standard Webhooks) with the secret of the key that
 * created the request and a real-time `webhook-timestamp`. A 2xx answer delivers; anything else
 * schedules the next retry (+1 min, +5 min, +30 min, +2 h), and after the last one the delivery fails.
 * A replay restarts that schedule when it is refused. An attempt that meets a webhook fault rule of
 * the account fails as the rule says, without contacting the receiver, and is recorded like a real one.
 */
export async function attemptDelivery(ctx: Context, deliveryId: string, trigger: AttemptTrigger): Promise<void> {
  const { db } = ctx;
  const row = db.first(
    db.q
      .selectFrom('webhook_deliveries')
      .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
      .innerJoin('api_keys', 'api_keys.id', 'events.api_key_id')
      .select([
        'webhook_deliveries.url',
        'webhook_deliveries.account_id',
        'webhook_deliveries.request_id',
        'events.id as event_id',
        'events.payload',
        'api_keys.id as key_id',
        'api_keys.webhook_secret_sealed',
      ])
      .where('webhook_deliveries.id', '=', deliveryId),
  );
  if (!row) return;
  const fault = fireFault(
    ctx,
    row.account_id,
    { target: 'webhook', signatureRequestId: row.request_id },
    { delivery_id: deliveryId, signature_request_id: row.request_id },
  );
  if (fault) return recordAttempt(ctx, deliveryId, trigger, webhookFaultOutcome(fault, ctx.policy.webhookTimeoutMs));
  const url = new URL(row.url);
  const destination = await resolveDestination(url, ctx.policy.allowLoopbackWebhooks);
  let outcome: AttemptOutcome;
  if (!destination.ok) {
    outcome = { statusCode: null, error: destination.error, durationMs: 0 };
  } else {
    const secret = webhookSecretOf(ctx, { id: row.key_id, webhook_secret_sealed: row.webhook_secret_sealed });
    const headers = { ...signWebhook(secret, row.event_id, row.payload, ctx.clock.realNow()) };
    const sent = await postWebhook({
      url,
      address: destination.address,
      family: destination.family,
      body: row.payload,
      timeoutMs: ctx.policy.webhookTimeoutMs,
      headers,
    });
    outcome = { ...sent, headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'paraph-webhooks/1' } };
  }
  recordAttempt(ctx, deliveryId, trigger, outcome);
}

interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The headers sent (the signed ones and the content type); absent when nothing was sent. */
  headers?: Record<string, string>;
}

function recordAttempt(ctx: Context, deliveryId: string, trigger: AttemptTrigger, outcome: AttemptOutcome): void {
  const { db } = ctx;
  db.transaction(() => {
    const now = ctx.clock.now();
    const current = db.first(db.q.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId));
    if (!current) return;
    const attempt = current.attempt_count + 1;
    db.insert('webhook_attempts', {
      delivery_id: deliveryId,
      number: attempt,
      trigger,
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: outcome.durationMs,
      attempted_at: now,
      request_headers: outcome.headers ? JSON.stringify(outcome.headers) : null,
    });
    const accepted = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    // A 2xx stops the retries: a scheduled attempt that was under way when a replay was accepted, and fails
    // afterwards, is kept as an attempt and changes nothing else (a refused replay asked for does restart them).
    if (!accepted && current.status === 'delivered' && trigger !== 'replay') {
      db.run(db.q.updateTable('webhook_deliveries').set({ attempt_count: attempt, lease_owner: null, lease_until: null }).where('id', '=', deliveryId));
      return;
    }
    const failures = accepted ? 0 : trigger === 'replay' ? 1 : current.failures_in_row + 1;
    const next = accepted ? null : nextRetryAt(failures, now);
    db.run(
      db.q
        .updateTable('webhook_deliveries')
        .set({
          attempt_count: attempt,
          failures_in_row: failures,
          last_status_code: outcome.statusCode,
          last_error: outcome.error,
          status: accepted ? 'delivered' : next === null ? 'failed' : 'pending',
          next_attempt_at: next,
          delivered_at: accepted ? now : current.delivered_at,
          lease_owner: null,
          lease_until: null,
        })
        .where('id', '=', deliveryId),
    );
  });
}
