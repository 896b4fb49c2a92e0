import Type, { type Static } from 'typebox';
import { DateTime, Uuid } from './common.js';
import { EventType } from './webhooks.js';
import { MAX_RECEIVER_TOLERANCE_SECONDS } from '../domain/limits.js';

/**
 * A receiver check: a battery of test deliveries sent to the user's webhook receiver, and what it
 * answered to each (`paraph webhooks check`, `checkReceiver()`, the dashboard's receiver check).
 */

const closed = { additionalProperties: false } as const;

export const ReceiverCheckGroup = Type.Enum(['valid', 'retry', 'signature', 'headers', 'timestamp', 'order', 'timing']);
export type ReceiverCheckGroup = Static<typeof ReceiverCheckGroup>;

export const ReceiverCheckDelivery = Type.Object(
  {
    webhook_id: Type.String({ description: 'the `webhook-id` sent (empty when the case leaves it out or empty)' }),
    event_type: EventType,
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: "the receiver's answer; null when there was none" }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'why there was no 2xx answer (timeout, refused connection, status)' }),
    duration_ms: Type.Integer({ minimum: 0 }),
    headers: Type.Record(Type.String(), Type.String(), { description: 'the webhook headers this delivery carried' }),
    body: Type.String({ description: 'the bytes sent' }),
  },
  { ...closed, title: 'ReceiverCheckDelivery' },
);
export type ReceiverCheckDelivery = Static<typeof ReceiverCheckDelivery>;

export const ReceiverCheckCase = Type.Object(
  {
    id: Type.String({ description: 'stable name of the case, e.g. `forged-signature`' }),
    group: ReceiverCheckGroup,
    title: Type.String(),
    expected: Type.String({ description: '`2xx` or `4xx` for every delivery of the case, or what the timing case expects' }),
    answered: Type.String({ description: 'what the receiver answered, delivery by delivery' }),
    ok: Type.Boolean(),
    risk: Type.String({ description: 'what a receiver that fails this case does wrong in production' }),
    fix: Type.String({ description: 'a one-line hint' }),
    note: Type.Union([Type.String(), Type.Null()], { description: 'what the check cannot see, or a measure' }),
    deliveries: Type.Array(ReceiverCheckDelivery),
  },
  { ...closed, title: 'ReceiverCheckCase' },
);
export type ReceiverCheckCase = Static<typeof ReceiverCheckCase>;

export const ReceiverCheck = Type.Object(
  {
    id: Uuid,
    url: Type.String(),
    account_id: Uuid,
    key_id: Uuid,
    tolerance_seconds: Type.Integer({ description: 'the timestamp tolerance the check assumes the receiver applies' }),
    delivery_timeout_ms: Type.Integer({ description: 'how long paraph waits for an answer to a delivery' }),
    test_header: Type.String({ description: 'the header every test delivery carries' }),
    started_at: DateTime,
    duration_ms: Type.Integer({ minimum: 0 }),
    passed: Type.Boolean({ description: 'every case right' }),
    passed_count: Type.Integer({ minimum: 0 }),
    case_count: Type.Integer({ minimum: 0 }),
    cases: Type.Array(ReceiverCheckCase),
  },
  { ...closed, title: 'ReceiverCheck' },
);
export type ReceiverCheck = Static<typeof ReceiverCheck>;

export const ReceiverCheckInput = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'the receiver: an http(s) URL; loopback and private addresses are allowed' }),
    key_id: Type.Optional(Uuid),
    tolerance_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RECEIVER_TOLERANCE_SECONDS })),
  },
  { ...closed, title: 'ReceiverCheckInput' },
);
export type ReceiverCheckInput = Static<typeof ReceiverCheckInput>;

/** A key the dashboard offers to sign a check with (never the key or the secret themselves). */
export const ReceiverCheckKey = Type.Object(
  { key_id: Uuid, account_id: Uuid, api_key_hint: Type.String(), webhook_secret_hint: Type.String() },
  { ...closed, title: 'ReceiverCheckKey' },
);
export type ReceiverCheckKey = Static<typeof ReceiverCheckKey>;

export const ReceiverCheckOverview = Type.Object(
  { keys: Type.Array(ReceiverCheckKey), checks: Type.Array(ReceiverCheck) },
  { ...closed, title: 'ReceiverCheckOverview' },
);
export type ReceiverCheckOverview = Static<typeof ReceiverCheckOverview>;
