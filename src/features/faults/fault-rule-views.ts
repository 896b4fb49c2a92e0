import { isoTime } from '../../platform/clock.js';
import type { FaultRuleRow } from './queries.js';
import type { FaultSpec } from '../../domain/fault-rules.js';
import type { FaultRule } from '../../contract/faults.js';

/** The stored rule, as written (defaults filled in). */
export function faultSpecOf(row: FaultRuleRow): FaultSpec {
  return JSON.parse(row.rule_json) as FaultSpec;
}

/** The rule as `/_sandbox/faults` and `paraph faults list --json` show it. */
export function faultRuleView(row: FaultRuleRow): FaultRule {
  return { id: row.id, ...faultSpecOf(row), count: row.count, fired: row.fired, created_at: isoTime(row.created_at) } as FaultRule;
}
