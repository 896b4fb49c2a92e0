/**
 * A date's blank drawn in parts on one line, its day, month and year apart: `__/__/____`, `____-____-______`,
 * `___ / ___ / 20___`, as runs of underscores or as rules with the separators printed or drawn between them. The
 * blank after a date's caption is the whole of it, not its first part.
 */
import type { LabelType } from './lexicon.js';
import type { Segment } from './page-model.js';

/** Parts of a date at most: day, month, year, and a century printed apart ("20__"). */
const MOST_PARTS = 4;
/** The widest such a blank grows, in points. */
const MOST_WIDTH = 260;

/**
 * The blank a caption of `type` has on `first`: for a date, `first` and the parts that follow it on its line,
 * each a separator's width after the last (or a run from it across them, read as one); for any other caption, `first` alone.
 */
export function dateParts(
  type: LabelType,
  first: Segment,
  segments: readonly Segment[],
  used: ReadonlySet<Segment>,
  size: number,
): { run: Segment; parts: Segment[] } {
  const parts = [first];
  if (type !== 'date') return { run: first, parts };
  let last = first;
  while (parts.length < MOST_PARTS) {
    const next = segments
      .filter((s) => !used.has(s) && !parts.includes(s) && Math.abs(s.y - last.y) <= Math.max(1.5, 0.15 * size))
      .filter((s) => s.x0 >= first.x0 - 1 && s.x1 > last.x1 + 1 && s.x0 - last.x1 <= Math.max(6, 1.6 * size) && s.x1 - first.x0 <= MOST_WIDTH)
      .sort((a, b) => a.x0 - b.x0)[0];
    if (!next) break;
    parts.push(next);
    last = next;
  }
  return { run: { ...first, x1: last.x1 }, parts };
}
