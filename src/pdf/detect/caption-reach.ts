/**
 * How far down its table cell a caption reaches: the rows right under it that go on with it, each opening in lower case
 * ("Signature" over "of Adult or parent/guardian" over "on behalf of minor under 18"), and a remark in parentheses under it
 * ("Signature :" over "(Pour les sociétés : nom, qualité et cachet)"). Its room to write in starts under them.
 */
import type { Word } from './page-model.js';

/** The words of the row right under `bottom` (their tops within six tenths of the caption's size under it), left to right. */
function rowUnder(bottom: number, words: readonly Word[], size: number): Word[] {
  return words.filter((w) => w.box.y0 >= bottom - 1 && w.box.y0 - bottom <= 0.6 * size).sort((a, b) => a.box.x0 - b.box.x0);
}

/** The bottom of the rows right under `y` that make a remark in parentheses (its first row opening it), or `y`. */
export function bottomOfRemark(y: number, words: readonly Word[], size: number): number {
  for (let bottom = y, next = y, open = 0; ; bottom = next) {
    const row = rowUnder(bottom, words, size);
    const text = row.map((w) => w.text).join(' ');
    if (row.length === 0 || (open === 0 && (bottom !== y || !text.startsWith('(')))) return bottom;
    open += (text.match(/\(/g) ?? []).length - (text.match(/\)/g) ?? []).length;
    next = Math.max(...row.map((w) => w.box.y1));
    if (next <= bottom) return bottom;
  }
}

/** The bottom of the rows right under `y` that go on with a caption, each opening in lower case, or `y`. */
export function goesOnTo(y: number, words: readonly Word[], size: number): number {
  for (let bottom = y; ; ) {
    const row = rowUnder(bottom, words, size);
    if (row.length === 0 || !/^\p{Ll}/u.test((row[0] as Word).text)) return bottom;
    const next = Math.max(...row.map((w) => w.box.y1));
    if (next <= bottom) return bottom;
    bottom = next;
  }
}
