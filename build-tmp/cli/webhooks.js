import { Command } from 'commander';
import { deliveryAttempts, listWebhookDeliveries, replayWebhookDelivery } from '../services/webhook-deliveries.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, printTable } from './output.js';
export function webhooksCommand(io, env) {
    const webhooks = new Command('webhooks').description('webhook deliveries and their attempts');
    webhooks
        .command('list')
        .description('deliveries of every account, newest first, with their attempts')
        .option('--request <id>', 'only the deliveries of this signature request')
        .option('--json', 'print JSON')
        .addOption(dataDirOption())
        .action(async (opts) => {
        const list = await withContext(opts, env, (ctx) => listWebhookDeliveries(ctx, { accountId: null, signatureRequestId: opts.request, limit: 100 }).data.map((d) => ({
            ...d,
            attempts: deliveryAttempts(ctx, d.id),
        })));
        if (opts.json)
            return printJson(io, list);
        if (list.length === 0)
            return io.out('No webhook deliveries.');
        printTable(io, ['DELIVERY', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST', 'NEXT ATTEMPT', 'REQUEST'], list.map((d) => [
            d.id,
            d.event_type,
            d.status,
            String(d.attempt_count),
            d.last_error ?? (d.last_status_code === null ? '-' : String(d.last_status_code)),
            d.next_attempt_at ?? '-',
            d.signature_request_id,
        ]));
    });
    webhooks
        .command('replay')
        .description('send a delivery again now (same webhook-id, fresh signature)')
        .argument('<delivery_id>')
        .option('--json', 'print JSON')
        .addOption(dataDirOption())
        .action(async (id, opts) => {
        const delivery = await withContext(opts, env, (ctx) => replayWebhookDelivery(ctx, null, id));
        if (opts.json)
            return printJson(io, delivery);
        const outcome = delivery.last_error ?? `answered ${delivery.last_status_code}`;
        io.out(`Delivery ${id}: ${delivery.status} (${outcome}); ${delivery.attempt_count} attempt(s).`);
    });
    return webhooks;
}
//# sourceMappingURL=webhooks.js.map