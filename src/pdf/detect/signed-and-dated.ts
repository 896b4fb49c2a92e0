/**
 * "Signature/Date", "Signature & Date": a caption asking for a signature and its date, one place to sign as
 * "Date et signature" is — written without the slash or the ampersand, "Signature date" is the date of signing.
 */
import { LABELS, type LabelEntry } from './lexicon.js';
import type { LabelMatch } from './label-matching.js';
import type { Line } from './page-model.js';

const SIGNED_AND_DATED = LABELS.find((e) => e.type === 'signature' && e.tokens.join(' ') === 'date signature') as LabelEntry;
/** The line's matches, a "signature date" written with a slash or an ampersand between its words read as a signature and its date. */
export function bothSigned(line: Line, matches: LabelMatch[]): LabelMatch[] {
  return matches.map((m) => {
    if (m.entry.type !== 'date' || m.entry.tokens.join(' ') !== 'signature date') return m;
    const text = line.words
      .slice(line.tokenWord[m.start] as number, (line.tokenWord[m.end] as number) + 1)
      .map((w) => w.text)
      .join(' ');
    return /signature\s*[/&+]\s*date/i.test(text) ? { ...m, entry: SIGNED_AND_DATED } : m;
  });
}
