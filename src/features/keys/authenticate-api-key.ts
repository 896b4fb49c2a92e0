import type { Context } from '../../context.js';
import { sha256Hex } from '../../platform/crypto/tokens.js';
import { remembering } from '../../platform/string-memo.js';
import { findApiKeyByHash } from './queries.js';
import { unauthorized } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';

const KEY_SHAPE = /^[a-z][a-z0-9]*_test_[0-9A-Za-z]{16,200}$/;

/** The header every 401 shows, so a newcomer knows what to send. */
export const AUTH_HEADER_HINT = 'Authorization: Bearer <API key>';

const WHERE_KEYS_COME_FROM = '`paraph serve` prints one at its first start; `paraph keys create` makes another';

/**
 * Resolves `Authorization: Bearer <key>` to its account. Every failure is the same 401 `unauthorized`;
 * the message says which part was wrong and never repeats the key.
 */
export function authenticateApiKey(ctx: Context, authorization: string | undefined): Principal {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  const key = match?.[1];
  if (!key || !KEY_SHAPE.test(key)) throw unauthorized(malformedHeader(ctx, authorization));
  // Looked up on every request, so a key revoked by the CLI stops working at once.
  const row = findApiKeyByHash(ctx.db, keyHash(key));
  if (!row) {
    throw unauthorized(`unknown API key: send ${AUTH_HEADER_HINT} with a key of this sandbox's data directory (${WHERE_KEYS_COME_FROM})`);
  }
  if (row.revoked_at !== null) {
    throw unauthorized(`this API key was revoked: send ${AUTH_HEADER_HINT} with a live key (${WHERE_KEYS_COME_FROM})`);
  }
  return { accountId: row.account_id, apiKeyId: row.id };
}

/** The hashes of the keys presented lately (the last 256): a client polling with one key hashes it once. */
const keyHash = remembering(sha256Hex, 256);

function malformedHeader(ctx: Context, authorization: string | undefined): string {
  if (authorization === undefined || authorization.trim() === '') {
    return `missing API key: send the header ${AUTH_HEADER_HINT} (${WHERE_KEYS_COME_FROM})`;
  }
  const scheme = /^\s*(\S+)/.exec(authorization)?.[1] ?? '';
  if (scheme.toLowerCase() !== 'bearer') {
    return `the Authorization header must use the Bearer scheme: send ${AUTH_HEADER_HINT}`;
  }
  if (!/^Bearer[ ]+\S/i.test(authorization)) return `the Authorization header has no API key after "Bearer": send ${AUTH_HEADER_HINT}`;
  return `the Authorization header does not hold an API key (keys look like ${ctx.brand.apiKeyPrefix}…): send ${AUTH_HEADER_HINT}`;
}
