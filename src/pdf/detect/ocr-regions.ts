/**
 * The parts of a scanned page OCR reads: the inside of paragraphs of running text holds no label with a
 * blank to fill and is left out, so that a page of dense text is read in the time a form takes. Two
 * columns of text side by side are judged each on its own.
 */
import { inkBands, type InkPage } from './ocr-image.js';

interface Band {
  top: number;
  bottom: number;
  left: number;
  right: number;
  dense: boolean;
}

/**
 * The page with the inside of its paragraphs of running text blanked, for OCR: a line of text that
 * fills the text column (to its last fifth, for ragged text) with no gap wider than a few characters,
 * between two such lines, holds no label with a blank to fill. The first and last lines of each paragraph, short lines, lines with a gap
 * (a blank to fill), lines near a drawn rule (`ruleRows`, pixel rows) and everything that is not text
 * are kept. A page set in two columns (a gutter down its middle that no line of text crosses) is
 * judged a column at a time. Answers the share of the page's rows blanked too.
 */
export function labelRegions(page: InkPage, ruleRows: number[]): { page: InkPage; blanked: number } {
  const { ink, width, height } = page;
  // Rows count when a fiftieth of them is ink: the body of a line of text (its x-height) is, the thin
  // strokes above and below it are not, so that close lines of text stay apart.
  const found = inkBands(page, Math.max(4, Math.round(width / 50)));
  const heights = found
    .map((b) => b.bottom - b.top)
    .filter((h) => h >= 4)
    .sort((p, q) => p - q);
  const lineHeight = heights[Math.floor(heights.length / 2)];
  if (lineHeight === undefined) return { page, blanked: 0 };
  // Slivers (a row of descenders, an underline) are no line of their own: lines around them still follow each other.
  const rows = found.filter((b) => b.bottom - b.top >= 0.5 * lineHeight);
  if (rows.length < 3) return { page, blanked: 0 };
  const out = new Uint8Array(ink);
  const gutter = gutterOf(page, rows, lineHeight);
  const strips: Array<[number, number]> =
    gutter === undefined
      ? [[0, width]]
      : [
          [0, gutter],
          [gutter, width],
        ];
  let blanked = 0;
  for (const [x0, x1] of strips) {
    const bands = rows.map(({ top, bottom }) => ({ top, bottom, left: 0, right: 0, dense: false }));
    blanked += blankParagraphs(page, out, bands, lineHeight, ruleRows, x0, x1) / strips.length;
  }
  return { page: { ...page, ink: out }, blanked: blanked / height };
}

/** The ink columns of a band of rows, within x0..x1. */
function inkColumns(page: InkPage, top: number, bottom: number, x0: number, x1: number, columns: Uint8Array): void {
  columns.fill(0);
  for (let y = top; y < bottom; y++) {
    const row = y * page.width;
    for (let x = x0; x < x1; x++) if (page.ink[row + x] === 1) columns[x] = 1;
  }
}

/**
 * The middle of the gutter between two columns of text, in pixels: the widest run of columns in the
 * middle of the page that at most a tenth of the lines of text cross, at least a line and a half wide,
 * with text on both sides of it in most lines. Undefined on a page of one column.
 */
function gutterOf(page: InkPage, rows: Array<{ top: number; bottom: number }>, lineHeight: number): number | undefined {
  const { width } = page;
  const lines = rows.filter((b) => b.bottom - b.top >= 0.6 * lineHeight && b.bottom - b.top <= 1.6 * lineHeight);
  if (lines.length < 6) return undefined;
  const crossed = new Int32Array(width);
  const columns = new Uint8Array(width);
  const sides: Array<[number, number]> = [];
  for (const b of lines) {
    inkColumns(page, b.top, b.bottom, 0, width, columns);
    for (let x = 0; x < width; x++) crossed[x] = (crossed[x] as number) + (columns[x] as number);
    sides.push([columns.indexOf(1), columns.lastIndexOf(1)]);
  }
  let best: [number, number] | undefined;
  let start = -1;
  const from = Math.round(0.3 * width);
  const to = Math.round(0.7 * width);
  for (let x = from; x <= to; x++) {
    const open = x < to && (crossed[x] as number) <= 0.1 * lines.length;
    if (open && start < 0) start = x;
    if (!open && start >= 0) {
      if (!best || x - start > best[1] - best[0]) best = [start, x];
      start = -1;
    }
  }
  if (!best || best[1] - best[0] < 1.5 * lineHeight) return undefined;
  const [g0, g1] = best;
  const both = sides.filter(([l, r]) => l >= 0 && l < g0 && r >= g1).length;
  return both >= 0.5 * lines.length ? Math.round((g0 + g1) / 2) : undefined;
}

/** Blanks, in `out` and within x0..x1, the lines inside the paragraphs of running text there; answers the rows blanked. */
function blankParagraphs(page: InkPage, out: Uint8Array, bands: Band[], lineHeight: number, ruleRows: number[], x0: number, x1: number): number {
  const { width } = page;
  // Each band's ink columns.
  const gapLimit = 2.5 * lineHeight;
  const columns = new Uint8Array(width);
  for (const band of bands) {
    const h = band.bottom - band.top;
    if (h < 0.6 * lineHeight || h > 1.6 * lineHeight) continue;
    inkColumns(page, band.top, band.bottom, x0, x1, columns);
    // Runs of ink columns closer than the gap limit make groups; the line is the largest group, and it is
    // dense when the rest (specks of dust, a page number far off) is little.
    let total = 0;
    let best = { left: -1, right: -1, cols: 0 };
    let group = { left: -1, right: -1, cols: 0 };
    for (let x = x0; x <= x1; x++) {
      if (x < x1 && columns[x] !== 1) continue;
      if (x === x1 || (group.left >= 0 && x - group.right > gapLimit)) {
        if (group.cols > best.cols) best = group;
        group = { left: -1, right: -1, cols: 0 };
        if (x === x1) break;
      }
      if (group.left < 0) group.left = x;
      group.right = x + 1;
      group.cols++;
      total++;
    }
    band.left = best.left;
    band.right = best.right;
    band.dense = best.cols > 0 && best.cols >= 0.95 * total;
  }
  // The text column: the extent most dense lines share.
  const dense = bands.filter((b) => b.dense);
  if (dense.length < 3) return 0;
  const lefts = dense.map((b) => b.left).sort((p, q) => p - q);
  const rights = dense.map((b) => b.right).sort((p, q) => p - q);
  const columnLeft = lefts[Math.floor(lefts.length * 0.2)] as number;
  const columnRight = rights[Math.floor(rights.length * 0.8)] as number;
  // Ragged-right text: a line of a paragraph ends in the last fifth of the column.
  const full = (b: Band | undefined) =>
    b !== undefined && b.dense && b.left <= columnLeft + 2 * lineHeight && b.right >= columnRight - Math.max(2 * lineHeight, 0.2 * (columnRight - columnLeft));
  let blanked = 0;
  for (let i = 1; i + 1 < bands.length; i++) {
    const band = bands[i] as Band;
    const prev = bands[i - 1] as Band;
    const next = bands[i + 1] as Band;
    if (!full(band) || !full(prev) || !full(next)) continue;
    // Lines of one paragraph follow each other closely.
    if (band.top - prev.bottom > 2 * lineHeight || next.top - band.bottom > 2 * lineHeight) continue;
    if (ruleRows.some((r) => r >= band.top - 3 * lineHeight && r <= band.bottom + 3 * lineHeight)) continue;
    // From half way up the gap above to half way down the gap below: the line's ascenders and
    // descenders go, its neighbours' stay.
    const from = Math.ceil((prev.bottom + band.top) / 2);
    const to = Math.floor((band.bottom + next.top) / 2);
    for (let y = from; y < to; y++) out.fill(0, y * width + x0, y * width + x1);
    blanked += to - from;
  }
  return blanked;
}
