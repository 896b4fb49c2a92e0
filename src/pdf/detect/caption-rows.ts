/**
 * A caption with a colon on a row ruled under its whole length ("Client Signature: <space> Date: <space>"
 * over one rule drawn a little under the row, as an HTML table row's border): the caption asks for its
 * blank after its colon, so its field is the part of the rule after it, up to the next words of its row,
 * standing on the rule, rather than the whole rule under it.
 */
import { FIELD_HEIGHT, MIN_BESIDE, overlap1, type Label, type Line, type Segment } from './page-model.js';

/** The part of a rule under a caption's row that lies after the caption: from its end to the next words of the row. */
export function afterColonOnRule(label: Label, s: Segment, lines: Line[]): { x0: number; x1: number } | undefined {
  const { line, reach, box } = label;
  const type = label.entry.type;
  // Only a caption with a colon, left to right, over a rule that starts under it and that a signature
  // standing on reaches up to the caption's row.
  if (!label.colon || line.rtl || s.x0 > box.x0 + 8 || s.y - box.y0 > FIELD_HEIGHT.signature) return undefined;
  const x0 = reach.x1 + 4;
  let x1 = s.x1;
  for (const l of lines)
    if (overlap1(l.box.y0, l.box.y1, line.box.y0, line.box.y1) > 0.3 * line.size)
      for (const w of l.words) if (w.box.x0 >= reach.x1 + 1 && w.box.x0 < x1) x1 = w.box.x0 - 4;
  return x1 - x0 >= MIN_BESIDE[type] ? { x0, x1 } : undefined;
}
