import type { Context } from '../../context.js';
import { deleteFaultRule, deleteFaultRules } from './queries.js';
import { notFound } from '../../domain/errors.js';

/** Which rules: one account's (HTTP), or any account's (`accountId` null: the operator CLI). */
export interface FaultScope {
  accountId: string | null;
}

/** Removes one rule; 404 when the scope has no rule with that id. */
export function removeFaultRule(ctx: Context, input: FaultScope & { id: string }): void {
  const removed = ctx.db.transaction(() => deleteFaultRule(ctx.db, input.accountId, input.id));
  if (!removed) throw notFound(`fault rule ${input.id} does not exist${input.accountId === null ? '' : " for this API key's account"}`);
}

/** Removes every rule of the scope; answers how many there were. */
export function clearFaultRules(ctx: Context, input: FaultScope): number {
  return ctx.db.transaction(() => deleteFaultRules(ctx.db, input.accountId));
}
