import { isoTime } from '../../platform/clock.js';
import type { Context } from '../../context.js';
import type { DashboardClock, FellDue } from '../../contract/dashboard.js';
import { advanceClockBy } from '../sandbox/advance-clock-by.js';
import { clockState } from '../sandbox/clock-state.js';
import { lastClockAdvance } from '../sandbox/last-clock-advance.js';

/** `1d1h30m`: a span in the syntax `paraph clock advance` takes. */
function durationText(ms: number): string {
  let seconds = Math.round(ms / 1000);
  let text = '';
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(seconds / size);
    seconds -= n * size;
    if (n > 0) text += `${n}${unit}`;
  }
  return text || '0s';
}

/**
 * What fell due in a span of sandbox time: the audit events paraph itself wrote (links and requests
 * expired, requests purged) and the webhook attempts the schedule sent, oldest first.
 */
function fellDueBetween(ctx: Context, from: number, to: number): FellDue[] {
  const { db } = ctx;
  const audits = db.all(
    db.q
      .selectFrom('audit_events')
      .innerJoin('signature_requests', 'signature_requests.id', 'audit_events.request_id')
      .leftJoin('signers', 'signers.id', 'audit_events.signer_id')
      .select([
        'audit_events.type',
        'audit_events.created_at',
        'audit_events.request_id',
        'signature_requests.client_reference',
        'signers.reference as signer_reference',
      ])
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
  return [
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
}

/** The clock, with the last advance (from the CLI, `/_sandbox` or the dashboard) and what fell due on it. */
export function operatorClock(ctx: Context): DashboardClock {
  const last = lastClockAdvance(ctx);
  return {
    ...clockState(ctx),
    last_advance: last && {
      duration: durationText(last.to - last.from),
      from: isoTime(last.from),
      to: isoTime(last.to),
      fell_due: fellDueBetween(ctx, last.from, last.to),
    },
  };
}

/** Advances the clock as `paraph clock advance` does; answers the clock with what fell due on the way. */
export async function advanceOperatorClock(ctx: Context, duration: string): Promise<DashboardClock> {
  await advanceClockBy(ctx, duration);
  return operatorClock(ctx);
}
