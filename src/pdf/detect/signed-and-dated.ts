/**
 * Captions asking for a signature and something else in one place. "Signature/Date", "Signature & Date": a signature
 * and its date, as "Date et signature" is — written without the slash or the ampersand, "Signature date" is the date of
 * signing. A name and a signature joined, either way round ("Firma y nombre completo", "Print Name and Sign"): a place
 * to sign, as "Name and signature" is. A stamp and a signature: the caption starts at the stamp.
 */
import { AND_WORDS, LABELS, OF, STAMP_WORDS, type LabelEntry } from './lexicon.js';
import type { LabelMatch } from './label-matching.js';
import type { Line } from './page-model.js';

/** The words of a line from token `from` to token `to`, as printed. */
const textOf = (line: Line, from: number, to: number): string =>
  line.words
    .slice(line.tokenWord[from] as number, (line.tokenWord[to] as number) + 1)
    .map((w) => w.text)
    .join(' ');

const SIGNED_AND_DATED = LABELS.find((e) => e.type === 'signature' && e.tokens.join(' ') === 'date signature') as LabelEntry;
/** The line's matches, a "signature date" written with a slash or an ampersand between its words read as a signature and its date. */
export function bothSigned(line: Line, matches: LabelMatch[]): LabelMatch[] {
  return matches.map((m) => {
    if (m.entry.type !== 'date' || m.entry.tokens.join(' ') !== 'signature date') return m;
    return /signature\s*[/&+]\s*date/i.test(textOf(line, m.start, m.end)) ? { ...m, entry: SIGNED_AND_DATED } : m;
  });
}

/** The signature entry "Sign" stands for after a name and its "and" ("Print name and sign"), where it is no verb. */
const SIGN = LABELS.find((e) => e.type === 'signature' && e.tokens.join(' ') === 'signature') as LabelEntry;

/** The line's matches, a name's caption and a signature's joined by "and" (or an ampersand) made one signature caption over both. */
export function namedAndSigned(line: Line, matches: LabelMatch[]): LabelMatch[] {
  const out = [...matches];
  const joined = (a: LabelMatch, b: { start: number }) => {
    const between = line.tokens.slice(a.end + 1, b.start);
    return between.length === 1 ? AND_WORDS.has(between[0] as string) : between.length === 0 && /[&+]/.test(textOf(line, a.end, b.start));
  };
  for (let i = 0; i < out.length; i++) {
    const a = out[i] as LabelMatch;
    const b = out[i + 1];
    const name = (m: LabelMatch) => m.entry.fieldKey === 'signer_name';
    if (b && joined(a, b) && ((name(a) && b.entry.type === 'signature') || (a.entry.type === 'signature' && name(b)))) {
      const signed = a.entry.type === 'signature' ? a.entry : b.entry;
      out.splice(i, 2, { entry: signed.leading ? SIGN : signed, start: a.start, end: b.end, anchor: b.end });
      continue;
    }
    // ("Sign" after a name and its "and", ending the caption: "Print Name and Sign".)
    const k = a.end + 2;
    if (
      name(a) &&
      line.tokens[k] === 'sign' &&
      AND_WORDS.has(line.tokens[a.end + 1] as string) &&
      (k + 1 >= line.tokens.length || line.tokens[k + 1] === '\0') &&
      (!b || b.start > k)
    )
      out.splice(i, 1, { entry: SIGN, start: a.start, end: k, anchor: k });
  }
  return out;
}

/**
 * The line's matches, a signature caption after a stamp's and its "and" starting at the stamp, however many words name whose
 * stamp it is ("Timbro del Circolo Culturale Cittadino e firma del Presidente"): those words are added to `extra` (the caption's own).
 */
export function stampedAndSigned(line: Line, matches: LabelMatch[], extra: Set<number>): LabelMatch[] {
  return matches.map((m) => {
    if (m.entry.type !== 'signature' || !AND_WORDS.has(line.tokens[m.start - 1] as string)) return m;
    const blank = line.tokens.lastIndexOf('\0', m.start);
    const at = line.tokens.findIndex((t, k) => k > blank && k < m.start - 1 && STAMP_WORDS.has(t) && OF.has(line.tokens[k + 1] as string));
    if (at < 0 || m.start - at > 8 || matches.some((o) => o.end >= at && o.start < m.start)) return m;
    for (let k = at; k < m.start; k++) extra.add(k);
    return { ...m, start: at };
  });
}
