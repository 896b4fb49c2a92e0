/**
 * A table going on over the next page without its header: a sign-in sheet's rows carried over a page break keep their
 * columns, so the column a signature cell was found in on the page before ("ASSINATURA", "Signature" heading it there)
 * is still where each row signs. On the next page, each empty cell of that column, ruled the same, in a row written
 * in, is a place to sign.
 */
import { suggestFields } from './suggest-fields.js';
import { common, rectOf, xywh, type PageModel, type Segment, type Suggestion } from './page-model.js';

export type { PageModel, Widget, Word } from './page-model.js';

/** How far apart (pt) a column's edges may be from one page to the next, and a rule's ends from a column's. */
const EDGE = 3;
/** The least height of a row to sign in. */
const ROW = 15;

/** The page's suggestions, and the cells to sign in of the columns that signed on the page before (`before`: its suggestions). */
export function suggestAcross(model: PageModel, before: readonly Suggestion[] | undefined): Suggestion[] {
  const own = suggestFields(model);
  return before ? [...own, ...continuedCells(model, before, own)] : own;
}

/**
 * `suggestAcross`, but a page whose rules throw (a defect in them) gets no suggestions, reported through `report`, and
 * the document's other pages are still answered: one page's failure makes no unreadable document.
 */
export function pageSuggestions(
  model: PageModel,
  before: readonly Suggestion[] | undefined,
  report: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): Suggestion[] {
  try {
    return suggestAcross(model, before);
  } catch (error) {
    report(`paraph: field detection's rules failed on page ${model.page}: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

function continuedCells(model: PageModel, before: readonly Suggestion[], own: readonly Suggestion[]): Suggestion[] {
  const out: Suggestion[] = [];
  const columns = new Map<string, [number, number]>();
  for (const s of before) if (s.type === 'signature' && s.reason === 'label_with_geometry') columns.set(`${Math.round(s.x)}`, [s.x - 1, s.x + s.width + 1]);
  const side = (x: number, y0: number, y1: number) => model.verticals.some((v) => Math.abs(v.x - x) <= EDGE && v.y0 <= y0 + EDGE && v.y1 >= y1 - EDGE);
  const centres = model.words.map((w) => ({ w, cx: (w.box.x0 + w.box.x1) / 2, cy: (w.box.y0 + w.box.y1) / 2 }));
  for (const [x0, x1] of columns.values()) {
    const rules = model.segments.filter((r) => r.x0 <= x0 + EDGE && r.x1 >= x1 - EDGE).sort((a, b) => a.y - b.y);
    // (Each row between two rules that cross the column.)
    for (const [top, bottom] of rules.slice(1).map((r, i) => [(rules[i] as Segment).y, r.y] as const)) {
      if (bottom - top < ROW || !side(x0, top, bottom) || !side(x1, top, bottom)) continue;
      const inRow = centres.filter((c) => c.cy > top && c.cy < bottom);
      // (Empty, in a row written in at its left: a talk's time and title, a person's name.)
      if (inRow.some((c) => c.cx > x0 && c.cx < x1) || !inRow.some((c) => c.w.box.x1 <= x0)) continue;
      const cell: Suggestion = {
        type: 'signature',
        page: model.page,
        ...xywh({ x0: x0 + 1, y0: top + 1, x1: x1 - 1, y1: bottom - 1 }),
        confidence: 0.78,
        reason: 'label_with_geometry',
      };
      if (!own.some((o) => o.page === model.page && common(rectOf(o), rectOf(cell)) > 0)) out.push(cell);
    }
  }
  return out;
}
