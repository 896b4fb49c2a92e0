/**
 * A line's label runs: the pieces a caption, its blank, a remark in parentheses or a sentence make of it, each judged
 * alone by lines-and-labels.ts.
 */
import type { Line, Word } from './page-model.js';

/** Abbreviations whose full stop ends no sentence ("… bzw. des Vertreters"); short words whose full stop does ("Ich stimme zu."). */
const ABBREVIATION = /^(bzw|ggf|evtl|inkl|vgl|sog|usw|sig|sigg|dott|prof|ing|avv|resp|ecc|etc|sra|sr|srs|dra)\.$/i;
const SENTENCE_TAIL = /^(zu|an|ab|da|es|ja|it|me|us|up|on|lo|la|ya|ci)\.$/;

/**
 * The label runs of a line, as token ranges: a run ends after a blank, before a parenthesis and after
 * a sentence's full stop, so that "Employee's signature (This form is not valid unless you sign it.)"
 * keeps its caption and "Signature ____ Date ____" holds two.
 */
export function labelRuns(line: Line): Array<{ start: number; end: number }> {
  const runs: Array<{ start: number; end: number }> = [];
  let start = 0;
  let depth = 0;
  for (let k = 0; k < line.tokens.length; k++) {
    const word = (line.words[line.tokenWord[k] as number] as Word).text.trim();
    const firstOfWord = k === 0 || line.tokenWord[k - 1] !== line.tokenWord[k];
    const lastOfWord = k === line.tokens.length - 1 || line.tokenWord[k + 1] !== line.tokenWord[k];
    if (firstOfWord && /^[([]/.test(word) && depth === 0 && k > start) {
      runs.push({ start, end: k });
      start = k;
    }
    if (firstOfWord) depth += (word.match(/[([]/g) ?? []).length;
    if (lastOfWord) depth = Math.max(0, depth - (word.match(/[)\]]/g) ?? []).length);
    const closes =
      lastOfWord &&
      depth === 0 &&
      // (A bracket closing a word's own ending, "Vorstandsmitglied(er)", closes no remark.)
      (line.tokens[k] === '\0' ||
        (/[)\]]$/.test(word) && !/\p{L}[([]\p{L}{1,5}[)\]]$/u.test(word)) ||
        (/[^.]{2}[.;!?]$/.test(word) && (!/^\p{Lu}?\p{Ll}{0,2}\.$/u.test(word) || SENTENCE_TAIL.test(word)) && !ABBREVIATION.test(word)));
    if (closes) {
      runs.push({ start, end: k + 1 });
      start = k + 1;
    }
  }
  if (start < line.tokens.length) runs.push({ start, end: line.tokens.length });
  return runs;
}

/** Words opening a condition after a caption, in the lexicon's languages. */
const CONDITIONS = new Set(['if', 'when', 'unless', 'si', 'wenn', 'falls', 'se']);

/**
 * The tokens of a condition right after a caption, up to the end of its run or its blank, eight at most ("if the player is
 * under 18", "si l'adhérent est mineur"): they qualify the caption. None when no condition opens there.
 */
export function conditionAfter(tokens: readonly string[], k: number, stop: number): number {
  const rest = tokens.slice(k, stop);
  const blank = rest.indexOf('\0');
  const words = blank === -1 ? rest.length : blank;
  return CONDITIONS.has(rest[0] as string) && words <= 8 && rest.slice(words).every((t) => t === '\0') ? words : 0;
}
