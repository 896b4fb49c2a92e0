import { Command } from 'commander';
import { DEFAULT_API_URL, resolveApiClient, type Env } from '../platform/config.js';
import { TRIGGERABLE, triggerEvent } from '../programmatic/trigger-event.js';
import { printJson, UsageError, type Io } from './output.js';

/** `paraph trigger EVENT`: the situation an event describes, made to happen for real on a running server. */
export function triggerCommand(io: Io, env: Env): Command {
  return new Command('trigger')
    .description('make an event happen for real on a throwaway request (or a prepared one of yours), through the running server')
    .argument('<event>', `the event: ${TRIGGERABLE.join(', ')}`)
    .option('--request <id>', 'act on this prepared request of yours instead of a throwaway one (paraph activates it)')
    .option('--callback-url <url>', "the throwaway request's callback_url, so its webhooks go there too")
    .option('--api <url>', `the API base of the running server (env PARAPH_API_URL, default ${DEFAULT_API_URL})`)
    .option('--key <key>', 'an API key of that server (env PARAPH_API_KEY)')
    .option('--json', 'print {signature_request_id, steps, events} as JSON')
    .action(async (event: string, opts: { request?: string; callbackUrl?: string; api?: string; key?: string; json?: boolean }) => {
      if (!(TRIGGERABLE as readonly string[]).includes(event)) throw new UsageError(`unknown event "${event}": give one of ${TRIGGERABLE.join(', ')}`);
      const client = resolveApiClient(opts, env);
      const origin = new URL(client.apiUrl).origin;
      const result = await triggerEvent({ origin, apiKey: client.apiKey }, event, {
        ...(opts.request ? { requestId: opts.request } : {}),
        ...(opts.callbackUrl ? { callbackUrl: opts.callbackUrl } : {}),
      });
      if (opts.json) return printJson(io, result);
      io.out(`Signature request ${result.signature_request_id}: ${result.steps.join(', ')}.`);
      io.out(`Events: ${result.events.join(', ')}`);
    });
}
