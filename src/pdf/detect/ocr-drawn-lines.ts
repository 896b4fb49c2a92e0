/**
 * Drawn lines (and so boxes and table cells) on a scanned page, found in its pixels. Tesseract reads words but drops rules
 * and underscore runs (versions.md, pitfall 9), and a signature line is exactly that: a long, thin run
 * of dark pixels. Pure; coordinates come out in points of the displayed page.
 */
import { dashedRules, type Mark } from './ocr-dashed-lines.js';
import { greyLevel } from './scan-image.js';
import type { Segment, VRule } from './suggest-fields.js';
import type { Unrotate } from './ocr-image.js';

const DARK = 150;
/** In points: a rule is at least this long, at most this thick. */
const MIN_LENGTH = 30;
const MIN_VERTICAL = 10;
/** In points: a vertical rule this long is no letter's stem. */
const VERTICAL_MARK = 24;
const MAX_THICKNESS = 4;
/** Pixels of gap (scanner noise, a dotted rule) that do not break a run. */
const GAP = 2;
/**
 * In points: pieces of one row closer than this are one rule (a rule typed as underscores breaks between
 * its glyphs at a fine resolution; scanner noise breaks a drawn one), never two blanks of a row, which
 * have words between them.
 */
const JOIN = 3;

/** The lines of a page, and the pixels they are drawn with (for OCR to read the page without them: words touching a box or a dotted line are read as themselves). */
export interface DrawnLines {
  segments: Segment[];
  verticals: VRule[];
  /** The pixels of each dash and dot of the dashed and dotted lines. */
  marks: Mark[];
  /** The pixels of each solid rule, and of each vertical side longer than a letter is tall. */
  rules: Mark[];
}

interface Run {
  from: number;
  to: number;
  at: number;
}
interface Open {
  from: number;
  to: number;
  first: number;
  last: number;
}

export function rulesFromPixels(rgba: Uint8ClampedArray, width: number, height: number, scale: number): DrawnLines {
  const ink = new Uint8Array(width * height);
  for (let i = 0, j = 0; j < ink.length; i += 4, j++) {
    ink[j] = greyLevel(rgba[i] as number, rgba[i + 1] as number, rgba[i + 2] as number) < DARK ? 1 : 0;
  }
  return rulesFromInk(ink, width, height, scale);
}

/** The same, from a black-and-white page (1 for ink), as OCR reads it. */
export function rulesFromInk(ink: Uint8Array, width: number, height: number, scale: number): DrawnLines {
  const minH = Math.round(MIN_LENGTH * scale);
  const minV = Math.round(MIN_VERTICAL * scale);
  const thick = Math.ceil(MAX_THICKNESS * scale);
  const row = new Uint8Array(width);
  // Horizontal runs, row by row; runs of neighbouring rows that overlap are one rule.
  const open: Open[] = [];
  const hRuns: Run[] = [];
  // Vertical runs, per column, carried from row to row.
  const vStart = new Int32Array(width).fill(-1);
  const vLast = new Int32Array(width).fill(-1);
  const vPieces: Array<{ col: number; from: number; to: number }> = [];
  const drawn: Mark[] = [];
  const closeH = (r: Open) => {
    if (r.last - r.first + 1 > thick) return;
    hRuns.push({ from: r.from, to: r.to, at: (r.first + r.last + 1) / 2 });
    drawn.push({ x0: r.from, x1: r.to, y0: r.first, y1: r.last + 1 });
  };
  for (let y = 0; y < height; y++) {
    const base = y * width;
    for (let x = 0; x < width; x++) {
      const on = ink[base + x] as number;
      row[x] = on;
      if (on) {
        if ((vStart[x] as number) < 0) vStart[x] = y;
        vLast[x] = y;
      } else if ((vStart[x] as number) >= 0 && y - (vLast[x] as number) > GAP) {
        if ((vLast[x] as number) - (vStart[x] as number) + 1 >= minV) vPieces.push({ col: x, from: vStart[x] as number, to: (vLast[x] as number) + 1 });
        vStart[x] = -1;
      }
    }
    const found: Array<{ from: number; to: number }> = [];
    let start = -1;
    let last = -1;
    for (let x = 0; x <= width; x++) {
      if (x < width && row[x] === 1) {
        if (start < 0) start = x;
        last = x;
      } else if (start >= 0 && (x === width || x - last > GAP)) {
        if (last - start + 1 >= minH) found.push({ from: start, to: last + 1 });
        start = -1;
      }
    }
    for (let k = open.length - 1; k >= 0; k--) {
      const r = open[k] as Open;
      const next = found.findIndex((f) => f.from < r.to && f.to > r.from);
      if (next === -1) {
        closeH(r);
        open.splice(k, 1);
      } else {
        const f = found[next] as { from: number; to: number };
        r.from = Math.min(r.from, f.from);
        r.to = Math.max(r.to, f.to);
        r.last = y;
        found.splice(next, 1);
      }
    }
    for (const f of found) open.push({ ...f, first: y, last: y });
  }
  for (const r of open) closeH(r);
  for (let x = 0; x < width; x++) {
    if ((vStart[x] as number) >= 0 && (vLast[x] as number) - (vStart[x] as number) + 1 >= minV) {
      vPieces.push({ col: x, from: vStart[x] as number, to: (vLast[x] as number) + 1 });
    }
  }
  // Vertical pieces in neighbouring columns that overlap are one rule; a wide one is a filled area.
  const vGroups: Open[] = [];
  for (const p of vPieces.sort((a, b) => a.col - b.col)) {
    const g = vGroups.find((v) => v.last >= p.col - 1 && p.from < v.to && p.to > v.from);
    if (g) {
      g.from = Math.min(g.from, p.from);
      g.to = Math.max(g.to, p.to);
      g.last = p.col;
    } else {
      vGroups.push({ from: p.from, to: p.to, first: p.col, last: p.col });
    }
  }
  const horizontal: Segment[] = joinRuns(hRuns, Math.round(JOIN * scale), thick).map((r) => ({ x0: r.from / scale, x1: r.to / scale, y: r.at / scale }));
  const sides = vGroups.filter((g) => g.last - g.first + 1 <= thick);
  const verticals: VRule[] = sides.map((g) => ({ x: (g.first + g.last + 1) / 2 / scale, y0: g.from / scale, y1: g.to / scale }));
  // (Only sides longer than any letter is tall are taken out of what OCR reads: a heading's "I" stays.)
  const tall = Math.round(VERTICAL_MARK * scale);
  for (const g of sides) if (g.to - g.from >= tall) drawn.push({ x0: g.first, x1: g.last + 1, y0: g.from, y1: g.to });
  const dashed = dashedRules(ink, width, height, scale);
  return { segments: [...horizontal, ...dashed.segments], verticals, marks: dashed.marks, rules: drawn };
}

/** Runs on one row (within a rule's thickness) that overlap or nearly touch, joined into one. */
function joinRuns(runs: Run[], gap: number, thick: number): Run[] {
  const out: Run[] = [];
  for (const r of [...runs].sort((a, b) => a.from - b.from)) {
    const prev = out.find((o) => Math.abs(o.at - r.at) <= thick / 2 && r.from - o.to <= gap && r.to - o.from >= -gap);
    if (!prev) {
      out.push({ ...r });
      continue;
    }
    const a = prev.to - prev.from;
    const b = r.to - r.from;
    prev.at = (prev.at * a + r.at * b) / (a + b);
    prev.from = Math.min(prev.from, r.from);
    prev.to = Math.max(prev.to, r.to);
  }
  return out;
}

/** Rules found on a straightened page, set back where they lie on the page as scanned (each kept level or upright). */
export function rulesBack(rules: Pick<DrawnLines, 'segments' | 'verticals'>, unrotate: Unrotate): { segments: Segment[]; verticals: VRule[] } {
  const segments = rules.segments.map((s) => {
    const a = unrotate(s.x0, s.y);
    const b = unrotate(s.x1, s.y);
    return { x0: a.x, x1: b.x, y: (a.y + b.y) / 2 };
  });
  const verticals = rules.verticals.map((v) => {
    const a = unrotate(v.x, v.y0);
    const b = unrotate(v.x, v.y1);
    return { x: (a.x + b.x) / 2, y0: a.y, y1: b.y };
  });
  return { segments, verticals };
}
