import Type from 'typebox';
import type { Context } from '../../context.js';
import type { ApiScope } from '../api-scope.js';
import { createEventStreams } from '../event-streams.js';
import { principalOf } from '../hooks/auth.js';
import { EventStreamBody, EventStreamQuery, LastEventId } from '../../contract/events.js';
import { errorResponses, mediaResponse } from './responses.js';

/** The account's webhook events as server-sent events, for `paraph listen` and any EventSource. */
export function registerEvents({ api }: ApiScope, ctx: Context): void {
  const streams = createEventStreams(ctx);
  api.addHook('preClose', async () => streams.closeAll());

  api.get(
    '/events/stream',
    {
      config: {
        auth: true,
        summary: 'Every webhook event of the account as it is recorded, as server-sent events, each with its webhook headers; resumes after Last-Event-ID',
      },
      schema: {
        querystring: EventStreamQuery,
        // Headers are an open set: only the one the stream reads is declared.
        headers: Type.Object({ 'last-event-id': Type.Optional(LastEventId) }),
        response: {
          200: mediaResponse('text/event-stream', 'WebhookEvent messages as server-sent events', EventStreamBody),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const { accountId, apiKeyId } = principalOf(request);
      // An EventSource reconnecting sends the header with the URL it started with: the header is newer.
      const cursor = request.headers['last-event-id'] || request.query.after;
      streams.open(reply, { accountId, apiKeyId, after: cursor ? Number(cursor) : null });
      return reply;
    },
  );
}
