import { countAccounts } from '../db/repos/api-keys.js';
import { createApiKey } from './create-api-key.js';
/** On the first start of an empty data directory: one account with one key, for the banner. */
export function ensureFirstApiKey(ctx) {
    return ctx.db.transaction(() => (countAccounts(ctx.db) === 0 ? createApiKey(ctx) : null));
}
//# sourceMappingURL=ensure-first-api-key.js.map