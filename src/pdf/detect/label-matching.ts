/**
 * The lexicon's labels found in a line of normalised tokens (matchLabels): its phrases, longest first, with
 * the conditions some entries set (at the start of a line, not before a number, not
 * "Signed at" a place), none running on into a remark in parentheses.
 */
import { DATE_WORDS, LABELS, type LabelEntry } from './lexicon.js';
import type { PageLanguage } from './page-language.js';
import type { Line, Word } from './page-model.js';

const NUMBER = /^[\d.,]*\d[\d.,%]*$/;

export interface LabelMatch {
  entry: LabelEntry;
  /** Index of the first and last token matched, and of the token the field belongs to. */
  start: number;
  end: number;
  anchor: number;
}

/** What may follow a caption that is the last word of its line (`lastWord`): its blank, or "and" joining the next caption ("Sign and Print Name"). */
const LAST = new Set(['\0', 'and', 'et', 'und', 'y', 'e', '&']);

/** The indexes in LABELS of the entries, by their first word. */
const LABELS_BY_FIRST = new Map<string, number[]>();
LABELS.forEach((entry, index) => {
  const first = entry.tokens[0] as string;
  LABELS_BY_FIRST.set(first, [...(LABELS_BY_FIRST.get(first) ?? []), index]);
});

/**
 * Every label in a line of normalised tokens, longest first, without overlaps. `*` in an entry matches
 * one or more tokens (at most 8). `language`: the page's, when known (entries of other languages are left out).
 */
export function matchLabels(tokens: readonly string[], language?: PageLanguage, remarks: ReadonlySet<number> = new Set()): LabelMatch[] {
  const found: LabelMatch[] = [];
  for (let i = 0; i < tokens.length; i++) {
    // The entries whose first word is this token, or this token and the next read as one (see matchAt).
    const here = LABELS_BY_FIRST.get(tokens[i] as string) ?? [];
    const joined = i + 1 < tokens.length ? LABELS_BY_FIRST.get(`${tokens[i]}${tokens[i + 1]}`) : undefined;
    const candidates = joined ? [...new Set([...here, ...joined])].sort((a, b) => a - b) : here;
    for (const index of candidates) {
      const entry = LABELS[index] as LabelEntry;
      if ((entry.leading && i > 0 && tokens[i - 1] !== '\0') || (entry.langs && language && !entry.langs.includes(language))) continue;
      if (entry.notAfter && tokens.slice(Math.max(0, i - entry.notAfter.within), i).some((t) => entry.notAfter?.words.has(t))) continue;
      const end = matchAt(entry.tokens, tokens, i);
      if (end === -1 || (entry.notBeforeNumber && NUMBER.test(tokens[end + 1] ?? '')) || (entry.lastWord && !LAST.has(tokens[end + 1] ?? '\0'))) continue;
      // (A phrase does not run on into a remark in parentheses: "Firma (del genitore …)" is "Firma" and its remark;
      // a formula's wildcard may hold one, "Fait en trois (3) copies à …, le".)
      if (remarks.size > 0 && !entry.tokens.includes('*') && [...remarks].some((k) => k > i && k <= end)) continue;
      if (signedAt(entry, tokens, end)) continue;
      const anchor = entry.anchor !== undefined ? i + entry.anchor : end;
      found.push({ entry, start: i, end, anchor });
    }
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken = new Set<number>();
  const kept: LabelMatch[] = [];
  for (const m of found) {
    let free = true;
    for (let k = m.start; k <= m.end; k++) if (taken.has(k)) free = false;
    if (!free) continue;
    for (let k = m.start; k <= m.end; k++) taken.add(k);
    kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** How far apart, in the line's size, a date's caption and a signature's stand to be two captions and not one: a tab, not a space. */
const TAB = 1;

/**
 * The captions of a line, each with the remarks in parentheses that open in it. A caption asking for the date and the
 * signature in one ("Ort, Datum Unterschrift") whose date word and signature word stand a tab apart on their line
 * ("Ort, Datum        Unterschrift" under one line), with nothing joining them, is two captions, the date's and the
 * signature's, each asking for its own part of the line.
 */
export function lineLabels(line: Line, language?: PageLanguage): LabelMatch[] {
  const remarks = remarkOpenings(line);
  return matchLabels(line.tokens, language, remarks).flatMap((m) => {
    if (m.entry.type !== 'signature') return [m];
    const k = m.entry.tokens.findLastIndex((t) => DATE_WORDS.has(t));
    const at = m.start + k;
    if (k < 0 || at >= m.end) return [m];
    // (The date's word and the very next word of the line: "Datum & Unterschrift" is joined by its "&".)
    const [d, n] = [line.tokenWord[at] as number, line.tokenWord[at + 1] as number];
    const [date, next] = [line.words[d] as Word, line.words[n] as Word];
    if (n !== d + 1 || next.box.x0 - date.box.x1 < TAB * Math.max(date.size, next.size) || /[,/&]$/.test(date.text.trim())) return [m];
    // (Each part matched on its own, with the remarks in parentheses that open in it.)
    const shifted = (from: number, to: number) => {
      const own = new Set([...remarks].filter((r) => r >= from && r <= to).map((r) => r - from));
      return matchLabels(line.tokens.slice(from, to + 1), language, own).map((x) => ({
        ...x,
        start: x.start + from,
        end: x.end + from,
        anchor: x.anchor + from,
      }));
    };
    const parts = [...shifted(m.start, at), ...shifted(at + 1, m.end)];
    return parts.some((x) => x.entry.type === 'date') && parts.some((x) => x.entry.type === 'signature') ? parts : [m];
  });
}

/** The tokens of a line that open a remark in parentheses (its words' first tokens, "(del" in "Firma (del genitore)"). */
export function remarkOpenings(line: Line): Set<number> {
  const out = new Set<number>();
  for (let k = 0; k < line.tokens.length; k++)
    if ((k === 0 || line.tokenWord[k - 1] !== line.tokenWord[k]) && /^\(/.test((line.words[line.tokenWord[k] as number] as Word).text.trim())) out.add(k);
  return out;
}

/** Participles saying a document is signed, and the words after them that say where ("Signed at", "Getekend te", "Signé à", "Firmado en"). */
const SIGNED = new Set(['signed', 'signe', 'signee', 'getekend', 'firmado', 'firmada', 'firmato', 'firmata', 'assinado', 'assinada', 'unterschrieben']);
const AT = new Set(['at', 'te', 'a', 'en', 'in', 'em', 'zu']);

/** And the words after them that say when, before the date's blank ("Signed on ____", "Signé le ____", "Firmato il ____", "Firmado el ____"). */
const ON = new Set(['on', 'le', 'il', 'el', 'am', 'op']);

/**
 * "Signed at ____", "Getekend te (plaats)": the blank after it is the place of signing, not a signature (but "Signed in the presence
 * of" is a witness's caption); "Signed on ____", "Signé le ____": the date's ("Signed on behalf of" still signs).
 */
function signedAt(entry: LabelEntry, tokens: readonly string[], end: number): boolean {
  if (entry.type !== 'signature' || entry.tokens.length !== 1 || !SIGNED.has(entry.tokens[0] as string)) return false;
  const next = tokens[end + 1] ?? '';
  return (AT.has(next) && tokens[end + 2] !== 'the') || (ON.has(next) && (tokens[end + 2] === '\0' || /^\d/.test(tokens[end + 2] ?? '')));
}

function matchAt(pattern: readonly string[], tokens: readonly string[], at: number): number {
  let t = at;
  for (let p = 0; p < pattern.length; p++) {
    const want = pattern[p];
    if (want === '*') {
      const next = pattern[p + 1];
      if (next === undefined) return -1;
      let k = t + 1;
      while (k < tokens.length && k - t <= 8 && tokens[k] !== next) k++;
      if (tokens[k] !== next) return -1;
      t = k;
      continue;
    }
    if (tokens[t] === want) {
      t++;
    } else if (t + 1 < tokens.length && `${tokens[t]}${tokens[t + 1]}` === want && (tokens[t] as string).length >= 2 && (tokens[t + 1] as string).length >= 2) {
      // OCR sometimes splits a word in two ("إلا سم" for "الاسم"); a letter alone is an elision, not a piece ("Date d’entrée").
      t += 2;
    } else {
      return -1;
    }
  }
  return t - 1;
}
