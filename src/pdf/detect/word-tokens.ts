/**
 * Words as the lexicon counts them (`splitWord`): a word split at its apostrophes, dashes and slashes, each part folded
 * (token-folding.ts), with a glyph its font left unmapped read as the ligature that makes a label word, and Arabic's
 * "and" taken off the next word.
 */
import { LABELS } from './lexicon.js';
import { isArabic, normalizeToken } from './token-folding.js';

/** Splits a word the way the lexicon counts: "l'acheteur" -> ["l", "acheteur"], "e-mail" -> ["e", "mail"]. */
export function splitWord(raw: string): string[] {
  return (
    raw
      // A plural or feminine ending in parentheses (OCR may read either as a brace or a bracket) or after a slash, an asterisk or a colon is
      // part of the word: "Signature(s)", "intéressé(e)", "Unterschrift(en)", "Vollmachtgeber/in", "Teilnehmer*innen" ("Le/la" stays two).
      .replace(/[({[](?:s|e|en|er|es|n|r|in|innen|a|o|as|os)[)}\]](?=\W*$)|(?<=\p{L})[/*:_·](?:innen|in|en|er|es|as|os|e|r|n|a|o|s)(?=\W*$)/iu, '')
      // (Apostrophes and dashes as typesetting writes them too: "l‘élève", "lʼélève", "Signature–Date", "Signature—Date".)
      .split(/['’‘ʼ\-‐‑–—/,;]/)
      .map(withLigatures)
      .filter((t) => t.length > 0)
      // Arabic "and" is written onto the next word: "والتوقيع" is "و" "التوقيع" ("الختم والتوقيع", "الاسم والتوقيع").
      .flatMap((t) => (t.length > 3 && t.startsWith('و') && arabicLabelWords().has(t.slice(1)) ? ['و', t.slice(1)] : [t]))
  );
}

/** The ligatures a font may draw as one glyph that its text layer leaves unmapped (the replacement character): Calibri's "ti", "tt", "ft"… */
const LIGATURES = ['ti', 'tt', 'ft', 'fi', 'fl', 'ff', 'ffi', 'ffl', 'tf'];

/**
 * A word folded (normalizeToken), a glyph its font left unmapped read as the ligature that makes it one of the lexicon's
 * label words: "Unterschri\ufffd" (its "ft" one glyph) is "unterschrift"; else as it comes.
 */
function withLigatures(raw: string): string {
  if (!/\p{L}\ufffd|\ufffd\p{L}/u.test(raw)) return normalizeToken(raw);
  for (const ligature of LIGATURES) {
    const read = normalizeToken(raw.replace(/\ufffd/gu, ligature));
    if (labelWords().has(read)) return read;
  }
  return normalizeToken(raw);
}

let labelWordSet: Set<string> | undefined;
/** Every word of the lexicon's labels. */
function labelWords(): Set<string> {
  labelWordSet ??= new Set(LABELS.flatMap((e) => e.tokens));
  return labelWordSet;
}

let arabicWords: Set<string> | undefined;
/** The Arabic words of the lexicon's labels. */
function arabicLabelWords(): Set<string> {
  arabicWords ??= new Set(LABELS.flatMap((e) => e.tokens.filter((t) => isArabic(t))));
  return arabicWords;
}
