import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { preparedQuery } from '../db/prepared-query.js';
import type { DocumentsTable } from '../db/schema/documents.js';
import type { FieldsTable } from '../db/schema/fields.js';
import type { SignatureRequestsTable } from '../db/schema/signature-requests.js';
import type { SignersTable } from '../db/schema/signers.js';
import type { SignerMarksTable } from '../db/schema/signing.js';
import type { RequestStatus } from '../domain/request-states.js';

export type RequestRow = Selectable<SignatureRequestsTable>;
export type SignerRow = Selectable<SignersTable>;
export type FieldRow = Selectable<FieldsTable>;
export type DocumentRow = Selectable<DocumentsTable>;

export interface NewRequest {
  document: Insertable<DocumentsTable>;
  request: Insertable<SignatureRequestsTable>;
  signers: Insertable<SignersTable>[];
  fields: Insertable<FieldsTable>[];
}

export function insertRequest(db: Db, row: NewRequest): void {
  db.insert('documents', row.document);
  db.insert('signature_requests', row.request);
  for (const signer of row.signers) db.insert('signers', signer);
  for (const field of row.fields) db.insert('fields', field);
}

/** One request of one account: another account's request is as absent as a missing one. */
export function findRequest(db: Db, accountId: string, id: string): RequestRow | undefined {
  return db.first(requestById, id, accountId);
}

const requestById = preparedQuery((q, id: string, accountId: string) =>
  q.selectFrom('signature_requests').selectAll().where('id', '=', id).where('account_id', '=', accountId),
);

/** A request of any account, for the operator, the scheduler and the signing page (a link names its request). */
export function findAnyRequest(db: Db, id: string): RequestRow | undefined {
  return db.first(anyRequestById, id);
}

const anyRequestById = preparedQuery((q, id: string) => q.selectFrom('signature_requests').selectAll().where('id', '=', id));

export function findRequestByClientReference(db: Db, accountId: string, clientReference: string): RequestRow | undefined {
  return db.first(requestByClientReference, accountId, clientReference);
}

const requestByClientReference = preparedQuery((q, accountId: string, clientReference: string) =>
  q.selectFrom('signature_requests').selectAll().where('account_id', '=', accountId).where('client_reference', '=', clientReference),
);

/** Signers who hold the role now (replaced ones stay in the table for the audit trail). */
export function currentSigners(db: Db, requestId: string): SignerRow[] {
  return db.all(signersOfRequest, requestId);
}

const signersOfRequest = preparedQuery((q, requestId: string) =>
  q.selectFrom('signers').selectAll().where('request_id', '=', requestId).where('replaced_at', 'is', null).orderBy('position', 'asc'),
);

/** The marks (signature, initials) the given signers drew, in no particular order. */
export function signerMarks(db: Db, signerIds: readonly string[]): Array<Selectable<SignerMarksTable>> {
  if (signerIds.length === 0) return [];
  return db.all(db.q.selectFrom('signer_marks').selectAll().where('signer_id', 'in', signerIds));
}

export function requestFields(db: Db, requestId: string): FieldRow[] {
  return db.all(fieldsOfRequest, requestId);
}

const fieldsOfRequest = preparedQuery((q, requestId: string) =>
  q.selectFrom('fields').selectAll().where('request_id', '=', requestId).orderBy('position', 'asc'),
);

export interface ListFilter {
  /** null: every account (the operator's view). */
  accountId: string | null;
  status?: RequestStatus | undefined;
  clientReference?: string | undefined;
  /** Only rows older than this sequence number (the cursor). */
  beforeSeq?: number | undefined;
  limit: number;
}

/** Newest first; asks for one row more than the page so the caller knows whether a next page exists. */
export function listRequests(db: Db, filter: ListFilter): RequestRow[] {
  let query = db.q.selectFrom('signature_requests').selectAll();
  if (filter.accountId !== null) query = query.where('account_id', '=', filter.accountId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.clientReference !== undefined) query = query.where('client_reference', '=', filter.clientReference);
  if (filter.beforeSeq !== undefined) query = query.where('seq', '<', filter.beforeSeq);
  return db.all(query.orderBy('seq', 'desc').limit(filter.limit + 1));
}

/** Artifact types whose content is still stored. */
export function availableArtifacts(db: Db, requestId: string): Set<string> {
  return new Set(db.all(storedArtifactTypes, requestId).map((r) => r.type));
}

const storedArtifactTypes = preparedQuery((q, requestId: string) =>
  q.selectFrom('artifacts').select('type').where('request_id', '=', requestId).where('blob_id', 'is not', null),
);
