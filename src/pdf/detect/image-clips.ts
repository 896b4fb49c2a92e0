/**
 * The rectangles that clip a scanned page's image, from pdf.js's drawing steps (scan-image.ts): an exporter
 * often draws a picture inside a frame its own size ("re W n" before the image, a form's box), which leaves
 * the image whole, so that the page is still drawn for OCR from the image decoded once.
 */
import { OPS } from './pdfjs.js';
import { CLOSE, LINE, MOVE, type Matrix } from './page-graphics.js';
import type { Rect } from './page-model.js';

/** In points: a clip this little inside an image's edge leaves it whole (pdf.js would cut a few pixels off its border). */
const CLIP_SLACK = 1;

/**
 * The box, on the page (before the viewport), that the rectangle [x0, y0, x1, y1] takes once the matrices are applied;
 * undefined when they turn it other than by quarter turns (it is then no box on the page).
 */
export function boxOf(ctm: readonly Matrix[], [x0, y0, x1, y1]: [number, number, number, number]): Rect | undefined {
  const corners = [
    [x0, y0],
    [x1, y0],
    [x0, y1],
    [x1, y1],
  ].map(([x, y]) =>
    ctm.reduceRight<[number, number]>(([px, py], [a, b, c, d, e, f]) => [a * px + c * py + e, b * px + d * py + f], [x as number, y as number]),
  );
  const xs = corners.map(([x]) => x as number);
  const ys = corners.map(([, y]) => y as number);
  const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  // (Each corner on the box's edges both ways: a rectangle square to the page.)
  const edge = (v: number, lo: number, hi: number) => Math.min(Math.abs(v - lo), Math.abs(v - hi)) < 1e-3 * Math.max(1, hi - lo);
  return corners.every(([x, y]) => edge(x, box.x0, box.x1) && edge(y, box.y0, box.y1)) ? box : undefined;
}

/** The clip leaves the image's box whole, within CLIP_SLACK (an image or a clip turned other than square to the page: never). */
export function covers(clip: Rect | undefined, image: Rect | undefined): boolean {
  if (!clip || !image) return false;
  return clip.x0 <= image.x0 + CLIP_SLACK && clip.y0 <= image.y0 + CLIP_SLACK && clip.x1 >= image.x1 - CLIP_SLACK && clip.y1 >= image.y1 - CLIP_SLACK;
}

/**
 * A path pdf.js built for a clip ([painting operation, [its points], its bounds]) when it is a rectangle, not painted:
 * the four corners of its bounds, joined by lines along its sides. Undefined for any other path.
 */
export function clipRectangle(args: unknown[] | null): [number, number, number, number] | undefined {
  const [paint, paths, bounds] = args ?? [];
  const points = Array.isArray(paths) && paths.length === 1 ? Array.from(paths[0] as ArrayLike<number>) : undefined;
  const box = bounds && typeof bounds === 'object' ? Array.from(bounds as ArrayLike<number>) : undefined;
  if (paint !== OPS.endPath || !points || box?.length !== 4) return undefined;
  const [x0, y0, x1, y1] = box as [number, number, number, number];
  // Each point a corner, as [0 or 1 across, 0 or 1 up]; each line, the closing one too, along a side (one of them the same).
  const side = (v: number, lo: number, hi: number) => (Math.abs(v - lo) < 1e-3 ? 0 : Math.abs(v - hi) < 1e-3 ? 1 : undefined);
  const along = (a: number[] | undefined, b: number[] | undefined) => !a || !b || a[0] === b[0] || a[1] === b[1];
  const corners = new Set<string>();
  let [start, last]: Array<number[] | undefined> = [undefined, undefined];
  for (let i = 0; i < points.length; ) {
    const op = points[i] as number;
    if (op === CLOSE) {
      if (!along(last, start)) return undefined;
      [last, i] = [start, i + 1];
    } else if (op === MOVE || op === LINE) {
      const corner = [side(points[i + 1] as number, x0, x1), side(points[i + 2] as number, y0, y1)];
      if (corner[0] === undefined || corner[1] === undefined) return undefined;
      if (op === MOVE) {
        if (!along(last, start)) return undefined;
        start = corner as number[];
      } else if (!along(last, corner as number[])) return undefined;
      last = corner as number[];
      corners.add(corner.join());
      i += 3;
    } else return undefined;
  }
  return corners.size === 4 && along(last, start) ? [x0, y0, x1, y1] : undefined;
}
