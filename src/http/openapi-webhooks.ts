import { EventType } from '../contract/webhooks.js';

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, the POST paraph sends to a request's
 * `callback_url`, with its body (a WebhookEvent of that type) and the three Standard Webhooks headers.
 */

const MEANING: Record<string, string> = {
  'signature_request.activated': 'the request was activated',
  'signer.viewed': 'a signer opened their link for the first time (`data.signer`)',
  'signer.completed': 'a signer signed (`data.signer`)',
  'signer.declined': 'a signer declined (`data.signer`, `data.reason`)',
  'signer.replaced': "a signer's role was given to another person (`data.signer`, `data.replaced_signer`)",
  'signer.expired': "a signer's link expired (`data.signer`)",
  'signature_request.completed': 'the last signer signed',
  'signature_request.declined': 'the request was declined',
  'signature_request.cancelled': 'the request was cancelled',
  'signature_request.expired': 'no signer can sign any more',
};

const HEADERS = [
  {
    name: 'webhook-id',
    description: "the event id (the delivery's `event_id`): the same across retries and replays; skip ids already processed",
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    description: 'when this attempt was signed, in Unix seconds of real time (never the sandbox clock); refuse stale ones',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    description:
      '`v1,` and the standard Base64 of HMAC-SHA256 with the webhook secret over `webhook-id` + `.` + `webhook-timestamp` + `.` + the raw body ' +
      '(Standard Webhooks: the `standardwebhooks` and `svix` libraries verify it); compare in constant time',
    schema: { type: 'string', pattern: '^v1,' },
  },
] as const;

export function webhooksSection(): Record<string, unknown> {
  const types = (EventType as unknown as { enum: string[] }).enum;
  return Object.fromEntries(
    types.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\./g, '_')}`,
          tags: ['Webhooks'],
          summary: `Event ${type}`,
          description:
            `Posted to the request's \`callback_url\` when ${MEANING[type] ?? type}. Any 2xx answer accepts it; otherwise paraph ` +
            'retries after 1 minute, 5 minutes, 30 minutes and 2 hours. Events can arrive out of order: read the request for its current state.',
          security: [],
          parameters: HEADERS.map((header) => ({ ...header, in: 'header', required: true })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { allOf: [{ $ref: '#/components/schemas/WebhookEvent' }, { type: 'object', properties: { type: { const: type } } }] },
              },
            },
          },
          responses: {
            '200': { description: 'Accepted (any 2xx): no retry' },
            '400': { description: 'Refused (any other answer, or none): paraph retries, then marks the delivery failed' },
          },
        },
      },
    ]),
  );
}
