import { listRequests } from '../db/repos/signature-requests.js';
import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import { DEFAULT_PAGE_SIZE } from '../domain/limits.js';
import { listItemOf } from './request-views.js';
/** Newest first, paged by an opaque cursor; `next_cursor` is empty on the last page. */
export function listSignatureRequests(ctx, input) {
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const rows = listRequests(ctx.db, {
        accountId: input.accountId,
        status: input.status,
        clientReference: input.clientReference,
        beforeSeq: input.cursor ? decodeCursor('sr1', input.cursor) : undefined,
        limit,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
        data: page.map(listItemOf),
        next_cursor: rows.length > limit && last ? encodeCursor('sr1', last.seq) : '',
    };
}
//# sourceMappingURL=list-signature-requests.js.map