import type { Db } from '../db/database.js';

/** Work to do once the change that asks for it is committed: start a job, wake a sender. */
export type AfterCommit = (fn: () => void) => void;

/**
 * The database with an after-commit queue. `afterCommit(fn)` inside a transaction runs `fn` once the
 * outermost transaction has committed, in the order asked, and never if it rolls back; inside a
 * nested transaction that rolls back (its savepoint undone, the outer one going on), its work is
 * dropped with it. Outside a transaction, `fn` runs at once. `fn` must not throw: the change is
 * committed whatever it does, so a failure is logged and the others still run.
 */
export function withAfterCommit(db: Db, onError: (error: unknown) => void): { db: Db; afterCommit: AfterCommit } {
  // One list per open transaction, outermost first.
  const open: Array<Array<() => void>> = [];
  const run = (fns: ReadonlyArray<() => void>) => {
    for (const fn of fns) {
      try {
        fn();
      } catch (error) {
        onError(error);
      }
    }
  };
  const transaction: Db['transaction'] = (fn) => {
    const pending: Array<() => void> = [];
    open.push(pending);
    let result;
    try {
      result = db.transaction(fn);
    } finally {
      open.pop();
    }
    // Committed: a nested transaction's work waits for its parent's commit.
    const parent = open.at(-1);
    if (parent) parent.push(...pending);
    else run(pending);
    return result;
  };
  return {
    db: { ...db, transaction },
    afterCommit(fn) {
      const pending = open.at(-1);
      if (pending) pending.push(fn);
      else run([fn]);
    },
  };
}
