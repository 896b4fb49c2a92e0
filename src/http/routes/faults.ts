import Type from 'typebox';
import type { Context } from '../../context.js';
import { addFaultRule } from '../../features/faults/add-fault-rule.js';
import { clearFaultRules, removeFaultRule } from '../../features/faults/clear-fault-rules.js';
import { listFaultRules } from '../../features/faults/list-fault-rules.js';
import type { App } from '../app-type.js';
import { principalOf } from '../hooks/auth.js';
import { IdParams } from '../../contract/common.js';
import { FaultRule, FaultRuleInput, FaultRuleList } from '../../contract/faults.js';
import { errorResponses } from './responses.js';

const NoBody = Type.Null({ description: 'removed; no body' });

/** `/_sandbox/faults`: fault rules of the key's account (see docs/faults.md). */
export function registerFaults(app: App, ctx: Context): void {
  app.post(
    '/_sandbox/faults',
    {
      config: {
        auth: true,
        summary: "Add a fault rule: the account's next `count` matching API calls, webhook attempts, mails or artifact runs fail or are delayed",
      },
      schema: { body: FaultRuleInput, response: { 201: FaultRule, ...errorResponses(400, 401, 404) } },
    },
    async (request, reply) => {
      const rule = addFaultRule(ctx, { accountId: principalOf(request).accountId, rule: request.body, root: 'body' });
      return reply.code(201).send(rule);
    },
  );

  app.get(
    '/_sandbox/faults',
    {
      config: { auth: true, summary: "The account's fault rules, oldest first, used-up ones included" },
      schema: { response: { 200: FaultRuleList, ...errorResponses(401) } },
    },
    async (request) => ({ data: listFaultRules(ctx, principalOf(request).accountId) }),
  );

  app.delete(
    '/_sandbox/faults/:id',
    {
      config: { auth: true, summary: 'Remove one fault rule' },
      schema: { params: IdParams, response: { 204: NoBody, ...errorResponses(401, 404) } },
    },
    async (request, reply) => {
      removeFaultRule(ctx, { accountId: principalOf(request).accountId, id: request.params.id });
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/_sandbox/faults',
    {
      config: { auth: true, summary: 'Remove every fault rule of the account' },
      schema: { response: { 204: NoBody, ...errorResponses(401) } },
    },
    async (request, reply) => {
      clearFaultRules(ctx, { accountId: principalOf(request).accountId });
      return reply.code(204).send(null);
    },
  );
}
