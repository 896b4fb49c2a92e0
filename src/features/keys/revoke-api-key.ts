import type { Context } from '../../context.js';
import { findApiKey, revokeApiKey as revokeRow } from './queries.js';
import { conflict, notFound } from '../../domain/errors.js';

/** Revokes a key: the server answers 401 to it from its next request on. */
export function revokeApiKey(ctx: Context, keyId: string): void {
  ctx.db.transaction(() => {
    const row = findApiKey(ctx.db, keyId);
    if (!row) throw notFound(`API key ${keyId} does not exist`);
    if (!revokeRow(ctx.db, keyId, ctx.clock.now())) throw conflict(`API key ${keyId} is already revoked`);
  });
}
