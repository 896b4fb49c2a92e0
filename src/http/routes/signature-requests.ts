import type { Context } from '../../context.js';
import { createSignatureRequest } from '../../features/requests/create-signature-request.js';
import { getSignatureRequestText } from '../../features/requests/get-signature-request.js';
import { listSignatureRequests } from '../../features/requests/list-signature-requests.js';
import { principalOf } from '../hooks/auth.js';
import type { ApiScope } from '../api-scope.js';
import { checkedUpload, readPdfMultipart, type ReadUpload, uploadFingerprint } from '../multipart.js';
import { IdParams, Page } from '../../contract/common.js';
import {
  CreateRequestMultipart,
  CreateRequestPayload,
  CreateResponse,
  RequestListItem,
  RequestListQuery,
  SignatureRequestStatus,
} from '../../contract/signature-requests.js';
import { errorResponses } from './responses.js';

/** The content type fastify gives the JSON answers it serializes. */
const JSON_TYPE = 'application/json; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    /** A multipart body read by the route's `readBody` (the create and template uploads). */
    upload?: ReadUpload;
  }
}

export function registerSignatureRequests({ api, keyed }: ApiScope, ctx: Context): void {
  keyed.post(
    '/signature-requests',
    {
      config: {
        auth: true,
        idempotent: true,
        summary: 'Create a signature request from a PDF and a JSON payload',
        multipartBody: CreateRequestMultipart,
        // Read before the idempotency check, which fingerprints the parts (boundaries differ between retries).
        readBody: async (request) => {
          request.upload = await readPdfMultipart(request, { request: CreateRequestPayload });
        },
        fingerprint: (request) => uploadFingerprint(request.upload),
      },
      schema: { response: { 200: CreateResponse, 201: CreateResponse, ...errorResponses(400, 401, 404, 409, 422, 429, 500, 503) } },
    },
    async (request, reply) => {
      const { document, parts } = checkedUpload(request.upload);
      const result = await createSignatureRequest(ctx, {
        principal: principalOf(request),
        document,
        payload: parts.request as CreateRequestPayload,
      });
      return reply.code(result.created ? 201 : 200).send(result.response);
    },
  );

  api.get(
    '/signature-requests',
    {
      config: { auth: true, summary: 'List signature requests, newest first' },
      schema: { querystring: RequestListQuery, response: { 200: Page(RequestListItem), ...errorResponses(400, 401, 429) } },
    },
    async (request) => {
      const query = request.query;
      return listSignatureRequests(ctx, {
        accountId: principalOf(request).accountId,
        status: query.status,
        clientReference: query.client_reference,
        limit: query.limit,
        cursor: query.cursor,
      });
    },
  );

  api.get(
    '/signature-requests/:id',
    {
      config: { auth: true, summary: 'Status of one signature request' },
      schema: { params: IdParams, response: { 200: SignatureRequestStatus, ...errorResponses(401, 404, 429, 500, 503) } },
    },
    // The answer's text is remembered with the status (polls skip serializing); the same serializer
    // and content type as any other JSON answer. Synchronous: fastify sends what it throws as from
    // any other handler, without a promise per call.
    (request, reply) => {
      const text = getSignatureRequestText(ctx, principalOf(request).accountId, request.params.id, (status) => String(reply.serialize(status)));
      // A string with a JSON content type is sent as it is (its schema was applied by `serialize`).
      reply.type(JSON_TYPE).send(text as unknown as SignatureRequestStatus);
    },
  );
}
