import type { Generated } from 'kysely';

/** A sandbox fault rule of one account: the next `count` matching operations fail or are delayed. */
export interface FaultRulesTable {
  seq: Generated<number>;
  id: string;
  account_id: string;
  /** api, webhook, mail, artifacts */
  target: string;
  /** The rule as given, with its defaults filled in (target and count included), JSON. */
  rule_json: string;
  count: number;
  /** How many times it fired; the rule stops matching when `fired` reaches `count`. */
  fired: number;
  created_at: number;
}
