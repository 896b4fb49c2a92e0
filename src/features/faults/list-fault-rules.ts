import type { Context } from '../../context.js';
import { listFaultRules as listRows } from './queries.js';
import type { FaultRule } from '../../contract/faults.js';
import { faultRuleView } from './fault-rule-views.js';

/** The account's fault rules, oldest first, used-up ones included (`fired` = `count`). */
export function listFaultRules(ctx: Context, accountId: string): FaultRule[] {
  return listRows(ctx.db, accountId).map(faultRuleView);
}

/** Every account's rules, for the operator CLI. */
export function listEveryFaultRule(ctx: Context): Array<{ account_id: string } & FaultRule> {
  return listRows(ctx.db, null).map((row) => ({ account_id: row.account_id, ...faultRuleView(row) }));
}
