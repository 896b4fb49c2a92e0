/**
 * Party-name signature blocks: a line captioned by a party's name alone ("IL DICHIARANTE" over its line),
 * or, for two parties side by side or a party under the formula dating the signing, the room under each; offices
 * whose holders sign over their titles (office-rows.ts) and officers who sign a record over their names (officer-names.ts).
 */
import { filled } from './filled-blanks.js';
import { roomUnderParty, type PartyCaption } from './party-rows.js';
import { officeRooms } from './office-rows.js';
import { namedRowRooms, officerNameRooms } from './officer-names.js';
import { onPartyLine, partyLine, signsBelow } from './signature-blocks.js';
import { clip, overlap1, rectOf, sameSpot, xywh, type Geometry, type Line, type PageModel, type Rect, type Segment, type Suggestion } from './page-model.js';

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
  for (const caption of parties) {
    const line = partyLine(caption, free, used, lines, geo.h);
    const places = out.filter((o) => o.type === 'signature' && o.page === page.page).map(rectOf);
    // (No room under a party named right under a place found already: "Coordinador(a)" under its line, taken by its row.)
    const named = places.some((p) => p.y1 <= caption.box.y0 + 2 && caption.box.y0 - p.y1 <= 12 && overlap1(p.x0, p.x1, caption.box.x0, caption.box.x1) > 0);
    const room = line || named ? undefined : roomUnderParty(caption, parties, page, lines, geo, places);
    if ((!line && !room) || signsBelow(caption, places)) continue;
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
