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
  return nearest(candidates, (b) => afterGap(label, b.x0, b.x1));
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
