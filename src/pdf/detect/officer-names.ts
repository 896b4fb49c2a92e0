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

/** A line of words alone, as a name or an office is printed: left to right, no blank, no colon, digit or address. */
const plain = (l: Line): boolean => !l.rtl && !l.tokens.includes('\0') && !l.words.some((w) => /[:：\d@]/.test(w.text));

/**
 * People who sign side by side under their offices, where no line is drawn: a row of two or more persons' names and
 * nothing else, each under the office its holder signs for ("VºBº Presidencia      El secretario" over "Juan Ignacio
 * Rodríguez de León      Sergio Delgado Quintero", closing minutes): each signs in the room between office and name.
 * (Names alone in a row, without their offices, were right on fewer than one in five of the development documents.)
 */
export function namedRowRooms(page: PageModel, lines: readonly Line[], geo: Geometry): Array<{ line: Line; room: Rect }> {
  const name = (l: Line) => plain(l) && personName(l.words.map((w) => w.text));
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

/**
 * Officers closing a record over white space, where no line is drawn: a person's name with the office after its comma
 * ("Amaury Carrade, Président de …"), or a name over its office ("Andrea Rossi" over "(Presidente dell'Assemblea)"):
 * the holder signs in the room under, from the name's left, a signature's height at most, clear of anything under. Not
 * where the name has room over it that is not another officer's (a letter's signer signs over the name and title), nor
 * right under a line (the holder signs on it).
 */
export function officerNameRooms(page: PageModel, lines: readonly Line[], geo: Geometry): Array<{ line: Line; room: Rect }> {
  const office = (l: Line, from = 0) => l.tokens.some((t, i) => OFFICERS.has(t) && (l.tokenWord[i] as number) >= from);
  const out: Array<{ line: Line; room: Rect }> = [];
  for (const line of [...lines].sort((a, b) => a.baseline - b.baseline)) {
    if (!plain(line) || line.words.length > 9) continue;
    const texts = line.words.map((w) => w.text);
    const comma = texts.findIndex((t) => t.endsWith(','));
    let bottom: Line | undefined;
    if (comma >= 1 && personName(texts.slice(0, comma + 1).map((t) => t.replace(/,$/, ''))) && office(line, comma + 1)) bottom = line;
    else if (personName(texts)) {
      bottom = lines.find(
        (l) =>
          l !== line &&
          plain(l) &&
          l.words.length <= 5 &&
          office(l) &&
          l.baseline > line.baseline &&
          l.baseline - line.baseline <= 2.5 * line.size &&
          overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x1) > 0,
      );
    }
    if (!bottom) continue;
    const x0 = Math.min(line.box.x0, bottom.box.x0);
    const x1 = Math.min(page.width - 24, x0 + FIELD_WIDTH.signature);
    const y0 = bottom.box.y1 + 2;
    const under = [
      ...lines.filter((l) => l.box.y0 > bottom.box.y1 && overlap1(l.box.x0, l.box.x1, x0, x1) > 0).map((l) => l.box.y0),
      ...geo.h.filter((r) => r.y > bottom.box.y1 && overlap1(r.x0, r.x1, x0, x1) > 0).map((r) => r.y),
      ...geo.boxes.filter((b) => b.y1 > y0 && overlap1(b.x0, b.x1, x0, x1) > 0).map((b) => b.y0),
      page.height - 12,
    ];
    const y1 = Math.min(y0 + FIELD_HEIGHT.signature, ...under.map((y) => y - 2));
    const over = Math.max(
      0,
      ...lines.filter((l) => l.box.y1 < line.box.y0 && overlap1(l.box.x0, l.box.x1, x0, x1) > 0).map((l) => l.box.y1),
      ...geo.h.filter((r) => r.y < line.box.y0 && overlap1(r.x0, r.x1, x0, x1) > 0).map((r) => r.y),
    );
    const roomOver = line.box.y0 - over >= LEAST && !out.some(({ room }) => room.y1 > over && room.y0 < line.box.y0 && overlap1(room.x0, room.x1, x0, x1) > 0);
    // (Nor a name right under a line, drawn or typed as a run: its holder signs on that line, "____" over "John Smith, President".)
    const spans = (a0: number, a1: number) => overlap1(a0, a1, line.box.x0, line.box.x1) >= 0.5 * (line.box.x1 - line.box.x0);
    const ruled =
      geo.h.some((r) => r.y <= line.box.y0 + 1 && line.box.y0 - r.y <= 12 && spans(r.x0, r.x1)) ||
      lines.some((l) => l.tokens.every((t) => t === '\0') && l.box.y1 <= line.box.y0 + 1 && line.box.y0 - l.box.y1 <= 12 && spans(l.box.x0, l.box.x1));
    if (y1 - y0 >= LEAST && !roomOver && !ruled) out.push({ line, room: { x0, y0, x1, y1 } });
  }
  return out;
}
