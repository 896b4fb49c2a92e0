import { isoTime } from '../../platform/clock.js';
import type { FieldRow, RequestRow, SignerRow } from '../../model/request-queries.js';
import type { CreateResponse, FieldStatus, RequestListItem, SignatureRequestStatus, SignerStatus } from '../../contract/signature-requests.js';

/** API shapes built from rows: one place decides how each stored value is shown. */

export function createResponseOf(row: RequestRow, replay: boolean): CreateResponse {
  return {
    id: row.id,
    client_reference: row.client_reference,
    template_id: row.template_id ?? '',
    // A replay answers the request as it was created; its current state is read with GET.
    status: 'prepared',
    environment: 'sandbox',
    retention_expires_at: isoTime(row.retention_expires_at),
    sequential_signing: row.sequential_signing === 1,
    return_url: row.return_url ?? '',
    idempotent_replay: replay,
  };
}

export function listItemOf(row: RequestRow): RequestListItem {
  return {
    id: row.id,
    client_reference: row.client_reference,
    status: row.status,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    retention_expires_at: retentionOf(row),
  };
}

export function statusOf(row: RequestRow, signers: SignerRow[], fields: FieldRow[], artifacts: ReadonlySet<string>): SignatureRequestStatus {
  const signedReferences = new Set(signers.filter((s) => s.status === 'signed').map((s) => s.reference));
  return {
    id: row.id,
    client_reference: row.client_reference,
    environment: 'sandbox',
    status: row.status,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    retention_expires_at: retentionOf(row),
    sequential_signing: row.sequential_signing === 1,
    return_url: row.return_url ?? '',
    signers: signers.map(signerStatusOf),
    fields: fields.filter((f) => f.type === 'text' || f.type === 'date').map((f) => fieldStatusOf(f, signedReferences)),
    // Artifacts exist only between completion and the retention purge.
    artifacts: {
      signed_pdf: artifacts.has('signed-pdf'),
      evidence_pdf: artifacts.has('evidence.pdf'),
      evidence_json: artifacts.has('evidence.json'),
    },
  };
}

function signerStatusOf(signer: SignerRow): SignerStatus {
  return {
    id: signer.id,
    reference: signer.reference,
    name: signer.name ?? '',
    email: signer.email,
    order: signer.signing_order,
    status: signer.status,
    locale: signer.locale ?? '',
    verification: signer.verification === 'email_otp' ? 'email_otp' : '',
    signed_at: isoTime(signer.signed_at),
    expires_at: isoTime(signer.expires_at),
    verified_at: isoTime(signer.verified_at),
  };
}

function fieldStatusOf(field: FieldRow, signedReferences: ReadonlySet<string>): FieldStatus {
  return {
    id: field.id,
    name: field.name ?? '',
    type: field.type as 'text' | 'date',
    field_key: field.field_key ?? '',
    signer_reference: field.signer_reference,
    value: field.value ?? '',
    read_only: field.read_only === 1,
    completed: signedReferences.has(field.signer_reference),
  };
}

/** After the purge there is no retention deadline left to report. */
function retentionOf(row: RequestRow): string | null {
  return row.status === 'purged' ? null : isoTime(row.retention_expires_at);
}
