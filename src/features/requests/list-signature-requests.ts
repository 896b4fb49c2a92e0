import type { Context } from '../../context.js';
import { listRequests, type RequestRow } from '../../model/request-queries.js';
import { ALL_ACCOUNTS, decodeCursor, encodeCursor } from '../../domain/cursor.js';
import { DEFAULT_PAGE_SIZE } from '../../domain/limits.js';
import type { RequestListItem } from '../../contract/signature-requests.js';
import type { RequestStatus } from '../../domain/request-states.js';
import { listItemOf } from './request-views.js';

export interface ListRequestsInput {
  accountId: string;
  status?: RequestStatus | undefined;
  clientReference?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** Newest first, paged by an opaque cursor; `next_cursor` is empty on the last page. */
export function listSignatureRequests(ctx: Context, input: ListRequestsInput): { data: RequestListItem[]; next_cursor: string } {
  return pageOfRequests(ctx, input, listItemOf);
}

/** One page of requests of an account, or of every account (`accountId: null`), each shown by `view`. */
export function pageOfRequests<T>(
  ctx: Context,
  input: Omit<ListRequestsInput, 'accountId'> & { accountId: string | null },
  view: (row: RequestRow) => T,
): { data: T[]; next_cursor: string } {
  const limit = input.limit ?? DEFAULT_PAGE_SIZE;
  const rows = listRequests(ctx.db, {
    accountId: input.accountId,
    status: input.status,
    clientReference: input.clientReference,
    beforeSeq: input.cursor ? decodeCursor(ctx.secrets, input.accountId ?? ALL_ACCOUNTS, 'sr1', input.cursor) : undefined,
    limit,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(view),
    next_cursor: rows.length > limit && last ? encodeCursor(ctx.secrets, input.accountId ?? ALL_ACCOUNTS, 'sr1', last.seq) : '',
  };
}
