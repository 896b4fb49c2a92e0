import { Command, Option } from 'commander';
import type { Env } from '../platform/config.js';
import type { Context } from '../context.js';
import { parseDuration } from '../domain/duration.js';
import { describeFault, faultRuleMistake } from '../domain/fault-rules.js';
import { MAX_FAULT_COUNT, MAX_FAULT_DELAY_MS } from '../domain/limits.js';
import { FaultRuleInput, type FaultRule } from '../contract/faults.js';
import { validate } from '../http/validation.js';
import { addFaultRule } from '../features/faults/add-fault-rule.js';
import { clearFaultRules, removeFaultRule } from '../features/faults/clear-fault-rules.js';
import { listAccounts } from '../features/keys/list-accounts.js';
import { listEveryFaultRule, listFaultRules } from '../features/faults/list-fault-rules.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, printTable, UsageError, type Io } from './output.js';

const TARGETS = ['api', 'webhook', 'mail', 'artifacts'];

/** The options each target takes, and the rule property each option sets. */
const OPTIONS_OF: Record<string, readonly FlagName[]> = {
  api: ['method', 'path', 'status', 'delay', 'count'],
  webhook: ['error', 'status', 'request', 'count'],
  mail: ['request', 'count'],
  artifacts: ['mode', 'delay', 'request', 'count'],
};
const FLAG_NAMES = ['method', 'path', 'status', 'delay', 'error', 'request', 'mode', 'count'] as const;
type FlagName = (typeof FLAG_NAMES)[number];
const FLAG_OF_PROPERTY: Record<string, FlagName> = { delay_ms: 'delay', signature_request_id: 'request' };

interface AddFlags {
  account?: string;
  method?: string;
  path?: string;
  status?: string;
  delay?: string;
  error?: string;
  request?: string;
  mode?: string;
  count?: string;
  json?: boolean;
  dataDir?: string;
}

export function faultsCommand(io: Io, env: Env): Command {
  const faults = new Command('faults').description('make API calls, webhook attempts, mails or artifacts fail on purpose (sandbox fault rules)');

  faults
    .command('add')
    .description('add a fault rule: the next --count matching operations of the account fail or are delayed')
    .argument('<rule>', `a target (${TARGETS.join(', ')}) with the options below, or the whole rule as JSON ('{"target":"mail"}')`)
    .option('--account <id>', 'the account (default: the only one in the data directory)')
    .option('--method <method>', 'api: only calls with this method (GET, POST, PUT, DELETE, PATCH)')
    .option('--path <path>', "api: a /v1 path, {name} for any one segment, a last * for any rest; '*' for every /v1 path")
    .option('--status <code>', 'api: answer 429, 500 or 503; webhook: the status of an --error status attempt (default 500)')
    .option('--delay <time>', `api, artifacts: delay by this long (2500ms, 2s; at most ${MAX_FAULT_DELAY_MS / 1000}s)`)
    .addOption(new Option('--error <kind>', 'webhook: how attempts fail').choices(['status', 'timeout', 'connection_refused']))
    .option('--request <id>', 'webhook, mail, artifacts: only this signature request')
    .addOption(
      new Option('--mode <mode>', 'artifacts: fail the run (then retried) or make it late (default: delay with --delay, else fail)').choices(['fail', 'delay']),
    )
    .option('--count <n>', `how many operations the rule affects, 1 to ${MAX_FAULT_COUNT} (default 1)`)
    .option('--json', 'print the rule as JSON')
    .addOption(dataDirOption())
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        "  paraph faults add api --method GET --path '/v1/signature-requests/{id}' --status 503 --count 2",
        "  paraph faults add api --path '*' --delay 2s",
        '  paraph faults add webhook --error timeout --count 3',
        '  paraph faults add mail',
        '  paraph faults add artifacts --mode fail',
        `  paraph faults add '{"target":"webhook","error":"status","status":502}'`,
      ].join('\n'),
    )
    .action(async (ruleText: string, opts: AddFlags) => {
      const rule = ruleOf(ruleText, opts);
      const added = await withContext(opts, env, (ctx) => addFaultRule(ctx, { accountId: accountOf(ctx, opts.account), rule, root: 'rule' }));
      if (opts.json) return printJson(io, added);
      io.out(`Added fault rule ${added.id}: ${describeFault(added)}, ${times(added.count)}.\nRemove it with: paraph faults clear ${added.id}`);
    });

  faults
    .command('list')
    .description('fault rules of every account (or of one), oldest first; used-up rules show fired = count')
    .option('--account <id>', 'only the rules of this account')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (opts: { account?: string; json?: boolean; dataDir?: string }) => {
      const list = await withContext(
        opts,
        env,
        (ctx): Array<FaultRule & { account_id?: string }> => (opts.account === undefined ? listEveryFaultRule(ctx) : listFaultRules(ctx, opts.account)),
      );
      if (opts.json) return printJson(io, list);
      if (list.length === 0) return io.out("No fault rules. Add one with: paraph faults add api --path '*' --status 503");
      printTable(
        io,
        ['ID', ...(opts.account === undefined ? ['ACCOUNT'] : []), 'RULE', 'FIRED', 'CREATED'],
        list.map((r) => [r.id, ...(r.account_id === undefined ? [] : [r.account_id]), describeFault(r), `${r.fired}/${r.count}`, r.created_at]),
      );
    });

  faults
    .command('clear')
    .description('remove one fault rule, or every rule (of one account with --account)')
    .argument('[rule_id]', 'the rule to remove (default: all)')
    .option('--account <id>', 'only the rules of this account')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (id: string | undefined, opts: { account?: string; json?: boolean; dataDir?: string }) => {
      const accountId = opts.account ?? null;
      const removed = await withContext(opts, env, (ctx) => {
        if (id === undefined) return clearFaultRules(ctx, { accountId });
        removeFaultRule(ctx, { accountId, id });
        return 1;
      });
      if (opts.json) return printJson(io, { removed });
      io.out(id === undefined ? `Removed ${removed} fault rule${removed === 1 ? '' : 's'}.` : `Removed fault rule ${id}.`);
    });

  return faults;
}

/** The rule from JSON or from the target and flags, checked as the HTTP API checks it. */
function ruleOf(text: string, opts: AddFlags): FaultRuleInput {
  let rule: unknown;
  if (text.trimStart().startsWith('{')) {
    const flags = FLAG_NAMES.filter((f) => opts[f] !== undefined);
    if (flags.length > 0) throw new UsageError(`give the rule as JSON or with options, not both (--${flags[0]} with a JSON rule)`);
    try {
      rule = JSON.parse(text);
    } catch {
      throw new UsageError('the rule is not valid JSON: give one object, e.g. \'{"target":"mail","count":1}\'');
    }
  } else {
    if (!TARGETS.includes(text)) throw new UsageError(`"${text}" is neither a target (${TARGETS.join(', ')}) nor a JSON rule`);
    const misplaced = FLAG_NAMES.find((f) => opts[f] !== undefined && !OPTIONS_OF[text]?.includes(f));
    if (misplaced) throw new UsageError(`--${misplaced} does not apply to ${text} rules (they take ${OPTIONS_OF[text]?.map((f) => `--${f}`).join(', ')})`);
    const delayMs = opts.delay === undefined ? undefined : delayOf(opts.delay);
    const mode = text === 'artifacts' ? (opts.mode ?? (delayMs === undefined ? 'fail' : 'delay')) : opts.mode;
    rule = dropUndefined({
      target: text,
      method: opts.method?.toUpperCase(),
      path: opts.path,
      status: numberOf(opts.status),
      delay_ms: delayMs,
      error: opts.error,
      signature_request_id: opts.request,
      mode,
      count: numberOf(opts.count),
    });
  }
  const problem = validate(FaultRuleInput, rule, 'rule') ?? faultRuleMistake(rule as FaultRuleInput, 'rule');
  if (problem) {
    // Given as options, the message names the options.
    const json = text.trimStart().startsWith('{');
    throw new UsageError(json ? problem : problem.replace(/rule\.([a-z_]+)/g, (_, property: string) => `--${FLAG_OF_PROPERTY[property] ?? property}`));
  }
  return rule as FaultRuleInput;
}

/** `2500`, `2500ms`, `2s`: milliseconds. */
function delayOf(text: string): number {
  const ms = /^\d+(ms)?$/.test(text) ? Number.parseInt(text, 10) : parseDuration(text);
  if (ms === null || ms < 1 || ms > MAX_FAULT_DELAY_MS) throw new UsageError(`--delay takes 1ms to ${MAX_FAULT_DELAY_MS / 1000}s (2500ms, 2s), got "${text}"`);
  return ms;
}

/** A number when the text is one, else the text (the schema then says what is wrong). */
function numberOf(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

function dropUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** `--account`, or the data directory's only account. */
function accountOf(ctx: Context, account: string | undefined): string {
  if (account !== undefined) return account;
  const accounts = listAccounts(ctx, 2);
  if (accounts.length === 1) return accounts[0] as string;
  throw new UsageError(
    accounts.length === 0
      ? 'this data directory has no account yet: start paraph serve once, or paraph keys create'
      : 'this data directory has several accounts: name one with --account ID (paraph keys list shows them)',
  );
}

function times(count: number): string {
  return count === 1 ? 'once' : `the next ${count} times`;
}
