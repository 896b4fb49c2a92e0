import { sha256Hex } from '../crypto/tokens.js';
import { findApiKeyByHash } from '../db/repos/api-keys.js';
import { unauthorized } from '../errors.js';
const KEY_SHAPE = /^[a-z][a-z0-9]*_test_[0-9A-Za-z]{16,200}$/;
/** Resolves `Authorization: Bearer <key>` to its account; every failure is the same 401. */
export function authenticateApiKey(ctx, authorization) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
    const key = match?.[1];
    if (!key || !KEY_SHAPE.test(key))
        throw unauthorized();
    // Looked up on every request, so a key revoked by the CLI stops working at once.
    const row = findApiKeyByHash(ctx.db, sha256Hex(key));
    if (!row || row.revoked_at !== null)
        throw unauthorized();
    return { accountId: row.account_id, apiKeyId: row.id };
}
//# sourceMappingURL=authenticate-api-key.js.map