/**
 * What OCR gets wrong in the words of a caption. Caption words misread by a letter ("Unterschyift", "Signatvre", "Assinafura"): on a scanned page,
 * a long word it read with less than full confidence that is one letter away (one changed, added or
 * dropped) from a long word of the captions' lexicon is that word, so that the caption is still read.
 * Short words are left as read (one letter turns them into other words) but for the letters OCR reads for a pair or a pair for
 * one: "Finna" is "Firma", "Narne" is "Name".
 */
import { LABELS } from './lexicon.js';
import { normalizeToken } from './token-folding.js';
import { SIGNER_WORDS } from './lexicon-european.js';
import { dotsRead } from './glyph-runs.js';
import type { Segment, Word } from './page-model.js';

/** The words of an OCR page as the rules read them: dots, misread caption words and sizes put right. */
export function ocrWords(words: readonly Word[], segments: readonly Segment[]): Word[] {
  return rowSizes(sizesUnderRules(misreadCaptions(bracesRead(dotsRead(words))), segments));
}

/**
 * Braces read for parentheses: a form prints parentheses round a remark (`(In caso di minore, firma …)`),
 * hardly ever braces, and OCR often reads their curve as a brace (`{In caso`, `genitoriale}`).
 */
export function bracesRead(words: readonly Word[]): Word[] {
  return words.map((w) => (/[{}]/.test(w.text) ? { ...w, text: w.text.replaceAll('{', '(').replaceAll('}', ')') } : w));
}

const MIN_LENGTH = 8;
const LONG = 11;
const UNSURE = 0.6;
const LEXICON = [...new Set([...LABELS.flatMap((e) => e.tokens), ...SIGNER_WORDS.map(normalizeToken)])].filter(
  (t) => t.length >= MIN_LENGTH && /^\p{L}+$/u.test(t),
);
const KNOWN = new Set(LEXICON);
/** The lexicon's shorter words, and the letters OCR reads for others in them: "rm" as "nn", "m" as "rn" or "nn", "d" as "cl", "w" as "vv". */
const SHORT = new Set(LABELS.flatMap((e) => e.tokens).filter((t) => t.length >= 4 && t.length < MIN_LENGTH && /^\p{L}+$/u.test(t)));
const CONFUSED: ReadonlyArray<[RegExp, string]> = (
  [
    ['nn', 'rm'],
    ['rn', 'm'],
    ['nn', 'm'],
    ['cl', 'd'],
    ['vv', 'w'],
    ['m', 'rn'],
  ] as const
).map(([a, b]) => [new RegExp(a, 'g'), b]);
/** Each way of reading one match of `a` in `word` as `b`. */
const swaps = (word: string, a: RegExp, b: string): string[] =>
  [...word.matchAll(a)].map((x) => word.slice(0, x.index) + b + word.slice((x.index as number) + x[0].length));

/** The number of edits (a letter changed, added or removed) from a to b, or limit + 1 when more. */
function edits(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    if (Math.min(...row) > limit) return limit + 1;
    prev = row;
  }
  return prev[b.length] as number;
}

export function misreadCaptions(words: readonly Word[]): Word[] {
  return words.map((w) => {
    if (w.confidence >= 0.95) return w;
    const m = /^(\P{L}*)(\p{L}+)(\P{L}*)$/u.exec(w.text);
    if (!m) return w;
    const core = normalizeToken(m[2] as string);
    // (A short word with a pair of letters OCR reads for one, or one for a pair: "Finna" for "Firma", "Narne" for "Name".)
    const glyphs =
      core.length < MIN_LENGTH && !SHORT.has(core) ? [...new Set(CONFUSED.flatMap(([a, b]) => swaps(core, a, b)))].filter((t) => SHORT.has(t)) : [];
    if (glyphs.length === 1) return { ...w, text: `${m[1]}${glyphs[0]}${m[3]}` };
    if (core.length < MIN_LENGTH || KNOWN.has(core)) return w;
    // (A long word OCR was unsure of may be two letters off, "Untersshrif"; one it was surer of is a word
    // of its own: "unterschrieben" is not "Unterschriften".)
    const two = core.length >= LONG && w.confidence < UNSURE;
    const limit = (t: string) => (two && t.length >= LONG ? 2 : 1);
    const near = LEXICON.filter((t) => edits(core, t, limit(t)) <= limit(t));
    return near.length === 1 ? { ...w, text: `${m[1]}${near[0]}${m[3]}` } : w;
  });
}

/**
 * The size of OCR words from their row: a word's own size comes from its height over the baseline, which
 * a bracket or a brace (taller than capitals) or a rule touching the word inflates ("Signature(s}" read a
 * third larger than the words beside it). A word much larger than the median of its row's words (on its
 * baseline, a few of them at least) takes that median.
 */
export function rowSizes(words: readonly Word[]): Word[] {
  const sorted = [...words].sort((a, b) => a.baseline - b.baseline);
  const size = new Map<Word, number>();
  for (let i = 0, from = 0; i < sorted.length; i++) {
    const w = sorted[i] as Word;
    while (from < i && w.baseline - (sorted[from] as Word).baseline > 0.3 * w.size) from++;
    const row: number[] = [];
    for (let k = from; k < sorted.length; k++) {
      const o = sorted[k] as Word;
      if (o.baseline - w.baseline > 0.3 * w.size) break;
      if (Math.abs(o.baseline - w.baseline) <= 0.3 * Math.min(o.size, w.size) && Math.abs((o.box.x0 + o.box.x1 - w.box.x0 - w.box.x1) / 2) <= 300)
        row.push(o.size);
    }
    if (row.length < 3) continue;
    const median = row.sort((a, b) => a - b)[Math.floor(row.length / 2)] as number;
    if (w.size > 1.15 * median) size.set(w, median);
  }
  return words.map((w) => (size.has(w) ? { ...w, size: size.get(w) as number } : w));
}

/**
 * The size of OCR words whose height says more than their width: OCR's box of a word printed right under a
 * dotted line or against a box takes in the line's dots or the box, so the word reads half again as large
 * as it is (a caption under its line taken for a heading). Such a word, larger than the page's usual words
 * by a third, takes their size when it reaches up to a drawn line; otherwise when it is half again as
 * large while its letters are no wider than the usual words' (about half their size each: a real heading's
 * letters are wider too).
 */
export function sizesUnderRules(words: readonly Word[], segments: readonly Segment[]): Word[] {
  const touches = (w: Word) =>
    segments.some((s) => s.y >= w.box.y0 - 1.5 && s.y <= w.box.y0 + 2.5 && Math.min(s.x1, w.box.x1) - Math.max(s.x0, w.box.x0) >= 0.5 * (w.box.x1 - w.box.x0));
  const sizes = words
    .filter((w) => /\p{L}{2}/u.test(w.text))
    .map((w) => w.size)
    .sort((a, b) => a - b);
  if (sizes.length < 10) return [...words];
  const usual = sizes[Math.floor(sizes.length / 2)] as number;
  const narrow = (w: Word) => {
    const letters = [...w.text].length;
    return letters >= 4 && /\p{L}{3}/u.test(w.text) && (w.box.x1 - w.box.x0) / (0.5 * letters) <= 1.15 * usual;
  };
  const resized = words.filter((w) => (w.size > 1.3 * usual && touches(w)) || (w.size > 1.5 * usual && narrow(w)));
  // (A blank made for a rule beside such a word took its size: it goes with it.)
  const blanks = words.filter((w) => !/[\p{L}\p{N}]/u.test(w.text) && w.size > 1.3 * usual && resized.some((r) => Math.abs(r.baseline - w.baseline) <= 2));
  const fix = new Set([...resized, ...blanks]);
  return words.map((w) => (fix.has(w) ? { ...w, size: usual, box: { ...w.box, y0: w.baseline - 0.74 * usual } } : w));
}
