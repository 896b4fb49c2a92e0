/**
 * Approximate advance widths of glyphs (thousandths of an em, Helvetica-like): text items come whole, and the
 * position of a word or of a run of underscores inside one is estimated from them.
 */
const NARROW = new Set([..." ilj.,:;'!|`´fIt()[]/\\-"]);
const WIDE = new Set([...'mwMW@%']);

/** A character's advance width, in thousandths of an em. */
export function advance(ch: string): number {
  if (NARROW.has(ch)) return ch === 'f' || ch === 't' || ch === '-' || ch === '(' || ch === ')' ? 333 : 278;
  if (WIDE.has(ch)) return 833;
  if (ch === '_') return 556;
  if (/[A-Z]/.test(ch)) return 667;
  return 556;
}
