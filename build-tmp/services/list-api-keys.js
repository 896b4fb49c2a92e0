import { isoTime } from '../clock.js';
import { listApiKeys as listRows } from '../db/repos/api-keys.js';
import { webhookSecretOf } from './create-api-key.js';
export function listApiKeys(ctx) {
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
//# sourceMappingURL=list-api-keys.js.map