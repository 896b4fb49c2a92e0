/**
 * A date's blank drawn in parts on one line, its day, month and year apart: `__/__/____`, `____-____-______`,
 * `___ / ___ / 20___`, as runs of underscores or as rules with the separators printed or drawn between them. The
 * blank after a date's caption is the whole of it, not its first part.
 */
import type { LabelType } from './lexicon.js';
import { filled } from './filled-blanks.js';
import { clip, xywh, type PageModel, type Segment, type Suggestion, type Word } from './page-model.js';

/** A slash, dot or dash printed between a date's blanks ("___ / ___ / ____"). */
export const dateSeparator = (w: Word): boolean => /^[/.-]$/.test(w.text.trim());

/** What joins a date's blanks: a slash, a comma, "de" and a year ("Local e Data: ____ , __ de ____ de 2025"). */
export const joinsDateParts = (text: string): boolean => /^(?:[/.,-]|de|del|di|do|da|of|(?:19|20)\d{0,2})$/i.test(text.trim());
/** Two underscores or more with the slashes between a date's parts: "__", "/__", "__/__/____", "_ _" (spaced). */
const DATE_PART = /^(?=.*_ ?_)[_/.\- ]+$/;
/** A date written as dots or ellipses for its three parts, its slashes between them: "…/…/……", ". . / . . / . . . .", "../../....". */
const DOTTED_DATE = /^[.…]+\/[.…]+\/[.…]+/;

/**
 * Whether a word after a date's caption is a part of its blank written short (`after`: the words from the first after
 * the caption): underscores and slashes ("Data __ /__ / _______"), or dots and ellipses when the words after the
 * caption are the three parts' ("Date : …/…/……"; one ellipsis alone is none).
 */
export function datePartOf(after: readonly Word[]): (text: string) => boolean {
  const dotted = DOTTED_DATE.test(after.map((w) => w.text.replace(/\s+/g, '')).join(''));
  return (text) => DATE_PART.test(text.trim()) || (dotted && /^[/.…\s]+$/.test(text));
}

/** Parts of a date at most: day, month, year, and a century printed apart ("20__"). */
const MOST_PARTS = 4;
/** The widest such a blank grows, in points. */
const MOST_WIDTH = 260;

/**
 * The blank a caption of `type` has on `first`: for a date, `first` and the parts that follow it on its line,
 * each a separator's width after the last (or a run from it across them, read as one); for any other caption, `first` alone.
 */
export function dateParts(
  type: LabelType,
  first: Segment,
  segments: readonly Segment[],
  used: ReadonlySet<Segment>,
  size: number,
): { run: Segment; parts: Segment[] } {
  const parts = [first];
  if (type !== 'date') return { run: first, parts };
  let last = first;
  while (parts.length < MOST_PARTS) {
    const next = segments
      .filter((s) => !used.has(s) && !parts.includes(s) && Math.abs(s.y - last.y) <= Math.max(1.5, 0.15 * size))
      .filter((s) => s.x0 >= first.x0 - 1 && s.x1 > last.x1 + 1 && s.x0 - last.x1 <= Math.max(6, 1.6 * size) && s.x1 - first.x0 <= MOST_WIDTH)
      .sort((a, b) => a.x0 - b.x0)[0];
    if (!next) break;
    parts.push(next);
    last = next;
  }
  return { run: { ...first, x1: last.x1 }, parts };
}

/**
 * A date's line drawn in parts over its caption, its separators printed between them ("___ / ___ / _____" over "Date"):
 * the parts after `first` up to the first gap without a separator ("/", "-", "."), not lines side by side. (The separators
 * read as blank runs are not parts.) None for another caption's line.
 */
export function separatedParts(
  type: LabelType,
  first: Segment,
  segments: readonly Segment[],
  used: ReadonlySet<Segment>,
  size: number,
  words: readonly Word[],
): Segment[] {
  const separators = words.filter(dateSeparator);
  const at = (x0: number, x1: number, y: number) => separators.some((w) => w.box.x0 >= x0 - 2 && w.box.x1 <= x1 + 2 && Math.abs(w.baseline - y) <= 4);
  const { parts } = dateParts(
    type,
    first,
    segments.filter((s) => !at(s.x0, s.x1, s.y)),
    used,
    size,
  );
  const kept: Segment[] = [];
  for (const p of parts.slice(1)) {
    if (!at((kept.at(-1) ?? first).x1, p.x0, p.y)) break;
    kept.push(p);
  }
  return kept;
}

/**
 * A date written as bare blanks with the century printed, alone on its row: "____ __ ____, 20__" over the signers' lines,
 * no caption (the year's "20" right before its blank, a comma before it after the day's and month's blanks). The blank
 * from the first part to the year's end, but where it is written in; the caller keeps it only beside a place to sign.
 */
export function centuryDates(page: PageModel): Suggestion[] {
  const out: Suggestion[] = [];
  // (The page's blanks: its rules, and its runs of two underscores or more.)
  const all = [
    ...page.segments.filter((s) => s.x1 - s.x0 >= 8),
    ...page.words.filter((o) => /^_{2,}$/.test(o.text)).map((o) => ({ x0: o.box.x0, x1: o.box.x1, y: o.baseline })),
  ];
  for (const w of page.words) {
    if (!/^(19|20)$/.test(w.text.trim())) continue;
    const blanks = all.filter((b) => Math.abs(b.y - w.baseline) <= 3);
    const year = blanks.find((s) => s.x0 - w.box.x1 >= -1 && s.x0 - w.box.x1 <= 4);
    const comma = page.words.find(
      (o) => o.text.trim() === ',' && Math.abs(o.baseline - w.baseline) <= 2 && w.box.x0 - o.box.x1 >= -1 && w.box.x0 - o.box.x1 <= 8,
    );
    if (!year || !comma) continue;
    let first = blanks.find((s) => comma.box.x0 - s.x1 >= -1 && comma.box.x0 - s.x1 <= 6);
    for (let k = 0; first && k < 3; k++) {
      const start: { x0: number } = first;
      const before = blanks.find((s) => start.x0 - s.x1 >= -1 && start.x0 - s.x1 <= 16);
      if (!before) break;
      first = before;
    }
    if (!first || comma.box.x0 - first.x0 < 40) continue;
    const [x0, x1] = [first.x0, year.x1];
    // (Alone on its row: no word of letters along it.)
    if (page.words.some((o) => /\p{L}/u.test(o.text) && Math.abs(o.baseline - w.baseline) <= 4 && o.box.x1 > x0 - 40 && o.box.x0 < x1 + 40)) continue;
    const r = clip({ x0, y0: w.baseline + 2 - 20, x1, y1: w.baseline + 2 }, page);
    if (!filled(r, page, []))
      out.push({ type: 'date', page: page.page, ...xywh(r), confidence: page.ocr ? 0.66 : 0.72, reason: 'label_with_geometry', fieldKey: 'sign_date' });
  }
  return out;
}
