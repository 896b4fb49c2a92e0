/**
 * Places to initial written as short blanks opening a paragraph: "_____ Initial 1. REGISTRATION" (the
 * blank captioned after it), and the blanks that open each point under "Please initial all points
 * below" or "Initial next to each statement" (the instruction once, the blanks after it), or end each row
 * listed right under "Please indicate with your initials that you have read each section:"; and a short blank
 * anywhere on its line with "(initial)" right after it ("… for the bill. ______ (initial)"). Each blank, at
 * most 80 pt long, is a place to initial; so are short lines drawn before statements under such an instruction or an
 * "INITIAL" heading, and the boxes of a statement table's last column under "Please initial each box" (`initialBoxes`).
 */
import { isFillToken } from './lexicon.js';
import { centredIn } from './table-cells.js';
import { normalizeToken } from './token-folding.js';
import { FIELD_HEIGHT, overlap1, type Line, type Rect, type Segment, type Word, writingLine } from './page-model.js';

/** A place to initial, and the line that asks for it. */
type Place = { rect: Rect; line: Line; type: 'initials' };

/** The word after the blank that names it a place to initial, in the languages of the lexicon. */
const INITIAL = new Set(['initial', 'initials', 'initiales', 'iniciales', 'paraphe', 'rubrica', 'sigla', 'kurzel'].map(normalizeToken));
/** After "initial" as a verb, the words that say which blanks: "initial all points below", "initial each paragraph". */
const WHICH = new Set(['all', 'each', 'every', 'below', 'the', 'next']);
/** Before "initials", the words that make it an instruction: "please initial", "indicate with your initials", "con sus iniciales". */
const ASKING = new Set(['please', 'your', 'sus', 'vos', 'seus', 'suas', 'ihren', 'ihr']);

function initialBlanks(lines: Line[], segments: readonly Segment[], instruction: Line | undefined): Place[] {
  const opening = (line: Line): Word | undefined => {
    const first = line.words[0];
    return !line.rtl && first && isFillToken(first.text) && first.box.x1 - first.box.x0 <= 80 && line.words.length > 1 ? first : undefined;
  };
  const out: Place[] = [];
  // (A blank with its caption in parentheses right after it: "______ (initial)"; or without them, ending the line after a
  // sentence's end: "… left overnight. _____ Initials".)
  const remarked = (line: Line): Word | undefined =>
    line.words.find((w, k) => {
      const next = line.words[k + 1];
      if (!isFillToken(w.text) || w.box.x1 - w.box.x0 > 80 || next === undefined) return false;
      if (/^\(\p{L}+\)$/u.test(next.text)) return INITIAL.has(normalizeToken(next.text.slice(1, -1)));
      return k > 0 && k + 2 === line.words.length && /[.;]$/.test((line.words[k - 1] as Word).text) && INITIAL.has(normalizeToken(next.text));
    });
  // (Under the instruction, the rows it lists, each a heading with its colon and a short blank after it: "GENERAL RELEASE: _______",
  // down to the first row that is not one.)
  const listed = new Set<Line>();
  const heading = (l: Line) => {
    const last = l.words[l.words.length - 1] as Word;
    return (
      !l.rtl && l.words.length >= 2 && isFillToken(last.text) && last.box.x1 - last.box.x0 <= 80 && /[:：]$/.test((l.words[l.words.length - 2] as Word).text)
    );
  };
  for (const l of instruction ? lines.filter((o) => o.baseline > instruction.baseline).sort((a, b) => a.baseline - b.baseline) : []) {
    if (!heading(l)) break;
    listed.add(l);
  }
  for (const line of lines) {
    const open = opening(line);
    const blank = line.rtl ? undefined : (open ?? remarked(line) ?? (listed.has(line) ? line.words[line.words.length - 1] : undefined));
    if (!blank) continue;
    const captioned = INITIAL.has(line.tokens[1] as string) || blank !== open;
    if (!captioned && !(instruction && line.baseline > instruction.baseline)) continue;
    out.push(placeOn(blank.box.x0, blank.box.x1, writingLine(blank.baseline, blank.size), line, lines));
  }
  // (A short line drawn before a statement's first word, under the instruction or under an "Initial" heading its column alone on
  // its row: "INITIAL" over "____ I certify that I am 18 years or older."; not a name's "Initial" beside "First Name".)
  const alone = (h: Line) => !lines.some((l) => l !== h && Math.abs(l.baseline - h.baseline) <= 0.5 * h.size);
  const headings = lines.filter((l) => l.tokens.length === 1 && INITIAL.has(l.tokens[0] as string) && alone(l));
  for (const s of headings.length > 0 || instruction ? segments : []) {
    if (s.x1 - s.x0 < 15 || s.x1 - s.x0 > 80) continue;
    const line = lines.find((l) => !l.rtl && l.box.x0 >= s.x1 - 2 && l.box.x0 - s.x1 <= 12 && Math.abs(l.baseline - s.y) <= 0.6 * l.size + 2);
    if (!line) continue;
    const headed = headings.some((h) => h.baseline < line.baseline && overlap1(h.box.x0, h.box.x1, s.x0, s.x1) > 0);
    // (Up to the statement over it: its room is the row's.)
    if (headed || (instruction && line.baseline > instruction.baseline)) out.push(placeOn(s.x0, s.x1, s.y, line, lines, line.box.x1));
  }
  return out;
}

/** A place to initial standing on a blank from x0 to x1 at height y1 on its line, up to the text over it (over x0 to `reach`). */
function placeOn(x0: number, x1: number, y1: number, line: Line, lines: readonly Line[], reach = x1): Place {
  let top = y1 - FIELD_HEIGHT.initials;
  for (const l of lines) if (l !== line && l.box.y1 <= line.box.y0 + 1 && l.box.y1 > top && overlap1(l.box.x0, l.box.x1, x0, reach) > 0) top = l.box.y1;
  return { rect: { x0, y0: top, x1, y1 }, line, type: 'initials' };
}

/** A page's places to initial: its blanks (`initialBlanks`) and its boxes (`initialBoxes`), under the page's instruction read once. */
export function initialPlaces(lines: Line[], segments: readonly Segment[], words: readonly Word[]): Place[] {
  const instruction = instructionOf(lines);
  return [...initialBlanks(lines, segments, instruction), ...initialBoxes(instruction, segments, words)];
}

/** The page's first instruction to initial: "Please initial …", "… with your initials …", "Initial each …". */
const instructionOf = (lines: readonly Line[]): Line | undefined =>
  lines
    .filter((l) => l.tokens.some((t, k) => INITIAL.has(t) && (ASKING.has(l.tokens[k - 1] as string) || WHICH.has(l.tokens[k + 1] as string))))
    .sort((a, b) => a.baseline - b.baseline)[0];

/**
 * The boxes to initial of a table under the instruction ("Please initial each box to indicate your agreement" over rows of
 * statements, each with an empty box at its right): the cells of a narrow last column (at most 120 pt), between the rules
 * it shares with the statements' column, nothing written in them. The instruction is their caption.
 */
function initialBoxes(instruction: Line | undefined, segments: readonly Segment[], words: readonly Word[]): Place[] {
  if (!instruction || !instruction.tokens.some((t) => t === 'box' || t === 'boxes')) return [];
  const under = segments.filter((s) => s.y > instruction.baseline);
  const same = (a: Segment, b: Segment) => Math.abs(a.x0 - b.x0) <= 2 && Math.abs(a.x1 - b.x1) <= 2;
  const out: Place[] = [];
  for (const s of under) {
    if (s.x1 - s.x0 > 120 || s.x1 - s.x0 < 20) continue;
    // (The column's rule goes on the statements' rule on its left, at its height.)
    if (!under.some((o) => Math.abs(o.y - s.y) <= 1 && Math.abs(o.x1 - s.x0) <= 3 && o.x1 - o.x0 > 2 * (s.x1 - s.x0))) continue;
    const next = under.filter((o) => same(o, s) && o.y > s.y + 8).sort((a, b) => a.y - b.y)[0];
    if (!next || next.y - s.y > 120) continue;
    const cell = { x0: s.x0 + 1, y0: s.y + 1, x1: s.x1 - 1, y1: next.y - 1 };
    if (words.some((w) => centredIn(w.box, cell))) continue;
    out.push({ rect: cell, line: instruction, type: 'initials' });
  }
  return out;
}
