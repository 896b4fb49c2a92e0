import type { Context } from '../context.js';
import { currentSigners, findRequest, requestFields } from '../db/repos/signature-requests.js';
import { notFound } from '../errors.js';
import type { SignatureRequestStatus } from '../http/schemas/signature-requests.js';
import { statusOf } from './request-views.js';

export function getSignatureRequest(ctx: Context, accountId: string, id: string): SignatureRequestStatus {
  const row = findRequest(ctx.db, accountId, id);
  if (!row) throw notFound(`signature request ${id} does not exist`);
  return statusOf(row, currentSigners(ctx.db, id), requestFields(ctx.db, id));
}
