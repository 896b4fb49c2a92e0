/**
 * What the evidence report states (renderEvidencePdf in evidence-pdf.ts draws it), all of it decided
 * by the caller before the artifact worker gets it.
 */

/** A signer's signature or initials as the report shows it. */
export type EvidenceMark =
  | { kind: 'signature' | 'initials'; method: 'typed'; text: string }
  | { kind: 'signature' | 'initials'; method: 'drawn'; png: Uint8Array };

export interface EvidenceReport {
  evidenceRef: string;
  /** ISO times (sandbox clock). */
  generatedAt: string;
  requestId: string;
  clientReference: string;
  documentName: string;
  status: string;
  sequentialSigning: boolean;
  createdAt: string;
  completedAt: string | null;
  retentionExpiresAt: string | null;
  hashes: { original: string; signed: string };
  certificate: { subject: string; sha256: string; serialNumber: string; notBefore: string; notAfter: string };
  signers: Array<{
    reference: string;
    name: string;
    email: string;
    signingOrder: number | null;
    status: string;
    signedAt: string | null;
    verification: string;
    verifiedAt: string | null;
    /** The signer's language (`en`, `fr`, `ar`…): French and Arabic add a section in that language. */
    locale?: string | null;
    /** Signature and initials, as the signer made them. */
    marks?: EvidenceMark[];
    /** The text and date fields of the signer, in document order. */
    values?: Array<{ label: string; value: string; prefilled: boolean }>;
  }>;
  events: Array<{ id: number; type: string; actorType: string; actorEmail: string; createdAt: string }>;
  chain: { head: string; count: number };
  /** The seal's RFC 3161 timestamps (empty: a B-B seal). */
  timestamps: Array<{ provider: string; hashAlgorithm: string; documentHash: string; generatedAt: string | null; verificationStatus: string }>;
}
