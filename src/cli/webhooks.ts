import { Command } from 'commander';
import type { Env } from '../platform/config.js';
import type { WebhookDelivery } from '../contract/webhooks.js';
import { deliveryAttempts, listWebhookDeliveries, replayWebhookDelivery } from '../features/webhooks/webhook-deliveries.js';
import { withContext } from './data-dir-context.js';
import { webhooksCheckCommand } from './webhooks-check.js';
import { dataDirOption } from './options.js';
import { formatTable, printJson, type Io } from './output.js';

export function webhooksCommand(io: Io, env: Env): Command {
  const webhooks = new Command('webhooks').description('webhook deliveries and their attempts');

  webhooks
    .command('list')
    .description('deliveries of every account, newest first, each with its attempts: time, trigger, outcome, duration')
    .option('--request <id>', 'only the deliveries of this signature request')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (opts: { request?: string; json?: boolean; dataDir?: string }) => {
      const list = await withContext(opts, env, (ctx) =>
        listWebhookDeliveries(ctx, { accountId: null, signatureRequestId: opts.request, limit: 100 }).data.map((d) => ({
          ...d,
          attempts: deliveryAttempts(ctx, d.id),
        })),
      );
      if (opts.json) return printJson(io, list);
      if (list.length === 0) return io.out('No webhook deliveries.');
      io.out(list.map(deliveryText).join('\n\n'));
    });

  webhooks
    .command('replay')
    .description('send a delivery again now (same webhook-id, fresh signature)')
    .argument('<delivery_id>')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (id: string, opts: { json?: boolean; dataDir?: string }) => {
      const delivery = await withContext(opts, env, (ctx) => replayWebhookDelivery(ctx, null, id));
      if (opts.json) return printJson(io, delivery);
      const outcome = delivery.last_error ?? `answered ${delivery.last_status_code}`;
      io.out(`Delivery ${id}: ${delivery.status} (${outcome}); ${delivery.attempt_count} attempt(s).`);
    });

  webhooks.addCommand(webhooksCheckCommand(io, env));
  return webhooks;
}

type DeliveryWithAttempts = WebhookDelivery & { attempts: ReturnType<typeof deliveryAttempts> };

/** One delivery: what and where it stands, then a line per attempt, then what happens next. */
function deliveryText(d: DeliveryWithAttempts): string {
  const lines = [`Delivery ${d.id}  ${d.event_type}  ${d.status}  (request ${d.signature_request_id})`];
  if (d.attempts.length > 0) {
    lines.push(
      formatTable(
        ['#', 'AT', 'TRIGGER', 'OUTCOME', 'TOOK'],
        d.attempts.map((a) => [String(a.number), a.attempted_at ?? '-', a.trigger, outcomeOf(a), `${a.duration_ms} ms`]),
        '  ',
      ),
    );
  }
  if (d.status === 'pending') {
    const when = d.next_attempt_at ?? 'now';
    lines.push(`  ${d.attempts.length === 0 ? 'First' : 'Next'} attempt at ${when} (sandbox time); \`paraph webhooks replay ${d.id}\` sends it now.`);
  } else if (d.status === 'failed') {
    lines.push(`  No more automatic attempts; \`paraph webhooks replay ${d.id}\` sends it again.`);
  }
  return lines.join('\n');
}

function outcomeOf(attempt: { status_code: number | null; error: string | null }): string {
  // An answer's status says it all; the error says why there was none (timeout, refused, policy).
  return attempt.status_code === null ? (attempt.error ?? '-') : `HTTP ${attempt.status_code}`;
}
