/**
 * Officers who sign a record between their offices and their names, where no line is drawn: minutes closing with
 * "VºBº Presidencia      El secretario" over the names of the president and the secretary.
 */
import { normalizeToken } from './token-folding.js';
import { FIELD_HEIGHT, FIELD_WIDTH, overlap1, type Geometry, type Line, type PageModel, type Rect } from './page-model.js';

/** A board's offices, in the corpus's languages (normalised: accents folded). */
const OFFICERS = new Set(
  [
    ...['president', 'presidente', 'presidenta', 'chairman', 'chairwoman', 'chairperson', 'chair', 'voorzitter', 'vorsitzender', 'vorsitzende'],
    ...['secretary', 'secretaire', 'secretario', 'secretaria', 'segretario', 'segretaria', 'secretaris', 'schriftfuhrer', 'schriftfuhrerin'],
    ...['protokollfuhrer', 'protokollfuhrerin', 'verbalizzante', 'treasurer', 'tresorier', 'tresoriere', 'tesoriere', 'tesorero', 'tesorera'],
    ...['tesoureiro', 'tesoureira', 'penningmeester', 'kassenwart', 'kassierer'],
  ].map(normalizeToken),
);
/** The room over a name is at least this tall, clear of anything written or drawn. */
const LEAST = 30;

/** A person's name: two to five words, each opening with a capital (a particle aside: "Felix von Courten"). */
function personName(words: readonly string[]): boolean {
  const named = words.filter((w) => /^\p{Lu}/u.test(w));
  return words.length >= 2 && words.length <= 5 && named.length >= 2 && words.every((w) => /^\p{Lu}/u.test(w) || /^\p{Ll}{1,3}$/u.test(w));
}

/**
 * People who sign side by side under their offices, where no line is drawn: a row of two or more persons' names and
 * nothing else, each under the office its holder signs for ("VºBº Presidencia      El secretario" over "Juan Ignacio
 * Rodríguez de León      Sergio Delgado Quintero", closing minutes): each signs in the room between office and name.
 * (Names alone in a row, without their offices, were right on fewer than one in five of the development documents.)
 */
export function namedRowRooms(page: PageModel, lines: readonly Line[], geo: Geometry): Array<{ line: Line; room: Rect }> {
  const name = (l: Line) => !l.rtl && !l.tokens.includes('\0') && !l.words.some((w) => /[:：\d@]/.test(w.text)) && personName(l.words.map((w) => w.text));
  const out: Array<{ line: Line; room: Rect }> = [];
  const seen = new Set<Line>();
  for (const line of lines) {
    if (seen.has(line) || !name(line)) continue;
    const row = lines.filter((l) => Math.abs(l.baseline - line.baseline) <= 0.3 * line.size).sort((a, b) => a.box.x0 - b.box.x0);
    for (const l of row) seen.add(l);
    if (row.length < 2 || !row.every(name) || row.some((l, i) => i > 0 && l.box.x0 - (row[i - 1] as Line).box.x1 < 60)) continue;
    const rooms = row.map((l) => roomOverName(l, page, lines, geo));
    if (rooms.every((r) => r !== undefined)) row.forEach((l, i) => out.push({ line: l, room: rooms[i] as Rect }));
  }
  return out;
}

/** The room over a name, under the office printed over it (within 130 pt): from 2 pt over the name, a signature's height, clear of the office. */
function roomOverName(line: Line, page: PageModel, lines: readonly Line[], geo: Geometry): Rect | undefined {
  const y1 = line.box.y0 - 2;
  const office = lines
    .filter((l) => l !== line && l.box.y1 <= y1 && y1 - l.box.y1 <= 130 && overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x0 + 120) > 0)
    .sort((a, b) => b.box.y1 - a.box.y1)[0];
  if (!office || !office.tokens.some((t) => OFFICERS.has(t) || t === 'vobo')) return undefined;
  const y0 = Math.max(office.box.y1 + 2, y1 - FIELD_HEIGHT.signature);
  const x0 = line.box.x0;
  const x1 = Math.min(page.width - 24, x0 + FIELD_WIDTH.signature);
  const clear = !lines.some((l) => l !== line && l !== office && l.box.y1 > y0 && l.box.y0 < y1 && overlap1(l.box.x0, l.box.x1, x0, x1) > 0);
  return clear && y1 - y0 >= LEAST && !geo.h.some((r) => r.y > y0 && r.y < y1 && overlap1(r.x0, r.x1, x0, x1) > 0) ? { x0, y0, x1, y1 } : undefined;
}
