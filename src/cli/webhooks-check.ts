import { Command } from 'commander';
import type { Env } from '../platform/config.js';
import type { ReceiverCheck } from '../contract/receiver-check.js';
import { isParaphError } from '../domain/errors.js';
import { checkReceiver, checkTolerance, DEFAULT_TOLERANCE_SECONDS, parseReceiverUrl, receiverCheckKeys } from '../features/webhooks/receiver-check.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { formatTable, printJson, UsageError, type Io } from './output.js';

interface CheckOptions {
  url: string;
  key?: string;
  tolerance?: string;
  json?: boolean;
  dataDir?: string;
}

/** The check found a wrong answer: exit code 1, after the report. */
class ReceiverCheckFailed extends Error {
  override name = 'ReceiverCheckFailed';
}

/**
 * `paraph webhooks check --url URL`: sends the receiver a battery of test deliveries (valid, retried,
 * forged, stale, malformed, out of order) signed with a key's webhook secret, and says case by case
 * whether it answered right. Exit code 0 when every case is right, 1 otherwise.
 */
export function webhooksCheckCommand(io: Io, env: Env): Command {
  return new Command('check')
    .description(
      'check a webhook receiver: send it test deliveries (valid, retried, forged, stale, malformed, out of order) and say case by case whether it answered right; exit code 1 when a case is wrong',
    )
    .requiredOption('--url <url>', 'the receiver: an http(s) URL; loopback and private addresses are allowed')
    .option('--key <key>', "API key whose webhook secret signs the deliveries (env PARAPH_API_KEY; default: the data directory's first live key)")
    .option(
      '--tolerance <seconds>',
      `timestamp tolerance the receiver applies (default ${DEFAULT_TOLERANCE_SECONDS}, the Standard Webhooks libraries'); stale and future stamps are twice as far off`,
    )
    .option('--json', 'print the report (every case with its deliveries and answers) as JSON')
    .addOption(dataDirOption())
    .action(async (opts: CheckOptions) => {
      const toleranceSeconds = parseTolerance(opts.tolerance);
      usage('--url', () => parseReceiverUrl(opts.url));
      const apiKey = opts.key ?? (env.PARAPH_API_KEY?.trim() || undefined);
      const { report, keyHint } = await withContext(opts, env, async (ctx) => {
        const report = await checkReceiver(ctx, opts.url, { key: apiKey === undefined ? null : { apiKey }, toleranceSeconds });
        const keyHint = receiverCheckKeys(ctx).find((k) => k.key_id === report.key_id)?.webhook_secret_hint ?? report.key_id;
        return { report, keyHint };
      });
      if (opts.json) printJson(io, report);
      else io.out(reportText(report, keyHint));
      if (!report.passed) throw new ReceiverCheckFailed(`the receiver answered ${report.case_count - report.passed_count} of ${report.case_count} cases wrong`);
    });
}

function parseTolerance(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TOLERANCE_SECONDS;
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`--tolerance takes a whole number of seconds, got "${text}"`);
  return usage('--tolerance', () => checkTolerance(Number(text.trim())));
}

/** A bad value of an option is bad usage (exit code 2), whatever rule it breaks. */
function usage<T>(option: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw isParaphError(error) ? new UsageError(`${option}: ${error.message}`) : error;
  }
}

function reportText(report: ReceiverCheck, secretHint: string): string {
  const lines = [
    `Checked ${report.url}: ${report.case_count} cases, the deliveries signed with ${secretHint} (key ${report.key_id}),`,
    `timestamp tolerance assumed ${report.tolerance_seconds} s, each delivery marked ${report.test_header}; took ${report.duration_ms} ms.`,
    '',
    formatTable(
      ['', 'CASE', 'EXPECTED', 'ANSWERED'],
      report.cases.map((c) => [c.ok ? 'ok' : 'WRONG', c.title, c.expected, c.answered]),
    ),
  ];
  const wrong = report.cases.filter((c) => !c.ok);
  for (const c of wrong) lines.push('', `WRONG: ${c.title} (expected ${c.expected}, answered ${c.answered})`, `  in production: ${c.risk}`, `  fix: ${c.fix}`);
  const notes = report.cases.filter((c) => c.note !== null && c.group !== 'timestamp');
  if (notes.length > 0) lines.push('', ...notes.map((c) => `Note (${c.id}): ${c.note}`));
  lines.push('', report.passed ? `Every case right (${report.case_count} of ${report.case_count}).` : `${wrong.length} of ${report.case_count} cases wrong.`);
  return lines.join('\n');
}
