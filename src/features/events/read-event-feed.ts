import type { Context } from '../../context.js';
import { preparedQuery } from '../../db/prepared-query.js';
import { findApiKey } from '../keys/queries.js';
import type { EventType } from '../../contract/webhooks.js';
import { signWebhook, type WebhookHeaders } from '../../platform/webhooks/sign-webhook.js';
import { webhookSecretOf } from '../keys/create-api-key.js';

/** One event of an account's feed, ready to forward as a webhook. */
export interface FeedEvent {
  /** The event's position: every event recorded later has a greater one, in every account. */
  seq: number;
  type: EventType;
  /** The WebhookEvent JSON, exactly the bytes a delivery sends. */
  body: string;
  /** Standard Webhooks headers for `body`, as a delivery sent now would carry them. */
  headers: WebhookHeaders;
}

const lastSeq = preparedQuery((q) => q.selectFrom('events').select((eb) => eb.fn.max<number>('seq').as('seq')));

/** The position of the last event recorded, in any account (0 before the first). */
export function latestEventSeq(ctx: Context): number {
  return ctx.db.first(lastSeq)?.seq ?? 0;
}

const accountEvents = preparedQuery((q, accountId: string, after: number, upTo: number, limit: number) =>
  q
    .selectFrom('events')
    .innerJoin('api_keys', 'api_keys.id', 'events.api_key_id')
    .select(['events.seq', 'events.id', 'events.type', 'events.payload', 'api_keys.id as key_id', 'api_keys.webhook_secret_sealed'])
    .where('events.account_id', '=', accountId)
    .where('events.seq', '>', after)
    .where('events.seq', '<=', upTo)
    .orderBy('events.seq', 'asc')
    .limit(limit),
);

/**
 * The account's events after position `after` up to `upTo`, oldest first: the events of every request
 * (with or without a callback URL), each signed as its webhook deliveries are, with the secret of the
 * key that created the request and the real time of now.
 */
export function readEventFeed(ctx: Context, input: { accountId: string; after: number; upTo: number; limit: number }): FeedEvent[] {
  const rows = ctx.db.all(accountEvents, input.accountId, input.after, input.upTo, input.limit);
  const secrets = new Map<string, string>();
  const realNow = ctx.clock.realNow();
  return rows.map((row) => {
    let secret = secrets.get(row.key_id);
    if (secret === undefined) {
      secret = webhookSecretOf(ctx, { id: row.key_id, webhook_secret_sealed: row.webhook_secret_sealed });
      secrets.set(row.key_id, secret);
    }
    return { seq: row.seq, type: row.type as EventType, body: row.payload, headers: signWebhook(secret, row.id, row.payload, realNow) };
  });
}

/** False once the key is revoked: a stream opened with it ends, and reconnecting answers 401. */
export function isApiKeyLive(ctx: Context, apiKeyId: string): boolean {
  const key = findApiKey(ctx.db, apiKeyId);
  return key !== undefined && key.revoked_at === null;
}
