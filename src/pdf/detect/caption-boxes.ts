/**
 * A caption's blank drawn as a box: a box on its row after it, or the box it is written in (the rest of the box).
 */
import { afterGap, beforeLimit } from './blank-geometry.js';
import { area, contains, nearest, overlap1, type Label, type Rect } from './page-model.js';

/** A box on the label's row, after it. */
export function boxBeside(label: Label, boxes: Rect[]): Rect | undefined {
  const { reach } = label;
  const candidates = boxes.filter((b) => {
    const rowOverlap = overlap1(b.y0, b.y1, reach.y0, reach.y1);
    if (rowOverlap < 0.5 * (reach.y1 - reach.y0)) return false;
    const gap = afterGap(label, b.x0, b.x1);
    return gap >= -2 && gap <= 80 && beforeLimit(label, b.x0, b.x1);
  });
  const first = nearest(candidates, (b) => afterGap(label, b.x0, b.x1));
  return first && comb(first, boxes);
}

/**
 * A box and those following it in a row, alike and a few points apart: one box for each character of a date or a number
 * (a comb, "Date  [ ][ ] [ ][ ] [ ][ ][ ][ ]"), whose field is the whole row of them.
 */
function comb(first: Rect, boxes: readonly Rect[]): Rect {
  const h = first.y1 - first.y0;
  const w = first.x1 - first.x0;
  if (w > 2 * h) return first;
  let end = first;
  for (;;) {
    const next = boxes.find(
      (b) =>
        b.x0 >= end.x1 - 1 &&
        b.x0 - end.x1 <= 12 &&
        Math.abs(b.y0 - first.y0) <= 1 &&
        Math.abs(b.y1 - first.y1) <= 1 &&
        Math.abs(b.x1 - b.x0 - w) <= 0.3 * w + 1,
    );
    if (!next) return end === first ? first : { ...first, x1: end.x1 };
    end = next;
  }
}

/** A box the label is written in: the field is the rest of the box. */
export function boxAround(label: Label, boxes: Rect[]): Rect | undefined {
  const inside = boxes.filter((b) => contains(b, label.box, 1) && b.y1 - b.y0 >= 16 && b.x1 - b.x0 >= 40);
  const box = inside.sort((a, b) => area(a) - area(b))[0];
  if (!box) return undefined;
  const h = box.y1 - box.y0;
  if (label.box.y0 - box.y0 <= 0.45 * h) return { x0: box.x0, y0: label.box.y1 + 2, x1: box.x1, y1: box.y1 };
  if (box.y1 - label.box.y1 <= 0.45 * h) return { x0: box.x0, y0: box.y0, x1: box.x1, y1: label.box.y0 - 2 };
  return undefined;
}
