/**
 * What pdf.js sees on a page, in the contract's display geometry (points, origin top-left of the page as
 * displayed after /Rotate, y downward): words of the text layer, rules and boxes drawn by the
 * content stream, AcroForm widgets, and how much of the page images cover. Also renders a page to a bitmap
 * for OCR. Runs only inside the detection child process (see ../detect-child.ts).
 */
import path from 'node:path';
import { PDFJS_ROOT } from '../../platform/vendored.js';
import { AnnotationMode, OPS, Util, getDocument, type PDFDocumentProxy, type PDFPageProxy } from './pdfjs.js';
import { isFillToken } from './lexicon.js';
import { MAX_DOT, dottedRules, joinGlyphs } from './glyph-runs.js';
import type { Rect, Segment, VRule, Widget, Word } from './suggest-fields.js';

type Matrix = [number, number, number, number, number, number];

const asset = (dir: string) => `${path.join(PDFJS_ROOT, dir)}${path.sep}`;
/** Images above this many pixels are not decoded (a scan of A4 at 600 dpi is 35 million). */
const MAX_IMAGE_PIXELS = 40_000_000;
const MIN_RULE = 24;
const MAX_RULE_THICKNESS = 4;

export interface PageScan {
  width: number;
  height: number;
  rotation: number;
  words: Word[];
  segments: Segment[];
  verticals: VRule[];
  boxes: Rect[];
  widgets: Widget[];
  /** Where images are drawn (a signature image over a line fills it). */
  images: Rect[];
  /** Share of the page covered by images, 0 to 1. */
  imageCover: number;
  /** Filled paths with curves: glyphs drawn as outlines, on a page printed without its text. */
  outlines: number;
}

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const task = getDocument({
    // pdf.js detaches what it is given (versions.md, pitfall 8).
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    standardFontDataUrl: asset('standard_fonts'),
    cMapUrl: asset('cmaps'),
    cMapPacked: true,
    wasmUrl: asset('wasm'),
    iccUrl: asset('iccs'),
    useSystemFonts: false,
    disableFontFace: true,
    enableXfa: false,
    stopAtErrors: false,
    maxImageSize: MAX_IMAGE_PIXELS,
    verbosity: 0,
  });
  return task.promise;
}

export async function scanPage(page: PDFPageProxy): Promise<PageScan> {
  const viewport = page.getViewport({ scale: 1 });
  const vt = viewport.transform as Matrix;
  // A damaged part of a page (its text, drawing or form fields) leaves the other parts usable.
  const [text, ops, annotations] = await Promise.all([
    page.getTextContent({ includeMarkedContent: false }).catch(() => ({ items: [] })),
    page.getOperatorList({ intent: 'display', annotationMode: AnnotationMode.DISABLE }).catch(() => ({ fnArray: [], argsArray: [] })),
    page.getAnnotations({ intent: 'display' }).catch(() => []),
  ]);
  const words: Word[] = [];
  // Text painted white (anchor strings hidden in e-signature templates) is not read: a reader does not see it.
  const hidden = whiteText(ops.fnArray, ops.argsArray);
  for (const item of text.items) {
    if (!('str' in item) || !item.str.trim()) continue;
    const m = Util.transform(vt, item.transform as Matrix) as Matrix;
    const size = Math.hypot(m[2], m[3]);
    // Only text that reads left to right across the displayed page: turned text is not a label.
    if (!(m[0] > 0 && Math.abs(m[1]) <= 0.05 * m[0] && size >= 3)) continue;
    let str = item.str;
    // The hidden string as a word of its own (or the whole item), never inside another word.
    for (const h of hidden)
      str = str.replace(new RegExp(`(^|\\s)${escapeRegExp(h)}(?=\\s|$)`, 'gu'), (m: string, lead: string) => lead + ' '.repeat(m.length - lead.length));
    if (!str.trim()) continue;
    words.push(...splitItem(str, m[4], m[5], item.width, size, item.dir === 'rtl'));
  }
  words.splice(0, words.length, ...joinGlyphs(words));
  const graphics = readGraphics(ops.fnArray, ops.argsArray, vt, viewport.width * viewport.height);
  const widgets: Widget[] = [];
  for (const a of annotations as Array<Record<string, unknown>>) {
    if (a.annotationType !== 20 || a.subtype !== 'Widget') continue;
    const flags = Number(a.annotationFlags ?? 0);
    // Hidden (2) or never shown (32), or a field nobody may fill.
    if (flags & 2 || flags & 32 || a.readOnly === true) continue;
    const kind = a.fieldType === 'Sig' ? 'signature' : a.fieldType === 'Tx' ? 'text' : undefined;
    if (!kind || !Array.isArray(a.rect)) continue;
    const [x0, y0, x1, y1] = viewport.convertToViewportRectangle(a.rect as number[]) as number[];
    const box = normalize(x0 ?? 0, y0 ?? 0, x1 ?? 0, y1 ?? 0);
    if (box.x1 - box.x0 < 4 || box.y1 - box.y0 < 4) continue;
    const label = typeof a.alternativeText === 'string' ? a.alternativeText : undefined;
    widgets.push({ kind, name: String(a.fieldName ?? ''), ...(label ? { label } : {}), box });
  }
  return {
    width: viewport.width,
    height: viewport.height,
    rotation: viewport.rotation,
    words,
    segments: graphics.segments,
    verticals: graphics.verticals,
    boxes: graphics.boxes,
    images: graphics.images,
    widgets,
    imageCover: graphics.imageCover,
    outlines: graphics.outlines,
  };
}

// Approximate advance widths (thousandths of an em, Helvetica-like): text items come whole, and the
// position of a word or of a run of underscores inside one is estimated from them.
const NARROW = new Set([..." ilj.,:;'!|`´fIt()[]/\\-"]);
const WIDE = new Set([...'mwMW@%']);
function advance(ch: string): number {
  if (NARROW.has(ch)) return ch === 'f' || ch === 't' || ch === '-' || ch === '(' || ch === ')' ? 333 : 278;
  if (WIDE.has(ch)) return 833;
  if (ch === '_') return 556;
  if (/[A-Z]/.test(ch)) return 667;
  return 556;
}

const FILL_CHAR = /[_.…·•∙⋅]/;

/** One text item as words (and runs of blanks to fill, as their own words), each with its box. */
export function splitItem(str: string, x: number, baseline: number, width: number, size: number, rtl: boolean): Word[] {
  const chars = [...str];
  const total = chars.reduce((sum, ch) => sum + advance(ch), 0) || 1;
  const scale = width / total;
  const parts: Array<{ text: string; start: number; end: number }> = [];
  let offset = 0;
  let current: { text: string; start: number; end: number; fill: boolean } | undefined;
  for (const [i, ch] of chars.entries()) {
    const w = advance(ch) * scale;
    const blank = /\s/.test(ch);
    // (A tatweel inside a word stretches it; after a colon or a space it draws a blank.)
    const fillChar = /[_.…\-‒—–·•∙⋅]/.test(ch) || (ch === 'ـ' && (current?.fill === true || !/\p{L}/u.test(chars[i - 1] ?? '')));
    // A spaced-out run of dots or underscores (". . . . .") is one blank.
    if (blank && current?.fill && FILL_CHAR.test(chars[i + 1] ?? '') && FILL_CHAR.test(chars[i - 1] ?? '')) {
      current.text += ch;
      current.end = offset + w;
    } else if (blank) {
      if (current) parts.push(current);
      current = undefined;
    } else if (current && (current.fill === fillChar || (!fillChar && !current.fill))) {
      current.text += ch;
      current.end = offset + w;
    } else {
      if (current) parts.push(current);
      current = { text: ch, start: offset, end: offset + w, fill: fillChar };
    }
    offset += w;
  }
  if (current) parts.push(current);
  // Punctuation runs that are not blanks ("a." or ":") go back onto the word they follow.
  const merged: typeof parts = [];
  for (const p of parts) {
    const last = merged[merged.length - 1];
    if (last && /^[_.…\-‒—–]+$/.test(p.text) && !isFillToken(p.text) && last.end >= p.start - 0.01) {
      last.text += p.text;
      last.end = p.end;
    } else {
      merged.push({ ...p });
    }
  }
  return merged.map((p) => {
    const x0 = rtl ? x + width - p.end : x + p.start;
    const x1 = rtl ? x + width - p.start : x + p.end;
    return { text: p.text, box: { x0, y0: baseline - 0.78 * size, x1, y1: baseline + 0.22 * size }, baseline, size, confidence: 1 };
  });
}

interface Graphics {
  segments: Segment[];
  verticals: VRule[];
  boxes: Rect[];
  images: Rect[];
  imageCover: number;
  outlines: number;
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
const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUAD = 3;
const CLOSE = 4;

const SHOW_TEXT = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);

/**
 * The strings a page paints in white (or near white) and never in another colour: text no reader sees.
 * Invisible text (rendering mode 3, the text layer of a scan) is kept: it is the page's words.
 */
export function whiteText(fnArray: number[], argsArray: unknown[]): string[] {
  let white = false;
  const stack: boolean[] = [];
  const painted = new Set<string>();
  const visible = new Set<string>();
  for (let i = 0; i < fnArray.length && i < 200_000; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(white);
    else if (fn === OPS.restore) white = stack.pop() ?? white;
    else if (fn === OPS.setFillRGBColor && args) white = isWhite(args[0]);
    else if (fn === OPS.setFillGray || fn === OPS.setFillCMYKColor || fn === OPS.setFillColorN || fn === OPS.setFillColor) white = false;
    else if (fn !== undefined && SHOW_TEXT.has(fn) && args) {
      const glyphs = (fn === OPS.nextLineSetSpacingShowText ? args[2] : args[0]) as unknown;
      if (!Array.isArray(glyphs)) continue;
      const str = glyphs
        .map((g) => (g && typeof g === 'object' && 'unicode' in g ? String((g as { unicode: unknown }).unicode) : ''))
        .join('')
        .trim();
      if (str.length < 2) continue;
      (white ? painted : visible).add(str);
    }
  }
  // Words only: white underscores or rules of punctuation are drawing, not hidden words.
  return [...painted].filter((s) => !visible.has(s) && /[\p{L}\p{N}]/u.test(s));
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function isWhite(color: unknown): boolean {
  if (typeof color === 'string' && /^#[0-9a-f]{6}$/i.test(color)) {
    return [1, 3, 5].every((k) => parseInt(color.slice(k, k + 2), 16) >= 0xf0);
  }
  if (Array.isArray(color) || color instanceof Uint8ClampedArray) return Array.from(color as ArrayLike<number>).every((c) => c >= 240);
  return false;
}

/** Rules, boxes and image coverage from the operator list, following the transformation matrix. */
export function readGraphics(fnArray: number[], argsArray: unknown[], vt: Matrix, pageArea: number): Graphics {
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let lineWidth = 1;
  const stack: Array<[Matrix, number]> = [];
  const horizontal: Segment[] = [];
  const vertical: VRule[] = [];
  const boxes: Rect[] = [];
  /** Dots and dashes: a dotted line drawn a piece at a time. */
  const dots: Rect[] = [];
  let imageArea = 0;
  let outlines = 0;
  const images: Rect[] = [];
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push([ctm, lineWidth]);
    else if (fn === OPS.restore) [ctm, lineWidth] = stack.pop() ?? [ctm, lineWidth];
    else if (fn === OPS.transform && args) ctm = Util.transform(ctm, args as Matrix) as Matrix;
    else if (fn === OPS.setLineWidth && args) lineWidth = Number(args[0]) || 0;
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push([ctm, lineWidth]);
      const matrix = args?.[0] as ArrayLike<number> | null | undefined;
      if (matrix && matrix.length === 6) ctm = Util.transform(ctm, Array.from(matrix) as Matrix) as Matrix;
    } else if (fn === OPS.paintFormXObjectEnd) [ctm, lineWidth] = stack.pop() ?? [ctm, lineWidth];
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
      if (FILLS.has(paint) && hasCurve(buffer)) outlines++;
      const m = Util.transform(vt, ctm) as Matrix;
      const width = lineWidth * Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
      for (const sub of subpaths(buffer, m)) {
        const rect = asRect(sub);
        if (rect) {
          const w = rect.x1 - rect.x0;
          const h = rect.y1 - rect.y0;
          if (h <= MAX_RULE_THICKNESS && w >= MIN_RULE) horizontal.push({ x0: rect.x0, x1: rect.x1, y: (rect.y0 + rect.y1) / 2 });
          else if (w <= MAX_RULE_THICKNESS && h >= 8) vertical.push({ x: (rect.x0 + rect.x1) / 2, y0: rect.y0, y1: rect.y1 });
          else if (w <= MAX_DOT && h <= MAX_RULE_THICKNESS) dots.push(rect);
          else if (STROKES.has(paint) && w >= 12 && h >= 10 && w * h < 0.6 * pageArea) boxes.push(rect);
          continue;
        }
        if (!STROKES.has(paint) || width > MAX_RULE_THICKNESS) continue;
        for (let k = 1; k < sub.length; k++) {
          const a = sub[k - 1] as [number, number];
          const b = sub[k] as [number, number];
          if (Math.abs(a[1] - b[1]) < 0.5 && Math.abs(a[0] - b[0]) >= MIN_RULE) {
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
  return {
    segments: distinct([...horizontal, ...dottedRules(dots, MIN_RULE)]),
    verticals: distinctVerticals(vertical),
    boxes: distinctRects(boxes),
    images,
    imageCover: Math.min(1, imageArea / (pageArea || 1)),
    outlines,
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

function hasCurve(buffer: ArrayLike<number>): boolean {
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    if (op === CURVE || op === QUAD) return true;
    if (op === MOVE || op === LINE) k += 2;
    else if (op !== CLOSE) return false;
  }
  return false;
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

const same = (a: Point, b: Point) => Math.abs(a[0] - b[0]) < 0.01 && Math.abs(a[1] - b[1]) < 0.01;

function distinct(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    if (out.some((o) => Math.abs(o.y - s.y) < 1 && Math.abs(o.x0 - s.x0) < 1 && Math.abs(o.x1 - s.x1) < 1)) continue;
    out.push(s);
  }
  return out;
}

function distinctVerticals(rules: VRule[]): VRule[] {
  const out: VRule[] = [];
  for (const v of rules) {
    if (out.some((o) => Math.abs(o.x - v.x) < 1 && Math.abs(o.y0 - v.y0) < 1 && Math.abs(o.y1 - v.y1) < 1)) continue;
    out.push(v);
  }
  return out;
}

function distinctRects(rects: Rect[]): Rect[] {
  const out: Rect[] = [];
  for (const r of rects) {
    if (out.some((o) => Math.abs(o.x0 - r.x0) < 1 && Math.abs(o.y0 - r.y0) < 1 && Math.abs(o.x1 - r.x1) < 1 && Math.abs(o.y1 - r.y1) < 1)) continue;
    out.push(r);
  }
  return out;
}

function normalize(x0: number, y0: number, x1: number, y1: number): Rect {
  return { x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) };
}
