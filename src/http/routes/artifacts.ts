import type { Context } from '../../context.js';
import { getArtifact } from '../../features/artifacts/get-artifact.js';
import type { ApiScope } from '../api-scope.js';
import { principalOf } from '../hooks/auth.js';
import { ArtifactParams, PdfBytes } from '../../contract/artifacts.js';
import { EvidenceResponse } from '../../contract/evidence.js';
import { errorResponses, mediaResponses } from './responses.js';
import { attachment } from '../content-disposition.js';
import { answeredNotModified } from '../conditional-get.js';

/** A completed request's signed PDF, evidence report and evidence JSON, as downloads. */
export function registerArtifacts({ api }: ApiScope, ctx: Context): void {
  api.get(
    '/signature-requests/:id/artifacts/:type',
    {
      config: {
        auth: true,
        summary: 'Download an artifact of a completed request: signed-pdf, evidence.pdf (application/pdf) or evidence.json',
        documentedResponses: {
          304: null,
          200: mediaResponses('`signed-pdf` and `evidence.pdf` as application/pdf, `evidence.json` as an EvidenceResponse', {
            'application/pdf': PdfBytes,
            'application/json': EvidenceResponse,
          }),
        },
      },
      schema: { params: ArtifactParams, response: { 200: EvidenceResponse, ...errorResponses(401, 404, 409, 410, 429, 500, 503) } },
    },
    async (request, reply) => {
      const artifact = await getArtifact(ctx, { accountId: principalOf(request).accountId, id: request.params.id, type: request.params.type });
      if (answeredNotModified(request, reply, `"${artifact.sha256}"`)) return reply;
      // The stored bytes go out as they are (the JSON too, so its SHA-256 is the one the audit trail records).
      return reply
        .type(artifact.contentType)
        .header('content-disposition', attachment(artifact.filename))
        .header('content-length', artifact.bytes.length)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('etag', `"${artifact.sha256}"`)
        .send(artifact.bytes as never);
    },
  );
}
