/**
 * Dashed lines on a scanned page, found in its pixels: a blank typed as spaced underscores ("_ _ _ _ _")
 * or drawn as a dashed rule is a row of short, thin dashes, each with nothing right above or under it,
 * set at a regular pitch. Neither OCR (it drops underscores) nor the finder of drawn rules (each dash is
 * far too short to be one) sees it. Pure; coordinates come out in points of the displayed page.
 */
import type { Segment } from './suggest-fields.js';

/** In points: a dash's length and thickness, the gap between two dashes, the clear band around a dash. */
const DASH = { min: 2, max: 9 };
const THICK = 1.8;
const GAP = 5;
const CLEAR = 2.5;
/** A dashed line: at least this many dashes over at least this many points. */
const MIN_DASHES = 5;
const MIN_LENGTH = 40;

interface Dash {
  from: number;
  to: number;
  at: number;
}

export function dashedRules(ink: Uint8Array, width: number, height: number, scale: number): Segment[] {
  const min = Math.max(3, Math.round(DASH.min * scale));
  const max = Math.round(DASH.max * scale);
  const thick = Math.max(2, Math.round(THICK * scale));
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
      while (x < width && x - to <= 2) {
        if (ink[base + x]) to = x + 1;
        x++;
      }
      const len = to - from;
      // The top row of a thin stroke (two rows of fringe above or under it aside), clear around it: a letter's
      // crossbar or foot has ink over or under it.
      if (len < min || len > max || inkIn(y - 1, from, to) >= 0.6 * len) continue;
      let t = 1;
      while (t <= thick && inkIn(y + t, from, to) >= 0.6 * len) t++;
      if (t > thick) continue;
      let busy = false;
      const speck = Math.max(2, 0.2 * len);
      for (let d = 3; d <= clear + 2 && !busy; d++) busy = inkIn(y - d, from - 1, to + 1) > speck || inkIn(y + t - 1 + d, from - 1, to + 1) > speck;
      if (!busy) dashes.push({ from, to, at: y + t / 2 });
    }
  }
  // Dashes of one row at a regular pitch, chained left to right.
  const gap = Math.round(GAP * scale);
  const out: Segment[] = [];
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
      if (chain.length >= MIN_DASHES) {
        const lens = chain.map((d) => d.to - d.from);
        const x0 = (chain[0] as Dash).from;
        const x1 = (chain[chain.length - 1] as Dash).to;
        if (Math.max(...lens) <= 2.5 * Math.min(...lens) && (x1 - x0) / scale >= MIN_LENGTH) {
          out.push({ x0: x0 / scale, x1: x1 / scale, y: chain.reduce((s, d) => s + d.at, 0) / chain.length / scale });
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
