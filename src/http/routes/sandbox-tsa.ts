import Type from 'typebox';
import type { Context } from '../../context.js';
import { invalidRequest } from '../../domain/errors.js';
import { answerTimestampQuery, tsaCertificatePem } from '../../features/artifacts/timestamp-authority.js';
import type { App } from '../app-type.js';
import { errorResponses, mediaResponse } from './responses.js';

const QUERY_TYPE = 'application/timestamp-query';
const REPLY_TYPE = 'application/timestamp-reply';
/** A TimeStampReq is a hash and a few small fields: well under 1 KiB. */
const QUERY_LIMIT = 16 * 1024;

/**
 * The built-in test timestamp authority over HTTP (RFC 3161 section 3.4): no API key, as timestamping
 * clients send none. Its tokens are signed by the data directory's TSA test certificate, served in
 * PEM for `openssl ts -verify -CAfile`.
 */
export function registerSandboxTsa(app: App, ctx: Context): void {
  app.addContentTypeParser(QUERY_TYPE, { parseAs: 'buffer', bodyLimit: QUERY_LIMIT }, (_request, body, done) => done(null, body));

  app.post(
    '/_sandbox/tsa',
    {
      config: {
        summary: 'RFC 3161 test timestamp authority: a DER TimeStampReq in, a TimeStampResp out (genTime on the sandbox clock)',
        rawBody: { mediaType: QUERY_TYPE, description: 'a DER TimeStampReq (`openssl ts -query`), SHA-256, SHA-384, SHA-512 or SHA-1, no extensions' },
      },
      schema: {
        response: {
          200: mediaResponse(
            REPLY_TYPE,
            'a granted DER TimeStampResp; its token verifies against GET /_sandbox/tsa/certificate.pem',
            Type.String({ format: 'binary' }),
          ),
          ...errorResponses(400, 413),
        },
      },
    },
    async (request, reply) => {
      const type = String(request.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim()
        .toLowerCase();
      if (type !== QUERY_TYPE || !Buffer.isBuffer(request.body)) {
        throw invalidRequest(`send a DER TimeStampReq with Content-Type: ${QUERY_TYPE}`);
      }
      const answer = await answerTimestampQuery(ctx, request.body);
      return reply
        .type(REPLY_TYPE)
        .header('cache-control', 'no-store')
        .send(answer as never);
    },
  );

  app.get(
    '/_sandbox/tsa/certificate.pem',
    {
      config: { summary: "The test timestamp authority's certificate (PEM): the trust anchor for its tokens" },
      schema: { response: { 200: mediaResponse('application/x-pem-file', 'the self-signed TSA test certificate', Type.String()) } },
    },
    async (_request, reply) => reply.type('application/x-pem-file').send(await tsaCertificatePem(ctx)),
  );
}
