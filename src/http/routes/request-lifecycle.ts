import type { Context } from '../../context.js';
import { principalOf } from '../hooks/auth.js';
import { activateSignatureRequest } from '../../features/requests/activate-signature-request.js';
import { cancelSignatureRequest } from '../../features/requests/cancel-signature-request.js';
import { replaceFields } from '../../features/requests/replace-fields.js';
import { replaceSigner } from '../../features/requests/replace-signer.js';
import { sendReminders } from '../../features/requests/send-reminders.js';
import type { ApiScope } from '../api-scope.js';
import { IdParams } from '../../contract/common.js';
import {
  ActivateInput,
  ActivateResponse,
  CancellationInput,
  FieldsPutInput,
  ReminderInput,
  ReminderResponse,
  SignatureRequestStatus,
  SignerReferenceParams,
  SignerReplaceInput,
  SignerReplaceResponse,
} from '../../contract/signature-requests.js';
import { errorResponses } from './responses.js';

/** The client-side moves of a request: fields, activation, cancellation, signer replacement, reminders. */
export function registerRequestLifecycle({ keyed }: ApiScope, ctx: Context): void {
  keyed.put(
    '/signature-requests/:id/fields',
    {
      config: { auth: true, idempotent: true, summary: 'Confirm the field set: replaces every field; every signer needs one' },
      schema: { params: IdParams, body: FieldsPutInput, response: { 200: SignatureRequestStatus, ...errorResponses(400, 401, 404, 409, 422, 429) } },
    },
    async (request) => replaceFields(ctx, { principal: principalOf(request), id: request.params.id, fields: request.body.fields }),
  );

  keyed.post(
    '/signature-requests/:id/activate',
    {
      config: { auth: true, idempotent: true, summary: 'Activate: one secret signing link per signer' },
      schema: { params: IdParams, body: ActivateInput, response: { 200: ActivateResponse, ...errorResponses(400, 401, 404, 409, 422, 429, 503) } },
    },
    async (request) => activateSignatureRequest(ctx, { principal: principalOf(request), id: request.params.id, options: request.body ?? {} }),
  );

  keyed.post(
    '/signature-requests/:id/cancel',
    {
      config: { auth: true, idempotent: true, summary: 'Cancel a prepared or active request; unsigned links stop working' },
      schema: { params: IdParams, body: CancellationInput, response: { 200: SignatureRequestStatus, ...errorResponses(400, 401, 404, 409, 422, 429) } },
    },
    async (request) => cancelSignatureRequest(ctx, { principal: principalOf(request), id: request.params.id, reason: request.body?.reason }),
  );

  keyed.post(
    '/signature-requests/:id/signers/:reference/replace',
    {
      config: { auth: true, idempotent: true, summary: "Give a signer's role to another person (or correct it before activation)" },
      schema: {
        params: SignerReferenceParams,
        body: SignerReplaceInput,
        response: { 200: SignerReplaceResponse, ...errorResponses(400, 401, 404, 409, 422, 429) },
      },
    },
    async (request) =>
      replaceSigner(ctx, { principal: principalOf(request), id: request.params.id, reference: request.params.reference, person: request.body }),
  );

  keyed.post(
    '/signature-requests/:id/reminders',
    {
      config: { auth: true, idempotent: true, rateLimitBucket: 'reminders', summary: 'Remind signers: each gets a new link, the old one stops working' },
      schema: { params: IdParams, body: ReminderInput, response: { 200: ReminderResponse, ...errorResponses(400, 401, 404, 409, 422, 429) } },
    },
    async (request) => sendReminders(ctx, { principal: principalOf(request), id: request.params.id, signerReference: request.body?.signer_reference }),
  );
}
