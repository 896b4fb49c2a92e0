import type { Context } from '../../context.js';
import { slot } from '../../platform/slots.js';

/**
 * A blob is written before the row that refers to it commits (blob-store.ts): a process killed in between (a create,
 * a template, a request's artifacts) leaves an encrypted file no row names, and retention would never reach it. Such
 * files are deleted once they are this old in real time, which no write waiting for its commit ever is.
 */
export const UNREFERENCED_BLOB_AGE_MS = 10 * 60 * 1000;
/** The blobs folder is read at most this often. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

const LAST_SWEEP = slot('unreferenced-blobs-last-sweep', () => ({ at: Number.NEGATIVE_INFINITY }));

/** Deletes the blob files no document, template or artifact refers to, at most once per SWEEP_EVERY_MS; answers how many. */
export async function sweepUnreferencedBlobs(ctx: Context): Promise<number> {
  const last = ctx.state.get(LAST_SWEEP);
  const now = ctx.clock.realNow();
  if (now - last.at < SWEEP_EVERY_MS) return 0;
  last.at = now;
  const { db } = ctx;
  const referenced = new Set<string>();
  for (const table of ['documents', 'templates', 'artifacts'] as const) {
    for (const row of db.all(db.q.selectFrom(table).select('blob_id').where('blob_id', 'is not', null))) referenced.add(row.blob_id as string);
  }
  try {
    return await ctx.blobs.sweep((id) => referenced.has(id), now - UNREFERENCED_BLOB_AGE_MS);
  } catch {
    // A blobs folder that cannot be read is said by the calls that need it; the jobs after this one still run.
    return 0;
  }
}
