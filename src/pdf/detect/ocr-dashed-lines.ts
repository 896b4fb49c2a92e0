/**
 * Dashed and dotted lines on a scanned page, found in its pixels: a blank typed as spaced underscores
 * ("_ _ _ _ _") or drawn as a dashed rule is a row of short, thin dashes, and one typed as dots or an
 * ellipsis ("……………", German forms' usual line to sign on) a row of dots; each with nothing right above
 * or under it, set at a regular pitch. Neither OCR (it drops underscores and reads dots as nothing or as
 * noise) nor the finder of drawn rules (each dash is far too short to be one) sees it. Pure; coordinates
 * come out in points of the displayed page.
 */
import type { Segment } from './suggest-fields.js';

/**
 * In points: a mark's length and thickness, the gap between two marks, the clear band around a mark; the
 * fewest marks of a line, and whether they keep one pitch (a row of dots does; text's full stops and the
 * dots over its letters do not).
 */
interface Marks {
  min: number;
  max: number;
  thick: number;
  gap: number;
  count: number;
  pitch: boolean;
  /** Pixels of gap inside one mark (a photo's noise breaks a dash; dots are apart by more). */
  join: number;
  /** The fewest pixels a mark is long, however coarse the page. */
  pixels: number;
}
const DASHES: Marks = { min: 2, max: 9, thick: 1.8, gap: 5, count: 5, pitch: false, join: 2, pixels: 3 };
const DOTS: Marks = { min: 0.6, max: 2, thick: 2, gap: 9, count: 8, pitch: true, join: 0, pixels: 2 };
const CLEAR = 2.5;
/** A line at least this many points long. */
const MIN_LENGTH = 40;

interface Dash {
  from: number;
  to: number;
  at: number;
  /** Its rows of pixels. */
  top: number;
  rows: number;
}

/** A box of pixels: one mark (a dash or a dot) of a line found. */
export interface Mark {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** The dashed and dotted lines of the page, and the pixels of their marks (for OCR to read the page without them). */
export function dashedRules(ink: Uint8Array, width: number, height: number, scale: number): { segments: Segment[]; marks: Mark[] } {
  const dashes = spacedRules(ink, width, height, scale, DASHES);
  // (A dotted line a dash finder also saw is one line.)
  const dots = spacedRules(ink, width, height, scale, DOTS).filter(
    (d) => !dashes.some((s) => Math.abs(s.segment.y - d.segment.y) <= 2 && Math.min(s.segment.x1, d.segment.x1) - Math.max(s.segment.x0, d.segment.x0) > 0),
  );
  const found = [...dashes, ...dots];
  return {
    segments: found.map((f) => f.segment),
    marks: found.flatMap((f) => f.marks.map((d) => ({ x0: d.from, x1: d.to, y0: d.top, y1: d.top + d.rows }))),
  };
}

function spacedRules(ink: Uint8Array, width: number, height: number, scale: number, marks: Marks): Array<{ segment: Segment; marks: Dash[] }> {
  const min = Math.max(marks.pixels, Math.round(marks.min * scale));
  const max = Math.round(marks.max * scale);
  const thick = Math.max(2, Math.round(marks.thick * scale));
  const clear = Math.max(2, Math.round(CLEAR * scale));
  const inkIn = (y: number, x0: number, x1: number) => {
    if (y < 0 || y >= height) return 0;
    let n = 0;
    for (let x = Math.max(0, x0); x < Math.min(width, x1); x++) n += ink[y * width + x] as number;
    return n;
  };
  const dashes: Dash[] = [];
  for (let y = 1; y < height - 1; y++) {
    const base = y * width;
    let x = 0;
    while (x < width) {
      if (!ink[base + x]) {
        x++;
        continue;
      }
      // (A gap of a pixel or two, the noise of a photo, does not break a dash.)
      const from = x;
      let to = x;
      while (x < width && x - to <= marks.join) {
        if (ink[base + x]) to = x + 1;
        x++;
      }
      const len = to - from;
      // The top row of a thin stroke (two rows of fringe above or under it aside), clear around it: a letter's
      // crossbar or foot has ink over or under it.
      if (len < min || len > max || inkIn(y - 1, from, to) >= 0.6 * len) continue;
      let t = 1;
      while (t <= thick && inkIn(y + t, from, to) >= 0.6 * len) t++;
      if (t > thick || (marks.pitch && t < 0.4 * len)) continue;
      let busy = false;
      const speck = Math.max(2, 0.2 * len);
      for (let d = 3; d <= clear + 2 && !busy; d++) busy = inkIn(y - d, from - 1, to + 1) > speck || inkIn(y + t - 1 + d, from - 1, to + 1) > speck;
      if (!busy) dashes.push({ from, to, at: y + t / 2, top: y, rows: t });
    }
  }
  // Dashes of one row at a regular pitch, chained left to right.
  const gap = Math.round(marks.gap * scale);
  const out: Array<{ segment: Segment; marks: Dash[] }> = [];
  const rows = new Map<number, Dash[]>();
  for (const d of dashes) {
    const key = Math.round(d.at / 2);
    for (const k of [key - 1, key, key + 1]) {
      const row = rows.get(k);
      if (row && Math.abs((row[0] as Dash).at - d.at) <= 1.5) {
        row.push(d);
        break;
      }
      if (k === key + 1) rows.set(key, [d]);
    }
  }
  for (const row of rows.values()) {
    row.sort((a, b) => a.from - b.from);
    let chain: Dash[] = [];
    const close = () => {
      if (chain.length >= marks.count) {
        const lens = chain.map((d) => d.to - d.from);
        const x0 = (chain[0] as Dash).from;
        const x1 = (chain[chain.length - 1] as Dash).to;
        if (Math.max(...lens) <= 2.5 * Math.min(...lens) && (x1 - x0) / scale >= MIN_LENGTH && (!marks.pitch || evenPitch(chain))) {
          out.push({ segment: { x0: x0 / scale, x1: x1 / scale, y: chain.reduce((s, d) => s + d.at, 0) / chain.length / scale }, marks: chain });
        }
      }
      chain = [];
    };
    for (const d of row) {
      const last = chain[chain.length - 1];
      // (The fringe of a dash, found as a dash of its own, is part of it.)
      if (last && d.from < last.to) {
        last.to = Math.max(last.to, d.to);
        continue;
      }
      if (last && d.from - last.to > gap) close();
      chain.push({ ...d });
    }
    close();
  }
  return out;
}

/**
 * Marks set at one pitch: nine steps in ten within a third of the usual step or of a few of them (a mark
 * or two lost to the noise of a photo).
 */
function evenPitch(chain: Dash[]): boolean {
  const steps = chain.slice(1).map((d, i) => d.from - (chain[i] as Dash).from);
  const usual = [...steps].sort((a, b) => a - b)[Math.floor(steps.length / 2)] as number;
  const even = (s: number) => Math.abs(s - Math.max(1, Math.round(s / usual)) * usual) <= usual / 3;
  return steps.filter(even).length >= 0.9 * steps.length;
}
