import { preparedQuery } from './db/prepared-query.js';
const OFFSET_KEY = 'clock_offset_ms';
export function createClock(db, realNow = Date.now) {
    // Remembered until the database changes: a `paraph clock advance` is seen at the next call.
    const readOffset = () => db.memo(OFFSET_KEY, () => {
        const row = db.first(offsetSetting, OFFSET_KEY);
        return row ? Number(row.value) : 0;
    });
    return {
        now: () => realNow() + readOffset(),
        realNow,
        offsetMs: readOffset,
        advance(ms) {
            if (!Number.isSafeInteger(ms) || ms < 0)
                throw new RangeError('the sandbox clock only moves forward');
            return db.transaction(() => {
                const next = readOffset() + ms;
                db.run(db.q
                    .insertInto('settings')
                    .values({ key: OFFSET_KEY, value: String(next) })
                    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(next) })));
                return next;
            });
        },
    };
}
const offsetSetting = preparedQuery((q, key) => q.selectFrom('settings').select('value').where('key', '=', key));
export function isoTime(ms) {
    return ms === null ? null : new Date(ms).toISOString();
}
//# sourceMappingURL=clock.js.map