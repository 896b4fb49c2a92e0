/**
 * Table cells: the cell four rules close around a point, and where a caption in a cell has its blank (the
 * rest of a tall cell, the empty cell after it or under it, the cell under a row of column headers).
 */
import { TOLERANCE } from './page-rules.js';
import { bottomOfRemark, goesOnTo } from './caption-reach.js';
import { isBlankMark, isFillToken } from './lexicon.js';
import { makeLine } from './lines-and-labels.js';
import { matchLabels } from './label-matching.js';
import {
  FIELD_HEIGHT,
  FIELD_WIDTH,
  MIN_BESIDE,
  common,
  overlap1,
  type Geometry,
  type Label,
  type Line,
  type PageModel,
  type Rect,
  type Segment,
  type VRule,
  type Word,
  writingLine,
} from './page-model.js';

/** How far short of the border it meets a cell's side rule may stop. */
const SIDE_SHORT = 6;

/** The table cell (four rules around it, or three and the sides' common top) holding the point, if any. */
export function cellAt(geo: Pick<Geometry, 'h' | 'v'>, x: number, y: number): Rect | undefined {
  let top: Segment | undefined;
  let bottom: Segment | undefined;
  for (const s of geo.h) {
    if (s.x0 - TOLERANCE > x || s.x1 + TOLERANCE < x) continue;
    if (s.y <= y && (!top || s.y > top.y)) top = s;
    if (s.y > y && (!bottom || s.y < bottom.y)) bottom = s;
  }
  let left: VRule | undefined;
  let right: VRule | undefined;
  for (const r of geo.v) {
    if (r.y0 - TOLERANCE > y || r.y1 + TOLERANCE < y) continue;
    if (r.x <= x && (!left || r.x > left.x)) left = r;
    if (r.x > x && (!right || r.x < right.x)) right = r;
  }
  if (!bottom || !left || !right) return undefined;
  // A cell open at the top (the first row of a grid under a paragraph): its sides start together under
  // the text above, and that is its top.
  const sidesTop = Math.max(left.y0, right.y0);
  const open = Math.abs(left.y0 - right.y0) <= TOLERANCE && sidesTop <= y && (!top || top.y < sidesTop - TOLERANCE);
  if (!top && !open) return undefined;
  const cell = { x0: left.x, y0: open ? sidesTop : (top as Segment).y, x1: right.x, y1: bottom.y };
  if (cell.x1 - cell.x0 < 16 || cell.y1 - cell.y0 < 8 || cell.y1 - cell.y0 > 400) return undefined;
  // The four rules must close the cell, not merely lie around the point (a rule may be drawn in pieces
  // that meet or overlap: a tax form's grid row under cells of different widths).
  const spansH = (s: Segment) => covers(geo.h, s.y, cell.x0 + TOLERANCE, cell.x1 - TOLERANCE, geo.v);
  // (A side may be drawn, or read off a scan, in pieces side by side or end to end: pieces at its place that together span
  // the cell close it, also stopping a few points short of the border they meet: a word processor's column rule.)
  const spansV = (r: VRule) => coversV(geo.v, r.x, cell.y0 + SIDE_SHORT, cell.y1 - SIDE_SHORT);
  return (open || spansH(top as Segment)) && spansH(bottom) && spansV(left) && spansV(right) ? cell : undefined;
}

/**
 * Whether the side rules at `x` (within TOLERANCE) run from `y0` to `y1`, one piece or several end to end: a merged cell's
 * side is drawn as the borders of the cells beside it ("Firma" over one cell beside "Nombres" and "DNI N°" over two).
 */
function coversV(v: readonly VRule[], x: number, y0: number, y1: number): boolean {
  let reach = y0;
  for (const r of v.filter((o) => Math.abs(o.x - x) <= TOLERANCE).sort((a, b) => a.y0 - b.y0)) {
    if (r.y0 > reach + TOLERANCE + 1) break;
    reach = Math.max(reach, r.y1);
    if (reach >= y1) return true;
  }
  return reach >= y1;
}

/**
 * Whether the rules at height `y` (within a point), joined where they meet, run from `x0` to `x1`; a gap of a few points
 * where a side rule meets them joins them too (a word processor draws each cell's border apart, leaving the joint open).
 */
function covers(h: readonly Segment[], y: number, x0: number, x1: number, v: readonly VRule[] = []): boolean {
  let reach = x0;
  const joint = (a: number, b: number) =>
    b - a <= TOLERANCE + 1 && v.some((r) => r.x >= a - TOLERANCE - 1 && r.x <= b + 1 && r.y0 <= y + TOLERANCE && r.y1 >= y - TOLERANCE);
  for (const s of h.filter((r) => Math.abs(r.y - y) <= 1).sort((a, b) => a.x0 - b.x0))
    if ((s.x0 <= reach + 1 || joint(reach, s.x0)) && s.x1 > reach) reach = s.x1;
  return reach >= x1;
}

/** The least room beside a date's caption in a cell (its borders bound it: a date written small, "12/05/26"). */
const DATE_IN_CELL = 45;

/**
 * Where to write for a label in a table cell: the rest of a tall cell, the empty cell after it or under it; on the
 * run of underscores that room holds (or that starts right under it), when it holds one ("Firma del Estudiante" over a cell
 * with "F: ______" in it).
 */
export function cellBlank(label: Label, cell: Rect, geo: Geometry, page: PageModel): Rect | undefined {
  const room = cellRoom(label, cell, geo, page);
  if (!room) return undefined;
  const inside = (w: Word) => (w.box.x0 + w.box.x1) / 2 > room.x0 && (w.box.x0 + w.box.x1) / 2 < room.x1 && w.box.y0 >= room.y0 - 1 && w.box.y0 <= room.y1 + 4;
  const run = page.words
    .filter((w) => inside(w) && isFillToken(w.text) && w.box.x1 - w.box.x0 >= 40)
    .sort((a, b) => b.box.x1 - b.box.x0 - (a.box.x1 - a.box.x0))[0];
  if (!run) return room;
  const y1 = writingLine(run.baseline, run.size);
  return { x0: run.box.x0, y0: Math.max(room.y0, y1 - FIELD_HEIGHT[label.entry.type]), x1: run.box.x1, y1 };
}

function cellRoom(label: Label, cell: Rect, geo: Geometry, page: PageModel): Rect | undefined {
  const { box, reach, line } = label;
  const inset = (r: Rect): Rect => ({ x0: r.x0 + 1, y0: r.y0 + 1, x1: r.x1 - 1, y1: r.y1 - 1 });
  const empty = (r: Rect) => emptyCell(r, page.words);
  // (A cell holding a row to fill in over the caption, "En ____, día __", starts, for it, under that row;
  // what is written under it ends its room.)
  const within = (r: Rect) => r.x0 >= cell.x0 - 1 && r.x1 <= cell.x1 + 1 && r.y0 >= cell.y0 - 1 && r.y1 <= cell.y1 + 1;
  const words = page.words.filter((w) => within(w.box));
  const widgets = page.widgets.filter((w) => within(w.box));
  const over = (r: Rect) => r.y1 <= box.y0 - 1;
  const rowToFill = widgets.some((w) => over(w.box)) || words.some((w) => over(w.box) && isFillToken(w.text));
  const inCell = [...words, ...widgets].map((w) => w.box);
  const top = rowToFill ? Math.max(cell.y0, ...inCell.filter(over).map((r) => r.y1)) : cell.y0;
  // (A role printed at the cell's foot, 20 pt or more under the caption, ends it too: "(Nombre, apellidos y firma)" over
  // the room to sign over "Presidente/a".)
  const foot = inCell.filter((r) => r.y0 - box.y1 >= 20 && r.y1 >= cell.y1 - 14);
  const floor = Math.min(cell.y1, ...(rowToFill ? inCell.filter((r) => r.y0 >= box.y1 + 1) : foot).map((r) => r.y0 - 1));
  // (The caption goes on over the rows right under it in lower case, "Signature" over "of Adult or parent/guardian": its room is under them.)
  const capFoot = goesOnTo(box.y1, words, line.size);
  const below = cell.y1 - capFoot;
  // A small caption at the top of a form-grid cell ("Date", "Your signature" in 6 to 8 pt) leaves the rest of the cell.
  const small = box.y1 - box.y0 <= 9 && box.y0 - top <= 0.3 * (cell.y1 - top);
  // (Room more than twice a field's height gives a field's height by the caption: one signs or writes right
  // under it, not all down a tall cell.)
  const field = FIELD_HEIGHT[label.entry.type];
  const fit = (room: number) => (room > 2 * field ? field + 2 : room);
  const under = cellAt(geo, (cell.x0 + cell.x1) / 2, cell.y1 + TOLERANCE + 1);
  // (Unless the cell heads a column of empty rows, one or more (a table going on over the next page): a sign-in
  // sheet's header, however tall, is no place to write.)
  const heads = under !== undefined && empty(under) && headerRow(cell, under, geo, page.words);
  // (The room under it at least 11 pt for a small caption, and up to 16 pt as it grows: a line and a half of its size.)
  const least = small ? 11 : Math.min(16, Math.max(11, 1.4 * (box.y1 - box.y0)));
  // (Its room at least as tall as what is over it, the caption included, when the caption asks for nothing beside it and
  // nothing is written under it: "Signature" two points lower in its cell. Otherwise a fifth more: a caption centred in its row.)
  const alone = !label.colon && !words.some((w) => w.box.y0 >= box.y1 - 1);
  // (A caption asking on its colon over another caption in its cell, a frame of captions, "Local,data:" over "Requerente
  // (Assinatura):", has its room beside it, as on the open page.)
  const stacked = label.colon && !rowToFill && asks(words.filter((w) => w.box.y0 >= box.y1 + 2)).size > 0;
  const middle = (cell.y0 + cell.y1) / 2;
  const next = cellAt(geo, line.rtl ? cell.x0 - TOLERANCE - 1 : cell.x1 + TOLERANCE + 1, middle);
  // (Less than a field's height under it, beside an empty cell as wide as its own, the row's value cell: that cell, "Local e Data | (empty)";
  // not for a form grid's small caption, which heads its own cell.)
  const valueCell =
    !small && next !== undefined && empty(next) && next.x1 - next.x0 >= Math.max(30, cell.x1 - cell.x0) && below < FIELD_HEIGHT[label.entry.type];
  if (below >= Math.max(least, (alone ? 1 : 1.2) * (box.y1 - top)) && !heads && !stacked && !valueCell) {
    // (A remark in parentheses under the caption is the caption's, "Signature :" over "(Pour les sociétés : nom, …)": the room starts under it.)
    const from = ((f) => (cell.y1 - f >= least ? f : capFoot))(bottomOfRemark(capFoot, words, line.size));
    const end = floor - from >= 16 ? floor : cell.y1;
    return inset({ x0: cell.x0, y0: from + 1, x1: cell.x1, y1: from + 1 + fit(end - from - 1) });
  }
  // A caption at the bottom of a tall cell, without a colon, is printed under where one writes (right over it).
  // (Not when words stand over it in the cell: its translation, "Firma Autista" over "Signature Driver", leaves it the room beside.)
  const overIt = words.some((w) => w.box.y1 <= box.y0 + 1);
  if (!label.colon && !overIt && below <= 0.25 * (cell.y1 - cell.y0) && box.y0 - cell.y0 >= Math.max(16, 1.2 * (box.y1 - box.y0))) {
    // (Several captions along the cell's foot, "Principal   Authorized signatory   Manager": each signs over its own, from its start.)
    const others = words.filter((w) => overlap1(w.box.y0, w.box.y1, box.y0, box.y1) > 0 && (w.box.x1 < line.box.x0 - 1 || w.box.x0 > line.box.x1 + 1));
    const next = others.filter((w) => w.box.x0 > line.box.x1).map((w) => w.box.x0 - 4);
    const [x0, x1] =
      others.length > 0 && !line.rtl ? [line.box.x0, Math.min(cell.x1, line.box.x0 + FIELD_WIDTH[label.entry.type], ...next)] : [cell.x0, cell.x1];
    return inset({ x0, y0: box.y0 - 1 - fit(box.y0 - 1 - cell.y0), x1, y1: box.y0 - 1 });
  }
  // A caption in a row too short to write in, under an empty, taller cell of its column ("Unterschrift" under the row left for it): that cell.
  const overCell = label.entry.type === 'text' ? undefined : cellAt(geo, (cell.x0 + cell.x1) / 2, cell.y0 - TOLERANCE - 1);
  const column = (c: Rect) => Math.abs(c.x0 - cell.x0) <= TOLERANCE && Math.abs(c.x1 - cell.x1) <= TOLERANCE;
  if (overCell && cell.y1 - cell.y0 < 24 && overCell.y1 - overCell.y0 >= 1.5 * (cell.y1 - cell.y0) && column(overCell) && empty(overCell))
    return inset(overCell);
  // (A field's height at its foot when the cell is more than twice as tall: written on the cell's bottom.)
  if (next && empty(next) && next.x1 - next.x0 >= 30 && !heads) return inset({ ...next, y0: next.y1 - fit(next.y1 - next.y0) });
  // A column's header in a row of headers ("Name | Signature | Date" over empty rows): the cell under it; over a value
  // written in ("J. Smith" under "Signature"), a table of data: none.
  if (under && headerRow(cell, under, geo, page.words)) {
    if (empty(under)) return inset(under);
    const value = page.words.filter((w) => centredIn(w.box, under));
    if (asks(value).size === 0 && !value.some((w) => /[:：]$/.test(w.text))) return undefined;
  }
  // (The room beside the caption ends at the next words on its row: "Signature of registrant:      Date:".)
  const onRow = words.filter((w) => overlap1(w.box.y0, w.box.y1, box.y0, box.y1) > 0 && (line.rtl ? w.box.x1 <= reach.x0 : w.box.x0 >= reach.x1));
  const [x0, x1] = line.rtl
    ? [Math.max(cell.x0, ...onRow.map((w) => w.box.x1 + 4)), reach.x0 - 4]
    : [reach.x1 + 4, Math.min(cell.x1, ...onRow.map((w) => w.box.x0 - 4))];
  // (A caption centred in its cell titles it, a band's heading ("SIGNATURE" over its section): no room beside it.)
  const centred = reach.x0 - cell.x0 >= 20 && Math.abs(reach.x0 - cell.x0 - (cell.x1 - reach.x1)) <= 0.15 * (cell.x1 - cell.x0);
  if (x1 - x0 + 4 >= (label.entry.type === 'date' ? DATE_IN_CELL : MIN_BESIDE[label.entry.type]) && !centred) {
    // (In a cell much taller than the field, or under another caption in its cell ("Requerente (Assinatura):" under "Local,data:";
    // not under its own translation), the field stands on the caption's row, under what is written above it in the cell.)
    const overWords = words.filter((w) => w.box.y1 <= box.y0 + 1);
    const above = overWords.filter((w) => w.box.x1 > x0 && w.box.x0 < x1).map((w) => w.box.y1 + 1);
    const over = asks(overWords);
    const tall = cell.y1 - cell.y0 > 2 * field || (over.size > 0 && !over.has(label.entry.type));
    // (Not up over another caption's row right over it in its cell, where that caption's field is: "Signature :" single-spaced
    // under "Nom :" in a small cell has the room beside it and under it to the cell's foot.)
    const tops = overWords.map((w) => w.box.y1 + 1);
    const rows = over.size > 0 && !over.has(label.entry.type) && box.y1 - Math.max(...tops) < 0.6 * field ? tops : [];
    const [y0, y1] = tall ? [Math.max(cell.y0, box.y1 + 1 - field, ...above, ...rows), Math.min(cell.y1, box.y1 + 3)] : [Math.max(cell.y0, ...above), cell.y1];
    if (tall && y1 - y0 < 0.6 * field && cell.y1 - y0 >= 0.6 * field) return inset({ x0, y0, x1, y1: cell.y1 });
    // (And in a frame around several rows of captions, "Name:" over "Signature" over "Date:", a field's width from
    // its caption, as on the open page: not all across the frame.)
    const framed = tall && words.some((w) => overlap1(w.box.y0, w.box.y1, box.y0, box.y1) <= 0);
    const width = FIELD_WIDTH[label.entry.type];
    const [cx0, cx1] = framed && x1 - x0 > width ? (line.rtl ? [x1 - width, x1] : [x0, x0 + width]) : [x0, x1];
    return inset({ x0: cx0, y0, x1: cx1, y1 });
  }
  if (under && empty(under)) return inset(under);
  return undefined;
}

/**
 * A caption with no blank on its line whose table cell gives it a blank in another cell (the empty cell
 * beside it, `Fait le | ____`, or the one under a column's header): that cell is its blank.
 */
export function blankInOtherCell(label: Label, geo: Geometry, page: PageModel): boolean {
  const cell = !label.line.tokens.includes('\0') && cellAt(geo, (label.box.x0 + label.box.x1) / 2, (label.box.y0 + label.box.y1) / 2);
  const blank = cell && cellBlank(label, cell, geo, page);
  return !!blank && (blank.y0 >= cell.y1 - 2 || blank.x0 >= cell.x1 - 2 || blank.x1 <= cell.x0 + 2);
}

/**
 * The rows further down a column headed by a caption whose blank is the cell under it ("Signature" over
 * the empty rows of a sign-in sheet): each empty cell of the same sides and about the same height, down
 * to the first that is not of the column (a row written in already is passed over).
 */
export function columnBelow(cell: Rect, blank: Rect, geo: Pick<Geometry, 'h' | 'v'>, page: PageModel): Rect[] {
  const first = cellAt(geo, (blank.x0 + blank.x1) / 2, (blank.y0 + blank.y1) / 2);
  if (!first || Math.abs(first.y0 - cell.y1) > TOLERANCE || !headerRow(cell, first, geo, page.words)) return [];
  return rowsUnder(first, geo, page.words);
}

/** An empty cell heading a column of empty rows, two more at least: a sign-in sheet's rows to sign. */
const emptyColumn = (first: Rect, geo: Pick<Geometry, 'h' | 'v'>, words: readonly Word[]): boolean =>
  emptyCell(first, words) && rowsUnder(first, geo, words).length >= 2;

/** The empty cells of a column under `first`, of its sides and about its height, down to the first that is not of the column. */
function rowsUnder(first: Rect, geo: Pick<Geometry, 'h' | 'v'>, words: readonly Word[]): Rect[] {
  const height = first.y1 - first.y0;
  const out: Rect[] = [];
  const ofColumn = (c: Rect): boolean => Math.abs(c.x0 - first.x0) <= TOLERANCE && Math.abs(c.x1 - first.x1) <= TOLERANCE;
  const below = (c: Rect) => cellAt(geo, (first.x0 + first.x1) / 2, c.y1 + TOLERANCE + 1);
  for (let prev = first; out.length < 60; ) {
    // (A row of a row's height across the column, a week's sub-total on a timesheet, is passed over to the column's next row.)
    const across = below(prev);
    const next = across && !ofColumn(across) && across.x0 < first.x0 - TOLERANCE && across.y1 - across.y0 <= 1.6 * height ? below(across) : across;
    if (!next || !ofColumn(next) || next.y1 - next.y0 < 0.6 * height || next.y1 - next.y0 > 1.6 * height) break;
    // (A row signed already is passed over: the rows under it are still to sign.)
    if (emptyCell(next, words)) out.push({ x0: next.x0 + 1, y0: next.y0 + 1, x1: next.x1 - 1, y1: next.y1 - 1 });
    prev = next;
  }
  return out;
}

/**
 * The further cells along a row headed by a caption whose blank is the cell after it ("Signature de l'enseignant·e" before
 * the hours of a day's attendance grid): each empty cell of the same top and foot and about the same width, to the first
 * that is not (one written in, or holding a form field, ends the row). Only a grid: at least two more such cells.
 */
function rowAcross(cell: Rect, blank: Rect, geo: Pick<Geometry, 'h' | 'v'>, page: PageModel): Rect[] {
  const first = cellAt(geo, (blank.x0 + blank.x1) / 2, (blank.y0 + blank.y1) / 2);
  if (!first || Math.abs(first.x0 - cell.x1) > TOLERANCE || Math.abs(first.y0 - cell.y0) > TOLERANCE || Math.abs(first.y1 - cell.y1) > TOLERANCE) return [];
  const width = first.x1 - first.x0;
  const out: Rect[] = [];
  for (let prev = first; out.length < 40; ) {
    const next = cellAt(geo, prev.x1 + TOLERANCE + 1, (prev.y0 + prev.y1) / 2);
    if (!next || Math.abs(next.y0 - prev.y0) > TOLERANCE || Math.abs(next.y1 - prev.y1) > TOLERANCE) break;
    if (next.x1 - next.x0 < 0.6 * width || next.x1 - next.x0 > 1.6 * width || !emptyCell(next, page.words)) break;
    const inner = { x0: next.x0 + 1, y0: next.y0 + 1, x1: next.x1 - 1, y1: next.y1 - 1 };
    if (page.widgets.some((w) => common(w.box, inner) > 0)) break;
    out.push(inner);
    prev = next;
  }
  return out.length >= 2 ? out : [];
}

/** A sign-in grid's further places after a caption's cell blank: down its column, or along its row. */
export function furtherCells(cell: Rect, blank: Rect, geo: Pick<Geometry, 'h' | 'v'>, page: PageModel): Rect[] {
  return [...columnBelow(cell, blank, geo, page), ...rowAcross(cell, blank, geo, page)];
}

/** What the captions among some words ask for. */
const asks = (words: readonly Word[]) => new Set(words.length ? matchLabels(makeLine([...words]).tokens).map((m) => m.entry.type) : []);

/** Whether a box's centre lies inside a rectangle. */
export const centredIn = (b: Rect, r: Rect) => (b.x0 + b.x1) / 2 > r.x0 && (b.x0 + b.x1) / 2 < r.x1 && (b.y0 + b.y1) / 2 > r.y0 && (b.y0 + b.y1) / 2 < r.y1;

const emptyCell = (r: Rect, words: readonly Word[]) => !words.some((w) => centredIn(w.box, r) && !isFillToken(w.text) && !isBlankMark(w.text));

/**
 * A cell in a row of column headers: a cell beside it in its row holds words too, and the cell under
 * it is of its column (same sides) and a row to write in.
 */
function headerRow(cell: Rect, under: Rect, geo: Pick<Geometry, 'h' | 'v'>, words: readonly Word[]): boolean {
  // (A header of several lines is taller than the rows under it: a row of 13 pt is one to write in, as a
  // spreadsheet's sign-in sheet prints its rows.)
  const tall = Math.min(cell.y1 - cell.y0 - 1, 13);
  if (Math.abs(under.x0 - cell.x0) > TOLERANCE || Math.abs(under.x1 - cell.x1) > TOLERANCE || under.y1 - under.y0 < tall) return false;
  // (Its neighbours end where it ends; a header over two rows of headers beside it, "Unterschrift" beside "Teilnehmer" over
  // "Name | Vorname", has the lower ones beside it.)
  const foot = cell.y1 - TOLERANCE - 1;
  const neighbours = [cellAt(geo, cell.x0 - TOLERANCE - 1, foot), cellAt(geo, cell.x1 + TOLERANCE + 1, foot)].filter(
    (c): c is Rect => c !== undefined && c.y0 >= cell.y0 - TOLERANCE && Math.abs(c.y1 - cell.y1) <= TOLERANCE,
  );
  // (With no cell beside it to tell, a column of empty rows under it, two more at least, makes it a header: a sign-in sheet's last column.)
  if (neighbours.length === 0) return emptyColumn(under, geo, words);
  return neighbours.some((c) => words.some((w) => /[\p{L}]/u.test(w.text) && centredIn(w.box, c)));
}

/**
 * A line of words cut where a table's cell border crosses it: the words of two cells side by side are two
 * captions ("Datum" and "Unterschrift des/der Studierenden" heading two columns), not one.
 */
export function cutAtBorders(lines: Line[], verticals: readonly VRule[]): Line[] {
  return lines.flatMap((line) => {
    if (line.rtl || verticals.length === 0) return [line];
    const mid = (line.box.y0 + line.box.y1) / 2;
    const parts: Word[][] = [[]];
    line.words.forEach((w, i) => {
      const prev = line.words[i - 1];
      if (prev && verticals.some((v) => v.y0 <= mid && v.y1 >= mid && v.x >= prev.box.x1 - 0.5 && v.x <= w.box.x0 + 0.5)) parts.push([]);
      (parts[parts.length - 1] as Word[]).push(w);
    });
    return parts.length === 1 ? [line] : parts.map(makeLine);
  });
}

/**
 * A cell open at its top that a caption heads: side rules running down from the caption's row on either
 * side of it to a rule across their feet ("Unterschrift" at the top left of a box drawn with no top).
 */
function openCellAt(geo: Pick<Geometry, 'h' | 'v'>, box: Rect): Rect | undefined {
  const down = (v: VRule) => v.y0 <= box.y1 + 6 && v.y0 >= box.y0 - 20 && v.y1 >= box.y1 + 12;
  const left = geo.v.filter((v) => down(v) && v.x <= box.x0 + 1 && box.x0 - v.x <= 20).sort((a, b) => b.x - a.x)[0];
  const right = geo.v.filter((v) => down(v) && v.x >= box.x1 && v.x - box.x1 <= 400).sort((a, b) => a.x - b.x)[0];
  if (!left || !right) return undefined;
  const foot = Math.min(left.y1, right.y1);
  const bottom = geo.h.find((s) => Math.abs(s.y - foot) <= TOLERANCE && s.x0 <= left.x + TOLERANCE && s.x1 >= right.x - TOLERANCE);
  return bottom ? { x0: left.x, y0: Math.min(left.y0, right.y0, box.y0 - 1), x1: right.x, y1: bottom.y } : undefined;
}

/**
 * A cell open on the table's outer side that a caption heads: a rule right over the caption and the next one under it
 * start together just before its line (or end together after it), and a side rule joins them on its other side ("Your
 * signature | Date" in a signature row whose outer border is not drawn).
 */
function sideOpenCellAt(geo: Pick<Geometry, 'h' | 'v'>, box: Rect, line: Rect): Rect | undefined {
  const spans = (s: Segment) => s.x0 <= box.x0 + 1 && s.x1 >= box.x1 - 1;
  const top = geo.h.filter((s) => spans(s) && s.y <= box.y0 + 1 && box.y0 - s.y <= 6).sort((a, b) => b.y - a.y)[0];
  const bottom = geo.h.filter((s) => spans(s) && s.y > box.y1 - 1).sort((a, b) => a.y - b.y)[0];
  if (!top || !bottom || bottom.y < box.y1 + 8 || bottom.y - box.y0 > 60) return undefined;
  const joins = (v: VRule) => v.y0 <= top.y + TOLERANCE && v.y1 >= bottom.y - TOLERANCE;
  const right = geo.v.filter((v) => joins(v) && v.x >= box.x1).sort((a, b) => a.x - b.x)[0];
  const left = geo.v.filter((v) => joins(v) && v.x <= box.x0).sort((a, b) => b.x - a.x)[0];
  const start = Math.max(top.x0, bottom.x0);
  if (right && !left && Math.abs(top.x0 - bottom.x0) <= 3 && line.x0 >= start - 2 && line.x0 - start <= 20)
    return { x0: start, y0: top.y, x1: right.x, y1: bottom.y };
  const end = Math.min(top.x1, bottom.x1);
  if (left && !right && Math.abs(top.x1 - bottom.x1) <= 3 && line.x1 <= end + 2 && end - line.x1 <= 400)
    return { x0: left.x, y0: top.y, x1: end, y1: bottom.y };
  return undefined;
}

/**
 * The cell a caption (`box`, on its line `line`) is in: closed all round (or open at the top with its sides starting together), open at the top
 * under it, open on the table's outer side, or the room over a column it heads from outside the grid (`words`: the page's).
 */
export function captionCell(geo: Pick<Geometry, 'h' | 'v'>, box: Rect, line: Rect, words: readonly Word[]): Rect | undefined {
  return cellAt(geo, (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2) ?? openCellAt(geo, box) ?? sideOpenCellAt(geo, box, line) ?? overColumn(geo, box, words);
}

/**
 * A column's header printed over its table, outside its cells (a sign-in sheet's "Signature" over a drawn grid): from the caption
 * down to the first cell under it, when that cell and two more under it at least are empty rows of its column.
 */
function overColumn(geo: Pick<Geometry, 'h' | 'v'>, box: Rect, words: readonly Word[]): Rect | undefined {
  // (The first cell under it, its top drawn or its sides starting together: within two and a half of the caption's heights.)
  const reach = 2.5 * (box.y1 - box.y0);
  const first = cellAt(geo, (box.x0 + box.x1) / 2, box.y1 + reach);
  if (!first || first.y0 < box.y1 - 1 || first.y0 > box.y1 + reach || box.x0 < first.x0 - 2 || box.x1 > first.x1 + 2) return undefined;
  if (!emptyColumn(first, geo, words)) return undefined;
  return { x0: first.x0, y0: box.y0 - 1, x1: first.x1, y1: first.y0 };
}
