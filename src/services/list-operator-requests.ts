import type { Context } from '../context.js';
import { listRequests } from '../db/repos/signature-requests.js';
import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import { DEFAULT_PAGE_SIZE } from '../domain/limits.js';
import type { DashboardRequestItem } from '../http/schemas/dashboard.js';
import { listItemOf } from './request-views.js';

export interface OperatorRequestFilter {
  accountId?: string | undefined;
  status?: string | undefined;
  clientReference?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** Requests of every account (or of one), newest first, paged by the same cursor as the API's list. */
export function listOperatorRequests(ctx: Context, filter: OperatorRequestFilter): { data: DashboardRequestItem[]; next_cursor: string } {
  const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
  const rows = listRequests(ctx.db, {
    accountId: filter.accountId ?? null,
    status: filter.status,
    clientReference: filter.clientReference,
    beforeSeq: filter.cursor ? decodeCursor('sr1', filter.cursor) : undefined,
    limit,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map((row) => ({ account_id: row.account_id, ...listItemOf(row) })),
    next_cursor: rows.length > limit && last ? encodeCursor('sr1', last.seq) : '',
  };
}
