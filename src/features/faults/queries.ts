import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { FaultSpec } from '../../domain/fault-rules.js';
import type { FaultRulesTable } from '../../db/schema/faults.js';

export type FaultRuleRow = Selectable<FaultRulesTable>;

/** A rule that can still fire, parsed once. */
export interface LiveFaultRule {
  id: string;
  spec: FaultSpec;
}

export function insertFaultRule(db: Db, row: Omit<FaultRuleRow, 'seq'>): void {
  db.insert('fault_rules', row);
}

/** Oldest first; one account's, or every account's (`accountId` null: the operator CLI). */
export function listFaultRules(db: Db, accountId: string | null): FaultRuleRow[] {
  let query = db.q.selectFrom('fault_rules').selectAll().orderBy('seq', 'asc');
  if (accountId !== null) query = query.where('account_id', '=', accountId);
  return db.all(query);
}

export function deleteFaultRule(db: Db, accountId: string | null, id: string): boolean {
  let query = db.q.deleteFrom('fault_rules').where('id', '=', id);
  if (accountId !== null) query = query.where('account_id', '=', accountId);
  return db.run(query).changes === 1;
}

export function deleteFaultRules(db: Db, accountId: string | null): number {
  let query = db.q.deleteFrom('fault_rules');
  if (accountId !== null) query = query.where('account_id', '=', accountId);
  return db.run(query).changes;
}

/**
 * The rules that can still fire, by account, oldest first. Remembered until the database changes
 * (a rule added, fired or removed by this process or a CLI process), so with no rule at all the
 * operations that ask cost a map lookup, not a query.
 */
export function liveFaultRules(db: Db): ReadonlyMap<string, readonly LiveFaultRule[]> {
  return db.memo('fault-rules:live', () => {
    const byAccount = new Map<string, LiveFaultRule[]>();
    for (const row of db.all(liveRules)) {
      const rule = { id: row.id, spec: JSON.parse(row.rule_json) as FaultSpec };
      const rules = byAccount.get(row.account_id);
      if (rules) rules.push(rule);
      else byAccount.set(row.account_id, [rule]);
    }
    return byAccount;
  });
}

const liveRules = preparedQuery((q) => q.selectFrom('fault_rules').selectAll().whereRef('fired', '<', 'count').orderBy('seq', 'asc'));

/** Takes one firing of the rule; false when it has none left (another process took the last one). */
export function takeFiring(db: Db, id: string): FaultRuleRow | undefined {
  return db.transaction(() => {
    const changed = db.run(takeOne, id).changes === 1;
    return changed ? db.first(db.q.selectFrom('fault_rules').selectAll().where('id', '=', id)) : undefined;
  });
}

const takeOne = preparedQuery((q, id: string) =>
  q
    .updateTable('fault_rules')
    .set((eb) => ({ fired: eb('fired', '+', 1) }))
    .where('id', '=', id)
    .whereRef('fired', '<', 'count'),
);
