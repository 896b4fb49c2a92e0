import Type from 'typebox';
import type { Context } from '../../context.js';
import { detectFields } from '../../features/requests/detect-fields.js';
import type { ApiScope } from '../api-scope.js';
import { principalOf } from '../hooks/auth.js';
import { IdParams } from '../../contract/common.js';
import { DetectionResult } from '../../contract/detection.js';
import { errorResponses } from './responses.js';

/** "No body": an absent body, an empty one or `{}`; anything in it is refused like any unknown property. */
const NoBody = Type.Object({}, { additionalProperties: false });

/** Field detection: suggestions for a prepared request's document. */
export function registerDetection({ keyed }: ApiScope, ctx: Context): void {
  keyed.post(
    '/signature-requests/:id/detect-fields',
    {
      config: {
        auth: true,
        idempotent: true,
        rateLimitBucket: 'detection',
        summary: 'Suggest fields from the document (AcroForm widgets, labels, OCR of scanned pages); never activates',
      },
      schema: { params: IdParams, body: NoBody, response: { 200: DetectionResult, ...errorResponses(400, 401, 404, 409, 422, 429, 503) } },
    },
    async (request) => detectFields(ctx, { principal: principalOf(request), id: request.params.id }),
  );
}
