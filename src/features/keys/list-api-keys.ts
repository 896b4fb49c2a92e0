import type { Context } from '../../context.js';
import { isoTime } from '../../platform/clock.js';
import { listApiKeys as listRows } from './queries.js';
import { webhookSecretOf } from './create-api-key.js';

export interface ApiKeySummary {
  key_id: string;
  account_id: string;
  /** Prefix and last four characters; the full key is never stored. */
  api_key_hint: string;
  webhook_secret_hint: string;
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
}

export function listApiKeys(ctx: Context): ApiKeySummary[] {
  return listRows(ctx.db).map((row) => {
    const secret = webhookSecretOf(ctx, row);
    return {
      key_id: row.id,
      account_id: row.account_id,
      api_key_hint: `${ctx.brand.apiKeyPrefix}…${row.key_hint}`,
      webhook_secret_hint: `whsec_…${secret.slice(-4)}`,
      status: row.revoked_at === null ? 'active' : 'revoked',
      created_at: isoTime(row.created_at),
      revoked_at: isoTime(row.revoked_at),
    };
  });
}
