/**
 * The page OCR reads, without the lines drawn on it: a caption printed right under a dotted line or
 * against a box is read as itself, not with the dots or the box in its words. Pure; pixels in, pixels out.
 */
import type { Mark } from './ocr-dashed-lines.js';

/**
 * The ink without the lines drawn on it (a pixel around each), for OCR: a caption printed right under a
 * dotted line or against a box is read as itself, not with the dots or the box in its words. Every dash
 * and dot goes; a solid rule or a box's side only where ink crowds it (within `near` pixels under the rule
 * or beside the side, along a tenth of its length), and a rule not where it continues a row of words: a
 * rule with room around it, or at the end of a row's words, helps OCR find the line of text (an Arabic
 * caption alone before its blank reads worse without it).
 */
export function withoutMarks(ink: Uint8Array, width: number, marks: readonly Mark[], rules: readonly Mark[] = [], near = 5): Uint8Array {
  const crowded = rules.filter((m) => crowds(ink, width, m, near) && !continuesRow(ink, width, m, near));
  if (marks.length === 0 && crowded.length === 0) return ink;
  const out = new Uint8Array(ink);
  const height = ink.length / width;
  for (const m of [...marks, ...crowded]) {
    for (let y = Math.max(0, m.y0 - 1); y < Math.min(height, m.y1 + 1); y++)
      out.fill(0, y * width + Math.max(0, m.x0 - 1), y * width + Math.min(width, m.x1 + 1));
  }
  return out;
}

/**
 * Whether a rule continues a row of text: words end right before it or start right after it, on the rows
 * just over it ("Printed Name: ____"). OCR finds the row's line by it; without it the row and the words
 * under the rule can be read as one line.
 */
function continuesRow(ink: Uint8Array, width: number, m: Mark, near: number): boolean {
  if (m.x1 - m.x0 < m.y1 - m.y0) return false;
  const height = ink.length / width;
  const reach = 3 * near;
  for (let y = Math.max(0, m.y0 - 4 * near); y < Math.min(height, m.y1); y++) {
    const row = y * width;
    for (let d = 2; d <= reach; d++) {
      if ((m.x0 - d >= 0 && ink[row + m.x0 - d] === 1) || (m.x1 - 1 + d < width && ink[row + m.x1 - 1 + d] === 1)) return true;
    }
  }
  return false;
}

/** Whether ink lies within `near` pixels under a rule (beside a vertical side), along a tenth of its length or more. */
function crowds(ink: Uint8Array, width: number, m: Mark, near: number): boolean {
  const height = ink.length / width;
  const at = (x: number, y: number) => x >= 0 && x < width && y >= 0 && y < height && ink[y * width + x] === 1;
  const across = (from: number, to: number, test: (d: number) => boolean) => {
    for (let d = from; d < to; d++) if (test(d)) return true;
    return false;
  };
  let touched = 0;
  if (m.x1 - m.x0 >= m.y1 - m.y0) {
    for (let x = m.x0; x < m.x1; x++) if (across(1, near + 1, (d) => at(x, m.y1 + d))) touched++;
    return touched >= 0.1 * (m.x1 - m.x0);
  }
  for (let y = m.y0; y < m.y1; y++) if (across(2, near + 2, (d) => at(m.x0 - d, y)) || across(1, near + 1, (d) => at(m.x1 + d, y))) touched++;
  return touched >= 0.1 * (m.y1 - m.y0);
}
