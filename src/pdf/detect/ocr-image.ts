/**
 * The image OCR reads: a scanned page rendered in grey at the resolution its print needs, made black
 * and white against its own paper (grey, yellowed or unevenly lit), specks removed, and handed to
 * tesseract as a 1-bit PBM (no PNG to encode and decode). Runs in the detection child.
 */
import { AnnotationMode, type PDFDocumentProxy, type PDFPageProxy } from './pdfjs.js';
import { drawFaintRules } from './ocr-faint-rules.js';
import type { Matrix } from './page-graphics.js';
import { drawScan, greyLevel, type KeptScan, type TransformContext } from './scan-image.js';

export interface GreyPage {
  grey: Uint8Array;
  width: number;
  height: number;
  /** Pixels per point. */
  scale: number;
}

/** A black-and-white page: 1 for ink, row by row. */
export interface InkPage {
  ink: Uint8Array;
  width: number;
  height: number;
  scale: number;
}

// pdf.js makes its canvases with @napi-rs/canvas in Node; these are the parts of it used here.
interface NodeContext extends TransformContext {
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}
interface Target {
  canvas: unknown;
  context: NodeContext;
}
type RenderParameters = Parameters<PDFPageProxy['render']>[0];

/**
 * The page as displayed, in grey, at `dpi` (fewer if it would exceed `maxPixels`); drawn from `kept`, the
 * page's images as the text pass decoded them, where it can be (scan-image.ts), else rendered by pdf.js.
 */
export async function renderGrey(pdf: PDFDocumentProxy, page: PDFPageProxy, dpi: number, maxPixels: number, kept?: readonly KeptScan[]): Promise<GreyPage> {
  // Pixels per unit of the page (a page with /UserUnit has larger units, which pdf.js would scale by).
  const base = page.getViewport({ scale: 1 / page.userUnit });
  let scale = (dpi / 72) * page.userUnit;
  const pixels = base.width * base.height * scale * scale;
  if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels);
  const viewport = page.getViewport({ scale: scale / page.userUnit });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  const factory = pdf.canvasFactory as { create(w: number, h: number): Target; destroy(target: Target): void };
  if (kept) {
    const probe = factory.create(1, 1);
    try {
      let grey: Uint8Array | undefined = new Uint8Array(width * height).fill(255);
      for (const image of kept) grey = grey && drawScan(image, viewport.transform as Matrix, width, height, probe.context, grey);
      if (grey) return { grey, width, height, scale };
    } finally {
      factory.destroy(probe);
    }
  }
  const target = factory.create(width, height);
  try {
    const params: RenderParameters = { canvas: target.canvas as RenderParameters['canvas'], viewport, annotationMode: AnnotationMode.ENABLE };
    const task = page.render(params);
    // (pdf.js draws in steps of about 15 ms and goes on at once, and the canvas only records them until its pixels are read: a page of
    // many images held the thread a second and more. Each step's drawing is made (one pixel read) and the thread handed back before the
    // next, so that the page's time limit is checked while it is drawn: time-limits.ts.)
    task.onContinue = (go: () => void) => {
      target.context.getImageData(0, 0, 1, 1);
      setImmediate(go);
    };
    await task.promise;
    const rgba = target.context.getImageData(0, 0, width, height).data;
    const grey = new Uint8Array(width * height);
    for (let i = 0, j = 0; j < grey.length; i += 4, j++) {
      grey[j] = greyLevel(rgba[i] as number, rgba[i + 1] as number, rgba[i + 2] as number);
    }
    return { grey, width, height, scale };
  } finally {
    factory.destroy(target);
  }
}

/** Side of the square in which the paper's colour is measured, in points (about 5 mm). */
const PAPER_BLOCK_PT = 14;
/** A pixel darker than this share of its paper's brightness is ink. */
const INK_RATIO = 0.68;
/** A pixel this much darker than its paper is a little dark: a faint rule's (ocr-faint-rules.ts). */
const FAINT_RATIO = 0.85;
/**
 * Dust: a dot of ink at most this wide (points), with nothing else this close around it. Smaller than
 * any full stop or colon dot of 6 pt print (the upper dot of a colon stands well apart from its letter).
 */
const SPECK_PT = 0.5;
const SPECK_RING_PT = 1.5;
/** Paper darker than this is not paper (a dark photo border, a black page): nothing is ink there. */
const MIN_PAPER = 60;

/**
 * Ink against the local paper: the paper's brightness is measured in blocks of about 5 mm, which
 * follows uneven light and tinted paper; a pixel clearly darker than its paper is ink. Dust is removed.
 */
export function binarise(page: GreyPage): InkPage {
  const { grey, width, height, scale } = page;
  const block = Math.max(8, Math.round(PAPER_BLOCK_PT * scale));
  const bw = Math.ceil(width / block);
  const bh = Math.ceil(height / block);
  // Each block's paper: the mean of its brighter half (the pixels above the block's mean), which a few
  // white or dark specks barely move.
  const sum = new Float64Array(bw * bh);
  const count = new Uint32Array(bw * bh);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const brow = Math.floor(y / block) * bw;
    for (let x = 0; x < width; x++) {
      const k = brow + Math.floor(x / block);
      sum[k] = (sum[k] as number) + (grey[row + x] as number);
      count[k] = (count[k] as number) + 1;
    }
  }
  const mean = new Float64Array(bw * bh);
  for (let k = 0; k < mean.length; k++) mean[k] = (sum[k] as number) / Math.max(1, count[k] as number);
  sum.fill(0);
  count.fill(0);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const brow = Math.floor(y / block) * bw;
    for (let x = 0; x < width; x++) {
      const k = brow + Math.floor(x / block);
      const v = grey[row + x] as number;
      if (v >= (mean[k] as number)) {
        sum[k] = (sum[k] as number) + v;
        count[k] = (count[k] as number) + 1;
      }
    }
  }
  const brightest = new Uint8Array(bw * bh);
  for (let k = 0; k < brightest.length; k++) brightest[k] = Math.round((sum[k] as number) / Math.max(1, count[k] as number));
  // A block's paper: the brightest of it and its 8 neighbours (a block under a heading or a filled box
  // has little paper of its own), then the threshold for its pixels.
  const threshold = new Uint8Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let paper = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const x = bx + dx;
          const y = by + dy;
          if (x >= 0 && y >= 0 && x < bw && y < bh) paper = Math.max(paper, brightest[y * bw + x] as number);
        }
      }
      threshold[by * bw + bx] = paper < MIN_PAPER ? 0 : Math.round(paper * INK_RATIO);
    }
  }
  const ink = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const brow = Math.floor(y / block) * bw;
    for (let x = 0; x < width; x++) {
      if ((grey[row + x] as number) < (threshold[brow + Math.floor(x / block)] as number)) ink[row + x] = 1;
    }
  }
  const faint = threshold.map((t) => Math.round((FAINT_RATIO * t) / INK_RATIO));
  drawFaintRules(grey, ink, width, height, scale, faint, block, bw);
  despeckle(ink, width, height, Math.max(1, Math.round(SPECK_PT * scale)), Math.max(2, Math.round(SPECK_RING_PT * scale)));
  return { ink, width, height, scale };
}

/**
 * Removes dots of ink that fit in a `size`×`size` square with no other ink within `ring` pixels around
 * them: dust and sensor noise. A full stop, a colon's dots or an i's dot sit closer than that to their
 * letters and stay.
 */
function despeckle(ink: Uint8Array, width: number, height: number, size: number, ring: number): void {
  for (let y = ring; y + size + ring < height; y++) {
    const row = y * width;
    for (let x = ring; x + size + ring < width; x++) {
      if (ink[row + x] !== 1 || ink[row + x - 1] === 1 || ink[row - width + x] === 1) continue;
      let clear = true;
      for (let wy = y - ring; wy < y + size + ring && clear; wy++) {
        const inside = wy >= y && wy < y + size;
        const r = wy * width;
        for (let wx = x - ring; wx < x + size + ring; wx++) {
          if (inside && wx >= x && wx < x + size) continue;
          if (ink[r + wx] === 1) {
            clear = false;
            break;
          }
        }
      }
      if (!clear) continue;
      for (let dy = 0; dy < size; dy++) ink.fill(0, (y + dy) * width + x, (y + dy) * width + x + size);
    }
  }
}

/** The page as a binary PBM (P4), which tesseract reads without decoding a PNG. */
export function toPbm(page: InkPage, crop?: { top: number; bottom: number }): Buffer {
  const { ink, width } = page;
  const top = crop?.top ?? 0;
  const bottom = crop?.bottom ?? page.height;
  const rowBytes = Math.ceil(width / 8);
  const header = Buffer.from(`P4\n${width} ${bottom - top}\n`, 'ascii');
  const out = Buffer.alloc(header.length + rowBytes * (bottom - top));
  header.copy(out);
  let o = header.length;
  for (let y = top; y < bottom; y++, o += rowBytes) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (ink[row + x] === 1) out[o + (x >> 3)] = (out[o + (x >> 3)] as number) | (0x80 >> (x & 7));
    }
  }
  return out;
}

/** The runs of pixel rows, top to bottom, each holding at least `minInk` ink pixels (`bottom` exclusive). */
export function inkBands(page: InkPage, minInk: number): Array<{ top: number; bottom: number }> {
  const { ink, width, height } = page;
  const bands: Array<{ top: number; bottom: number }> = [];
  let start = -1;
  for (let y = 0; y <= height; y++) {
    let count = 0;
    if (y < height) {
      const row = y * width;
      for (let x = 0; x < width && count < minInk; x++) count += ink[row + x] as number;
    }
    if (count >= minInk) {
      if (start < 0) start = y;
    } else if (start >= 0) {
      bands.push({ top: start, bottom: y });
      start = -1;
    }
  }
  return bands;
}

/**
 * The usual height of a text line's ink, in pixels: the median height of the bands of rows that hold
 * ink, ignoring bands too thin to be text (rules) or too tall (pictures, blocks). Undefined with no text.
 */
export function textHeight(page: InkPage): number | undefined {
  // A row counts when a little of it is ink (a rule alone spans it; so does text).
  const bands = inkBands(page, Math.max(4, Math.round(page.width / 200)))
    .map((band) => band.bottom - band.top)
    .filter((h) => h >= 4 && h <= 200);
  if (bands.length === 0) return undefined;
  bands.sort((a, b) => a - b);
  return bands[Math.floor(bands.length / 2)];
}

/** The tilt searched for, in degrees either way, and its step. */
const MAX_SKEW = 4;
const SKEW_STEP = 0.1;
/** Below this tilt (degrees) the page is read as it is. */
const MIN_SKEW = 0.2;

/**
 * The page's tilt in degrees: the angle at which its lines of ink line up best (the sharpest profile of
 * ink per row, measured on a quarter-size copy). Positive when lines go down to the right.
 */
export function skewDegrees(page: InkPage): number {
  const { ink, width, height } = page;
  const f = 4;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y += f) {
    const row = y * width;
    for (let x = 0; x < width; x += 2)
      if (ink[row + x] === 1) {
        xs.push(x / f);
        ys.push(y / f);
      }
  }
  if (xs.length < 200) return 0;
  const rows = Math.ceil(height / f) + Math.ceil(width / f) + 2;
  const bins = new Float64Array(rows);
  const offset = Math.ceil(width / f);
  let best = 0;
  let bestScore = -1;
  for (let a = -MAX_SKEW; a <= MAX_SKEW + 1e-9; a += SKEW_STEP) {
    const t = Math.tan((a * Math.PI) / 180);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) {
      const b = Math.round((ys[i] as number) - (xs[i] as number) * t) + offset;
      bins[b] = (bins[b] as number) + 1;
    }
    let score = 0;
    for (let b = 0; b < rows; b++) score += (bins[b] as number) * (bins[b] as number);
    if (score > bestScore) {
      bestScore = score;
      best = a;
    }
  }
  return Math.round(best * 10) / 10;
}

/** Maps points of a straightened page back to the page as scanned. */
export type Unrotate = (x: number, y: number) => { x: number; y: number };

/**
 * The page turned by `-degrees` about its centre (so that tilted lines become level), and the mapping of
 * its points back to the page as scanned (in pixels).
 */
export function straighten(page: InkPage, degrees: number): { page: InkPage; back: Unrotate } {
  if (Math.abs(degrees) < MIN_SKEW) return { page, back: (x, y) => ({ x, y }) };
  const { ink, width, height } = page;
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const cx = width / 2;
  const cy = height / 2;
  // A point of the straightened page comes from the scanned page turned by +degrees.
  const back: Unrotate = (x, y) => ({ x: cx + (x - cx) * cos - (y - cy) * sin, y: cy + (x - cx) * sin + (y - cy) * cos });
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const dy = y - cy;
    let sx = cx - cx * cos - dy * sin;
    let sy = cy - cx * sin + dy * cos;
    const row = y * width;
    for (let x = 0; x < width; x++, sx += cos, sy += sin) {
      const ix = Math.round(sx);
      const iy = Math.round(sy);
      if (ix >= 0 && iy >= 0 && ix < width && iy < height && ink[iy * width + ix] === 1) out[row + x] = 1;
    }
  }
  return { page: { ...page, ink: out }, back };
}

/** `back` (in pixels) for points. */
export function pointsBack(back: Unrotate, scale: number): Unrotate {
  return (x, y) => {
    const p = back(x * scale, y * scale);
    return { x: p.x / scale, y: p.y / scale };
  };
}
