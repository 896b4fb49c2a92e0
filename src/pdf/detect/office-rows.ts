/**
 * Offices whose holders sign over their titles, at a certificate's foot where no line is drawn: a row of two or
 * more short captions in a page's lower half, each naming an office ("Lab-In-Charge   Head of the Department",
 * "(INTERNAL EXAMINER)   (EXTERNAL EXAMINER)"), nothing else on the row, and a signature's room clear above each.
 * Each holder signs in the room over the title.
 */
import { written } from './blank-geometry.js';
import { topOver } from './blank-space.js';
import { matchLabels } from './label-matching.js';
import { FIELD_HEIGHT, FIELD_WIDTH, onRowOf, type Geometry, type Line, type PageModel, type Rect } from './page-model.js';

/**
 * Words naming an office whose holder signs for it: "Internal Examiner", "Head of the Department", "Lab-In-Charge", "Principal/HOD".
 * (Not the lexicon's signers: "Le président du BDE" over the room where the president signs, under it.)
 */
const OFFICES = new Set([
  'examiner',
  'examiners',
  'head',
  'hod',
  'principal',
  'charge',
  'guide',
  'dean',
  'registrar',
  'warden',
  'mentor',
  'superintendent',
  'controller',
]);

/** Up to this many words on a title's line. */
const WORDS = 6;
/** Titles of one row stand at least this far apart. */
const APART = 60;
/** The room over a title is at least this tall, clear of anything drawn or written. */
const LEAST = 30;

/** The rooms over the titles of the page's rows of offices, with the title each is over. */
export function officeRooms(page: PageModel, lines: readonly Line[], geo: Geometry): Array<{ title: Line; room: Rect }> {
  const title = (l: Line) =>
    l.words.length <= WORDS &&
    written(l) &&
    !l.tokens.includes('\0') &&
    !l.words.some((w) => /[:：\d]/.test(w.text)) &&
    l.tokens.some((t) => OFFICES.has(t)) &&
    // (A caption asking for something else is a form's: "Student Name   Teacher Name".)
    matchLabels(l.tokens).every((m) => m.entry.type === 'signature');
  const out: Array<{ title: Line; room: Rect }> = [];
  const seen = new Set<Line>();
  for (const line of lines) {
    // (At the foot of a page: a row of titles at its top heads columns.)
    if (seen.has(line) || !title(line) || line.box.y0 < page.height / 2) continue;
    const row = lines.filter((l) => onRowOf(l, line)).sort((a, b) => a.box.x0 - b.box.x0);
    for (const l of row) seen.add(l);
    if (row.length < 2 || !row.every(title) || row.some((l, i) => i > 0 && l.box.x0 - (row[i - 1] as Line).box.x1 < APART)) continue;
    const rooms = row.map((l) => roomOver(l, page, lines, geo));
    if (rooms.every((r) => r !== undefined)) row.forEach((l, i) => out.push({ title: l, room: rooms[i] as Rect }));
  }
  return out;
}

/** A signature's room over a title, from where it starts: cut at the page's edge and the rules beside it, stopped under whatever is over it. */
function roomOver(line: Line, page: PageModel, lines: readonly Line[], geo: Geometry): Rect | undefined {
  const y1 = line.box.y0 - 2;
  const x0 = line.rtl ? Math.max(0, line.box.x1 - FIELD_WIDTH.signature) : line.box.x0;
  let x1 = line.rtl ? line.box.x1 : Math.min(page.width, x0 + FIELD_WIDTH.signature);
  for (const v of geo.v) if (v.x > line.box.x1 && v.x < x1 && v.y0 <= y1 && v.y1 >= y1 - FIELD_HEIGHT.signature) x1 = v.x;
  const y0 = topOver(line, x0, x1, y1, FIELD_HEIGHT.signature, page, lines, geo);
  return y1 - y0 >= LEAST && x1 - x0 >= 60 ? { x0, y0, x1, y1 } : undefined;
}
