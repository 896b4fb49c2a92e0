import { isoTime } from '../clock.js';
import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import { DEFAULT_PAGE_SIZE } from '../domain/limits.js';
import { notFound } from '../errors.js';
import { attemptDelivery } from './deliver-webhook.js';
/** Deliveries newest first, paged by an opaque cursor. */
export function listWebhookDeliveries(ctx, filter) {
    const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
    let query = selectDeliveries(ctx);
    if (filter.accountId !== null)
        query = query.where('webhook_deliveries.account_id', '=', filter.accountId);
    if (filter.signatureRequestId !== undefined)
        query = query.where('webhook_deliveries.request_id', '=', filter.signatureRequestId);
    if (filter.eventType !== undefined)
        query = query.where('webhook_deliveries.event_type', '=', filter.eventType);
    if (filter.status !== undefined)
        query = query.where('webhook_deliveries.status', '=', filter.status);
    if (filter.cursor)
        query = query.where('webhook_deliveries.seq', '<', decodeCursor('wd1', filter.cursor));
    const rows = ctx.db.all(query.orderBy('webhook_deliveries.seq', 'desc').limit(limit + 1));
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(deliveryView), next_cursor: rows.length > limit && last ? encodeCursor('wd1', last.seq) : '' };
}
/** Sends the delivery's event again now (same webhook-id, fresh signature) and answers this attempt's outcome. */
export async function replayWebhookDelivery(ctx, accountId, id) {
    findDelivery(ctx, accountId, id);
    await attemptDelivery(ctx, id, 'replay');
    return deliveryView(findDelivery(ctx, accountId, id));
}
/** Every attempt of a delivery, oldest first (for the CLI). */
export function deliveryAttempts(ctx, id) {
    return ctx.db
        .all(ctx.db.q.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', id).orderBy('number', 'asc'))
        .map((a) => ({
        number: a.number,
        trigger: a.trigger,
        status_code: a.status_code,
        error: a.error,
        duration_ms: a.duration_ms,
        attempted_at: isoTime(a.attempted_at),
    }));
}
function findDelivery(ctx, accountId, id) {
    let query = selectDeliveries(ctx).where('webhook_deliveries.id', '=', id);
    if (accountId !== null)
        query = query.where('webhook_deliveries.account_id', '=', accountId);
    const row = ctx.db.first(query);
    if (!row)
        throw notFound(`webhook delivery ${id} does not exist`);
    return row;
}
function selectDeliveries(ctx) {
    return ctx.db.q
        .selectFrom('webhook_deliveries')
        .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
        .selectAll('webhook_deliveries')
        .select('events.payload');
}
export function deliveryView(row) {
    return {
        id: row.id,
        event_id: row.event_id,
        event_type: row.event_type,
        signature_request_id: row.request_id,
        status: row.status,
        attempt_count: row.attempt_count,
        last_status_code: row.last_status_code,
        last_error: row.last_error,
        next_attempt_at: isoTime(row.next_attempt_at),
        delivered_at: isoTime(row.delivered_at),
        created_at: isoTime(row.created_at),
        payload: JSON.parse(row.payload),
    };
}
//# sourceMappingURL=webhook-deliveries.js.map