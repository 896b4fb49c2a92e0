import { randomBytes, randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { randomBase62, sha256Hex } from '../../platform/crypto/tokens.js';
import { accountExists, insertAccount, insertApiKey } from './queries.js';
import { notFound } from '../../domain/errors.js';

export interface CreatedApiKey {
  account_id: string;
  key_id: string;
  /** Shown once: only its SHA-256 is stored. */
  api_key: string;
  webhook_secret: string;
}

/** A new API key with its own webhook secret, in `accountId` or, without one, in a new account. */
export function createApiKey(ctx: Context, input: { accountId?: string | undefined } = {}): CreatedApiKey {
  const now = ctx.clock.now();
  const keyId = randomUUID();
  const apiKey = `${ctx.brand.apiKeyPrefix}${randomBase62(32)}`;
  const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const accountId = ctx.db.transaction(() => {
    const id = input.accountId ?? randomUUID();
    if (input.accountId === undefined) insertAccount(ctx.db, { id, created_at: now });
    else if (!accountExists(ctx.db, id)) throw notFound(`account ${id} does not exist`);
    insertApiKey(ctx.db, {
      id: keyId,
      account_id: id,
      key_hash: sha256Hex(apiKey),
      key_hint: apiKey.slice(-4),
      webhook_secret_sealed: ctx.secrets.seal(Buffer.from(webhookSecret), `webhook-secret:${keyId}`).toString('base64'),
      created_at: now,
      revoked_at: null,
    });
    return id;
  });
  return { account_id: accountId, key_id: keyId, api_key: apiKey, webhook_secret: webhookSecret };
}

/** The key's webhook secret, for signing deliveries. */
export function webhookSecretOf(ctx: Context, key: { id: string; webhook_secret_sealed: string }): string {
  return ctx.secrets.open(Buffer.from(key.webhook_secret_sealed, 'base64'), `webhook-secret:${key.id}`).toString();
}
