import Type, { type Static, type TSchema } from 'typebox';
import { Cursor, DateTime, Limit, Uuid } from './common.js';
import { CaughtEmail, ClockState } from './sandbox.js';
import { RequestListItem, RequestListQuery, SignatureRequestStatus } from './signature-requests.js';
import { WebhookDelivery } from './webhooks.js';
import { DELIVERY_STATUSES } from '../domain/outbox-states.js';
import { MAX_EMAIL, MAX_SIGNER_REFERENCE } from '../domain/limits.js';

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
    request_headers: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
      description: 'the headers this attempt sent (Standard Webhooks, signed for this send); null when nothing was sent or not recorded',
    }),
  },
  { ...closed, title: 'WebhookAttempt' },
);

export const ArtifactAttempt = Type.Object(
  {
    number: Type.Integer({ minimum: 1 }),
    outcome: Type.Enum(['succeeded', 'failed']),
    started_at: DateTime,
    finished_at: DateTime,
    duration_ms: Type.Integer({ minimum: 0 }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'what went wrong; null for a success' }),
    next_attempt_at: Type.Union([DateTime, Type.Null()], { description: 'after a failure, when the process that made the attempt was to try again' }),
  },
  { ...closed, title: 'ArtifactAttempt', description: "one attempt to make a completed request's artifacts" },
);

export const DashboardDelivery = Type.Object(
  { ...WebhookDelivery.properties, attempts: Type.Array(WebhookAttempt) },
  { ...closed, title: 'DashboardDelivery' },
);
export type DashboardDelivery = Static<typeof DashboardDelivery>;

export const DashboardDeliveryQuery = Type.Object(
  {
    signature_request_id: Type.Optional(Uuid),
    status: Type.Optional(Type.Enum([...DELIVERY_STATUSES])),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
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
    broken: Type.Union([Type.Object({ id: Type.Integer(), reason: Type.Enum(['gap', 'link', 'content']), message: Type.String() }, closed), Type.Null()], {
      description: 'the first row that does not verify',
    }),
  },
  closed,
);

export const FieldBox = Type.Object(
  {
    type: Type.String(),
    name: Type.String(),
    signer_reference: Type.String(),
    page: Type.Integer({ minimum: 1 }),
    x: Type.Number(),
    y: Type.Number(),
    width: Type.Number(),
    height: Type.Number(),
  },
  { ...closed, description: 'where a field sits: PDF points from the top-left corner of its page' },
);

export const DashboardRequestDetail = Type.Object(
  {
    ...SignatureRequestStatus.properties,
    account_id: Uuid,
    embed_origin: Type.String({ description: 'empty when the request has none' }),
    layout: Type.Array(FieldBox, { description: 'every field, signatures and initials included' }),
    document: Type.Object({ filename: Type.String(), sha256: Type.String(), size: Type.Integer(), pages: Type.Integer(), purged: Type.Boolean() }, closed),
    audit: Type.Array(AuditEntry),
    audit_check: AuditCheck,
    emails: Type.Array(CaughtEmail),
    webhook_deliveries: Type.Array(DashboardDelivery),
    artifact_attempts: Type.Array(ArtifactAttempt, { description: 'every attempt to make the artifacts, oldest first' }),
  },
  { ...closed, title: 'DashboardRequestDetail' },
);
export type DashboardRequestDetail = Static<typeof DashboardRequestDetail>;

export const DashboardEmailQuery = Type.Object(
  { to: Type.Optional(Type.String({ maxLength: MAX_EMAIL, description: 'recipient address' })), limit: Type.Optional(Limit) },
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

export const FellDue = Type.Object(
  {
    at: DateTime,
    kind: Type.Enum(['audit_event', 'webhook_attempt']),
    what: Type.String(),
    signature_request_id: Uuid,
    client_reference: Type.String(),
    webhook_delivery_id: Type.Union([Uuid, Type.Null()]),
  },
  closed,
);
export type FellDue = Static<typeof FellDue>;

export const DashboardClock = Type.Object(
  {
    ...ClockState.properties,
    last_advance: Type.Union([
      Type.Object(
        { duration: Type.String(), from: DateTime, to: DateTime, fell_due: Type.Array(FellDue) },
        { ...closed, description: 'the last advance of the clock (from the CLI, /_sandbox or the dashboard), and what fell due on it' },
      ),
      Type.Null(),
    ]),
  },
  { ...closed, title: 'DashboardClock' },
);
export type DashboardClock = Static<typeof DashboardClock>;

export const SignerParams = Type.Object({ id: Uuid, reference: Type.String({ minLength: 1, maxLength: MAX_SIGNER_REFERENCE }) }, closed);

export const DashboardSigningLink = Type.Object(
  {
    signing_url: Type.String({ description: 'a fresh link: the one the signer held stops working' }),
    embed_url: Type.String({ description: 'empty when the request has no embed origin' }),
    embed_origin: Type.String(),
    expires_at: DateTime,
  },
  closed,
);

export const MailViewInput = Type.Object({ remote_images: Type.Optional(Type.Boolean()) }, closed);
export const MailView = Type.Object({ url: Type.String({ description: "the mail's HTML under a one-minute ticket, for a sandboxed iframe" }) }, closed);

export const TicketParams = Type.Object({ ticket: Type.String({ pattern: '^pmail_[0-9A-Za-z]{1,64}$' }) }, closed);
