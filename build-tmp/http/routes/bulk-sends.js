import { invalidRequest } from '../../errors.js';
import { bulkSend } from '../../services/bulk-send.js';
import { principalOf } from '../hooks/auth.js';
import { BulkSendBatch, BulkSendInput, BulkSendRecipient, BulkSendResponse } from '../schemas/bulk-sends.js';
import { validate } from '../validation.js';
import { errorResponses } from './responses.js';
export function registerBulkSends(app, ctx) {
    app.post('/v1/bulk-sends', {
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
    }, async (request) => {
        const body = request.body ?? {};
        const error = validate(BulkSendBatch, body, 'body');
        if (error)
            throw invalidRequest(error);
        const { recipients, ...batch } = body;
        const rows = recipients.map((recipient, index) => {
            const invalid = validate(BulkSendRecipient, recipient, `recipients[${index}]`);
            if (invalid === null)
                return { recipient: recipient };
            const reference = recipient?.client_reference;
            return { clientReference: typeof reference === 'string' ? reference : '', invalid };
        });
        return bulkSend(ctx, { principal: principalOf(request), batch, rows });
    });
}
//# sourceMappingURL=bulk-sends.js.map