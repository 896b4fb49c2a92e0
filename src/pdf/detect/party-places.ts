/**
 * Party-name signature blocks: a line captioned by a party's name alone ("IL DICHIARANTE" over its line),
 * or, for two parties side by side or a party under the formula dating the signing, the room under each; offices
 * whose holders sign over their titles (office-rows.ts) and officers who sign a record over their names (officer-names.ts).
 */
import { filled, signatureImages } from './filled-blanks.js';
import { roomUnderParty, type PartyCaption } from './party-rows.js';
import { officeRooms } from './office-rows.js';
import { namedRowRooms, officerNameRooms } from './officer-names.js';
import { onPartyLine, partyLine, signsBelow } from './signature-blocks.js';
import { cellAt, cellBlank } from './table-cells.js';
import {
  FIELD_HEIGHT,
  clip,
  overlap1,
  rectOf,
  sameSpot,
  xywh,
  type Geometry,
  type Label,
  type Line,
  type PageModel,
  type Rect,
  type Segment,
  type Suggestion,
} from './page-model.js';

/**
 * Each party's place (added to `out`; its line added to `used`), but for a party with a place found under it
 * already. Returns the lines of the parties that got a place: a signature caption on such a line ("Signed by
 * the Employee:") has that place, not a room of its own too.
 */
export function partyPlaces(
  page: PageModel,
  parties: readonly PartyCaption[],
  lines: Line[],
  geo: Geometry,
  free: Segment[],
  used: Set<Segment>,
  out: Suggestion[],
): Set<Line> {
  const placed = new Set<Line>();
  const inked = signatureImages(page);
  for (const caption of parties) {
    const line = partyLine(caption, free, used, lines, geo.h);
    const places = out.filter((o) => o.type === 'signature' && o.page === page.page).map(rectOf);
    // (No room under a party named right under a place found already: "Coordinador(a)" under its line, taken by its row.)
    const named = places.some((p) => p.y1 <= caption.box.y0 + 2 && caption.box.y0 - p.y1 <= 12 && overlap1(p.x0, p.x1, caption.box.x0, caption.box.x1) > 0);
    const room =
      line || named
        ? undefined
        : (roomOverInCell(caption, parties, geo, page) ??
          cellUnderParty(caption, parties, geo, page) ??
          roomUnderParty(caption, parties, page, lines, geo, places));
    // (Nor one signed already: a signature inked right under it, a witness's under "Witness".)
    if ((!line && !room) || signsBelow(caption, [...places, ...inked])) continue;
    const r = clip(line ? onPartyLine(line, caption, lines, out) : (room as Rect), page);
    if (r.x1 - r.x0 < 40 || r.y1 - r.y0 < 10 || filled(r, page, caption.line.words)) continue;
    if (line) used.add(line);
    placed.add(caption.line);
    const reason = line ? 'label_with_geometry' : 'label_with_whitespace';
    out.push({ type: 'signature', page: page.page, ...xywh(r), confidence: page.ocr ? 0.72 : 0.8, reason, roleHint: caption.role });
  }
  // (Offices whose holders sign over their titles, at a certificate's foot.)
  for (const { title, room } of officeRooms(page, lines, geo)) {
    const r = clip(room, page);
    if (placed.has(title) || filled(r, page, []) || out.some((o) => o.page === page.page && sameSpot(rectOf(o), r))) continue;
    placed.add(title);
    out.push({ type: 'signature', page: page.page, ...xywh(r), confidence: page.ocr ? 0.7 : 0.76, reason: 'label_with_whitespace' });
  }
  // (Officers who sign a record between their offices and their names, unless a place to sign is found by them already.)
  const found = out.filter((o) => o.type === 'signature' && o.page === page.page);
  for (const { line, room } of [...namedRowRooms(page, lines, geo), ...officerNameRooms(page, lines, geo)]) {
    const r = clip(room, page);
    const near = (o: Suggestion) => o.y < line.box.y1 + 60 && o.y + o.height > line.box.y0 - 60 && o.x < r.x1 && o.x + o.width > r.x0;
    if (placed.has(line) || filled(r, page, []) || found.some(near)) continue;
    placed.add(line);
    out.push({ type: 'signature', page: page.page, ...xywh(r), confidence: page.ocr ? 0.66 : 0.72, reason: 'label_with_whitespace' });
  }
  return placed;
}

/**
 * Parties named side by side in a table's row, each alone in its cell, over the room where each signs ("The Landlord | The Tenant",
 * "Il Presidente | Il Segretario" over empty cells): the room under its name, as a signature's caption in that cell has (`cellBlank`).
 */
function cellUnderParty(caption: PartyCaption, parties: readonly PartyCaption[], geo: Geometry, page: PageModel): Rect | undefined {
  const { line } = caption;
  const cell = cellAt(geo, (caption.box.x0 + caption.box.x1) / 2, (caption.box.y0 + caption.box.y1) / 2);
  if (!cell) return undefined;
  const others = page.words.filter((w) => !line.words.includes(w) && w.box.x1 > cell.x0 && w.box.x0 < cell.x1 && w.box.y1 > cell.y0 && w.box.y0 < cell.y1);
  // (Alone in its cell but for a second line of the name right under it, "Sócio" over "Efetivo": the name is both.)
  const second = others.length <= 2 && others.every((w) => w.box.y0 >= caption.box.y1 - 1 && w.box.y0 - caption.box.y1 <= 0.8 * line.size);
  // (Not a caption with its colon: "Kontoinhaber: | Bank:" ask for data in their cells.)
  if ((others.length > 0 && !second) || [...line.words, ...others].some((w) => /[:：]/.test(w.text))) return undefined;
  const box = others.reduce((b, w) => ({ x0: Math.min(b.x0, w.box.x0), y0: b.y0, x1: Math.max(b.x1, w.box.x1), y1: Math.max(b.y1, w.box.y1) }), caption.box);
  const beside = parties.some(
    (p) => p !== caption && Math.abs(p.line.baseline - line.baseline) <= 0.5 * line.size && (p.box.x0 >= cell.x1 - 1 || p.box.x1 <= cell.x0 + 1),
  );
  if (!beside) return undefined;
  const label = { line, box, reach: box, colon: false, entry: { type: 'signature', tokens: [], strength: 'strong' } } as unknown as Label;
  return cellBlank(label, cell, geo, page);
}

/**
 * A party named at the foot of a taller table cell with nothing over it ("The Employer" at the bottom of its cell, "The
 * Employee" in the next): the room over the name in the cell, a signature's height at most, where that party signs. Not
 * in a table of data (words beside the cell on its row other than parties' names: "Tenant" heading a row of
 * requirements), nor in a cell with other captions along its foot (each signs over its own).
 */
function roomOverInCell(caption: PartyCaption, parties: readonly PartyCaption[], geo: Geometry, page: PageModel): Rect | undefined {
  const { box, line } = caption;
  const cell = cellAt(geo, (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2);
  if (!cell || cell.y1 - box.y1 > Math.max(12, 0.25 * (cell.y1 - cell.y0)) || box.y0 - cell.y0 < 0.75 * FIELD_HEIGHT.signature) return undefined;
  const named = new Set(parties.flatMap((p) => p.line.words));
  const band = page.words.filter((w) => w.box.y0 >= cell.y0 - 1 && w.box.y1 <= cell.y1 + 1 && !line.words.includes(w));
  const inCell = (w: { box: Rect }) => w.box.x1 > cell.x0 && w.box.x0 < cell.x1;
  if (band.some((w) => inCell(w) || !named.has(w))) return undefined;
  return { x0: cell.x0 + 1, y0: Math.max(cell.y0 + 1, box.y0 - 2 - FIELD_HEIGHT.signature), x1: cell.x1 - 1, y1: box.y0 - 2 };
}
