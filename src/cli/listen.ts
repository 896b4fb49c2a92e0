import { Command } from 'commander';
import { resolveApiClient, type Env } from '../platform/config.js';
import { EventType, type WebhookEvent } from '../contract/webhooks.js';
import type { SseMessage } from '../platform/server-sent-events.js';
import type { PostResult } from '../platform/webhooks/post-webhook.js';
import { followEventStream } from './follow-event-stream.js';
import { forwardEvent, parseForwardUrl } from './forward-event.js';
import { UsageError, type Io } from './output.js';
import { stopWithParent } from './parent-watch.js';

const EVENT_TYPES: readonly string[] = EventType.enum;
/** The longest event type, so that the columns of the printed lines line up. */
const TYPE_WIDTH = Math.max(...EVENT_TYPES.map((type) => type.length));

interface ListenOptions {
  api?: string;
  key?: string;
  forwardTo?: string;
  events?: string;
  json?: boolean;
}

/**
 * `paraph listen`: follows GET /v1/events/stream of a running server, over HTTP like any client, and
 * prints or forwards each event. The webhook secret never leaves the server: each event arrives
 * with the headers the server signed it with.
 */
export function listenCommand(io: Io, env: Env): Command {
  return new Command('listen')
    .description("follow a running server's webhook events: print each one, or forward it signed to a local URL")
    .option('--api <url>', 'API base of the running server (env PARAPH_API_URL, default http://127.0.0.1:4010/v1)')
    .option('--key <key>', 'API key of the account whose events to follow (env PARAPH_API_KEY)')
    .option('--forward-to <url>', 'POST each event to this URL with its webhook headers, as a delivery, and print the answer')
    .option('--events <types>', 'only these event types, comma-separated (e.g. signer.completed,signature_request.completed)')
    .option('--json', 'print each WebhookEvent as one JSON line (with --forward-to: the event and the answer)')
    .action(async (opts: ListenOptions) => {
      const types = opts.events === undefined ? null : parseTypes(opts.events);
      const forwardTo = opts.forwardTo === undefined ? null : parseForwardUrl(opts.forwardTo);
      const client = resolveApiClient(opts, env);
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      const unwatch = stopWithParent(env, stop);
      const target = forwardTo ? `; forwarding to ${forwardTo.href}` : '';
      try {
        await followEventStream({
          url: `${client.apiUrl}/events/stream`,
          apiKey: client.apiKey,
          signal: controller.signal,
          onConnected: (again) =>
            io.err(again ? 'Reconnected; resuming after the last event received.' : `Listening for events at ${client.apiUrl}${target} (Ctrl-C stops).`),
          onLost: (reason) => io.err(`Connection lost (${reason}); reconnecting…`),
          onEvent: async (message) => {
            if (types && !types.has(message.event ?? '')) return;
            const event = parseEvent(message);
            if (!event) return io.err(`Event ${message.id}: the stream sent no WebhookEvent JSON; skipped.`);
            if (!forwardTo) return io.out(opts.json ? (message.data as string) : eventLine(event));
            const outcome = await forwardEvent(forwardTo, message.data as string, message.fields ?? {}, controller.signal);
            if (controller.signal.aborted) return;
            if (opts.json) {
              const answer = { url: forwardTo.href, status_code: outcome.statusCode, error: outcome.error, duration_ms: outcome.durationMs };
              return io.out(JSON.stringify({ event, forward: answer }));
            }
            io.out(`${eventLine(event)}  → ${outcomeText(outcome)}`);
          },
        });
      } finally {
        unwatch();
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
}

function parseTypes(list: string): Set<string> {
  const types = list
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '');
  const unknown = types.find((type) => !EVENT_TYPES.includes(type));
  if (unknown !== undefined || types.length === 0) {
    const what = unknown === undefined ? 'no event type given' : `unknown event type "${unknown}"`;
    throw new UsageError(`--events: ${what}; the types are ${EVENT_TYPES.join(', ')}`);
  }
  return new Set(types);
}

function parseEvent(message: SseMessage): WebhookEvent | null {
  try {
    const event = JSON.parse(message.data as string) as WebhookEvent | null;
    return typeof event?.data?.signature_request_id === 'string' ? event : null;
  } catch {
    return null;
  }
}

/** Time (sandbox clock), type, request, and the signer when the event is about one. */
function eventLine(event: WebhookEvent): string {
  return [event.created_at, event.type.padEnd(TYPE_WIDTH), event.data.signature_request_id, event.data.signer?.reference ?? ''].join('  ').trimEnd();
}

function outcomeText(outcome: PostResult): string {
  return outcome.statusCode === null ? `failed: ${outcome.error ?? 'no answer'}` : String(outcome.statusCode);
}
