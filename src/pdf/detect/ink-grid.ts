/**
 * Where a scanned page holds ink, cell by cell: what OCR does not read as words (a handwritten signature, a
 * stamp, a scribble) still fills the blank it is written in. The grid is made from the page's black and white
 * image with its drawn lines taken out, in points of the page as scanned.
 */
import type { InkGrid, Rect } from './page-model.js';

/** The side of a grid cell, in points. */
export const INK_CELL = 3;

/**
 * The grid of an image (`ink`: 1 for ink, `width` × `height` pixels, `scale` pixels a point) whose pixel (x, y)
 * lies at `back(x / scale, y / scale)` on the page (the image may have been straightened).
 */
export function inkGrid(
  ink: Uint8Array,
  width: number,
  height: number,
  scale: number,
  page: { width: number; height: number },
  back: (x: number, y: number) => { x: number; y: number },
): InkGrid {
  const cols = Math.ceil(page.width / INK_CELL);
  const rows = Math.ceil(page.height / INK_CELL);
  const on = new Uint8Array(cols * rows);
  const step = Math.max(1, Math.round(INK_CELL * scale));
  for (let top = 0; top < height; top += step) {
    const bottom = Math.min(height, top + step);
    for (let left = 0; left < width; left += step) {
      const right = Math.min(width, left + step);
      let any = false;
      for (let y = top; y < bottom && !any; y++) {
        const base = y * width;
        for (let x = left; x < right; x++) {
          if (ink[base + x]) {
            any = true;
            break;
          }
        }
      }
      if (!any) continue;
      const p = back((left + right) / 2 / scale, (top + bottom) / 2 / scale);
      const c = Math.floor(p.x / INK_CELL);
      const r = Math.floor(p.y / INK_CELL);
      if (c >= 0 && c < cols && r >= 0 && r < rows) on[r * cols + c] = 1;
    }
  }
  return { cell: INK_CELL, cols, rows, on };
}

/** How many of the grid's cells inside `rect` hold ink, leaving out those that touch one of `skip` (the words read there), and how many cells it has. */
export function inkIn(grid: InkGrid, rect: Rect, skip: readonly Rect[]): { ink: number; cells: number } {
  const { cell, cols, rows, on } = grid;
  const c0 = Math.max(0, Math.ceil(rect.x0 / cell));
  const c1 = Math.min(cols, Math.floor(rect.x1 / cell));
  const r0 = Math.max(0, Math.ceil(rect.y0 / cell));
  const r1 = Math.min(rows, Math.floor(rect.y1 / cell));
  const near = skip.filter((s) => s.x1 >= rect.x0 && s.x0 <= rect.x1 && s.y1 >= rect.y0 && s.y0 <= rect.y1);
  let ink = 0;
  let cells = 0;
  for (let r = r0; r < r1; r++) {
    for (let c = c0; c < c1; c++) {
      cells++;
      if (!on[r * cols + c]) continue;
      const x0 = c * cell;
      const y0 = r * cell;
      if (near.some((s) => s.x1 >= x0 && s.x0 <= x0 + cell && s.y1 >= y0 && s.y0 <= y0 + cell)) continue;
      ink++;
    }
  }
  return { ink, cells };
}
