import Type, { type Static } from 'typebox';
import { Cursor, DateTime, Limit, NullableDateTime, Page, Uuid } from './common.js';
import { RequestStatus, SignerStatusValue } from './signature-requests.js';
import { DELIVERY_STATUSES } from '../domain/outbox-states.js';

/** Webhook events and the webhook-deliveries resource. */

const closed = { additionalProperties: false } as const;

export const EventType = Type.Enum([
  'signature_request.activated',
  'signer.viewed',
  'signer.completed',
  'signer.declined',
  'signer.replaced',
  'signer.expired',
  'signature_request.completed',
  'signature_request.declined',
  'signature_request.cancelled',
  'signature_request.expired',
]);
export type EventType = Static<typeof EventType>;

export const WebhookDeliveryStatus = Type.Enum([...DELIVERY_STATUSES]);
export type WebhookDeliveryStatus = Static<typeof WebhookDeliveryStatus>;

const webhookSignerProperties = { id: Uuid, reference: Type.String(), email: Type.String(), status: SignerStatusValue };

export const WebhookSigner = Type.Object(webhookSignerProperties, { ...closed, title: 'WebhookSigner' });
export type WebhookSigner = Static<typeof WebhookSigner>;

export const WebhookData = Type.Object(
  {
    signature_request_id: Uuid,
    client_reference: Type.String(),
    status: RequestStatus,
    signer: Type.Optional(WebhookSigner),
    replaced_signer: Type.Optional(WebhookSigner),
    reason: Type.Optional(Type.String()),
  },
  {
    ...closed,
    title: 'WebhookData',
    description:
      '`status` is the request status after the event; `signer` is present on signer.* events, ' +
      '`replaced_signer` (the person who no longer has the role) on signer.replaced, `reason` on signer.declined',
  },
);
export type WebhookData = Static<typeof WebhookData>;

export const WebhookEvent = Type.Object({ id: Type.String(), type: EventType, created_at: DateTime, data: WebhookData }, { ...closed, title: 'WebhookEvent' });
export type WebhookEvent = Static<typeof WebhookEvent>;

export const WebhookDelivery = Type.Object(
  {
    id: Uuid,
    event_id: Type.String({ description: 'the value of the `webhook-id` header' }),
    event_type: EventType,
    signature_request_id: Uuid,
    status: WebhookDeliveryStatus,
    attempt_count: Type.Integer({ minimum: 0 }),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    next_attempt_at: NullableDateTime,
    delivered_at: NullableDateTime,
    created_at: DateTime,
    payload: WebhookEvent,
  },
  { ...closed, title: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryListQuery = Type.Object(
  {
    signature_request_id: Type.Optional(Uuid),
    event_type: Type.Optional(EventType),
    status: Type.Optional(WebhookDeliveryStatus),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  closed,
);
export type WebhookDeliveryListQuery = Static<typeof WebhookDeliveryListQuery>;

/** GET /webhook-deliveries: newest first; `next_cursor` is empty on the last page. */
export const WebhookDeliveryPage = Page(WebhookDelivery);
export type WebhookDeliveryPage = Static<typeof WebhookDeliveryPage>;
