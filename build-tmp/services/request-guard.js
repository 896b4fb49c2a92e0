import { findRequest } from '../db/repos/signature-requests.js';
import { requestMove } from '../domain/request-states.js';
import { notFound, ParaphError } from '../errors.js';
/** The account's request, or the 404 that a missing and a foreign request share. */
export function loadRequest(ctx, accountId, id) {
    const row = findRequest(ctx.db, accountId, id);
    if (!row)
        throw notFound(`signature request ${id} does not exist`);
    return row;
}
/** The status `action` leads to from the request's status, or the spec's 409. */
export function assertMove(row, action) {
    const move = requestMove(row.status, action);
    if (!move.ok)
        throw new ParaphError(move.code, move.message);
    return move.to;
}
/** Sets the request's status (and any other columns) and answers the row as it now is. */
export function updateRequest(ctx, row, changes, at) {
    const next = { ...row, ...changes, updated_at: at };
    const { seq: _seq, id, ...columns } = next;
    ctx.db.run(ctx.db.q.updateTable('signature_requests').set(columns).where('id', '=', id));
    return next;
}
//# sourceMappingURL=request-guard.js.map