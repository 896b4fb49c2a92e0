/**
 * A scanned page's pixels, kept from the text pass. A scan is an image drawn over the page and nothing
 * else; pdf.js decodes that image when it reads the page's drawing (page-scan.ts), and decodes it again
 * when it renders the page for OCR: on a photographed page (a 2,552 × 3,264 JPEG) each decoding takes
 * 0.4–0.6 s and the drawing 0.5 s more, a third of the page's time. The first decoding is kept here in
 * grey, and the page is drawn for OCR from it: each pixel of the page the average of the image's pixels
 * under it, on white paper, the image placed where pdf.js places it. A page that shows anything else
 * (text one can see, a drawing, a form field or another annotation, a second image, transparency, a
 * transfer function, an image turned other than by quarter turns) is left to pdf.js's rendering.
 */
import { AnnotationMode, OPS, Util, type PDFPageProxy } from './pdfjs.js';
import type { Matrix } from './page-graphics.js';
import type { GreyPage } from './ocr-image.js';

export interface KeptScan {
  /** The image in grey, row by row from the top of the page (turned upright when drawn a quarter turn round). */
  grey: Uint8Array;
  width: number;
  height: number;
  /** Where the image's pixel edges fall on the page, in points: column edge i at x = kx·i + ox, row edge j at y = ky·j + oy. */
  kx: number;
  ox: number;
  ky: number;
  oy: number;
  /** The page as displayed, in points. */
  pageWidth: number;
  pageHeight: number;
}

/** The page's drawing steps that leave a page showing only its image (the text ones only for invisible text, render mode 3). */
const HARMLESS = new Set<number>([
  OPS.dependency,
  OPS.setRenderingIntent,
  OPS.beginMarkedContent,
  OPS.beginMarkedContentProps,
  OPS.endMarkedContent,
  OPS.setLineWidth,
  OPS.setLineCap,
  OPS.setLineJoin,
  OPS.setMiterLimit,
  OPS.setDash,
  OPS.setFlatness,
  OPS.setFillGray,
  OPS.setStrokeGray,
  OPS.setFillRGBColor,
  OPS.setStrokeRGBColor,
  OPS.setFillCMYKColor,
  OPS.setStrokeCMYKColor,
  OPS.beginText,
  OPS.endText,
  OPS.setFont,
  OPS.setTextMatrix,
  OPS.moveText,
  OPS.setLeadingMoveText,
  OPS.nextLine,
  OPS.setCharSpacing,
  OPS.setWordSpacing,
  OPS.setHScale,
  OPS.setLeading,
  OPS.setTextRise,
]);
const SHOW_TEXT = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);
const INVISIBLE_TEXT = 3;
/** Graphics-state entries that change nothing of an opaque image's pixels (pdf.js's names; SMask, ca, CA, BM and TR are checked). */
const HARMLESS_STATE = new Set(['LW', 'LC', 'LJ', 'ML', 'D', 'RI', 'FL', 'Font', 'OP', 'op', 'OPM', 'SA', 'TK', 'HT', 'BG', 'BG2', 'UCR', 'UCR2']);

/** pdf.js's decoded image (ImageKind: 1 grey at 1 bit a pixel, 2 RGB, 3 RGBA). */
interface DecodedImage {
  width: number;
  height: number;
  kind: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/** The one image a page draws, and where (its matrix from the unit square to the displayed page), when the page draws nothing else. */
export function soleImage(fnArray: readonly number[], argsArray: readonly unknown[], vt: Matrix): { id: string; matrix: Matrix } | undefined {
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let textMode = 0;
  const stack: Array<[Matrix, number]> = [];
  let image: { id: string; matrix: Matrix } | undefined;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i] as number;
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push([ctm, textMode]);
    else if (fn === OPS.restore) [ctm, textMode] = stack.pop() ?? [ctm, textMode];
    else if (fn === OPS.transform && args) ctm = Util.transform(ctm, args as Matrix) as Matrix;
    else if (fn === OPS.setTextRenderingMode && args) textMode = Number(args[0]);
    else if (SHOW_TEXT.has(fn)) {
      if (textMode !== INVISIBLE_TEXT) return undefined;
    } else if (fn === OPS.setGState && args) {
      if (!harmlessState(args[0])) return undefined;
    } else if (fn === OPS.paintImageXObject && args && typeof args[0] === 'string') {
      if (image) return undefined;
      image = { id: args[0], matrix: Util.transform(vt, ctm) as Matrix };
    } else if (!HARMLESS.has(fn)) return undefined;
  }
  return image;
}

function harmlessState(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  return entries.every((entry) => {
    if (!Array.isArray(entry)) return false;
    const [key, value] = entry as [string, unknown];
    if (key === 'SMask' || key === 'TR') return value === false || value === null || value === undefined;
    if (key === 'ca' || key === 'CA') return value === 1;
    if (key === 'BM') return value === 'source-over';
    return HARMLESS_STATE.has(key);
  });
}

/**
 * The page's image, kept in grey from the decoding the text pass made, when the page shows only that
 * image drawn upright or a quarter turn round; else undefined. Call before the page's cleanup().
 */
export async function keepScan(page: PDFPageProxy): Promise<KeptScan | undefined> {
  // (The same calls scanPage made: pdf.js answers them from what it has, without reading the page again.)
  const [ops, annotations] = await Promise.all([
    page.getOperatorList({ intent: 'display', annotationMode: AnnotationMode.DISABLE }),
    page.getAnnotations({ intent: 'display' }),
  ]);
  if (annotations.length > 0) return undefined;
  const viewport = page.getViewport({ scale: 1 });
  const drawn = soleImage(ops.fnArray, ops.argsArray, viewport.transform as Matrix);
  if (!drawn) return undefined;
  const decoded = (await new Promise((resolve) => page.objs.get(drawn.id, resolve))) as DecodedImage | null;
  if (!decoded?.data) return undefined;
  const grey = greyOf(decoded);
  if (!grey) return undefined;
  return placed(grey, decoded.width, decoded.height, drawn.matrix, viewport.width, viewport.height);
}

/** The decoded image in grey (the weights OCR's rendering uses), composited on white where transparent. */
function greyOf({ width, height, kind, data }: DecodedImage): Uint8Array | undefined {
  if (!data) return undefined;
  const n = width * height;
  const grey = new Uint8Array(n);
  if (kind === 1) {
    // One bit a pixel, each row starting on a byte; a set bit is white.
    const rowBytes = (width + 7) >> 3;
    if (data.length < rowBytes * height) return undefined;
    for (let y = 0; y < height; y++) {
      const row = y * rowBytes;
      for (let x = 0; x < width; x++) grey[y * width + x] = (data[row + (x >> 3)] as number) & (128 >> (x & 7)) ? 255 : 0;
    }
    return grey;
  }
  const step = kind === 2 ? 3 : kind === 3 ? 4 : 0;
  if (step === 0 || data.length < n * step) return undefined;
  for (let i = 0, j = 0; j < n; i += step, j++) {
    const g = ((data[i] as number) * 77 + (data[i + 1] as number) * 150 + (data[i + 2] as number) * 29) >> 8;
    grey[j] = step === 4 ? (g * (data[i + 3] as number) + 255 * (255 - (data[i + 3] as number)) + 127) / 255 : g;
  }
  return grey;
}

/** Where the image lands on the page: upright (flipped or not), or turned upright when drawn a quarter turn round. */
function placed(grey: Uint8Array, w: number, h: number, m: Matrix, pageWidth: number, pageHeight: number): KeptScan | undefined {
  const [a, b, c, d, e, f] = m;
  const tiny = (v: number, of: number) => Math.abs(v) <= 1e-3 * Math.abs(of);
  // The image's pixel (i, j) spans the unit square's (i / w, 1 - j / h): x = a·u + c·v + e, y = b·u + d·v + f.
  if (tiny(b, a) && tiny(c, d) && a !== 0 && d !== 0) return { grey, width: w, height: h, kx: a / w, ox: e, ky: -d / h, oy: d + f, pageWidth, pageHeight };
  if (tiny(a, b) && tiny(d, c) && b !== 0 && c !== 0) {
    // Columns run down the page: the image turned so that they run across (rows of the page from its columns).
    const turned = new Uint8Array(w * h);
    for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) turned[i * h + j] = grey[j * w + i] as number;
    return { grey: turned, width: h, height: w, kx: -c / h, ox: c + e, ky: b / w, oy: f, pageWidth, pageHeight };
  }
  return undefined;
}

/** The page drawn from its kept image at `dpi` (fewer if it would exceed `maxPixels`), in grey: what renderGrey gives. */
export function drawScan(kept: KeptScan, dpi: number, maxPixels: number): GreyPage {
  let scale = dpi / 72;
  const pixels = kept.pageWidth * kept.pageHeight * scale * scale;
  if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels);
  const width = Math.max(1, Math.floor(kept.pageWidth * scale));
  const height = Math.max(1, Math.floor(kept.pageHeight * scale));
  const across = spans(width, kept.width, kept.kx * scale, kept.ox * scale);
  const down = spans(height, kept.height, kept.ky * scale, kept.oy * scale);
  // Across first, each of the image's rows into the page's columns; then down, the rows into the page's rows.
  const rows = new Float32Array(width * kept.height);
  const { grey: image, width: w } = kept;
  for (let j = 0; j < kept.height; j++) {
    const from = j * w;
    const to = j * width;
    for (let x = 0; x < width; x++) {
      const start = from + (across.first[x] as number);
      const base = x * across.taps;
      let s = (across.missing[x] as number) * 255;
      for (let t = 0; t < (across.count[x] as number); t++) s += (across.weights[base + t] as number) * (image[start + t] as number);
      rows[to + x] = s / across.span;
    }
  }
  const grey = new Uint8Array(width * height).fill(255);
  const sum = new Float32Array(width);
  for (let y = 0; y < height; y++) {
    const count = down.count[y] as number;
    if (count === 0) continue;
    sum.fill(0);
    for (let t = 0; t < count; t++) {
      const weight = down.weights[y * down.taps + t] as number;
      const row = ((down.first[y] as number) + t) * width;
      for (let x = 0; x < width; x++) sum[x] = (sum[x] as number) + weight * (rows[row + x] as number);
    }
    const white = (down.missing[y] as number) * 255;
    for (let x = 0; x < width; x++) grey[y * width + x] = Math.round(((sum[x] as number) + white) / down.span);
  }
  return { grey, width, height, scale };
}

/**
 * For each of the page's `n` pixels along one direction, the image's pixels under it and how much of each:
 * image edge k falls at pixel k·k1 + k0 of the page; what of a page pixel the image does not cover is white.
 */
function spans(n: number, size: number, k1: number, k0: number) {
  const taps = Math.ceil(1 / Math.abs(k1)) + 2;
  const first = new Int32Array(n);
  const count = new Int32Array(n);
  const weights = new Float32Array(n * taps);
  const missing = new Float32Array(n);
  const span = Math.abs(1 / k1);
  for (let p = 0; p < n; p++) {
    const u0 = (p - k0) / k1;
    const u1 = (p + 1 - k0) / k1;
    const lo = Math.min(u0, u1);
    const hi = Math.max(u0, u1);
    const start = Math.max(0, Math.floor(lo));
    const stop = Math.min(size, Math.ceil(hi));
    let covered = 0;
    first[p] = start;
    for (let k = start; k < stop && k - start < taps; k++) {
      const part = Math.min(hi, k + 1) - Math.max(lo, k);
      weights[p * taps + (k - start)] = part;
      covered += part;
    }
    count[p] = Math.max(0, Math.min(stop - start, taps));
    missing[p] = span - covered;
  }
  return { first, count, weights, missing, span, taps };
}
