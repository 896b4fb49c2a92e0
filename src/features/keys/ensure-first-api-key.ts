import type { Context } from '../../context.js';
import { countAccounts } from './queries.js';
import { createApiKey, type CreatedApiKey } from './create-api-key.js';

/** On the first start of an empty data directory: one account with one key, for the banner. */
export function ensureFirstApiKey(ctx: Context): CreatedApiKey | null {
  return ctx.db.transaction(() => (countAccounts(ctx.db) === 0 ? createApiKey(ctx) : null));
}
