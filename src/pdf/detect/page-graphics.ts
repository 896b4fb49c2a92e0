/**
 * What a page draws, read from pdf.js's operator list in display space: horizontal and vertical rules
 * (strokes, thin filled rectangles, rows of dots or dashes), boxes, where images are painted and how much
 * of the page they cover, and where a hand wrote in ink (a signature drawn on a pad or a tablet, saved as paths).
 */
import { OPS, Util } from './pdfjs.js';
import { MAX_DOT, dottedRules } from './glyph-runs.js';
import { contains, type Rect, type Segment, type VRule } from './page-model.js';

export type Matrix = [number, number, number, number, number, number];

const MIN_RULE = 24;
const MAX_RULE_THICKNESS = 4;

export interface Graphics {
  segments: Segment[];
  verticals: VRule[];
  boxes: Rect[];
  /** Where images are painted, where a hand wrote in ink (the bounds of each such path), and dark panels painted over the page. */
  images: Rect[];
  imageCover: number;
  /** Rectangles filled in a colour darker than paper (a table's header band): white text on them is seen. */
  shaded: Rect[];
  /** Bands filled in any colour but white, wider than tall (a form's grey header rows): a field under one stops under it. */
  bands: Rect[];
  /** Curves filled in a dark colour: letters drawn as outlines (a page printed to PDF as drawings) are thousands. */
  filledCurves: number;
}

const STROKES = new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
const FILLS = new Set<number>([OPS.fill, OPS.eoFill]);
const IMAGES = new Set<number>([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintImageXObjectRepeat,
  OPS.paintImageMaskXObjectRepeat,
  OPS.paintSolidColorImageMask,
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageMaskXObjectGroup,
]);
// pdf.js path buffer codes (DrawOPS).
export const MOVE = 0;
export const LINE = 1;
const CURVE = 2;
const QUAD = 3;
export const CLOSE = 4;
/** A stroke rising or falling less than this per point across is a horizontal rule. */
const SLOPE = 0.02;
/**
 * A path of at least this many bends (curves, or straight pieces neither level nor upright), as wide and
 * tall as handwriting (not a glyph, a bullet or a rounded box's corner, nor a page's border or
 * background), is writing by hand: a signature drawn on a pad or a tablet and saved in the PDF as curves
 * or as a polyline of short strokes.
 */
const INK_BENDS = 8;
const INK = { minWidth: 25, minHeight: 15, maxWidth: 350, maxHeight: 150 };
/** Handwriting is in dark ink (black, blue): a lighter path is a drawing's. */
const INK_LUMINANCE = 0.5;
/** A page with more paths like handwriting than this is drawn (a picture, an ornament), not written on. */
const MAX_INK_PATHS = 20;
/** A fill this dark or darker is a shade white text stands out on (light greys and tints it does not). */
const SHADE_LUMINANCE = 0.75;
/** A fill this dark or darker, at least DARK_PANEL wide and tall, is painted over what lies under it (a signature blacked out): nothing can be written on it. */
const DARK_LUMINANCE = 0.3;
const DARK_PANEL = { minWidth: 40, minHeight: 10 };
/** A fill at least this opaque covers what is under it. */
const DARK_ALPHA = 0.9;
/** A fill lighter than this is paper (white, or near it); a band at most this tall (pt) is a row's, not a panel's. */
const BAND_LUMINANCE = 0.97;
const MAX_BAND = 80;

/** Rules, boxes and image coverage from the operator list, following the transformation matrix. */
export function readGraphics(fnArray: number[], argsArray: unknown[], vt: Matrix, pageArea: number): Graphics {
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let lineWidth = 1;
  let fillColor = '#000000';
  let strokeColor = '#000000';
  // (The fill's opacity, `ca` of the graphics state: a fill painted fully transparent shows nothing.)
  let fillAlpha = 1;
  const stack: Array<[Matrix, number, string, string, number]> = [];
  const ink: Rect[] = [];
  const shaded: Rect[] = [];
  const bands: Rect[] = [];
  const dark: Rect[] = [];
  const horizontal: Segment[] = [];
  const vertical: VRule[] = [];
  const boxes: Rect[] = [];
  /** Fills in a colour, then white fills over them: a form's fields drawn as white boxes on a coloured page. */
  const coloured: Rect[] = [];
  const paper: Rect[] = [];
  /** Dots and dashes: a dotted line drawn a piece at a time. */
  const dots: Rect[] = [];
  let imageArea = 0;
  let filledCurves = 0;
  const images: Rect[] = [];
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push([ctm, lineWidth, fillColor, strokeColor, fillAlpha]);
    else if (fn === OPS.restore) [ctm, lineWidth, fillColor, strokeColor, fillAlpha] = stack.pop() ?? [ctm, lineWidth, fillColor, strokeColor, fillAlpha];
    else if (fn === OPS.transform && args) ctm = Util.transform(ctm, args as Matrix) as Matrix;
    else if (fn === OPS.setLineWidth && args) lineWidth = Number(args[0]) || 0;
    else if (fn === OPS.setFillRGBColor && typeof args?.[0] === 'string') fillColor = args[0];
    else if (fn === OPS.setStrokeRGBColor && typeof args?.[0] === 'string') strokeColor = args[0];
    else if (fn === OPS.setGState && Array.isArray(args?.[0])) {
      for (const entry of args[0] as unknown[])
        if (Array.isArray(entry) && entry[0] === 'ca' && Number.isFinite(Number(entry[1]))) fillAlpha = Number(entry[1]);
    } else if (fn === OPS.paintFormXObjectBegin) {
      stack.push([ctm, lineWidth, fillColor, strokeColor, fillAlpha]);
      const matrix = args?.[0] as ArrayLike<number> | null | undefined;
      if (matrix && matrix.length === 6) ctm = Util.transform(ctm, Array.from(matrix) as Matrix) as Matrix;
    } else if (fn === OPS.paintFormXObjectEnd)
      [ctm, lineWidth, fillColor, strokeColor, fillAlpha] = stack.pop() ?? [ctm, lineWidth, fillColor, strokeColor, fillAlpha];
    else if (fn !== undefined && IMAGES.has(fn)) {
      const m = Util.transform(vt, ctm) as Matrix;
      imageArea += Math.abs(m[0] * m[3] - m[1] * m[2]);
      // The unit square the image is drawn in, in display space (an upright image is a rectangle).
      const xs = [m[4], m[4] + m[0], m[4] + m[2], m[4] + m[0] + m[2]];
      const ys = [m[5], m[5] + m[1], m[5] + m[3], m[5] + m[1] + m[3]];
      if (images.length < 500) images.push({ x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) });
    } else if (fn === OPS.constructPath && args) {
      const paint = Number(args[0]);
      const buffer = (args[1] as Array<ArrayLike<number> | null> | undefined)?.[0];
      if (!buffer || !(STROKES.has(paint) || FILLS.has(paint))) continue;
      const m = Util.transform(vt, ctm) as Matrix;
      const width = lineWidth * Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
      const written = luminance(STROKES.has(paint) ? strokeColor : fillColor) < INK_LUMINANCE ? handwriting(buffer, m) : undefined;
      // (Past MAX_INK_PATHS the page is a picture: counting stops there.)
      if (written && ink.length <= MAX_INK_PATHS) ink.push(written);
      if (FILLS.has(paint) && luminance(fillColor) < INK_LUMINANCE) filledCurves += curves(buffer);
      for (const sub of subpaths(buffer, m)) {
        const rect = asRect(sub);
        if (rect) {
          const w = rect.x1 - rect.x0;
          const h = rect.y1 - rect.y0;
          if (h <= MAX_RULE_THICKNESS && w >= MIN_RULE) horizontal.push({ x0: rect.x0, x1: rect.x1, y: (rect.y0 + rect.y1) / 2 });
          else if (w <= MAX_RULE_THICKNESS && h >= 8) vertical.push({ x: (rect.x0 + rect.x1) / 2, y0: rect.y0, y1: rect.y1 });
          else if (w <= MAX_DOT && h <= MAX_RULE_THICKNESS) dots.push(rect);
          else if (STROKES.has(paint) && w >= 12 && h >= 10 && w * h < 0.6 * pageArea) boxes.push(rect);
          if (FILLS.has(paint) && h > MAX_RULE_THICKNESS && w > MAX_RULE_THICKNESS && luminance(fillColor) < SHADE_LUMINANCE && shaded.length < 500)
            shaded.push(rect);
          if (FILLS.has(paint) && h > MAX_RULE_THICKNESS && h <= MAX_BAND && w >= 40 && luminance(fillColor) < BAND_LUMINANCE && bands.length < 500)
            bands.push(rect);
          if (FILLS.has(paint) && w >= 12 && h >= 10 && fillAlpha >= DARK_ALPHA) {
            if (luminance(fillColor) < BAND_LUMINANCE) {
              if (coloured.length < 500) coloured.push(rect);
            } else if (w * h < 0.6 * pageArea && paper.length < 500 && coloured.some((c) => contains(c, rect, 0.5))) paper.push(rect);
          }
          if (
            FILLS.has(paint) &&
            w >= DARK_PANEL.minWidth &&
            h >= DARK_PANEL.minHeight &&
            luminance(fillColor) < DARK_LUMINANCE &&
            fillAlpha >= DARK_ALPHA &&
            dark.length < 500
          )
            dark.push(rect);
          continue;
        }
        // A filled outline too thin to hold anything is a rule whatever its corners (table borders drawn
        // as long hexagons, their ends bevelled to meet the crossing border).
        const thin = FILLS.has(paint) ? thinOutline(sub) : undefined;
        if (thin) {
          const w = thin.x1 - thin.x0;
          const h = thin.y1 - thin.y0;
          if (h <= MAX_RULE_THICKNESS && w >= MIN_RULE) horizontal.push({ x0: thin.x0, x1: thin.x1, y: (thin.y0 + thin.y1) / 2 });
          else if (w <= MAX_RULE_THICKNESS && h >= 8) vertical.push({ x: (thin.x0 + thin.x1) / 2, y0: thin.y0, y1: thin.y1 });
          continue;
        }
        if (!STROKES.has(paint) || width > MAX_RULE_THICKNESS) continue;
        for (let k = 1; k < sub.length; k++) {
          const a = sub[k - 1] as [number, number];
          const b = sub[k] as [number, number];
          // (A rule drawn by hand in an editor may slope a little: a degree or so is still level to the eye.)
          if (Math.abs(a[1] - b[1]) < Math.max(0.5, SLOPE * Math.abs(a[0] - b[0])) && Math.abs(a[0] - b[0]) >= MIN_RULE) {
            horizontal.push({ x0: Math.min(a[0], b[0]), x1: Math.max(a[0], b[0]), y: (a[1] + b[1]) / 2 });
          } else if (Math.abs(a[1] - b[1]) < 0.5 && Math.abs(a[0] - b[0]) <= MAX_DOT) {
            const y = (a[1] + b[1]) / 2;
            dots.push({ x0: Math.min(a[0], b[0]), y0: y - width / 2, x1: Math.max(a[0], b[0]), y1: y + width / 2 });
          } else if (Math.abs(a[0] - b[0]) < 0.5 && Math.abs(a[1] - b[1]) >= 8) {
            vertical.push({ x: (a[0] + b[0]) / 2, y0: Math.min(a[1], b[1]), y1: Math.max(a[1], b[1]) });
          }
        }
      }
    }
  }
  const level = distinct([...horizontal, ...dottedRules(dots, MIN_RULE)], ['y', 'x0', 'x1']);
  const verticals = joinUpright(distinct(vertical, ['x', 'y0', 'y1']), level);
  return {
    segments: joinPieces(level, verticals),
    verticals,
    boxes: distinct([...boxes, ...paper], ['x0', 'y0', 'x1', 'y1']),
    images: [...images, ...(ink.length <= MAX_INK_PATHS ? ink : []), ...dark],
    imageCover: Math.min(1, imageArea / (pageArea || 1)),
    shaded,
    bands,
    filledCurves,
  };
}

type Point = [number, number];

/** The straight subpaths of a pdf.js path buffer in display space; curved ones are left out. */
function subpaths(buffer: ArrayLike<number>, m: Matrix): Point[][] {
  const out: Point[][] = [];
  let current: Point[] = [];
  let curved = false;
  const at = (x: number, y: number): Point => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
  const flush = () => {
    if (current.length >= 2 && !curved) out.push(current);
    current = [];
    curved = false;
  };
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    if (op === MOVE) {
      flush();
      current.push(at(buffer[k] as number, buffer[k + 1] as number));
      k += 2;
    } else if (op === LINE) {
      current.push(at(buffer[k] as number, buffer[k + 1] as number));
      k += 2;
    } else if (op === CURVE) {
      curved = true;
      k += 6;
    } else if (op === QUAD) {
      curved = true;
      k += 4;
    } else if (op === CLOSE) {
      const first = current[0];
      if (first) current.push([first[0], first[1]]);
      flush();
    } else {
      break;
    }
  }
  flush();
  return out;
}

/** A colour's channels, 0 to 255, from its `#rrggbb` (as pdf.js gives fill and stroke colours), or undefined. */
export function channels(hex: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m ? ([m[1], m[2], m[3]].map((c) => Number.parseInt(c as string, 16)) as [number, number, number]) : undefined;
}

/** A colour's relative luminance, 0 (black) to 1 (white), from its `#rrggbb`; 0 when unreadable. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex) ?? [0, 0, 0];
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** How many numbers follow an operation in a pdf.js path buffer; -1 for a code it does not write. */
function argCount(op: number | undefined): number {
  return op === MOVE || op === LINE ? 2 : op === CURVE ? 6 : op === QUAD ? 4 : op === CLOSE ? 0 : -1;
}

/** The bounds of a path drawn in bends the size of handwriting (INK_BENDS), or undefined. */
function handwriting(buffer: ArrayLike<number>, m: Matrix): Rect | undefined {
  let bends = 0;
  let px = 0;
  let py = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    const n = argCount(op);
    if (n < 0) break;
    if (n > 0) {
      // (The end point of each piece: a curve's control points may lie well off the ink.)
      const x = buffer[k + n - 2] as number;
      const y = buffer[k + n - 1] as number;
      const qx = m[0] * x + m[2] * y + m[4];
      const qy = m[1] * x + m[3] * y + m[5];
      if (op === CURVE || op === QUAD || (op === LINE && Math.abs(qx - px) > 0.2 && Math.abs(qy - py) > 0.2)) bends++;
      x0 = Math.min(x0, qx);
      y0 = Math.min(y0, qy);
      x1 = Math.max(x1, qx);
      y1 = Math.max(y1, qy);
      px = qx;
      py = qy;
    }
    k += n;
  }
  const w = x1 - x0;
  const h = y1 - y0;
  if (bends < INK_BENDS || w < INK.minWidth || h < INK.minHeight || w > INK.maxWidth || h > INK.maxHeight) return undefined;
  return { x0, y0, x1, y1 };
}

/** How many curves a pdf.js path buffer draws. */
function curves(buffer: ArrayLike<number>): number {
  let n = 0;
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    const size = argCount(op);
    if (size < 0) break;
    if (op === CURVE || op === QUAD) n++;
    k += size;
  }
  return n;
}

/** An axis-aligned rectangle drawn as one closed subpath, or undefined. */
function asRect(points: Point[]): Rect | undefined {
  const pts = points.length >= 2 && same(points[0] as Point, points[points.length - 1] as Point) ? points.slice(0, -1) : points;
  if (pts.length !== 4) return undefined;
  for (let k = 0; k < 4; k++) {
    const a = pts[k] as Point;
    const b = pts[(k + 1) % 4] as Point;
    if (Math.abs(a[0] - b[0]) > 0.5 && Math.abs(a[1] - b[1]) > 0.5) return undefined;
  }
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** The bounds of a closed straight outline of five to twelve corners no thicker than a rule, or undefined. */
function thinOutline(points: Point[]): Rect | undefined {
  if (points.length < 6 || points.length > 13 || !same(points[0] as Point, points[points.length - 1] as Point)) return undefined;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const r = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  return Math.min(r.x1 - r.x0, r.y1 - r.y0) <= MAX_RULE_THICKNESS ? r : undefined;
}

const same = (a: Point, b: Point) => Math.abs(a[0] - b[0]) < 0.01 && Math.abs(a[1] - b[1]) < 0.01;

/** The items once each: an item within 1 pt of one kept before, on every coordinate `keys` names, is left out. */
function distinct<K extends string, T extends Record<K, number>>(items: T[], keys: readonly K[]): T[] {
  const out: T[] = [];
  for (const item of items) {
    if (out.some((o) => keys.every((k) => Math.abs(o[k] - item[k]) < 1))) continue;
    out.push(item);
  }
  return out;
}

/**
 * A table's side drawn in pieces end to end (a word processor draws a row's sides a line of text at a
 * time) is one side, so that the row is one cell; pieces meeting on a horizontal rule stay apart (a
 * grid's rows, each with its own sides).
 */
export function joinUpright(verticals: VRule[], level: readonly Segment[]): VRule[] {
  const sorted = [...verticals].sort((a, b) => a.x - b.x || a.y0 - b.y0);
  const out: VRule[] = [];
  for (const v of sorted) {
    const last = out[out.length - 1];
    const meet = last !== undefined && Math.abs(last.x - v.x) <= 0.5 && v.y0 >= last.y1 - 0.5 && v.y0 - last.y1 <= 1;
    if (meet && !level.some((s) => Math.abs(s.y - v.y0) <= 1 && s.x0 - 1 <= v.x && s.x1 + 1 >= v.x)) last.y1 = Math.max(last.y1, v.y1);
    else out.push({ ...v });
  }
  return out;
}

/**
 * A line drawn in pieces end to end (a word processor's line in two halves) is one line, so that a
 * caption centred under it names it whole; pieces meeting on a vertical rule stay apart (a table's
 * cells, each with its bottom border).
 */
export function joinPieces(segments: Segment[], verticals: readonly VRule[]): Segment[] {
  const joined = new Map<Segment, Segment>(segments.map((s) => [s, { ...s }]));
  const into = new Map<Segment, Segment>();
  const sorted = [...segments].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  for (let k = 1; k < sorted.length; k++) {
    const s = sorted[k] as Segment;
    const prev = sorted[k - 1] as Segment;
    const head = into.get(prev) ?? prev;
    const whole = joined.get(head) as Segment;
    const meet = Math.abs(whole.y - s.y) <= 0.5 && s.x0 >= whole.x1 - 0.5 && s.x0 - whole.x1 <= 1;
    if (!meet || verticals.some((v) => Math.abs(v.x - s.x0) <= 3 && v.y0 <= s.y + 3 && v.y1 >= s.y - 3)) continue;
    whole.x1 = Math.max(whole.x1, s.x1);
    into.set(s, head);
    joined.delete(s);
  }
  return segments.filter((s) => joined.has(s)).map((s) => joined.get(s) as Segment);
}
