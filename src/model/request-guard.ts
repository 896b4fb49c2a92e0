import type { Context } from '../context.js';
import { findRequest, type RequestRow } from './request-queries.js';
import { requestMove, type RequestAction, type RequestStatus } from '../domain/request-states.js';
import { notFound, ParaphError } from '../domain/errors.js';

/** The account's request, or the 404 that a missing and a foreign request share. */
export function loadRequest(ctx: Context, accountId: string, id: string): RequestRow {
  const row = findRequest(ctx.db, accountId, id);
  if (!row) throw notFound(`signature request ${id} does not exist for this API key's account (GET /v1/signature-requests lists its requests)`);
  return row;
}

/** The status `action` leads to from the request's status, or the spec's 409. */
export function assertMove(row: RequestRow, action: RequestAction): RequestStatus {
  const move = requestMove(row.status, action);
  if (!move.ok) throw new ParaphError(move.code, move.message);
  return move.to;
}

/** Columns a use case may change beside the status, which only `moveRequest` sets. */
export type RequestChanges = Partial<Omit<RequestRow, 'seq' | 'id' | 'status'>>;

/**
 * Moves the request by `action` through the state table (or throws the spec's 409), with any other
 * columns the move sets, and answers the row as it now is. The only way a request's status changes.
 */
export function moveRequest(ctx: Context, row: RequestRow, action: RequestAction, changes: RequestChanges, at: number): RequestRow {
  return write(ctx, row, { ...changes, status: assertMove(row, action) }, at);
}

/** Sets columns other than the status (and `updated_at`), and answers the row as it now is. */
export function updateRequest(ctx: Context, row: RequestRow, changes: RequestChanges, at: number): RequestRow {
  return write(ctx, row, changes, at);
}

function write(ctx: Context, row: RequestRow, changes: RequestChanges & { status?: RequestStatus }, at: number): RequestRow {
  const next = { ...row, ...changes, updated_at: at };
  const { seq: _seq, id, ...columns } = next;
  ctx.db.run(ctx.db.q.updateTable('signature_requests').set(columns).where('id', '=', id));
  return next;
}
