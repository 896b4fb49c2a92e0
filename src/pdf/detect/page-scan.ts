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
import { joinGlyphs } from './glyph-runs.js';
import { advance } from './glyph-widths.js';
import { shiftedFonts, unshift } from './shifted-fonts.js';
import { channels, readGraphics, type Matrix } from './page-graphics.js';
import type { PageModel, Rect, Segment, VRule, Widget, Word } from './suggest-fields.js';

const asset = (dir: string) => `${path.join(PDFJS_ROOT, dir)}${path.sep}`;
/** Images above this many pixels are not decoded (a scan of A4 at 600 dpi is 35 million). */
const MAX_IMAGE_PIXELS = 40_000_000;

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
  /** Bands filled in a colour (a form's grey header rows). */
  bands: Rect[];
  /** Curves filled in a dark colour (letters drawn as outlines count by the thousand). */
  filledCurves: number;
  /** Its text is mostly painted invisible (rendering mode 3 or 7): the text layer OCR lays over a scan, not words typed onto it. */
  hiddenText: boolean;
}

/** Page `page` as the rules read it, from its scan: its text layer, drawings, widgets and images (no OCR). */
export function textPageModel(page: number, scan: PageScan): PageModel {
  const { width, height, words, segments, verticals, boxes, images, widgets, bands } = scan;
  return { page, width, height, words, segments, verticals, boxes, images, widgets, bands, ocr: false };
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
  // In the page's own units, as fields are: pdf.js would count a page with /UserUnit in its larger units.
  const viewport = page.getViewport({ scale: 1 / page.userUnit });
  const vt = viewport.transform as Matrix;
  // A damaged part of a page (its text, drawing or form fields) leaves the other parts usable.
  const [text, ops, annotations] = await Promise.all([
    page.getTextContent({ includeMarkedContent: false }).catch(() => ({ items: [] })),
    page.getOperatorList({ intent: 'display', annotationMode: AnnotationMode.DISABLE }).catch(() => ({ fnArray: [], argsArray: [] })),
    page.getAnnotations({ intent: 'display' }).catch(() => []),
  ]);
  const words: Word[] = [];
  const graphics = readGraphics(ops.fnArray, ops.argsArray, vt, viewport.width * viewport.height);
  // Text painted white (anchor strings hidden in e-signature templates) is not read: a reader does not see
  // it — unless it stands on a shaded band (a table's header in white on a colour), where a reader does.
  const paint = paintedText(ops.fnArray, ops.argsArray);
  const onShade = (x: number, y: number) => graphics.shaded.some((r) => x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1);
  // (A font whose codes come out 29 below its letters is read back up: shifted-fonts.ts.)
  const shifted = shiftedFonts(text.items.flatMap((item) => ('str' in item ? [item] : [])));
  for (const item of text.items) {
    if (!('str' in item) || !item.str.trim()) continue;
    const m = Util.transform(vt, item.transform as Matrix) as Matrix;
    const size = Math.hypot(m[2], m[3]);
    // Only text that reads left to right across the displayed page: turned text is not a label.
    if (!(m[0] > 0 && Math.abs(m[1]) <= 0.05 * m[0] && size >= 3)) continue;
    let str = shifted.has(item.fontName) ? unshift(item.str) : item.str;
    // The hidden string as a word of its own (or the whole item), never inside another word.
    for (const h of onShade(m[4] + size / 4, m[5] - size / 3) ? [] : paint.white)
      str = str.replace(new RegExp(`(^|\\s)${escapeRegExp(h)}(?=\\s|$)`, 'gu'), (m: string, lead: string) => lead + ' '.repeat(m.length - lead.length));
    if (!str.trim()) continue;
    words.push(...splitItem(str, m[4], m[5], item.width, size, item.dir === 'rtl'));
  }
  words.splice(0, words.length, ...joinGlyphs(words));
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
    bands: graphics.bands,
    filledCurves: graphics.filledCurves,
    hiddenText: paint.hidden,
  };
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
    // An accent a font draws as a glyph of its own over the next letter ("int´ eress´ e" for "intéressé",
    // TeX's way) stays in the word, and is left out of it.
    const accent =
      /[´`¨ˆ˜]/.test(ch) &&
      current !== undefined &&
      !current.fill &&
      /\p{L}/u.test(chars[i - 1] ?? '') &&
      /\s/.test(chars[i + 1] ?? '') &&
      /\p{L}/u.test(chars[i + 2] ?? '');
    const afterAccent = blank && /[´`¨ˆ˜]/.test(chars[i - 1] ?? '') && current !== undefined && !current.fill && /\p{L}/u.test(chars[i + 1] ?? '');
    if (accent || afterAccent) {
      (current as { end: number }).end = offset + w;
    } else if (blank && current?.fill && FILL_CHAR.test(chars[i + 1] ?? '') && FILL_CHAR.test(chars[i - 1] ?? '')) {
      // A spaced-out run of dots or underscores (". . . . .") is one blank.
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

const SHOW_TEXT = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);

/**
 * How a page paints its text, in one pass over its drawing: `white`, the strings it paints in white (or near white)
 * and never in another colour, text no reader sees; `hidden`, whether more of its text is shown invisible (rendering
 * mode 3, or 7: clipping only) than seen, as the text layer OCR lays over a scan is. Invisible text is not white: it
 * is the page's words.
 */
export function paintedText(fnArray: number[], argsArray: unknown[]): { white: string[]; hidden: boolean } {
  let white = false;
  let mode = 0;
  const stack: Array<[boolean, number]> = [];
  const painted = new Set<string>();
  const visible = new Set<string>();
  let hidden = 0;
  let seen = 0;
  for (let i = 0; i < fnArray.length && i < 200_000; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push([white, mode]);
    else if (fn === OPS.restore) [white, mode] = stack.pop() ?? [white, mode];
    else if (fn === OPS.setFillRGBColor && args) white = isWhite(args[0]);
    else if (fn === OPS.setFillGray || fn === OPS.setFillCMYKColor || fn === OPS.setFillColorN || fn === OPS.setFillColor) white = false;
    else if (fn === OPS.setTextRenderingMode) mode = Number(args?.[0] ?? 0);
    else if (fn !== undefined && SHOW_TEXT.has(fn)) {
      if (mode === 3 || mode === 7) hidden++;
      else seen++;
      const glyphs = (fn === OPS.nextLineSetSpacingShowText ? args?.[2] : args?.[0]) as unknown;
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
  return { white: [...painted].filter((s) => !visible.has(s) && /[\p{L}\p{N}]/u.test(s)), hidden: hidden > seen };
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function isWhite(color: unknown): boolean {
  const rgb = typeof color === 'string' ? channels(color) : undefined;
  if (rgb) return rgb.every((c) => c >= 0xf0);
  if (Array.isArray(color) || color instanceof Uint8ClampedArray) return Array.from(color as ArrayLike<number>).every((c) => c >= 240);
  return false;
}

function normalize(x0: number, y0: number, x1: number, y1: number): Rect {
  return { x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) };
}
