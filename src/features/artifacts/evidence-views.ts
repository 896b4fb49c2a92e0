import { createHash } from 'node:crypto';
import { isoTime } from '../../platform/clock.js';
import type { BrandNames } from '../../domain/brand.js';
import type { DocumentRow, FieldRow, RequestRow, SignerRow } from '../../model/request-queries.js';
import type { SignerMarksTable } from '../../db/schema/signing.js';
import type { EvidenceEvent, EvidenceResponse, EvidenceSigner, EvidenceTimestamp } from '../../contract/evidence.js';
import type { EvidenceMark, EvidenceReport } from '../../pdf/evidence-pdf.js';
import type { SigningIdentity } from '../../pdf/certificate.js';
import type { SealTimestamp } from '../../pdf/tsa-seal.js';

/** The rows evidence is made of, read in one transaction. */
export interface EvidenceFacts {
  request: RequestRow;
  document: DocumentRow;
  signers: SignerRow[];
  events: Array<{ id: number; type: string; actor_type: string; actor_email: string; signer_id: string | null; created_at: number }>;
  chain: { head: string; count: number };
  generatedAt: number;
  /** The request's fields and the signers' marks, for the report's marks and values (none: not shown). */
  fieldRows?: FieldRow[];
  marks?: SignerMarksTable[];
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The public reference printed on the report: stable for a request, no secret in it. */
export function evidenceRefOf(requestId: string): string {
  const digest = createHash('sha256').update(`paraph-evidence:${requestId}`).digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 12) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === 12) break;
  }
  return `EVD-${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}`;
}

/** Completed at the last signature (the request's completion is written with it). */
function completedAt(facts: EvidenceFacts): number | null {
  if (facts.request.completed_at !== null) return facts.request.completed_at;
  const signed = facts.signers.map((s) => s.signed_at).filter((t): t is number => t !== null);
  return signed.length > 0 ? Math.max(...signed) : null;
}

export function evidenceSignersOf(facts: EvidenceFacts): EvidenceSigner[] {
  const sequential = facts.request.sequential_signing === 1;
  return facts.signers.map((s) => ({
    id: s.id,
    reference: s.reference,
    name: s.name ?? '',
    email: s.email,
    signing_order: sequential ? s.signing_order : null,
    status: s.status,
    signed_at: isoTime(s.signed_at),
    verification: s.verification === 'email_otp' ? 'email_otp' : '',
    verified_at: isoTime(s.verified_at),
  }));
}

/** EvidenceResponse: the audit trail as events, no IP address or user agent anywhere. */
export function evidenceJsonOf(
  facts: EvidenceFacts,
  brand: BrandNames,
  hashes: { signed: string; evidencePdf: string },
  timestamps: readonly SealTimestamp[],
): EvidenceResponse {
  const { request, document } = facts;
  return {
    schema_version: brand.evidenceSchemaVersion,
    generated_at: isoTime(facts.generatedAt),
    signature_request_id: request.id,
    client_reference: request.client_reference,
    environment: 'sandbox',
    document: {
      evidence_ref: evidenceRefOf(request.id),
      name: document.filename,
      status: request.status,
      sequential_signing: request.sequential_signing === 1,
      created_at: isoTime(request.created_at),
      completed_at: isoTime(completedAt(facts)),
    },
    trust: {
      certificate: 'test/self-signed',
      production_trust_service: false,
      identity_verified: false,
      otp_used: false,
      qualified_timestamp: false,
      long_term_archive: false,
    },
    hashes: { original_pdf_sha256: document.sha256, signed_pdf_sha256: hashes.signed, evidence_pdf_sha256: hashes.evidencePdf },
    signers: evidenceSignersOf(facts),
    events: facts.events.map(
      (e): EvidenceEvent => ({
        id: e.id,
        type: e.type,
        actor_type: e.actor_type,
        actor_email: e.actor_email,
        signer_id: e.signer_id,
        created_at: isoTime(e.created_at),
      }),
    ),
    timestamps: timestamps.map(evidenceTimestampOf),
    retention_expires_at: request.status === 'purged' ? null : isoTime(request.retention_expires_at),
  };
}

/**
 * One token of the seal: `document_hash` is what the token stamps (the SHA-256 of the seal's
 * signature value), `generated_at` its genTime, `verification_status` the check made when the seal
 * was made.
 */
export function evidenceTimestampOf(stamp: SealTimestamp): EvidenceTimestamp {
  return {
    provider: stamp.provider,
    hash_algorithm: stamp.hashAlgorithm,
    document_hash: stamp.documentHash,
    generated_at: stamp.generatedAt,
    verification_status: stamp.verificationStatus,
  };
}

/** What the evidence PDF prints (its own hash cannot be in it; the signed PDF's is added once sealed). */
export function evidenceReportOf(facts: EvidenceFacts, identity: SigningIdentity): Omit<EvidenceReport, 'hashes' | 'timestamps'> & { originalSha256: string } {
  const { request, document } = facts;
  return {
    evidenceRef: evidenceRefOf(request.id),
    generatedAt: isoTime(facts.generatedAt),
    requestId: request.id,
    clientReference: request.client_reference,
    documentName: document.filename,
    status: request.status,
    sequentialSigning: request.sequential_signing === 1,
    createdAt: isoTime(request.created_at),
    completedAt: isoTime(completedAt(facts)),
    retentionExpiresAt: isoTime(request.retention_expires_at),
    originalSha256: document.sha256,
    certificate: {
      subject: identity.subject,
      sha256: identity.sha256,
      serialNumber: identity.serialNumber,
      notBefore: identity.notBefore,
      notAfter: identity.notAfter,
    },
    signers: evidenceSignersOf(facts).map((s) => ({
      reference: s.reference,
      name: s.name,
      email: s.email,
      signingOrder: s.signing_order,
      status: s.status,
      signedAt: s.signed_at,
      verification: s.verification ?? '',
      verifiedAt: s.verified_at ?? null,
      locale: facts.signers.find((row) => row.id === s.id)?.locale ?? null,
      marks: marksOf(facts, s.id),
      values: valuesOf(facts, s.reference),
    })),
    events: facts.events.map((e) => ({ id: e.id, type: e.type, actorType: e.actor_type, actorEmail: e.actor_email, createdAt: isoTime(e.created_at) })),
    chain: facts.chain,
  };
}

/** A signer's signature then initials, as stored (a drawn one without its image shows as unreadable). */
function marksOf(facts: EvidenceFacts, signerId: string): EvidenceMark[] {
  const marks = (facts.marks ?? []).filter((m) => m.signer_id === signerId);
  const order = (kind: string) => (kind === 'signature' ? 0 : 1);
  return marks
    .sort((a, b) => order(a.kind) - order(b.kind))
    .map((m): EvidenceMark => {
      const kind = m.kind === 'initials' ? 'initials' : 'signature';
      return m.method === 'drawn' ? { kind, method: 'drawn', png: new Uint8Array(m.image ?? []) } : { kind, method: 'typed', text: m.text ?? '' };
    });
}

/** The signer's text and date fields with their values, labelled by name or key, in document order. */
function valuesOf(facts: EvidenceFacts, reference: string): Array<{ label: string; value: string; prefilled: boolean }> {
  return (facts.fieldRows ?? [])
    .filter((f) => f.signer_reference === reference && (f.type === 'text' || f.type === 'date') && f.value !== null && f.value !== '')
    .map((f) => ({ label: f.name ?? f.field_key ?? f.type, value: f.value ?? '', prefilled: f.read_only === 1 }));
}
