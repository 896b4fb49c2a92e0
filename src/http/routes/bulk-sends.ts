import type { Context } from '../../context.js';
import { invalidRequest } from '../../domain/errors.js';
import { bulkSend, type BulkRow } from '../../features/requests/bulk-send.js';
import type { ApiScope } from '../api-scope.js';
import { principalOf } from '../hooks/auth.js';
import { BulkSendBatch, BulkSendInput, BulkSendRecipient, BulkSendResponse } from '../../contract/bulk-sends.js';
import { validate } from '../validation.js';
import { errorResponses } from './responses.js';

export function registerBulkSends({ keyed }: ApiScope, ctx: Context): void {
  keyed.post(
    '/bulk-sends',
    {
      config: {
        auth: true,
        idempotent: true,
        rateLimitBucket: 'bulk',
        summary: 'Create and activate one request per recipient from a template; each row succeeds or fails on its own',
      },
      // BulkSendInput documents the body; the handler checks the batch, then each recipient on its own,
      // so that one bad recipient fails its row and not the batch.
      attachValidation: true,
      schema: { body: BulkSendInput, response: { 200: BulkSendResponse, ...errorResponses(400, 401, 404, 409, 422, 429, 500, 503) } },
    },
    async (request) => {
      const body: unknown = request.body ?? {};
      const error = validate(BulkSendBatch, body, 'body');
      if (error) throw invalidRequest(error);
      const { recipients, ...batch } = body as BulkSendBatch;
      const rows = recipients.map((recipient, index): BulkRow => {
        const invalid = validate(BulkSendRecipient, recipient, `recipients[${index}]`);
        if (invalid === null) return { recipient: recipient as BulkSendRecipient };
        const reference = (recipient as { client_reference?: unknown } | null)?.client_reference;
        return { clientReference: typeof reference === 'string' ? reference : '', invalid };
      });
      return bulkSend(ctx, { principal: principalOf(request), batch, rows });
    },
  );
}
