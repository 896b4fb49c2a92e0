import Type, { type Static } from 'typebox';
import { DateTime, NullableDateTime, Uuid } from './common.js';
import { RequestStatus, SignerStatusValue } from './signature-requests.js';

/** The `evidence.json` artifact of a completed request. */

const closed = { additionalProperties: false } as const;

export const EvidenceDocument = Type.Object(
  {
    evidence_ref: Type.String({ description: 'public reference printed on the evidence report' }),
    name: Type.String({ description: 'original PDF filename' }),
    status: RequestStatus,
    sequential_signing: Type.Boolean(),
    created_at: DateTime,
    completed_at: Type.Union([DateTime, Type.Null()], { description: 'time of the last signature once completed' }),
  },
  closed,
);
export type EvidenceDocument = Static<typeof EvidenceDocument>;

/** What the sandbox does not provide, stated as constants. */
export const EvidenceTrust = Type.Object(
  {
    certificate: Type.Literal('test/self-signed'),
    production_trust_service: Type.Literal(false),
    identity_verified: Type.Literal(false),
    otp_used: Type.Literal(false),
    qualified_timestamp: Type.Literal(false),
    long_term_archive: Type.Literal(false),
  },
  closed,
);
export type EvidenceTrust = Static<typeof EvidenceTrust>;

export const EvidenceHashes = Type.Object({ original_pdf_sha256: Type.String(), signed_pdf_sha256: Type.String(), evidence_pdf_sha256: Type.String() }, closed);
export type EvidenceHashes = Static<typeof EvidenceHashes>;

export const EvidenceSigner = Type.Object(
  {
    id: Uuid,
    reference: Type.String(),
    name: Type.String(),
    email: Type.String(),
    signing_order: Type.Union([Type.Integer(), Type.Null()], {
      description: 'position when a signing order is used, otherwise null',
    }),
    status: SignerStatusValue,
    signed_at: NullableDateTime,
    verification: Type.Optional(Type.Enum(['email_otp', ''])),
    verified_at: Type.Optional(NullableDateTime),
  },
  closed,
);
export type EvidenceSigner = Static<typeof EvidenceSigner>;

export const EvidenceEvent = Type.Object(
  {
    id: Type.Integer({ description: 'sequential audit identifier' }),
    type: Type.String({ description: 'audit event type, e.g. `request_activated`' }),
    actor_type: Type.String({ description: 'e.g. `api_client`' }),
    actor_email: Type.String({ description: 'empty for system events' }),
    signer_id: Type.Union([Uuid, Type.Null()]),
    created_at: DateTime,
  },
  { ...closed, description: 'never carries IP addresses or user agents' },
);
export type EvidenceEvent = Static<typeof EvidenceEvent>;

export const EvidenceTimestamp = Type.Object(
  {
    provider: Type.String({ description: "the timestamp authority: its certificate's subject CN" }),
    hash_algorithm: Type.String({ description: 'hash of the stamped data, e.g. `sha256`' }),
    document_hash: Type.String({ description: "what the token stamps, hex: the SHA-256 of the seal's signature value (PAdES signature-time-stamp)" }),
    generated_at: Type.Union([DateTime, Type.Null()], { description: "the token's genTime" }),
    verification_status: Type.Enum(['verified', 'unverified', 'failed'], {
      description: '`unverified`: the timestamp authority trust anchors were unavailable, not an invalid token',
    }),
  },
  { ...closed, description: 'one RFC 3161 token of the seal (none when timestamps are off)' },
);
export type EvidenceTimestamp = Static<typeof EvidenceTimestamp>;

export const EvidenceResponse = Type.Object(
  {
    schema_version: Type.String({
      pattern: '^[a-z][a-z0-9]*\\.evidence/1\\.2$',
      description:
        '`<brand>.evidence/1.2`, `paraph.evidence/1.2` by default; a pattern rather than a constant because ' +
        '`--brand` (PARAPH_BRAND) changes the brand word at run time',
    }),
    generated_at: DateTime,
    signature_request_id: Uuid,
    client_reference: Type.String(),
    environment: Type.Literal('sandbox'),
    document: EvidenceDocument,
    trust: EvidenceTrust,
    hashes: EvidenceHashes,
    signers: Type.Array(EvidenceSigner),
    events: Type.Array(EvidenceEvent),
    timestamps: Type.Array(EvidenceTimestamp),
    retention_expires_at: NullableDateTime,
  },
  { ...closed, title: 'EvidenceResponse' },
);
export type EvidenceResponse = Static<typeof EvidenceResponse>;
