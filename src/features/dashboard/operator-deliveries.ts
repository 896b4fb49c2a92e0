import type { Context } from '../../context.js';
import type { DashboardDelivery } from '../../contract/dashboard.js';
import type { WebhookDelivery, WebhookDeliveryStatus } from '../../contract/webhooks.js';
import { deliveryAttempts, listWebhookDeliveries, replayWebhookDelivery } from '../webhooks/webhook-deliveries.js';

/** Deliveries of every account, newest first, each with its attempts (oldest first). */
export function listOperatorDeliveries(
  ctx: Context,
  filter: { signatureRequestId?: string | undefined; status?: WebhookDeliveryStatus | undefined; limit?: number | undefined; cursor?: string | undefined },
): { data: DashboardDelivery[]; next_cursor: string } {
  const page = listWebhookDeliveries(ctx, { accountId: null, ...filter });
  return { data: page.data.map((delivery) => withAttempts(ctx, delivery)), next_cursor: page.next_cursor };
}

/** Sends a delivery of any account again now and answers it with every attempt, this one last. */
export async function replayOperatorDelivery(ctx: Context, id: string): Promise<DashboardDelivery> {
  return withAttempts(ctx, await replayWebhookDelivery(ctx, null, id));
}

/** Every attempt of a delivery, oldest first, with the headers it sent. */
function withAttempts(ctx: Context, delivery: WebhookDelivery): DashboardDelivery {
  return { ...delivery, attempts: deliveryAttempts(ctx, delivery.id) };
}
