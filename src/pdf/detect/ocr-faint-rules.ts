/**
 * Faint rules of a photographed or scanned page: a thin grey line (a form's hairline, photographed at a
 * low resolution) is only a little darker than its paper, and the threshold that keeps text black breaks
 * it into specks, so that neither the finder of drawn lines nor OCR sees it. A row that is a little darker
 * than the paper along 30 pt or more, with the rows a few pixels above and under it clear, is such a line:
 * it is drawn solid into the black-and-white page. Text is not: its rows have ink right above and under them.
 */

/** In points: how long a faint rule is at least; the gap in it that does not break it; how far off its rows are clear. */
const MIN_LENGTH = 30;
const GAP = 1.5;
const CLEAR = 1.2;

/**
 * `faint`: per block of `block` pixels square (`columns` blocks a row), the grey under which a pixel is a
 * little darker than its paper. Marks the rules found in `ink` (1 for ink).
 */
export function drawFaintRules(
  grey: Uint8Array,
  ink: Uint8Array,
  width: number,
  height: number,
  scale: number,
  faint: Uint8Array,
  block: number,
  columns: number,
): void {
  const minLength = Math.round(MIN_LENGTH * scale);
  const gap = Math.max(2, Math.round(GAP * scale));
  const clear = Math.max(3, Math.round(CLEAR * scale));
  const column = new Int32Array(width);
  for (let x = 0; x < width; x++) column[x] = Math.floor(x / block);
  const dark = (x: number, y: number) => (grey[y * width + x] as number) < (faint[Math.floor(y / block) * columns + (column[x] as number)] as number);
  const density = (y: number, a: number, b: number) => {
    let n = 0;
    for (let x = a; x < b; x++) if (dark(x, y)) n++;
    return n / Math.max(1, b - a);
  };
  const found: Array<{ y: number; a: number; b: number }> = [];
  for (let y = clear + 1; y < height - clear - 1; y++) {
    let a = -1;
    let last = -1;
    for (let x = 0; x <= width; x++) {
      if (x < width && dark(x, y)) {
        if (a < 0) a = x;
        last = x;
      } else if (a >= 0 && (x === width || x - last > gap)) {
        const b = last + 1;
        if (b - a >= minLength && density(y, a, b) >= 0.6) {
          let solid = 0;
          for (let k = a; k < b; k++) solid += ink[y * width + k] as number;
          const thin = [-clear, -clear - 1, clear, clear + 1].every((d) => density(y + d, a, b) < 0.25);
          // (Not a line the threshold kept, solid or dashed: only one it broke into specks.)
          if (thin && solid < 0.5 * (b - a)) found.push({ y, a, b });
        }
        a = -1;
      }
    }
  }
  for (const { y, a, b } of found) ink.fill(1, y * width + a, y * width + b);
}
