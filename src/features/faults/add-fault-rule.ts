import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { accountExists } from '../keys/queries.js';
import { findRequest } from '../../model/request-queries.js';
import { insertFaultRule, type FaultRuleRow } from './queries.js';
import { faultRuleMistake, withDefaults } from '../../domain/fault-rules.js';
import { invalidRequest, notFound } from '../../domain/errors.js';
import type { FaultRule, FaultRuleInput } from '../../contract/faults.js';
import { faultRuleView } from './fault-rule-views.js';

/**
 * Adds a fault rule to the account: from now on, the next `count` matching operations fail or are
 * delayed. `root` names the rule in messages (`body` over HTTP, `rule` in the CLI).
 */
export function addFaultRule(ctx: Context, input: { accountId: string; rule: FaultRuleInput; root: string }): FaultRule {
  const mistake = faultRuleMistake(input.rule, input.root);
  if (mistake) throw invalidRequest(mistake);
  const spec = withDefaults(input.rule);
  return ctx.db.transaction(() => {
    if (!accountExists(ctx.db, input.accountId)) throw notFound(`account ${input.accountId} does not exist (paraph keys list shows the accounts)`);
    const requestId = spec.target === 'api' ? undefined : spec.signature_request_id;
    if (requestId !== undefined && !findRequest(ctx.db, input.accountId, requestId)) {
      throw notFound(`signature request ${requestId} does not exist for this account`);
    }
    const row: Omit<FaultRuleRow, 'seq'> = {
      id: randomUUID(),
      account_id: input.accountId,
      target: spec.target,
      rule_json: JSON.stringify(spec),
      count: spec.count,
      fired: 0,
      created_at: ctx.clock.now(),
    };
    insertFaultRule(ctx.db, row);
    return faultRuleView({ ...row, seq: 0 });
  });
}
