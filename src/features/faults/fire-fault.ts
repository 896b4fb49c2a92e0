import type { Context } from '../../context.js';
import { liveFaultRules, takeFiring } from './queries.js';
import { describeFault, faultMatches, type FaultOperation, type FaultSpec } from '../../domain/fault-rules.js';
import { faultSpecOf } from './fault-rule-views.js';

export type FiredFault<T extends FaultOperation['target'] = FaultOperation['target']> = Extract<FaultSpec, { target: T }> & { id: string };

/**
 * The fault, if any, that this operation of the account meets: the oldest matching rule with
 * firings left takes one, and the server log says so. With no rule for the account this reads no
 * table (the live rules are remembered until the database changes).
 */
export function fireFault<O extends FaultOperation>(
  ctx: Context,
  accountId: string,
  operation: O,
  detail: Record<string, unknown> = {},
): FiredFault<O['target']> | null {
  const rules = liveFaultRules(ctx.db).get(accountId);
  if (rules === undefined) return null;
  for (const candidate of rules) {
    if (!faultMatches(candidate.spec, operation)) continue;
    const row = takeFiring(ctx.db, candidate.id);
    if (!row) continue;
    const spec = faultSpecOf(row);
    ctx.log.warn(
      { fault_rule_id: row.id, account_id: accountId, target: row.target, fired: row.fired, count: row.count, ...detail },
      `sandbox fault fired: ${describeFault(spec)} (${row.fired} of ${row.count})`,
    );
    return { ...spec, id: row.id } as FiredFault<O['target']>;
  }
  return null;
}
