import type { Context } from '../../context.js';
import { principalOf } from '../hooks/auth.js';
import { listWebhookDeliveries, replayWebhookDelivery } from '../../features/webhooks/webhook-deliveries.js';
import type { ApiScope } from '../api-scope.js';
import { IdParams } from '../../contract/common.js';
import { WebhookDelivery, WebhookDeliveryListQuery, WebhookDeliveryPage } from '../../contract/webhooks.js';
import { errorResponses } from './responses.js';

export function registerWebhookDeliveries({ api, keyed }: ApiScope, ctx: Context): void {
  api.get(
    '/webhook-deliveries',
    {
      config: { auth: true, summary: "The account's webhook deliveries, newest first" },
      schema: { querystring: WebhookDeliveryListQuery, response: { 200: WebhookDeliveryPage, ...errorResponses(400, 401, 429) } },
    },
    async (request) =>
      listWebhookDeliveries(ctx, {
        accountId: principalOf(request).accountId,
        signatureRequestId: request.query.signature_request_id,
        eventType: request.query.event_type,
        status: request.query.status,
        limit: request.query.limit,
        cursor: request.query.cursor,
      }),
  );

  keyed.post(
    '/webhook-deliveries/:id/replay',
    {
      config: { auth: true, idempotent: true, summary: 'Send the event again now (same webhook-id, fresh signature); answers this attempt' },
      schema: { params: IdParams, response: { 200: WebhookDelivery, ...errorResponses(401, 404, 422, 429) } },
    },
    async (request) => replayWebhookDelivery(ctx, principalOf(request).accountId, request.params.id),
  );
}
