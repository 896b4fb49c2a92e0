import type { Context } from '../../context.js';
import { readSetting, writeSetting } from '../../db/settings.js';
import { randomBase62, safeEqual, sha256Hex } from '../../platform/crypto/tokens.js';

/** What the dashboard's `Authorization` header carries: `Dashboard <token>`. */
export const DASHBOARD_TOKEN_PREFIX = 'pdash_';
const HASH_KEY = 'dashboard_token_sha256';
// The banner shows the dashboard URL at every start: the token is kept sealed (like webhook secrets)
// next to its hash, which is what requests are checked against.
const SEALED_KEY = 'dashboard_token_sealed';
const AAD = 'dashboard-token';

/** The data directory's dashboard token, made on first need. */
export function ensureDashboardToken(ctx: Context): string {
  return ctx.db.transaction(() => {
    const sealed = readSetting(ctx.db, SEALED_KEY);
    if (sealed !== undefined) return ctx.secrets.open(Buffer.from(sealed, 'base64'), AAD).toString('utf8');
    return storeNewToken(ctx);
  });
}

/** A new token; the previous one stops working at once (in every process on the directory). */
export function rotateDashboardToken(ctx: Context): string {
  return ctx.db.transaction(() => storeNewToken(ctx));
}

/** Whether `presented` is the current token (compared by hash, in constant time). */
export function isDashboardToken(ctx: Context, presented: string): boolean {
  const hash = readSetting(ctx.db, HASH_KEY);
  return hash !== undefined && safeEqual(sha256Hex(presented), hash);
}

function storeNewToken(ctx: Context): string {
  const token = `${DASHBOARD_TOKEN_PREFIX}${randomBase62(32)}`;
  writeSetting(ctx.db, SEALED_KEY, ctx.secrets.seal(Buffer.from(token, 'utf8'), AAD).toString('base64'));
  writeSetting(ctx.db, HASH_KEY, sha256Hex(token));
  return token;
}
