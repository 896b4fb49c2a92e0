/**
 * A signature's caption standing over part of a line that a date's caption before it takes ("Data ____________" with
 * "Firma" printed over the line's right half): the date's blank ends where that caption starts (the signature's own
 * place is found from its caption, as any other's).
 */
import { matchLabels } from './label-matching.js';
import { isFillToken } from './lexicon.js';
import type { Line, Segment } from './page-model.js';

/** How high over a line, in its caption's size, a caption that stands on it may stand. */
const STANDS = 2.2;

/**
 * Where the first signature caption standing over `s` past `from` starts (a few words, on a line of their own, not the date
 * caption's `own`), or past `s.x1` (none).
 */
export function signatureCaptionOver(s: Segment, from: number, lines: readonly Line[], own: Line): number {
  let x = s.x1 + 4;
  for (const l of lines) {
    // (Where it stands first, a few comparisons, before its words are counted and read.)
    if (l === own || l.box.x0 <= from + 1 || l.box.x0 >= Math.min(x, s.x1) || l.box.x1 > s.x1 + 2) continue;
    if (l.box.y1 > s.y + 1 || s.y - l.box.y1 > STANDS * l.size) continue;
    const words = l.words.filter((w) => !isFillToken(w.text)).length;
    if (words === 0 || words > 4) continue;
    if (matchLabels(l.tokens).some((m) => m.entry.type === 'signature' || m.entry.type === 'initials')) x = l.box.x0;
  }
  return x;
}
