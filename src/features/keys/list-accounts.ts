import type { Context } from '../../context.js';
import { listAccountIds } from './queries.js';

/** Up to `limit` account ids of the data directory, oldest first (the CLI's default account). */
export function listAccounts(ctx: Context, limit: number): string[] {
  return listAccountIds(ctx.db, limit);
}
