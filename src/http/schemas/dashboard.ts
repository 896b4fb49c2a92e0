import Type, { type Static, type TSchema } from 'typebox';
import { Cursor, DateTime, Limit, Uuid } from './common.js';
import { CaughtEmail } from './sandbox.js';
import { RequestListItem, RequestListQuery, SignatureRequestStatus } from './signature-requests.js';
import { WebhookDelivery } from './webhooks.js';

/**
 * The dashboard's own API (`/_dashboard/api`): the operator's view across every account, authenticated
 * by the data directory's dashboard token. Every answer says so in `scope`.
 */

const closed = { additionalProperties: false } as const;

export const Scope = Type.Literal('all accounts', { description: 'the dashboard sees every account (operator view)' });

/** `{scope, data}`: one object. */
export function Scoped<T extends TSchema>(data: T) {
  return Type.Object({ scope: Scope, data }, closed);
}

/** `{scope, data: [...], next_cursor}`, with an empty cursor on the last page. */
export function ScopedPage<T extends TSchema>(item: T) {
  return Type.Object({ scope: Scope, data: Type.Array(item), next_cursor: Type.String() }, closed);
}

/** The API's list filters, and the account (the dashboard sees every account). */
export const DashboardRequestQuery = Type.Object({ ...RequestListQuery.properties, account_id: Type.Optional(Uuid) }, closed);
export type DashboardRequestQuery = Static<typeof DashboardRequestQuery>;

export const DashboardRequestItem = Type.Object({ account_id: Uuid, ...RequestListItem.properties }, { ...closed, title: 'DashboardRequestItem' });
export type DashboardRequestItem = Static<typeof DashboardRequestItem>;

export const WebhookAttempt = Type.Object(
  {
    number: Type.Integer({ minimum: 1 }),
    trigger: Type.String({ description: 'what sent it: the schedule, a retry or a replay' }),
    status_code: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    duration_ms: Type.Union([Type.Integer(), Type.Null()]),
    attempted_at: DateTime,
  },
  { ...closed, title: 'WebhookAttempt' },
);

export const DashboardDelivery = Type.Object(
  { ...WebhookDelivery.properties, attempts: Type.Array(WebhookAttempt) },
  { ...closed, title: 'DashboardDelivery' },
);
export type DashboardDelivery = Static<typeof DashboardDelivery>;

export const DashboardDeliveryQuery = Type.Object(
  { signature_request_id: Type.Optional(Uuid), limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) },
  closed,
);

export const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String(),
    actor_type: Type.String(),
    actor_email: Type.String(),
    signer_id: Type.Union([Uuid, Type.Null()]),
    created_at: DateTime,
  },
  closed,
);

export const AuditCheck = Type.Object(
  {
    events: Type.Integer({ minimum: 0 }),
    head: Type.String({ description: 'hash of the last event that verifies (the chain head when intact)' }),
    intact: Type.Boolean(),
    broken: Type.Union(
      [Type.Object({ id: Type.Integer(), reason: Type.Enum(['gap', 'link', 'content']), message: Type.String() }, closed), Type.Null()],
      { description: 'the first row that does not verify' },
    ),
  },
  closed,
);

export const DashboardRequestDetail = Type.Object(
  {
    ...SignatureRequestStatus.properties,
    account_id: Uuid,
    document: Type.Object(
      { filename: Type.String(), sha256: Type.String(), size: Type.Integer(), pages: Type.Integer(), purged: Type.Boolean() },
      closed,
    ),
    audit: Type.Array(AuditEntry),
    audit_check: AuditCheck,
    emails: Type.Array(CaughtEmail),
    webhook_deliveries: Type.Array(DashboardDelivery),
  },
  { ...closed, title: 'DashboardRequestDetail' },
);
export type DashboardRequestDetail = Static<typeof DashboardRequestDetail>;

export const DashboardEmailQuery = Type.Object(
  { to: Type.Optional(Type.String({ maxLength: 254, description: 'recipient address' })), limit: Type.Optional(Limit) },
  closed,
);

export const DashboardEmail = Type.Object(
  {
    ...CaughtEmail.properties,
    headers: Type.Array(Type.Array(Type.String(), { minItems: 2, maxItems: 2 }), { description: '[name, value] pairs, in order' }),
    raw: Type.String({ description: 'the message as received' }),
  },
  { ...closed, title: 'DashboardEmail' },
);

export const DashboardClockAdvance = Type.Object(
  { duration: Type.String({ minLength: 1, maxLength: 40, description: '90s, 2h, 11d, 1w, or several combined (1d12h)' }) },
  closed,
);
