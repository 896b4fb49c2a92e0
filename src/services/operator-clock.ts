import { isoTime } from '../clock.js';
import type { Context } from '../context.js';
import type { DashboardClock, FellDue } from '../http/schemas/dashboard.js';
import { advanceClockBy } from './advance-clock-by.js';
import { clockState } from './clock-state.js';

interface LastAdvance {
  duration: string;
  from: string;
  to: string;
  fell_due: FellDue[];
}

/** The last advance made from the dashboard, per data directory context (kept while the server runs). */
const lastAdvances = new WeakMap<Context, LastAdvance>();

export function operatorClock(ctx: Context): DashboardClock {
  return { ...clockState(ctx), last_advance: lastAdvances.get(ctx) ?? null };
}

/**
 * Advances the clock as `paraph clock advance` does and answers what fell due on the way: the audit
 * events the scheduler wrote in that span (links expired, requests purged) and the webhook attempts it sent.
 */
export async function advanceOperatorClock(ctx: Context, duration: string): Promise<DashboardClock> {
  const { db } = ctx;
  const from = ctx.clock.now();
  const state = await advanceClockBy(ctx, duration);
  const to = ctx.clock.now();

  const audits = db.all(
    db.q
      .selectFrom('audit_events')
      .innerJoin('signature_requests', 'signature_requests.id', 'audit_events.request_id')
      .leftJoin('signers', 'signers.id', 'audit_events.signer_id')
      .select(['audit_events.type', 'audit_events.created_at', 'audit_events.request_id', 'signature_requests.client_reference', 'signers.reference as signer_reference'])
      .where('audit_events.created_at', '>', from)
      .where('audit_events.created_at', '<=', to)
      .where('audit_events.actor_type', '=', 'system')
      .orderBy('audit_events.created_at', 'asc'),
  );
  const attempts = db.all(
    db.q
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .innerJoin('signature_requests', 'signature_requests.id', 'webhook_deliveries.request_id')
      .select([
        'webhook_attempts.attempted_at',
        'webhook_attempts.number',
        'webhook_attempts.status_code',
        'webhook_attempts.error',
        'webhook_deliveries.id as delivery_id',
        'webhook_deliveries.event_type',
        'webhook_deliveries.request_id',
        'signature_requests.client_reference',
      ])
      .where('webhook_attempts.trigger', '=', 'automatic')
      .where('webhook_attempts.attempted_at', '>', from)
      .where('webhook_attempts.attempted_at', '<=', to),
  );
  const fellDue: FellDue[] = [
    ...audits.map((a) => ({
      at: isoTime(a.created_at),
      kind: 'audit_event' as const,
      what: a.signer_reference ? `${a.type} (signer ${a.signer_reference})` : a.type,
      signature_request_id: a.request_id,
      client_reference: a.client_reference,
      webhook_delivery_id: null,
    })),
    ...attempts.map((a) => ({
      at: isoTime(a.attempted_at),
      kind: 'webhook_attempt' as const,
      what: `${a.event_type} attempt ${a.number}: ${a.status_code ?? a.error ?? 'no answer'}`,
      signature_request_id: a.request_id,
      client_reference: a.client_reference,
      webhook_delivery_id: a.delivery_id,
    })),
  ].sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0));
  lastAdvances.set(ctx, { duration: duration.trim(), from: isoTime(from), to: isoTime(to), fell_due: fellDue });
  return { ...state, last_advance: lastAdvances.get(ctx) ?? null };
}
