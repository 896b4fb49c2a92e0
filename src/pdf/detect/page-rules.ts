/**
 * The page's rules sorted: free lines to write on (not a rule that underlines words over it), boxes (two
 * rules of one width framed by verticals) and the rules and verticals table-cells.ts reads rows and cells from
 * (with the sides of a rectangle a table is drawn in); and the bottoms of combs, which a field over a line
 * stops under.
 */
import { isFillToken } from './lexicon.js';
import { type Geometry, type PageModel, type Rect, type Segment, type VRule, type Word, overlap1 } from './page-model.js';

/** How far apart (pt) the ends of rules may be and still meet. */
export const TOLERANCE = 3;

export function sortRules(page: PageModel): Geometry {
  // (A table drawn in a rectangle, its rows and columns ruled inside it, or as one rectangle per cell: the rectangles' sides are its rules.)
  const edges = tableFrames(page);
  const h = [...page.segments, ...edges.h];
  const v = [...page.verticals, ...edges.v];
  const touches = (x: number, y: number) => v.some((r) => Math.abs(r.x - x) <= TOLERANCE && r.y0 <= y + TOLERANCE && r.y1 >= y - TOLERANCE);
  const framed = new Set(h.filter((s) => touches(s.x0, s.y) && touches(s.x1, s.y)));
  const boxes = [...page.boxes];
  const sorted = [...framed].sort((a, b) => a.y - b.y);
  for (let i = 0; i < sorted.length; i++) {
    const top = sorted[i] as Segment;
    for (let j = i + 1; j < sorted.length; j++) {
      const bottom = sorted[j] as Segment;
      if (Math.abs(top.x0 - bottom.x0) > TOLERANCE || Math.abs(top.x1 - bottom.x1) > TOLERANCE) continue;
      if (bottom.y - top.y < 10 || bottom.y - top.y > 300) break;
      // A rule across the middle makes it a table row, not a box.
      const divided = v.some((r) => r.x > top.x0 + TOLERANCE && r.x < top.x1 - TOLERANCE && r.y0 < bottom.y - TOLERANCE && r.y1 > top.y + TOLERANCE);
      if (!divided) boxes.push({ x0: Math.min(top.x0, bottom.x0), y0: top.y, x1: Math.max(top.x1, bottom.x1), y1: bottom.y });
      break;
    }
  }
  // (A rule underlining words, its ends theirs, is neither a line to write on nor a cell's border: "Enkel voor minderjarigen"
  // underlined over "Handtekening ouder" in its cell.)
  const under = new Set(h.filter((s) => !framed.has(s) && underlines(s, page.words)));
  return { free: h.filter((s) => !framed.has(s) && !under.has(s)), boxes, h: h.filter((s) => !under.has(s)), v };
}

/**
 * A rule drawn right under words from the first's left edge to the last's right edge underlines them (a
 * heading, "Organisateur"): no line to write on.
 */
export function underlines(s: Segment, words: readonly Word[]): boolean {
  const over = words.filter(
    (w) => !isFillToken(w.text) && s.y - w.baseline >= -1 && s.y - w.baseline <= 0.4 * w.size + 1.5 && overlap1(w.box.x0, w.box.x1, s.x0, s.x1) > 0,
  );
  if (over.length === 0) return false;
  const x0 = Math.min(...over.map((w) => w.box.x0));
  const x1 = Math.max(...over.map((w) => w.box.x1));
  const inked = over.reduce((sum, w) => sum + (w.box.x1 - w.box.x0), 0);
  return Math.abs(x0 - s.x0) <= 2 && Math.abs(x1 - s.x1) <= 3 && inked >= 0.7 * (s.x1 - s.x0);
}

/**
 * The bottoms of combs, rows of boxes for one character each (an IBAN's, a BIC's, a date's digits): three
 * or more verticals of one height side by side, 6 to 25 pt apart. A field over a line under a comb stops
 * under the comb, as under a rule (the comb's own bottom rule may be drawn as the boxes' sides only).
 */
export function combBottoms(v: readonly VRule[]): Segment[] {
  const out: Segment[] = [];
  const ticks = v.filter((r) => r.y1 - r.y0 >= 6 && r.y1 - r.y0 <= 40).sort((a, b) => Math.round(a.y1) - Math.round(b.y1) || a.x - b.x);
  let run: VRule[] = [];
  const close = () => {
    if (run.length >= 3) out.push({ x0: run[0]!.x, x1: run[run.length - 1]!.x, y: Math.max(...run.map((r) => r.y1)) });
    run = [];
  };
  for (const r of ticks) {
    const last = run[run.length - 1];
    const gap = last ? r.x - last.x : 0;
    if (last && (Math.abs(r.y1 - last.y1) > 1.5 || Math.abs(r.y0 - last.y0) > 1.5 || gap < 6 || gap > 25)) close();
    run.push(r);
  }
  close();
  return out;
}

/** Past this many rectangles on a page (a picture drawn in them) none is looked at as a table's cell. */
const MAX_TILED = 2000;

/** The sides of drawn rectangles that hold a table's rules (a vertical rule inside, or a rule across), or that are its cells (rectangles side by side). */
function tableFrames(page: PageModel): { h: Segment[]; v: VRule[] } {
  const h: Segment[] = [];
  const v: VRule[] = [];
  for (const b of page.boxes) {
    const inner =
      page.verticals.some((r) => r.x > b.x0 + 2 && r.x < b.x1 - 2 && r.y0 >= b.y0 - 2 && r.y1 <= b.y1 + 2) ||
      page.segments.some((s) => s.y > b.y0 + 2 && s.y < b.y1 - 2 && s.x0 <= b.x0 + 2 && s.x1 >= b.x1 - 2);
    // (Or a grid of rectangles, one per cell, side by side: FPDF's and TCPDF's bordered cells.)
    const tiled = page.boxes.length <= MAX_TILED && page.boxes.some((o) => o !== b && (meets(o, b) || meets(b, o)));
    if (!inner && !tiled) continue;
    h.push({ x0: b.x0, x1: b.x1, y: b.y0 }, { x0: b.x0, x1: b.x1, y: b.y1 });
    v.push({ x: b.x0, y0: b.y0, y1: b.y1 }, { x: b.x1, y0: b.y0, y1: b.y1 });
  }
  return { h, v };
}

/** Rectangle `a`'s right side on `b`'s left one, or its bottom on `b`'s top, along more than 4 pt. */
function meets(a: Rect, b: Rect): boolean {
  return (
    (Math.abs(b.x0 - a.x1) <= TOLERANCE && overlap1(a.y0, a.y1, b.y0, b.y1) > 4) || (Math.abs(b.y0 - a.y1) <= TOLERANCE && overlap1(a.x0, a.x1, b.x0, b.x1) > 4)
  );
}

/**
 * The lower edges of coloured bands, where a field under one stops; not where another band as wide goes on right
 * under it (a table's rows all shaded: the edge between two of them is no line, and a signature's line in the lower
 * row reaches up into the row over it).
 */
export function bandFoots(bands: readonly Rect[]): Segment[] {
  const continued = (b: Rect) => bands.some((o) => o !== b && Math.abs(o.y0 - b.y1) <= 1 && Math.abs(o.x0 - b.x0) <= 2 && Math.abs(o.x1 - b.x1) <= 2);
  return bands.filter((b) => !continued(b)).map((b) => ({ x0: b.x0, x1: b.x1, y: b.y1 }));
}

/**
 * Coloured bands with nothing written in them, of a field's height, that are no table's shaded rows: a form's
 * grey boxes to fill in, named by the small caption under each ("datum & ort", "unterschrift"). Their lower
 * edges are lines a caption under them names; their upper edges, where a field in one stops. `feet`: the bands'
 * lower edges (`bandFoots`), when the caller has them already.
 */
export function blankBands(
  page: Pick<PageModel, 'bands' | 'words'>,
  feet: readonly Segment[] = bandFoots(page.bands ?? []),
): { tops: Segment[]; foots: Segment[] } {
  const bands = page.bands ?? [];
  const written = (b: Rect) =>
    page.words.some((w) => {
      const [cx, cy] = [(w.box.x0 + w.box.x1) / 2, (w.box.y0 + w.box.y1) / 2];
      return cx > b.x0 && cx < b.x1 && cy > b.y0 && cy < b.y1;
    });
  const foot = new Set(feet.map((s) => `${s.x0},${s.y}`));
  const blank = bands.filter((b) => b.y1 - b.y0 >= 8 && b.y1 - b.y0 <= 40 && b.x1 - b.x0 >= 60 && foot.has(`${b.x0},${b.y1}`) && !written(b));
  return { tops: blank.map((b) => ({ x0: b.x0, x1: b.x1, y: b.y0 })), foots: blank.map((b) => ({ x0: b.x0, x1: b.x1, y: b.y1 })) };
}
