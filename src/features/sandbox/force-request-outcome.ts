import type { Context } from '../../context.js';
import { expireDueLinks } from '../requests/expire-links.js';
import { purgeRequest } from '../requests/purge-requests.js';
import type { SignatureRequestStatus } from '../../contract/signature-requests.js';
import { notFound } from '../../domain/errors.js';
import { findAnyRequest, type RequestRow } from '../../model/request-queries.js';
import { requestStatus } from '../requests/get-signature-request.js';
import { assertMove, loadRequest } from '../../model/request-guard.js';

/** Which request: one account's (HTTP) or any account's (the operator CLI). */
export interface RequestTarget {
  accountId: string | null;
  id: string;
}

function load(ctx: Context, target: RequestTarget): RequestRow {
  if (target.accountId !== null) return loadRequest(ctx, target.accountId, target.id);
  const row = findAnyRequest(ctx.db, target.id);
  if (!row) throw notFound(`signature request ${target.id} does not exist`);
  return row;
}

/** Expires the request's links now, as if their expiry date had passed (only an active request). */
export function forceExpire(ctx: Context, target: RequestTarget): SignatureRequestStatus {
  return ctx.db.transaction(() => {
    const row = load(ctx, target);
    assertMove(row, 'expire');
    const now = ctx.clock.now();
    ctx.db.run(
      ctx.db.q
        .updateTable('signing_links')
        .set({ expires_at: now })
        .where('request_id', '=', row.id)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now),
    );
    expireDueLinks(ctx, row.id);
    return requestStatus(ctx, load(ctx, target));
  });
}

/** Purges the request's content now, as if its retention deadline had passed (any status but purged). */
export async function forcePurge(ctx: Context, target: RequestTarget): Promise<SignatureRequestStatus> {
  assertMove(load(ctx, target), 'purge');
  await purgeRequest(ctx, target.id, 'by_hand');
  return requestStatus(ctx, load(ctx, target));
}
