import type { Db } from '../db/database.js';
import { preparedQuery } from '../db/prepared-query.js';

const OFFSET_KEY = 'clock_offset_ms';

/**
 * The sandbox clock: real time plus a forward-only offset kept in the database, so the server and
 * every CLI process on the same data directory agree on "now". All business time asks this clock.
 */
export interface Clock {
  /** Sandbox time in milliseconds since the epoch. */
  now(): number;
  offsetMs(): number;
  /** Real time, for the few things that must not follow the sandbox clock (webhook-timestamp, leases). */
  realNow(): number;
  /** Moves the clock forward; answers the new offset. */
  advance(ms: number): number;
}

export function createClock(db: Db, realNow: () => number = Date.now): Clock {
  // Remembered until the database changes: a `paraph clock advance` is seen at the next call.
  const readOffset = (): number =>
    db.memo(OFFSET_KEY, () => {
      const row = db.first(offsetSetting, OFFSET_KEY);
      return row ? Number(row.value) : 0;
    });
  return {
    now: () => realNow() + readOffset(),
    realNow,
    offsetMs: readOffset,
    advance(ms) {
      if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('the sandbox clock only moves forward');
      return db.transaction(() => {
        const next = readOffset() + ms;
        db.run(
          db.q
            .insertInto('settings')
            .values({ key: OFFSET_KEY, value: String(next) })
            .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(next) })),
        );
        return next;
      });
    },
  };
}

const offsetSetting = preparedQuery((q, key: string) => q.selectFrom('settings').select('value').where('key', '=', key));

export function isoTime(ms: number): string;
export function isoTime(ms: number | null): string | null;
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
