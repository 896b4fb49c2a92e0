/**
 * The French "Fait à …, le …" (the place and date a form is signed at) and its parts set apart: the date after
 * "le", on its blank, in the room after it, or on a line drawn after it; "Le ……" on its own line, under "Fait à"
 * or after a signature's blank; "le :" after a handwritten mention ("Bon pour accord le :").
 */
import { isBlankMark, isFillToken } from './lexicon.js';
import { splitWord } from './word-tokens.js';
import { sentenceStart } from './lines-and-labels.js';
import { normalizeToken } from './token-folding.js';
import { FIELD_WIDTH, dateOnLine, onRowOf, overlap1, type Label, type Line, type Rect, type Segment, type Word, writingLine } from './page-model.js';
import { matchLabels } from './label-matching.js';
import { dateSeparator } from './date-parts.js';

/** The first line on `line`'s row that starts right of `x`: where the room after a caption ends. */
const nextOnRow = (line: Line, lines: readonly Line[], x: number): Line | undefined =>
  lines.filter((l) => l !== line && onRowOf(l, line) && l.box.x0 > x).sort((a, b) => a.box.x0 - b.box.x0)[0];

/** Whether `tokens` open with a signature's caption: the rest of a formula's row ("Le ____   Signature : ____"). */
const opensSignature = (tokens: readonly string[]): boolean => matchLabels(tokens).some((m) => m.start === 0 && m.entry.type === 'signature');

/** "Fait", "faite": what a form says was done at its place ("Fait à Lyon", "Inscription faite à Vannes"). */
const DONE = new Set(['fait', 'faite', 'faits', 'faites']);

/** Words written where the date goes, for the writer to replace ("le DATE", "le ..... (date)", "le jj/mm/aaaa"). */
const PLACEHOLDER = new Set(['date', 'jj', 'mm', 'aaaa', 'aa', 'dd', 'yyyy'].map(normalizeToken));

/**
 * The date of a French "Fait à …, le …" (the place and date a form is signed at): right after "le", over
 * the blank or the placeholder written there, at least 60 pt wide (a date's width with nothing after "le"). Nothing when a word of another kind
 * follows "le" (a caption of the next field on the same line).
 */
export function dateAfterLe(label: Label, lines: Line[], pageWidth: number, rules: readonly Segment[] = []): Rect | undefined {
  const { line } = label;
  if (line.rtl || label.entry.tokens[0] !== 'fait' || label.entry.tokens[label.entry.tokens.length - 1] !== 'le') return undefined;
  const le = line.words.findIndex((w) => w.box.x0 >= label.box.x0 - 0.5 && splitWord(w.text).includes('le'));
  if (le === -1) return undefined;
  const after = line.words.slice(le + 1);
  let last = -1;
  for (const [i, w] of after.entries()) {
    const words = splitWord(w.text);
    if (isFillToken(w.text) || /^[\s./_\-…]+$/.test(w.text) || (words.length > 0 && words.every((t) => PLACEHOLDER.has(t) || /^[\d.]+$/.test(t)))) last = i;
    else break;
  }
  if (last === -1 && after.length > 0) return undefined;
  // (Ending its line, "Fait à ____, le" over a blank alone under the formula's start: the date is on that blank.)
  const run = after.length === 0 ? runUnder(line, lines) : undefined;
  if (run) return dateOnLine(run, lines, run.box.x0, run.box.x1, writingLine(run.baseline, run.size), rules);
  const leWord = line.words[le] as Word;
  const x0 = last === -1 ? leWord.box.x1 + 3 : (after[0] as Word).box.x0;
  const end = last === -1 ? x0 : (after[last] as Word).box.x1;
  const next = line.words[le + 2 + last];
  const x1 = Math.min(Math.max(x0 + (after.length === 0 ? FIELD_WIDTH.date : 60), end), next ? next.box.x0 - 2 : pageWidth);
  if (x1 - x0 < 30) return undefined;
  const y1 = writingLine(line.baseline, line.size);
  return dateOnLine(line, lines, x0, x1, y1, rules);
}

/** A blank alone on the line right under `line`, starting under its start: where a formula ending its line goes on. */
function runUnder(line: Line, lines: readonly Line[]): Line | undefined {
  return lines.find(
    (l) =>
      l.baseline > line.baseline &&
      l.baseline - line.baseline <= 2.2 * line.size &&
      Math.abs(l.box.x0 - line.box.x0) <= line.size &&
      l.tokens.length === 1 &&
      l.tokens[0] === '\0' &&
      l.box.x1 - l.box.x0 >= 60,
  );
}

/**
 * A French "Fait à … le …" set apart on its row or over two rows: "le" alone (its blank a run of its own or the room
 * after it, up to the next words) after "Fait à" and the place's room or blank, or after "Fait à Lyon,"; or "Le ……"
 * over "à ……", or alone on its line with its blank, or alone under "Fait à …". The date is after "le".
 */
function splitLeFields(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    const t = line.tokens;
    // (Its blank may come in a date's parts, the century printed or not: "Le ……/……/……", "Le ___/___/20___".)
    // (Or its blank before a signature's caption on its line: "Le ____/____/______   Signature : ____".)
    const upTo = t.findIndex((k, i) => i > 0 && k !== '\0' && !(i > 2 && /^(19|20)$/.test(k)));
    const signs = upTo > 1 && opensSignature(t.slice(upTo));
    const parts = (t.length > 2 && upTo === -1) || signs;
    if (line.rtl || t[0] !== 'le' || (t.length > 2 && !parts) || (t.length === 2 && t[1] !== '\0')) continue;
    const row = lines.filter((l) => l !== line && onRowOf(l, line));
    const next = nextOnRow(line, lines, line.box.x1);
    // Its blank: a run after it, on its line or alone further along the row; else the room up to the next words.
    // (The whole run, in its parts too: "Le      ____/____/______".)
    const runAlone =
      next && next.box.x0 - line.box.x1 <= 4 * line.size && next.tokens.every((k) => k === '\0') ? { ...(next.words[0] as Word), box: next.box } : undefined;
    const fill = t.length === 2 || parts ? line.words[line.tokenWord[1] as number] : runAlone;
    // (Or "À" alone before it, "Fait" left out: "A            le".)
    const placeLead = (l: Line) => l.tokens.slice(-2).join(' ') === 'fait a' || (l.tokens.length === 1 && /^[AÀ]$/.test((l.words[0] as Word).text.trim()));
    const before = row.find((l) => l.box.x1 <= line.box.x0 && line.box.x0 - l.box.x1 <= 250 && placeLead(l));
    // (Or the place written after "Fait à" with its comma, the date's blank set apart after it or on the next line: "Fait à Lyon,   le ____".)
    const placeLine = (l: Line) => l.tokens[0] === 'fait' && l.tokens[1] === 'a' && /,$/.test(l.words.at(-1)?.text ?? '');
    // (A line over this one, up to `reach` line heights, its left edge near this one's.)
    const over = (l: Line, reach = 1.6) =>
      l.baseline < line.baseline && line.baseline - l.baseline <= reach * line.size && Math.abs(l.box.x0 - line.box.x0) <= 2 * line.size;
    // (Or a sentence ending on its place after "fait(e) à", "Inscription faite à Vannes" over "le : ……": its date on the next line.)
    const placeEnds = (l: Line) => {
      const k = l.tokens.lastIndexOf('a');
      return k >= 1 && DONE.has(l.tokens[k - 1] as string) && l.tokens.length - k - 1 >= 1 && l.tokens.length - k - 1 <= 3 && !l.tokens.slice(k).includes('\0');
    };
    const placed = lines.some(
      (l) => (placeLine(l) && ((row.includes(l) && l.box.x1 <= line.box.x0 && line.box.x0 - l.box.x1 <= 250) || over(l))) || (placeEnds(l) && over(l, 2.2)),
    );
    const stacked = lines.find((l) => l.box.y0 > line.box.y1 && l.baseline - line.baseline <= 2.2 * line.size && /^a( \0)?$/.test(l.tokens.join(' ')));
    // (Or "Le ……" alone on its line with its blank, in a visa box: the date of whoever signs there; "Le: ……" too.)
    const alone =
      (t.length === 2 || parts || (t.length === 1 && fill === runAlone)) && fill !== undefined && /^Le:?$/.test((line.words[0] as Word).text.trim());
    // (Or "Le :" alone on its line with room after it: the date goes after its colon; the slashes of its parts
    // may be printed there, "Le :   /   /", the room then reaching past the last.)
    const slashes = line.words.slice(2);
    const colon =
      t.length === 1 &&
      line.words.length >= 2 &&
      (line.words[0] as Word).text.trim() === 'Le' &&
      (line.words[1] as Word).text.trim() === ':' &&
      slashes.every((w) => w.text.trim() === '/');
    // (Or "Le" alone under "Fait à …", its left edge under the formula's: the date goes in the room after it; "le" under "à ____" too,
    // the formula's place set on a line of its own under "Fait en double exemplaire,".)
    const faitOver =
      t.length === 1 &&
      /^[Ll]e$/.test((line.words[0] as Word).text.trim()) &&
      lines.some(
        (l) =>
          ((l.tokens[0] === 'fait' && l.tokens[1] === 'a') || (l.tokens.length === 2 && l.tokens[0] === 'a' && l.tokens[1] === '\0')) &&
          l.box.y1 <= line.box.y0 + 1 &&
          line.baseline - l.baseline <= 2.2 * line.size &&
          Math.abs(l.box.x0 - line.box.x0) <= 2 * line.size,
      );
    if (!before && !(placed && fill) && !(stacked && fill) && !alone && !colon && !faitOver) continue;
    const x0 = fill ? fill.box.x0 : (line.words[0] as Word).box.x1 + 3;
    const x1 = fill
      ? parts
        ? (line.words[signs ? (line.tokenWord[upTo - 1] as number) : line.words.length - 1] as Word).box.x1
        : fill.box.x1
      : Math.min(Math.max(x0 + FIELD_WIDTH.date, (slashes[slashes.length - 1]?.box.x1 ?? 0) + 20), next ? next.box.x0 - 4 : x0 + FIELD_WIDTH.date + 60);
    if (x1 - x0 < 30) continue;
    const y1 = writingLine(line.baseline, line.size);
    out.push({ rect: dateOnLine(line, lines, x0, x1, y1), line });
  }
  return out;
}

/**
 * A French "A ……, le ……" opening its line or its last sentence ("Fait" left out): the date on the blank after "le", also
 * in its parts ("A ……, le …. /.… /…..…"), and when the signature's caption follows on its row ("A ……… le ………   Signature").
 */
function placeLeFields(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    // (Or opening the line's last sentence: "Lu et approuvé. A ……, le ……".)
    const o = sentenceStart(line, line.tokens.length);
    const t = line.tokens.slice(o);
    const at = (i: number) => line.tokenWord[o + i] as number;
    if (line.rtl || t[0] !== 'a' || t[1] !== '\0' || t[2] !== 'le' || !/^[AÀ]$/.test((line.words[at(0)] as Word).text.trim())) continue;
    // (Its row may go on with the signature's caption: "A ……… le ………   Signature".)
    const upTo = t.findIndex((k, i) => i > 3 && k !== '\0');
    if (upTo !== -1 && !opensSignature(t.slice(upTo))) continue;
    const after = line.words.slice(at(2) + 1, upTo === -1 ? undefined : at(upTo));
    // (Its blank may come in a date's parts: "A ______ le ___/___/____".)
    if (after.length === 0 || !t.slice(3, upTo === -1 ? undefined : upTo).every((k) => k === '\0')) continue;
    if (!after.every((w) => isBlankMark(w.text))) continue;
    const [first, last] = [after[0] as Word, after[after.length - 1] as Word];
    if (last.box.x1 - first.box.x0 < 30) continue;
    out.push({ rect: dateOnLine(line, lines, first.box.x0, last.box.x1, writingLine(line.baseline, line.size)), line });
  }
  return out;
}

/**
 * A French "Le …… à ……" opening its line or its last sentence, the date before the place (and the signature's caption after them on
 * its row, or nothing): the date on the blank after "Le".
 */
function leThenPlace(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    const o = sentenceStart(line, line.tokens.length);
    const t = line.tokens.slice(o);
    if (
      line.rtl ||
      t[0] !== 'le' ||
      t[1] !== '\0' ||
      t[2] !== 'a' ||
      t[3] !== '\0' ||
      !/^Le$/.test((line.words[line.tokenWord[o] as number] as Word).text.trim())
    )
      continue;
    if (t.length > 4 && !opensSignature(t.slice(4))) continue;
    const blank = line.words[line.tokenWord[o + 1] as number] as Word;
    if (blank.box.x1 - blank.box.x0 < 30) continue;
    out.push({ rect: dateOnLine(line, lines, blank.box.x0, blank.box.x1, writingLine(line.baseline, line.size)), line });
  }
  return out;
}

/**
 * A French "à …… le :" ending its line with a line drawn on its row right after it ("Lu et approuvé, à
 * Crégy le : ________"): the date is on that line.
 */
function leOnRule(lines: Line[], segments: readonly Segment[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    const t = line.tokens;
    if (line.rtl || t[t.length - 1] !== 'le' || !t.slice(0, -2).includes('a')) continue;
    const rule = segments.find(
      (s) => Math.abs(s.y - line.baseline) <= 0.5 * line.size && s.x0 >= line.box.x1 - 2 && s.x0 - line.box.x1 <= 3 * line.size && s.x1 - s.x0 >= 40,
    );
    if (!rule || lines.some((l) => l !== line && onRowOf(l, line) && overlap1(l.box.x0, l.box.x1, line.box.x1, rule.x0) > 0)) continue;
    out.push({ rect: dateOnLine(line, lines, rule.x0, rule.x1, rule.y), line });
  }
  return out;
}

/**
 * A French "Le ……" after a signature's blank on its line ("Signature : ________   Le : ________"): the date
 * on its blank (also in its parts, "Le ……/……/……").
 */
function leAfterSignature(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    const t = line.tokens;
    const k = t.findIndex(
      (x, i) => x === 'le' && i > 0 && t[i - 1] === '\0' && t[i + 1] === '\0' && /^Le:?$/.test((line.words[line.tokenWord[i] as number] as Word).text.trim()),
    );
    if (line.rtl || k < 0 || !matchLabels(t.slice(0, k - 1)).some((m) => m.entry.type === 'signature')) continue;
    let last = k + 1;
    while (t[last + 1] === '\0') last++;
    const words = line.tokenWord.slice(k + 1, last + 1).map((i) => line.words[i] as Word);
    const x0 = Math.min(...words.map((w) => w.box.x0));
    const x1 = Math.max(...words.map((w) => w.box.x1));
    if (x1 - x0 < 30) continue;
    out.push({ rect: dateOnLine(line, lines, x0, x1, writingLine(line.baseline, line.size)), line });
  }
  return out;
}

/**
 * A French "le :" after a handwritten mention ("Bon pour accord le :", "Mention « lu et approuvé » ______ le : ______"): the date
 * the mention is written on, on the blank after the colon or in the room after it up to the next words.
 */
function leAfterMention(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    const t = line.tokens;
    const k = t.lastIndexOf('le');
    if (line.rtl || k < 1) continue;
    const le = line.tokenWord[k] as number;
    const colonWord = line.words.findIndex((w, i) => i >= le && w.text.trim().endsWith(':'));
    if (colonWord < 0 || colonWord > le + 1) continue;
    const before = t.slice(0, k).filter((x) => x !== '\0');
    if (!matchLabels(before).some((m) => m.entry.type === 'signature' && m.entry.strength === 'weak' && m.end === before.length - 1)) continue;
    const after = line.words[colonWord + 1];
    const colon = line.words[colonWord] as Word;
    const blank = after && isBlankMark(after.text) ? after : undefined;
    const x0 = blank ? blank.box.x0 : colon.box.x1 + 4;
    const next = after ?? nextOnRow(line, lines, x0);
    const x1 = blank ? blank.box.x1 : Math.min(x0 + FIELD_WIDTH.date, next ? next.box.x0 - 4 : Infinity);
    if (x1 - x0 < 30) continue;
    out.push({ rect: dateOnLine(line, lines, x0, x1, writingLine(line.baseline, line.size)), line });
  }
  return out;
}

/**
 * A French "Le" opening its line before a date's three parts and nothing else ("Le ……/……/……", "LE : __ / __ / ____"): the date
 * from its first part to its last. ("Le ____" alone may open a sentence; the slashes say a date.)
 */
function leThenParts(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    const [lead, ...rest] = line.words;
    const parts = rest[0]?.text.trim() === ':' ? rest.slice(1) : rest;
    if (line.rtl || !lead || !/^le:?$/i.test(lead.text.trim()) || parts.length < 3) continue;
    const [first, last] = [parts[0] as Word, parts[parts.length - 1] as Word];
    if (!parts.every((w) => isBlankMark(w.text)) || parts.filter(dateSeparator).length < 2 || dateSeparator(first) || dateSeparator(last)) continue;
    if (last.box.x1 - first.box.x0 < 40) continue;
    out.push({ rect: dateOnLine(line, lines, first.box.x0, last.box.x1, writingLine(line.baseline, line.size)), line });
  }
  return out;
}

/**
 * The French "le" dates set apart or after a blank of their own: "le" alone, "A ……, le ……", "Le …… à ……", "à … le :" before a drawn line,
 * "Le ……" after a signature's blank, "le :" after a handwritten mention.
 */
export function frenchLeDates(lines: Line[], segments: readonly Segment[], drawn: readonly Line[]): Array<{ rect: Rect; line: Line }> {
  return [
    ...splitLeFields(lines),
    ...placeLeFields(lines),
    ...leThenPlace(lines),
    ...leOnRule(lines, segments),
    ...leAfterSignature([...lines, ...drawn]),
    ...leAfterMention(lines),
    ...leThenParts(lines),
  ];
}
