import { randomUUID } from 'node:crypto';
import { randomBase62 } from '../../platform/crypto/tokens.js';
import { AUDIT_GENESIS, auditRowHash, type AuditContent } from '../../domain/audit-chain.js';
import type { AuditEventData, AuditEventType, NoData } from '../../domain/audit-events.js';
import type { Context } from '../../context.js';
import { isoTime } from '../../platform/clock.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { RequestRow, SignerRow } from '../../model/request-queries.js';
import type { EventType, WebhookEvent, WebhookSigner } from '../../contract/webhooks.js';

/** Who made a change, as the evidence audit trail records it. */
export type Actor = { type: 'api_client'; keyId: string } | { type: 'signer'; signerId: string; email: string } | { type: 'system' };

/** One audit event: its type, and the data of that type (optional when the type records none). */
export type AuditEntry<T extends AuditEventType> = {
  requestId: string;
  type: T;
  actor: Actor;
  signerId?: string | null;
  at: number;
} & (AuditEventData[T] extends NoData ? { data?: NoData } : { data: AuditEventData[T] });

/**
 * Appends one row to the request's audit trail, numbered after the last one and chained to it: the
 * row's hash covers its content and the previous row's hash, so a changed, removed or reordered row
 * shows (`paraph audit verify`). Call it inside the transaction of the change it records.
 */
const lastAuditEvent = preparedQuery((q, requestId: string) =>
  q.selectFrom('audit_events').select(['id', 'hash']).where('request_id', '=', requestId).orderBy('id', 'desc').limit(1),
);

export function audit<T extends AuditEventType>(ctx: Context, entry: AuditEntry<T>): void {
  const { db } = ctx;
  const last = db.first(lastAuditEvent, entry.requestId);
  const row: AuditContent = {
    request_id: entry.requestId,
    id: (last?.id ?? 0) + 1,
    type: entry.type,
    actor_type: entry.actor.type,
    actor_id: entry.actor.type === 'api_client' ? entry.actor.keyId : entry.actor.type === 'signer' ? entry.actor.signerId : null,
    actor_email: entry.actor.type === 'signer' ? entry.actor.email : '',
    signer_id: entry.signerId ?? null,
    data: JSON.stringify(entry.data ?? {}),
    created_at: entry.at,
  };
  const prevHash = last?.hash ?? AUDIT_GENESIS;
  db.insert('audit_events', { ...row, prev_hash: prevHash, hash: auditRowHash(row, prevHash) });
}

export interface EventInput {
  /** The request as it is after the change: `data.status` reports it. */
  request: RequestRow;
  type: EventType;
  signer?: SignerRow;
  replacedSigner?: SignerRow;
  reason?: string;
  at: number;
}

/**
 * Writes a webhook event into the outbox, in the transaction of the state change it describes, so
 * an event exists exactly when its change does. Delivery reads the stored bytes.
 */
export function emitEvent(ctx: Context, input: EventInput): WebhookEvent {
  const event: WebhookEvent = {
    id: `evt_${randomBase62(16)}`,
    type: input.type,
    created_at: isoTime(input.at),
    data: {
      signature_request_id: input.request.id,
      client_reference: input.request.client_reference,
      status: input.request.status,
      ...(input.signer ? { signer: webhookSigner(input.signer) } : {}),
      ...(input.replacedSigner ? { replaced_signer: webhookSigner(input.replacedSigner) } : {}),
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
    },
  };
  ctx.db.insert('events', {
    id: event.id,
    account_id: input.request.account_id,
    request_id: input.request.id,
    api_key_id: input.request.api_key_id,
    type: event.type,
    payload: JSON.stringify(event),
    created_at: input.at,
  });
  // The delivery is part of the same transaction (a transactional outbox): no change without its webhook.
  if (input.request.callback_url !== null) {
    ctx.db.insert('webhook_deliveries', {
      id: randomUUID(),
      account_id: input.request.account_id,
      request_id: input.request.id,
      event_id: event.id,
      event_type: event.type,
      url: input.request.callback_url,
      status: 'pending',
      attempt_count: 0,
      failures_in_row: 0,
      last_status_code: null,
      last_error: null,
      next_attempt_at: input.at,
      delivered_at: null,
      created_at: input.at,
      lease_owner: null,
      lease_until: null,
    });
  }
  return event;
}

function webhookSigner(signer: SignerRow): WebhookSigner {
  return { id: signer.id, reference: signer.reference, email: signer.email, status: signer.status };
}
