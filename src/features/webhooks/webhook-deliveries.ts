import type { Selectable } from 'kysely';
import { isoTime } from '../../platform/clock.js';
import type { Context } from '../../context.js';
import type { WebhookDeliveriesTable } from '../../db/schema/webhooks.js';
import { ALL_ACCOUNTS, decodeCursor, encodeCursor } from '../../domain/cursor.js';
import { DEFAULT_PAGE_SIZE } from '../../domain/limits.js';
import { notFound } from '../../domain/errors.js';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEvent } from '../../contract/webhooks.js';
import { attemptDelivery } from './deliver-webhook.js';

type DeliveryRow = Selectable<WebhookDeliveriesTable> & { payload: string };

export interface DeliveryFilter {
  /** null: every account (the operator CLI). */
  accountId: string | null;
  signatureRequestId?: string | undefined;
  eventType?: string | undefined;
  status?: WebhookDeliveryStatus | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** Deliveries newest first, paged by an opaque cursor. */
export function listWebhookDeliveries(ctx: Context, filter: DeliveryFilter): { data: WebhookDelivery[]; next_cursor: string } {
  const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
  let query = selectDeliveries(ctx);
  if (filter.accountId !== null) query = query.where('webhook_deliveries.account_id', '=', filter.accountId);
  if (filter.signatureRequestId !== undefined) query = query.where('webhook_deliveries.request_id', '=', filter.signatureRequestId);
  if (filter.eventType !== undefined) query = query.where('webhook_deliveries.event_type', '=', filter.eventType);
  if (filter.status !== undefined) query = query.where('webhook_deliveries.status', '=', filter.status);
  if (filter.cursor) query = query.where('webhook_deliveries.seq', '<', decodeCursor(ctx.secrets, filter.accountId ?? ALL_ACCOUNTS, 'wd1', filter.cursor));
  const rows = ctx.db.all(query.orderBy('webhook_deliveries.seq', 'desc').limit(limit + 1));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(deliveryView),
    next_cursor: rows.length > limit && last ? encodeCursor(ctx.secrets, filter.accountId ?? ALL_ACCOUNTS, 'wd1', last.seq) : '',
  };
}

/** Sends the delivery's event again now (same webhook-id, fresh signature) and answers this attempt's outcome. */
export async function replayWebhookDelivery(ctx: Context, accountId: string | null, id: string): Promise<WebhookDelivery> {
  findDelivery(ctx, accountId, id);
  await attemptDelivery(ctx, id, 'replay');
  return deliveryView(findDelivery(ctx, accountId, id));
}

/** Every attempt of a delivery, oldest first (the CLI shows them; the dashboard also shows the headers each sent). */
export function deliveryAttempts(ctx: Context, id: string) {
  return ctx.db.all(ctx.db.q.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', id).orderBy('number', 'asc')).map((a) => ({
    number: a.number,
    trigger: a.trigger,
    status_code: a.status_code,
    error: a.error,
    duration_ms: a.duration_ms,
    attempted_at: isoTime(a.attempted_at),
    request_headers: a.request_headers === null ? null : (JSON.parse(a.request_headers) as Record<string, string>),
  }));
}

function findDelivery(ctx: Context, accountId: string | null, id: string): DeliveryRow {
  let query = selectDeliveries(ctx).where('webhook_deliveries.id', '=', id);
  if (accountId !== null) query = query.where('webhook_deliveries.account_id', '=', accountId);
  const row = ctx.db.first(query);
  if (!row) throw notFound(`webhook delivery ${id} does not exist`);
  return row;
}

function selectDeliveries(ctx: Context) {
  return ctx.db.q
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .selectAll('webhook_deliveries')
    .select('events.payload');
}

export function deliveryView(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type as WebhookDelivery['event_type'],
    signature_request_id: row.request_id,
    status: row.status,
    attempt_count: row.attempt_count,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    next_attempt_at: isoTime(row.next_attempt_at),
    delivered_at: isoTime(row.delivered_at),
    created_at: isoTime(row.created_at),
    payload: JSON.parse(row.payload) as WebhookEvent,
  };
}
