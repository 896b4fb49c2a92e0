import { isoTime } from '../../platform/clock.js';
import type { RequestStatus } from '../../domain/request-states.js';
import type { Context } from '../../context.js';
import { listRequests, findAnyRequest } from '../../model/request-queries.js';
import { notFound } from '../../domain/errors.js';
import { requestDocument } from '../../model/documents.js';
import type { SignatureRequestStatus } from '../../contract/signature-requests.js';
import { requestStatus } from '../requests/get-signature-request.js';
import { listItemOf } from '../requests/request-views.js';

/** The operator's view across accounts (the CLI's `requests` commands), newest first. */
export function listAllRequests(ctx: Context, filter: { status?: RequestStatus | undefined; limit?: number | undefined }) {
  const limit = filter.limit ?? 100;
  return listRequests(ctx.db, { accountId: null, status: filter.status, limit })
    .slice(0, limit)
    .map((row) => ({ account_id: row.account_id, ...listItemOf(row) }));
}

export interface OperatorRequestView extends SignatureRequestStatus {
  account_id: string;
  document: { filename: string; sha256: string; size: number; pages: number; purged: boolean };
  audit: Array<{ id: number; type: string; actor_type: string; actor_email: string; signer_id: string | null; created_at: string }>;
}

export function showRequest(ctx: Context, id: string): OperatorRequestView {
  const { db } = ctx;
  const row = findAnyRequest(db, id);
  if (!row) throw notFound(`signature request ${id} does not exist`);
  const document = requestDocument(db, row);
  const audit = db.all(db.q.selectFrom('audit_events').selectAll().where('request_id', '=', id).orderBy('id', 'asc'));
  return {
    account_id: row.account_id,
    ...requestStatus(ctx, row),
    document: {
      filename: document.filename,
      sha256: document.sha256,
      size: document.size,
      pages: document.page_count,
      purged: document.blob_id === null,
    },
    audit: audit.map((a) => ({
      id: a.id,
      type: a.type,
      actor_type: a.actor_type,
      actor_email: a.actor_email,
      signer_id: a.signer_id,
      created_at: isoTime(a.created_at),
    })),
  };
}
