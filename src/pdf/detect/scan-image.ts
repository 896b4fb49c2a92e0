/**
 * A scanned page's pixels, kept from the text pass. A scan is an image drawn over the page and nothing
 * else; pdf.js decodes that image when it reads the page's drawing (page-scan.ts), and decodes it again
 * when it renders the page for OCR: on a photographed page (a 2,552 × 3,264 JPEG) each decoding takes
 * 0.4–0.6 s and the drawing 0.5 s more, a third of the page's time. The first decoding is kept here in
 * grey, and the page is drawn for OCR from it on white paper the way pdf.js draws an image (drawScan), so
 * that OCR reads the same pixels as from pdf.js's rendering. A page that shows anything else
 * (text one can see, a drawing, a form field or another annotation, a second image, transparency, a
 * transfer function, an image turned other than by quarter turns) is left to pdf.js's rendering — but
 * for a scan with a text layer, whose lines are looked for in its images alone (keepImages).
 */
import { AnnotationMode, OPS, Util, type PDFPageProxy } from './pdfjs.js';
import type { Matrix } from './page-graphics.js';
import { boxOf, clipRectangle, covers } from './image-clips.js';
import type { Rect } from './page-model.js';

export interface KeptScan {
  /** The image in grey, row by row from its top, composited on white where it is transparent. */
  grey: Uint8Array;
  width: number;
  height: number;
  /** The matrices the page sets before it draws the image, in order (what pdf.js applies to its canvas). */
  transforms: Matrix[];
  /** The image asks to be smoothed when enlarged (its /Interpolate). */
  interpolate: boolean;
}

/** The parts of a canvas's 2D context that tell where pdf.js draws: its matrix, held in single precision as pdf.js's canvas holds it. */
export interface TransformContext {
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  transform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  scale(x: number, y: number): void;
  getTransform(): { a: number; b: number; c: number; d: number; e: number; f: number };
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
/** Images drawn otherwise than as a whole opaque XObject: left to pdf.js's rendering. */
const IMAGE_OPS = new Set<number>([
  OPS.paintImageMaskXObject,
  OPS.paintImageMaskXObjectGroup,
  OPS.paintImageXObjectRepeat,
  OPS.paintImageMaskXObjectRepeat,
  OPS.paintSolidColorImageMask,
  OPS.paintInlineImageXObject,
  OPS.paintInlineImageXObjectGroup,
  OPS.beginGroup,
]);
/** Graphics-state entries that change nothing of an opaque image's pixels (pdf.js's names; SMask, ca, CA, BM and TR are checked). */
const HARMLESS_STATE = new Set(['LW', 'LC', 'LJ', 'ML', 'D', 'RI', 'FL', 'Font', 'OP', 'op', 'OPM', 'SA', 'TK', 'HT', 'BG', 'BG2', 'UCR', 'UCR2']);

/** pdf.js's decoded image (ImageKind: 1 grey at 1 bit a pixel, 2 RGB, 3 RGBA). */
interface DecodedImage {
  width: number;
  height: number;
  kind: number;
  data?: Uint8Array | Uint8ClampedArray;
  interpolate?: boolean;
}

/** An image the page draws: its pdf.js id and the matrices set before it is drawn, in order. */
interface DrawnImage {
  id: string;
  transforms: Matrix[];
}

/**
 * The images a page draws, in order. `sole`: the page's one image, when it draws nothing else (but clips it to a
 * rectangle that leaves it whole, within CLIP_SLACK: the frame an exporter draws around a picture). Otherwise
 * every image, whatever else the page draws (text and drawings are not drawn from them): undefined
 * when an image is drawn otherwise than opaque and whole (a mask, inline, in a transparency group).
 */
function drawnImages(fnArray: readonly number[], argsArray: readonly unknown[], sole: boolean): DrawnImage[] | undefined {
  let ctm: Matrix[] = [];
  let textMode = 0;
  /** The rectangles, on the page, that clip what is drawn now (undefined: one turned other than square to the page); and whether the next path clips. */
  let clips: Array<Rect | undefined> = [];
  let clipping = false;
  const stack: Array<[Matrix[], number, Array<Rect | undefined>]> = [];
  const images: DrawnImage[] = [];
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i] as number;
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push([ctm, textMode, clips]);
    else if (fn === OPS.restore) [ctm, textMode, clips] = stack.pop() ?? [ctm, textMode, clips];
    else if (fn === OPS.transform && args) ctm = [...ctm, Array.from(args as number[]) as Matrix];
    else if (fn === OPS.setTextRenderingMode && args) textMode = Number(args[0]);
    else if (fn === OPS.setGState && args) {
      if (!harmlessState(args[0])) return undefined;
    } else if (fn === OPS.paintImageXObject && args && typeof args[0] === 'string') {
      const drawn = sole && clips.length > 0 ? boxOf(ctm, [0, 0, 1, 1]) : undefined;
      if (sole && (images.length > 0 || !clips.every((clip) => covers(clip, drawn)))) return undefined;
      images.push({ id: args[0], transforms: ctm });
    } else if (fn === OPS.paintFormXObjectBegin) {
      stack.push([ctm, textMode, clips]);
      if (args?.[0] && typeof args[0] === 'object') ctm = [...ctm, Array.from(args[0] as number[]) as Matrix];
      // (A form clips what it draws to its box.)
      const bbox = args?.[1] && typeof args[1] === 'object' ? Array.from(args[1] as number[]) : undefined;
      if (bbox?.length === 4) clips = [...clips, boxOf(ctm, bbox as [number, number, number, number])];
    } else if (fn === OPS.paintFormXObjectEnd) [ctm, textMode, clips] = stack.pop() ?? [ctm, textMode, clips];
    else if (sole && (fn === OPS.clip || fn === OPS.eoClip)) clipping = true;
    else if (sole && fn === OPS.constructPath && clipping) {
      // A rectangle that clips what follows, not painted ("re W n").
      const rect = clipRectangle(args);
      if (!rect) return undefined;
      clips = [...clips, boxOf(ctm, rect)];
      clipping = false;
    } else if (sole) {
      if (SHOW_TEXT.has(fn) ? textMode !== INVISIBLE_TEXT : !HARMLESS.has(fn)) return undefined;
    } else if (IMAGE_OPS.has(fn)) return undefined;
  }
  return images.length > 0 ? images : undefined;
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
 * image; else undefined. Call before the page's cleanup().
 */
export async function keepScan(page: PDFPageProxy): Promise<KeptScan | undefined> {
  return (await keepImages(page, false))?.[0];
}

/**
 * What keepScan keeps, as a list; or, `alone` (a scan with a text layer, whose lines are looked for in its
 * images alone: its text, drawings and form fields are read from the page itself), every image the page
 * draws, whatever else it shows: undefined when one cannot be drawn from what is kept (see drawnImages; a
 * transparent image over another).
 */
export async function keepImages(page: PDFPageProxy, alone: boolean): Promise<KeptScan[] | undefined> {
  const sole = !alone;
  // (The same calls scanPage made: pdf.js answers them from what it has, without reading the page again.)
  const [ops, annotations] = await Promise.all([
    page.getOperatorList({ intent: 'display', annotationMode: AnnotationMode.DISABLE }),
    page.getAnnotations({ intent: 'display' }),
  ]);
  if (sole && annotations.length > 0) return undefined;
  const drawn = drawnImages(ops.fnArray, ops.argsArray, sole);
  if (!drawn) return undefined;
  const kept: KeptScan[] = [];
  for (const image of drawn) {
    // (pdf.js keeps an image that several pages draw with the document's objects, its id then starting "g_".)
    const objects = image.id.startsWith('g_') ? page.commonObjs : page.objs;
    const decoded = (await new Promise((resolve) => objects.get(image.id, resolve))) as DecodedImage | null;
    // (Only the first image is drawn on white paper: greyOf composites a transparent one on white.)
    if (!decoded || (kept.length > 0 && decoded.kind === 3)) return undefined;
    const grey = greyOf(decoded);
    if (!grey) return undefined;
    kept.push({ grey, width: decoded.width, height: decoded.height, transforms: image.transforms, interpolate: decoded.interpolate === true });
  }
  return kept;
}

/** A colour's grey, as the pages OCR reads are made grey (rendered by pdf.js, or drawn from a kept image). */
export function greyLevel(r: number, g: number, b: number): number {
  return (r * 77 + g * 150 + b * 29) >> 8;
}

/** The decoded image in grey, composited on white where transparent. */
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
    const g = greyLevel(data[i] as number, data[i + 1] as number, data[i + 2] as number);
    grey[j] = step === 4 ? (g * (data[i + 3] as number) + 255 * (255 - (data[i + 3] as number)) + 127) / 255 : g;
  }
  return grey;
}

/**
 * The page drawn from its kept image, in grey, `width` × `height` pixels through the viewport's matrix
 * (on white paper, or over `onto`, the page's images drawn before it),
 * the way pdf.js draws an image (CanvasGraphics.paintInlineImageXObject): its matrix worked out on a
 * canvas as pdf.js's is (`context`), the image halved while over twice the page's pixels, then stretched
 * over the whole pixels nearest its corners, each sampled between the four pixels nearest its centre (the
 * nearest one when the image is enlarged over 4/3 and does not ask to be smoothed). Undefined when pdf.js
 * would draw it turned other than by quarter turns.
 */
export function drawScan(
  kept: KeptScan,
  viewport: Matrix,
  width: number,
  height: number,
  context: TransformContext,
  onto: Uint8Array = new Uint8Array(width * height).fill(255),
): Uint8Array | undefined {
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.transform(...viewport);
  for (const m of kept.transforms) context.transform(...m);
  context.scale(1 / kept.width, -1 / kept.height);
  const { a, b, c, d, e, f } = context.getTransform();
  const w = kept.width;
  const h = kept.height;
  const upright = b === 0 && c === 0;
  if (!upright && !(a === 0 && d === 0)) return undefined;
  // The image's pixels per page pixel, along its width and its height; halved while over 2.
  const det = a * d - b * c;
  let perX = Math.max(Math.hypot(d / det, -b / det), 1);
  let perY = Math.max(Math.hypot(-c / det, a / det), 1);
  let image = { grey: kept.grey, stored: [w, h], size: [w, h] };
  while ((perX > 2 && (image.size[0] as number) > 1) || (perY > 2 && (image.size[1] as number) > 1)) {
    let [nw, nh] = image.size as [number, number];
    const [pw, ph] = image.size as [number, number];
    if (perX > 2 && pw > 1) {
      nw = pw >= 16384 ? Math.floor(pw / 2) - 1 || 1 : Math.ceil(pw / 2);
      perX /= pw / nw;
    }
    if (perY > 2 && ph > 1) {
      nh = ph >= 16384 ? Math.floor(ph / 2) - 1 || 1 : Math.ceil(ph) / 2;
      perY /= ph / nh;
    }
    image = {
      grey: resample(image.grey, image.stored, image.size, [nw, nh], true),
      stored: [Math.max(1, Math.floor(nw)), Math.max(1, Math.floor(nh))],
      size: [nw, nh],
    };
  }
  const smooth = kept.interpolate || enlargedAtMost(a, b, c, d, Math.fround(4 / 3));
  // The corners rounded to whole pixels; drawn from the top left one, leftwards or upwards when flipped.
  let left: number;
  let top: number;
  let across: number;
  let down: number;
  if (upright) {
    left = Math.round(e);
    top = Math.round(-h * d + f);
    across = Math.abs(Math.round(w * a + e) - left) || 1;
    down = Math.abs(Math.round(f) - top) || 1;
  } else {
    left = Math.round(-h * c + e);
    top = Math.round(f);
    across = Math.abs(Math.round(e) - left) || 1;
    down = Math.abs(Math.round(w * b + f) - top) || 1;
  }
  // Upright, the image's rows run across the page; a quarter turn round, its rows run down it.
  const [along, over] = upright ? [across, down] : [down, across];
  const drawn = resample(image.grey, image.stored, image.size, [along, over], smooth);
  const grey = onto;
  const [stepX, stepY] = upright ? [Math.sign(a), Math.sign(d)] : [Math.sign(c), Math.sign(b)];
  for (let j = 0; j < over; j++) {
    for (let i = 0; i < along; i++) {
      const [u, v] = upright ? [i, j] : [j, i];
      const x = stepX > 0 ? left + u : left - 1 - u;
      const y = stepY > 0 ? top + v : top - 1 - v;
      if (x >= 0 && x < width && y >= 0 && y < height) grey[y * width + x] = drawn[j * along + i] as number;
    }
  }
  return grey;
}

/** pdf.js's test for smoothing an image (getImageSmoothingEnabled): the matrix enlarges by at most `limit` every way, its two scales held in single precision. */
function enlargedAtMost(a: number, b: number, c: number, d: number, limit: number): boolean {
  const scales = new Float32Array(2);
  Util.singularValueDecompose2dScale([a, b, c, d, 0, 0], scales);
  return (scales[0] as number) <= limit && (scales[1] as number) <= limit;
}

/**
 * An image stretched as a canvas draws one: `src` holds `stored` pixels and counts as `size` (pdf.js's
 * halving can make a size a half), drawn over `to` (whole pixels kept); each pixel sampled at its centre
 * between the two nearest each way (`smooth`) or at the nearest; the edges repeat outwards.
 */
function resample(src: Uint8Array, stored: number[], size: number[], to: number[], smooth: boolean): Uint8Array {
  const [sw, sh] = stored as [number, number];
  const dw = Math.max(1, Math.floor(to[0] as number));
  const dh = Math.max(1, Math.floor(to[1] as number));
  const cols = taps(size[0] as number, to[0] as number, dw, sw, smooth);
  const rows = taps(size[1] as number, to[1] as number, dh, sh, smooth);
  // Down the page a row at a time, from the two source rows it lies between, each stretched across once
  // (the rows come in order: two kept are enough).
  const kept: Array<{ row: number; values: Float32Array }> = [];
  const across = (row: number): Float32Array => {
    const found = kept.find((k) => k.row === row);
    if (found) return found.values;
    const values = kept.length < 2 ? new Float32Array(dw) : (kept.shift() as { values: Float32Array }).values;
    const from = row * sw;
    for (let i = 0; i < dw; i++) {
      const t = cols.weight[i] as number;
      values[i] = (src[from + (cols.lo[i] as number)] as number) * (1 - t) + (src[from + (cols.hi[i] as number)] as number) * t;
    }
    kept.push({ row, values });
    return values;
  };
  const out = new Uint8Array(dw * dh);
  for (let j = 0; j < dh; j++) {
    const t = rows.weight[j] as number;
    const a = across(rows.lo[j] as number);
    const b = across(rows.hi[j] as number);
    for (let i = 0; i < dw; i++) out[j * dw + i] = Math.round((a[i] as number) * (1 - t) + (b[i] as number) * t);
  }
  return out;
}

/** For each of `n` pixels (of `to` drawn from `size`, `stored` of them there): the two source pixels it is sampled between and the second's weight. */
function taps(size: number, to: number, n: number, stored: number, smooth: boolean): { lo: Int32Array; hi: Int32Array; weight: Float32Array } {
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  const weight = new Float32Array(n);
  const step = size / to;
  // (The nearest pixel as the canvas picks it: through its enlargement held in single precision.)
  const enlargement = Math.fround(to / size);
  const last = stored - 1;
  for (let p = 0; p < n; p++) {
    if (!smooth) {
      lo[p] = hi[p] = Math.min(last, Math.floor((p + 0.5) / enlargement));
      continue;
    }
    const centre = (p + 0.5) * step;
    const at = centre - 0.5;
    const k = Math.floor(at);
    lo[p] = Math.min(last, Math.max(0, k));
    hi[p] = Math.min(last, Math.max(0, k + 1));
    weight[p] = at - k;
  }
  return { lo, hi, weight };
}
