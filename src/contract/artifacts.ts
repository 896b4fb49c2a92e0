import Type, { type Static } from 'typebox';
import { Uuid } from './common.js';

/** `GET /v1/signature-requests/{id}/artifacts/{type}`: an unknown type names no resource (404). */
export const ArtifactType = Type.Enum(['signed-pdf', 'evidence.pdf', 'evidence.json'], {
  description: '`signed-pdf` and `evidence.pdf` answer application/pdf, `evidence.json` an EvidenceResponse',
});
export const ArtifactParams = Type.Object({ id: Uuid, type: ArtifactType }, { additionalProperties: false });
export type ArtifactParams = Static<typeof ArtifactParams>;

/** A PDF as it goes out on the wire (an artifact, a signer's document). */
export const PdfBytes = Type.String({ format: 'binary', contentMediaType: 'application/pdf' });
