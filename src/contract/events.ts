import Type, { type Static } from 'typebox';

/** GET /v1/events/stream: the account's webhook events as server-sent events. */

export const EventStreamQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,15}$',
        maxLength: 15,
        description: 'resume after this event id (the last `id:` received); the `Last-Event-ID` header wins when both are sent',
      }),
    ),
  },
  { additionalProperties: false },
);
export type EventStreamQuery = Static<typeof EventStreamQuery>;

/** The `Last-Event-ID` header: the last `id:` received (an EventSource sends it when it reconnects). */
export const LastEventId = Type.String({
  pattern: '^[0-9]{0,15}$',
  maxLength: 15,
  description: 'the last `id:` received; the stream resumes with the next event (an EventSource sends it when it reconnects)',
});

/** The body of the stream's 200, as the OpenAPI document describes it (the route writes the stream itself). */
export const EventStreamBody = Type.String({
  description: [
    "Server-sent events: every webhook event of the key's account as it is recorded (also by a CLI process on the",
    'same data directory, and for requests without a callback URL), oldest first. Each message:',
    '',
    '```',
    'id: 42',
    'event: signer.completed',
    'webhook-id: evt_…',
    'webhook-timestamp: 1767225600',
    'webhook-signature: v1,…',
    'data: {"id":"evt_…","type":"signer.completed","created_at":"…","data":{…}}',
    '```',
    '',
    '`id` is the event position (increasing), `event` the event type, `data` the WebhookEvent JSON on one line, the exact',
    'bytes a webhook delivery sends. `webhook-id`, `webhook-timestamp` and `webhook-signature` are the Standard Webhooks',
    'headers of a delivery sent now, signed with the secret of the API key that created the request: POST `data` with',
    'them and a receiver verifying with that `whsec_` secret accepts it (EventSource clients ignore these fields).',
    'Without `Last-Event-ID` or `after` the stream starts with the next event recorded; with one it first sends every',
    'event after that position. The stream opens with a message without data, its `id` the position it starts after (an',
    'EventSource reconnecting before any event resumes there) and a `retry:` hint; it sends a `: ping` comment every 15 s',
    'of quiet, and ends when the server stops or within a second of the key being revoked.',
  ].join('\n'),
});
