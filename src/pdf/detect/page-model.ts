/**
 * The page model field detection works on and the shapes it produces: one page in display coordinates
 * (PDF points, origin top-left, y downward, after /Rotate) with its words, rules, boxes and form widgets;
 * the lines and labels read from it; suggestions; and the rectangle arithmetic every rule shares.
 */
import { isFillToken, type FieldKey, type LabelEntry, type LabelType } from './lexicon.js';

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export interface Word {
  text: string;
  box: Rect;
  baseline: number;
  /** Font size in points (OCR: the word's height). */
  size: number;
  /** 1 for the text layer; OCR's confidence from 0 to 1. */
  confidence: number;
}
/** A horizontal rule. */
export interface Segment {
  x0: number;
  x1: number;
  y: number;
}
/** A vertical rule. */
export interface VRule {
  x: number;
  y0: number;
  y1: number;
}
export interface Widget {
  kind: 'signature' | 'text';
  name: string;
  label?: string;
  box: Rect;
}
/** A scanned page's ink in square cells of `cell` points, row by row: 1 where the cell holds ink (ink-grid.ts). */
export interface InkGrid {
  cell: number;
  cols: number;
  rows: number;
  on: Uint8Array;
}

export interface PageModel {
  page: number;
  width: number;
  height: number;
  words: Word[];
  /** Every horizontal and vertical rule drawn (or seen, on a scan). */
  segments: Segment[];
  verticals: VRule[];
  /** Rectangles drawn as such, and white ones filled on a coloured fill (a form's fields on a coloured page). */
  boxes: Rect[];
  widgets: Widget[];
  /** Where images are drawn on a page with a text layer, and dark panels painted on it (a signature image, or a signature blacked out, fills the blank it covers). */
  images?: Rect[];
  /** Bands filled in a colour, wider than tall (a form's grey header rows): a field under one stops under it. */
  bands?: Rect[];
  /** On a scanned page, where it holds ink other than its drawn lines (ink-grid.ts): a handwritten signature fills its blank. */
  ink?: InkGrid;
  ocr: boolean;
}

/**
 * The page's rules sorted out: rules that frame something (both ends on vertical rules: box and table
 * edges) are not lines to sign on; boxes drawn with four rules become boxes (unless a rule divides them:
 * then they are table rows, whose cells `cellAt` finds).
 */
export interface Geometry {
  free: Segment[];
  boxes: Rect[];
  h: Segment[];
  v: VRule[];
}
export type Reason = 'acroform' | 'label_with_geometry' | 'label_with_whitespace';
export interface Suggestion {
  type: LabelType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  confidence: number;
  reason: Reason;
  roleHint?: string;
  fieldKey?: FieldKey;
}

/** Height of a field standing on a line, and the width taken when nothing bounds it. */
export const FIELD_HEIGHT: Record<LabelType, number> = { signature: 40, initials: 30, date: 20, text: 20 };
export const FIELD_WIDTH: Record<LabelType, number> = { signature: 180, initials: 60, date: 110, text: 160 };
export const MIN_BESIDE: Record<LabelType, number> = { signature: 100, initials: 36, date: 70, text: 80 };
/**
 * The top of a field standing on a line at `y` under text whose bottom is nearer than the field's height:
 * a signature's strokes rise over the text above, so the field keeps part of the height it lacks
 * (room^0.7 · height^0.3: 12 pt of room give a signature 17, 22 give 26), and never less than 12 pt;
 * but not over the middle of that text (`textMiddle`), where the field would hold it (6 pt print 1.5 pt
 * over a signature's run).
 */
export function topUnderText(type: LabelType, y: number, textBottom: number, textMiddle = -Infinity): number {
  const full = FIELD_HEIGHT[type];
  const room = y - textBottom;
  if (room < 12) return textBottom;
  return Math.max(y - Math.min(full, room ** 0.7 * full ** 0.3), textMiddle);
}
/** The height of the line one writes on under text of this baseline and size: a little under the baseline. */
export function writingLine(baseline: number, size: number): number {
  return baseline + Math.min(2, 0.2 * size);
}
/** The line a run of underscores or dots makes to write on: its width, a little under its baseline. */
export function runLine(w: Word): Segment {
  return { x0: w.box.x0, x1: w.box.x1, y: writingLine(w.baseline, w.size) };
}

/**
 * A date standing on its blank from x0 to x1, bottom at y1, of a date's height but under the text above its
 * caption's line and under `rules` over that line (the top of the table cell its caption opens).
 */
export function dateOnLine(line: Line, lines: readonly Line[], x0: number, x1: number, y1: number, rules: readonly Segment[] = []): Rect {
  let top = y1 - FIELD_HEIGHT.date;
  for (const l of lines) if (l !== line && l.box.y1 <= line.box.y0 + 1 && l.box.y1 > top && overlap1(l.box.x0, l.box.x1, x0, x1) > 0) top = l.box.y1 + 1;
  for (const r of rules) if (r.y <= line.box.y0 + 1 && r.y >= top && overlap1(r.x0, r.x1, x0, x1) > 0) top = r.y + 1;
  return { x0, y0: top, x1, y1 };
}
export const MAX_LABEL_SIZE = 15;
export const ROLE_SEARCH = 160;

export interface Line {
  words: Word[];
  /** Normalised tokens in reading order and the word each comes from; fill runs are `\0`. */
  tokens: string[];
  tokenWord: number[];
  rtl: boolean;
  size: number;
  baseline: number;
  box: Rect;
}

export interface Label {
  line: Line;
  entry: LabelEntry;
  /** The label's words, then with the party words, stopwords and colon that trail it. */
  box: Rect;
  reach: Rect;
  /** Index (in line.words) of the first word after `reach`, or -1. */
  next: number;
  /** Where the next label of the line starts (reading order), if any. */
  limit: number | undefined;
  colon: boolean;
  /** Nothing on the line but the label, party words and blanks. */
  bare: boolean;
  role: string | undefined;
  confidence: number;
  done: boolean;
  /** A value follows its colon ("Vendedor: ACME Ltd"): only a line right over it can be its blank. */
  valueAfter?: boolean;
  /** Words of a sentence come before it in its run: "Date" there is a date the text speaks of, not a caption. */
  inSentence?: boolean;
  /** The tokens of its run around it (a few before, a few after): what qualifies it ("Date of birth"). */
  tokens: string[];
}

// ------------------------------------------------------------------------------------------ boxes

export function union(rects: Rect[]): Rect {
  return {
    x0: Math.min(...rects.map((r) => r.x0)),
    y0: Math.min(...rects.map((r) => r.y0)),
    x1: Math.max(...rects.map((r) => r.x1)),
    y1: Math.max(...rects.map((r) => r.y1)),
  };
}

export function area(r: Rect): number {
  return Math.max(0, r.x1 - r.x0) * Math.max(0, r.y1 - r.y0);
}

/** The area two rectangles share. */
export function common(a: Rect, b: Rect): number {
  return area({ x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) });
}

/** Two rectangles mark one spot: they overlap by a third of their union, or most of the smaller one. */
export function sameSpot(a: Rect, b: Rect): boolean {
  const inter = common(a, b);
  if (inter <= 0) return false;
  return inter / (area(a) + area(b) - inter) >= 0.3 || inter / Math.min(area(a), area(b)) >= 0.6;
}

export function overlap1(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/** A rule right over a box of text in type of `size`, across most of it: the line it captions, however wide the caption runs. */
export function ruledOver(box: Rect, size: number, rules: readonly Segment[]): boolean {
  return rules.some((r) => r.y <= box.y0 + 1 && r.y >= box.y0 - 0.8 * size && overlap1(r.x0, r.x1, box.x0, box.x1) >= 0.8 * (box.x1 - box.x0));
}

/** Whether `l` stands on `line`'s row: its baseline within 0.3 of `line`'s size of `line`'s. */
export function onRowOf(l: Line, line: Line): boolean {
  return Math.abs(l.baseline - line.baseline) <= 0.3 * line.size;
}

/** A line wholly in parentheses, "(Unterschrift)", "(Firma)": a caption printed under the room it names. */
export const inParentheses = (line: Line): boolean =>
  (line.words[0]?.text.trim() ?? '').startsWith('(') && (line.words.at(-1)?.text.trim() ?? '').endsWith(')');

export function contains(outer: Rect, inner: Rect, tolerance: number): boolean {
  return inner.x0 >= outer.x0 - tolerance && inner.y0 >= outer.y0 - tolerance && inner.x1 <= outer.x1 + tolerance && inner.y1 <= outer.y1 + tolerance;
}

export function nearest<T>(items: T[], distance: (t: T) => number): T | undefined {
  return [...items].sort((a, b) => distance(a) - distance(b))[0];
}

export function clip(r: Rect, page: { width: number; height: number }): Rect {
  return { x0: Math.max(0, r.x0), y0: Math.max(0, r.y0), x1: Math.min(page.width, r.x1), y1: Math.min(page.height, r.y1) };
}

export function rectOf(s: Suggestion): Rect {
  return { x0: s.x, y0: s.y, x1: s.x + s.width, y1: s.y + s.height };
}

/** Rounded to 0.01 pt (within the contract's edge tolerance of the page). */
export function xywh(r: Rect): { x: number; y: number; width: number; height: number } {
  const x = round(r.x0, 100);
  const y = round(r.y0, 100);
  return { x, y, width: round(round(r.x1, 100) - x, 100), height: round(round(r.y1, 100) - y, 100) };
}

export function round(n: number, by: number): number {
  return Math.round(n * by) / by;
}

/** The size of the page's body text: the median size of its words, weighted by their length. */
export function bodySize(words: readonly Word[]): number {
  const sized = words
    .filter((w) => !isFillToken(w.text))
    .map((w) => ({ size: w.size, n: w.text.length }))
    .sort((a, b) => a.size - b.size);
  const total = sized.reduce((sum, w) => sum + w.n, 0);
  let seen = 0;
  for (const w of sized) {
    seen += w.n;
    if (seen >= total / 2) return w.size;
  }
  return 10;
}
