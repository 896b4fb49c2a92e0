import type { Context } from '../../context.js';
import { availableArtifacts, currentSigners, requestFields, type RequestRow } from '../../model/request-queries.js';
import type { SignatureRequestStatus } from '../../contract/signature-requests.js';
import { loadRequest } from '../../model/request-guard.js';
import { statusOf } from './request-views.js';

/**
 * The status of one of the account's requests. Clients poll it, so it is remembered until the
 * database changes (any write, here or by a CLI process): a status is made of stored rows only.
 */
export function getSignatureRequest(ctx: Context, accountId: string, id: string): SignatureRequestStatus {
  return ctx.db.memo(`request-status:${accountId}:${id}`, () => requestStatus(ctx, loadRequest(ctx, accountId, id)));
}

/**
 * The same status as the text of the answer, made by `serialize` (the route's response serializer)
 * and remembered as long as the status itself: a poll of an unchanged request sends the same text.
 */
export function getSignatureRequestText(ctx: Context, accountId: string, id: string, serialize: (status: SignatureRequestStatus) => string): string {
  return ctx.db.memo(`request-status-text:${accountId}:${id}`, () => serialize(getSignatureRequest(ctx, accountId, id)));
}

/** SignatureRequestStatus of a loaded request, as it is now. */
export function requestStatus(ctx: Context, row: RequestRow): SignatureRequestStatus {
  return statusOf(row, currentSigners(ctx.db, row.id), requestFields(ctx.db, row.id), availableArtifacts(ctx.db, row.id));
}
