import type { Context } from '../../context.js';
import type { RequestStatus } from '../../domain/request-states.js';
import type { DashboardRequestItem } from '../../contract/dashboard.js';
import { pageOfRequests } from '../requests/list-signature-requests.js';
import { listItemOf } from '../requests/request-views.js';

export interface OperatorRequestFilter {
  accountId?: string | undefined;
  status?: RequestStatus | undefined;
  clientReference?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** Requests of every account (or of one), newest first, paged by the same cursor as the API's list. */
export function listOperatorRequests(ctx: Context, filter: OperatorRequestFilter): { data: DashboardRequestItem[]; next_cursor: string } {
  return pageOfRequests(ctx, { ...filter, accountId: filter.accountId ?? null }, (row) => ({ account_id: row.account_id, ...listItemOf(row) }));
}
