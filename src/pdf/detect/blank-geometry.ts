/**
 * Where the blank of a label is: fill runs after it, drawn lines beside, over or under it, boxes and form
 * rows ruled above and below (the page's rules sorted by page-rules.ts, table cells found by table-cells.ts).
 */
import { signatureCaptionOver } from './captions-over-runs.js';
import { isFillToken, type LabelType } from './lexicon.js';
import { datePartOf, joinsDateParts } from './date-parts.js';
import { touching } from './filled-blanks.js';
import { TOLERANCE } from './page-rules.js';
import {
  type Rect,
  type Word,
  type Segment,
  type Geometry,
  FIELD_HEIGHT,
  MIN_BESIDE,
  type Line,
  type Label,
  type Widget,
  overlap1,
  nearest,
  topUnderText,
  runLine,
  writingLine,
  inParentheses,
} from './page-model.js';

// ------------------------------------------------------------------------------------------ geometry

/** A run of underscores or dots right after the label on its line, or opening the next piece of its row. */
export function fillAfter(label: Label, lines: readonly Line[] = []): { x0: number; x1: number; y: number; segment: Segment } | undefined {
  const { line, reach } = label;
  // (A run right after a caption's colon may sit up to a line's height lower, set in a larger size: "Signature :" in 9 pt, its run in 13 pt.)
  const lowRun = (l: Line) =>
    label.colon &&
    l.baseline > line.baseline &&
    l.baseline - line.baseline <= 1.1 * line.size &&
    l.box.x0 - reach.x1 <= 1.5 * line.size &&
    l.words.every((w) => isFillToken(w.text));
  // (Or the run opening the next piece of its row, set apart past the gap that ends a line: "Ort / Datum      ______ Unterschrift".)
  const apart =
    label.next === -1 && !line.rtl
      ? lines.find(
          (l) =>
            l !== line &&
            (Math.abs(l.baseline - line.baseline) <= 0.35 * line.size || lowRun(l)) &&
            l.box.x0 > reach.x1 &&
            l.box.x0 - reach.x1 <= 4 * line.size &&
            isFillToken((l.words[0] as Word).text),
        )?.words[0]
      : undefined;
  // (Or, its colon ending its line, the run alone opening the next one: the blank the text wrapped, "… Date:" over "_______".)
  const wrapped =
    !apart && label.next === -1 && label.colon && !line.rtl && reach.x1 >= line.box.x1 - 1
      ? lines.find(
          (l) =>
            l.baseline > line.baseline &&
            l.baseline - line.baseline <= 1.6 * line.size &&
            Math.abs(l.box.x0 - line.box.x0) <= 2 &&
            overlap1(l.box.x0, l.box.x1, label.box.x0, label.box.x1) <= 0 &&
            l.words.length === 1 &&
            isFillToken((l.words[0] as Word).text),
        )?.words[0]
      : undefined;
  if (apart ?? wrapped) {
    const segment = runLine((apart ?? wrapped) as Word);
    return { ...segment, segment };
  }
  if (label.next === -1 || !isFillToken((label.line.words[label.next] as Word).text)) {
    // An Arabic caption set in a left-to-right paragraph has its blank on its right ("التوقيع: ......").
    const right = label.line.rtl ? label.line.words.filter((w) => w.box.x0 >= label.reach.x1 - 1).sort((a, b) => a.box.x0 - b.box.x0)[0] : undefined;
    if (right && isFillToken(right.text) && right.box.x0 - label.reach.x1 <= 3 * label.line.size) {
      const segment = runLine(right);
      return { ...segment, segment };
    }
  }
  if (label.next === -1) return undefined;
  const word = label.line.words[label.next] as Word;
  // A date's blanks may be short ones for its parts ("Data __ /__ / _______").
  const date = label.entry.type === 'date';
  const datePart = date ? datePartOf(label.line.words.slice(label.next)) : () => false;
  const part = (text: string) => isFillToken(text) || datePart(text);
  if (!part(word.text)) return undefined;
  const gap = label.line.rtl ? label.reach.x0 - word.box.x1 : word.box.x0 - label.reach.x1;
  if (gap > 3 * label.line.size) return undefined;
  const y = writingLine(word.baseline, word.size);
  // A date written as blanks for its parts ("____ / ____ / ____", "____ , __ de ____ de 2025"): one blank across them.
  let x0 = word.box.x0;
  let x1 = word.box.x1;
  // (A line's words are in reading order, right to left on an Arabic line.)
  for (let i = label.entry.type === 'date' ? label.next + 1 : -1, last = word; i >= 0 && i < label.line.words.length; i++) {
    const w = label.line.words[i] as Word;
    // (Two runs one after the other, "Luogo e data ____ ____", are the place's and the date's: one blank.)
    const apart = isFillToken(w.text) && isFillToken(last.text) ? 3 * label.line.size : label.line.size;
    if (!(part(w.text) || joinsDateParts(w.text)) || Math.abs(label.line.rtl ? last.box.x0 - w.box.x1 : w.box.x0 - last.box.x1) > apart) break;
    last = w;
    if (!part(w.text)) continue;
    x0 = Math.min(x0, w.box.x0);
    x1 = Math.max(x1, w.box.x1);
  }
  // (Parts of the date before it that the caption's reach took in, "Data: _ _ / _ _ / _ _ _ _", are its blank too.)
  for (let i = label.next - 1; date && !label.line.rtl && i >= 0; i--) {
    const w = label.line.words[i] as Word;
    if (w.box.x0 < label.box.x1 - 1 || !(part(w.text) || joinsDateParts(w.text))) break;
    if (part(w.text)) x0 = Math.min(x0, w.box.x0);
  }
  // (Runs touching it are pieces of the blank, printed apart: "___________" "_____________".)
  for (let i = label.next + 1, last = word; !date && i < label.line.words.length; i++) {
    const w = label.line.words[i] as Word;
    if (!isFillToken(w.text) || !touching(last, w, label.line)) break;
    x0 = Math.min(x0, w.box.x0);
    x1 = Math.max(x1, w.box.x1);
    last = w;
  }
  return { x0, x1, y, segment: { x0, x1, y } };
}

/**
 * A caption in parentheses right after its blank on the row ("______ (Signature)", a line then "(Unterschrift)"):
 * that blank; and so is a run of underscores opening a line that the caption closes ("______ SIGNATURE").
 */
export function blankBefore(label: Label, segments: Segment[], lines: readonly Line[] = []): ReturnType<typeof fillAfter> {
  const { line, box } = label;
  const at = line.words.findIndex((w) => w.box.x1 > box.x0 + 1);
  const word = line.words[at];
  if (line.rtl || !word) return undefined;
  const prev = line.words[at - 1];
  const near = (x1: number) => word.box.x0 - x1 >= -2 && word.box.x0 - x1 <= 2 * line.size;
  // (Not when a run of its own follows it on its row: "Ort ……… Datum ………", the run before it is "Ort"'s.)
  const closes = at === 1 && label.next === -1 && prev !== undefined && isFillToken(prev.text) && !fillAfter(label, lines);
  if (!word.text.trim().startsWith('(') && !closes) return undefined;
  if (prev) {
    if (!isFillToken(prev.text) || !near(prev.box.x1) || prev.box.x1 - prev.box.x0 < 40) return undefined;
    const segment = runLine(prev);
    return { ...segment, segment };
  }
  const s = segments.find((r) => Math.abs(r.y - line.baseline) <= 0.6 * line.size && near(r.x1) && r.x1 - r.x0 >= 40);
  return s && { x0: s.x0, x1: s.x1, y: s.y, segment: s };
}

export function afterGap(label: Label, x0: number, x1: number): number {
  return label.line.rtl ? label.reach.x0 - x1 : x0 - label.reach.x1;
}

export function beforeLimit(label: Label, x0: number, x1: number): boolean {
  if (label.limit === undefined) return true;
  return label.line.rtl ? x0 >= label.limit - 2 : x1 <= label.limit + 2;
}

/** How far a tab may set a blank after its caption on the row ("Signature:<tab><tab>________"). */
const TAB_REACH = 240;

/**
 * A drawn line (or a run of underscores set apart by a tab) on the label's baseline, after it in reading
 * order: close to it, or further along the row with nothing written in between.
 */
export function segmentBeside(label: Label, segments: Segment[], used: Set<Segment>, lines: Line[] = []): Segment | undefined {
  const { line, reach } = label;
  let row: Word[] | undefined;
  const open = (s: Segment) => {
    const [x0, x1] = line.rtl ? [s.x1, reach.x0] : [reach.x1, s.x0];
    row ??= lines
      .filter((l) => written(l) && overlap1(l.box.y0, l.box.y1, line.box.y0, line.box.y1) > 0.3 * line.size)
      .flatMap((l) => l.words.filter((w) => !isFillToken(w.text) && overlap1(w.box.y0, w.box.y1, line.box.y0, line.box.y1) > 0));
    return !row.some((w) => w.box.x1 > x0 + 1 && w.box.x0 < x1 - 1);
  };
  // A few words qualifying the caption, then its line right after them ("Firma nuovo socio ____", "Firma per ricevuta ____").
  const qualified = (s: Segment) => {
    const between = line.words.filter((w) => w.box.x0 >= reach.x1 - 1 && w.box.x1 <= s.x0 + 2);
    const last = between[between.length - 1];
    const words = between.every((w) => /\p{L}/u.test(w.text) && !isFillToken(w.text) && !/[.:;]$/.test(w.text));
    return !line.rtl && last !== undefined && between.length <= 3 && words && s.x0 - last.box.x1 <= 3 * line.size;
  };
  const candidates = segments.filter((s) => {
    if (used.has(s)) return false;
    if (s.y < line.baseline - 0.45 * line.size || s.y > line.baseline + 0.9 * line.size + 2) return false;
    const gap = afterGap(label, s.x0, s.x1);
    // (A line may start under the label's last character: under its colon, or where OCR's box of the label ends.)
    if (gap < -Math.max(2, 0.5 * line.size) || !beforeLimit(label, s.x0, s.x1)) return false;
    return (
      gap <= Math.max(60, 5 * line.size) ||
      (lines.length > 0 && gap <= TAB_REACH && open(s) && !ruledUnder(label, segments) && !linedOver(label, segments)) ||
      qualified(s)
    );
  });
  return nearest(candidates, (s) => afterGap(label, s.x0, s.x1));
}

/** A line right under the caption, under most of it: its blank, rather than a line a tab away on its row ("Assinatura do Associado" over its dashes). */
const ruledUnder = (label: Label, segments: readonly Segment[]): boolean =>
  segments.some(
    (u) =>
      u.y > label.line.box.y1 &&
      u.y - label.line.box.y1 <= 3.5 * label.line.size &&
      overlap1(u.x0, u.x1, label.box.x0, label.box.x1) >= 0.6 * (label.box.x1 - label.box.x0),
  );

/** A line of a signature's length right over the caption, over most of it: the line it names ("____" over "Signature of Guardian"), rather than one a tab away on its row. */
const linedOver = (label: Label, segments: readonly Segment[]): boolean =>
  segments.some(
    (u) =>
      u.y < label.line.box.y0 + 1 &&
      label.line.box.y0 - u.y <= 1.5 * label.line.size &&
      u.x1 - u.x0 <= 360 &&
      overlap1(u.x0, u.x1, label.box.x0, label.box.x1) >= 0.6 * (label.box.x1 - label.box.x0),
  );

/** Where a line after a caption ends for it: at the first words of its row written over the line ("Signature ____Date____" on one rule). */
export function rowEnd(label: Label, s: Segment, lines: Line[]): number {
  if (label.line.rtl) return s.x1;
  let x1 = s.x1;
  for (const l of lines)
    if (overlap1(l.box.y0, l.box.y1, label.line.box.y0, label.line.box.y1) > 0.3 * label.line.size)
      for (const w of l.words) if (!isFillToken(w.text) && w.box.x0 > s.x0 + 1 && w.box.x0 < x1 && w.box.x1 <= s.x1 + 2) x1 = w.box.x0 - 4;
  if (label.entry.type === 'date') x1 = Math.min(x1, signatureCaptionOver(s, s.x0, lines, label.line) - 4);
  return x1 - s.x0 >= 40 ? x1 : s.x1;
}

/**
 * A rule the caption itself stands on that runs on after it ("Firma" written at the start of a bottom
 * border or of a long line): the blank is the rest of the rule, up to the next words of the row.
 */
export function ruleUnder(
  label: Label,
  segments: Segment[],
  used: Set<Segment>,
  lines: Line[],
): { x0: number; x1: number; y: number; segment: Segment } | undefined {
  const { line, reach, box } = label;
  if (line.rtl) return undefined;
  const type = label.entry.type;
  const row = lines.filter((l) => l !== line && overlap1(l.box.y0, l.box.y1, line.box.y0, line.box.y1) > 0.3 * line.size);
  for (const s of segments) {
    if (used.has(s) || s.y < line.baseline - 0.1 * line.size || s.y > line.baseline + 0.6 * line.size + 3) continue;
    // (Or a line that starts under the caption, short of its end: "Signature:" over the start of its line.)
    if (s.x0 > Math.max(box.x0 + 2, reach.x1 - 2) || s.x1 < reach.x1 + MIN_BESIDE[type]) continue;
    // (A few words right after the caption qualify it, "Datum, Unterschrift Interviewte*r": the blank starts after them.)
    const after = label.next === -1 ? [] : line.words.slice(label.next);
    const qualified = after.length > 0 && after.length <= 3 && after.every((w) => /^\p{L}[\p{L}*/.-]*$/u.test(w.text)) && !label.limit;
    const x0 = (qualified ? (after[after.length - 1] as Word).box.x1 : reach.x1) + 4;
    let x1 = Math.min(s.x1, label.limit !== undefined ? label.limit - 4 : s.x1);
    for (const w of [...(qualified ? [] : after), ...row.flatMap((l) => l.words)])
      if (!isFillToken(w.text) && w.box.x0 >= x0 - 1 && w.box.x0 < x1) x1 = w.box.x0 - 4;
    if (type === 'date') x1 = Math.min(x1, signatureCaptionOver(s, x0, lines, line) - 4);
    if (x1 - x0 >= MIN_BESIDE[type]) return { x0, x1, y: s.y, segment: s };
  }
  return undefined;
}

/** A caption right under a drawn line ("Signature" printed below the line it names). */
export function segmentOver(label: Label, segments: Segment[], used: Set<Segment>, shared: Set<Segment> = new Set()): Segment | undefined {
  const { box, line } = label;
  const remark = inParentheses(line);
  const parenthesised = label.bare && remark;
  // (So is a short line that is all a signature's caption, its blank elsewhere: "FIRMA DEL ABONADO O TITULAR".)
  const alone =
    label.bare || (label.entry.type === 'signature' && !line.tokens.includes('\0') && line.words.length <= 6 && !line.words.some((w) => /[:：]/.test(w.text)));
  const candidates = segments.filter((s) => {
    if (used.has(s)) return false;
    const gap = box.y0 - s.y;
    // (A caption alone on its line, or in parentheses, a line's height under it, "(Firma)" under "____"; in parentheses, two: "(Handtekening 2e verzoeker)".)
    if (gap < -1 || gap > Math.max((remark ? 2.2 : parenthesised || alone ? 1.5 : 1.2) * line.size + 2, 6)) return false;
    // A rule already split between captions of the row takes the others wherever they sit under it (a short one may end past its end: "Date").
    if (shared.has(s)) return s.x0 <= box.x0 + 6 && s.x1 >= box.x0 + Math.min(20, 0.5 * (box.x1 - box.x0));
    // (Or a caption under the end of a longer line: most of it under the line; or a caption wider than its line, centred under it.)
    // (A caption alone on its line is the whole line: "Parent/ Guardian Signature" centred under its line.)
    const [c0, c1] = label.bare ? [line.box.x0, line.box.x1] : [Math.min(box.x0, label.reach.x0), Math.max(box.x1, label.reach.x1)];
    if (s.x0 >= c0 - 6 && s.x1 <= c1 + 6 && s.x1 - s.x0 >= Math.max(60, 0.4 * (c1 - c0))) return true;
    // (A date's line may be short: "__________" over "Date".)
    const short = label.entry.type === 'date' ? 30 : 40;
    // (A caption may start a little before its line: "Signature of Parent" under a line indented by a tab.)
    return (
      s.x0 <= box.x0 + Math.max(6, 2 * line.size) &&
      s.x1 - s.x0 >= short &&
      (s.x1 >= box.x1 - 6 || (s.x1 - s.x0 >= 60 && overlap1(s.x0, s.x1, box.x0, box.x1) >= 0.6 * (box.x1 - box.x0)))
    );
  });
  return nearest(candidates, (s) => box.y0 - s.y);
}

/** The field on a line from x0 to x1 at height y, under the text over the line or over its caption beside it, and under a line over it (the row above's). */
export function standOn(type: LabelType, x0: number, x1: number, y: number, label: Label, lines: Line[], rules: readonly Segment[] = []): Rect {
  let top = y - FIELD_HEIGHT[type];
  for (const r of rules) if (r.y < y - 8 && r.y > top && overlap1(r.x0, r.x1, x0, x1) >= Math.min(40, 0.5 * (x1 - x0))) top = r.y + 1;
  let text = top;
  let middle = top;
  for (const l of lines) {
    if (
      l.box.y1 <= y - 1 &&
      l.box.y1 > text &&
      (overlap1(l.box.x0, l.box.x1, x0, x1) > 0 ||
        (l !== label.line && overlap1(l.box.x0, l.box.x1, Math.min(x0, label.box.x0), Math.max(x1, label.box.x1)) > 0)) &&
      (l !== label.line || l.box.y1 <= y - 8) &&
      written(l) &&
      !holdsBlank(l, x0, x1, y)
    ) {
      text = l.box.y1 + 1;
      middle = (l.box.y0 + l.box.y1) / 2 + 1;
    }
  }
  if (text > top) top = Math.max(top, topUnderText(type, y, text, middle)); // (A rule above is a wall; text above is not quite one.)
  // (At least 12 pt high, or up to the text right over the line: a field is not written over the text.)
  if (y - top < 12) top = Math.max(y - 12, Math.min(text, y - 8));
  return { x0, y0: top, x1, y1: y };
}

/** A line whose blank run is the one from x0 to x1 (a line to sign on written as dots after "Berlin, den"). */
export function holdsBlank(l: Line, x0: number, x1: number, y: number): boolean {
  return l.words.some((w) => isFillToken(w.text) && w.box.x0 <= x0 + 1 && w.box.x1 >= x1 - 1 && Math.abs(w.baseline - y) <= 4);
}

/**
 * Runs of underscores or dots at least 60 pt long on lines with words too: lines a caption under them may
 * name (not one a form field covers: the field holds what is written there, "à [……]" of "Fait, le … à …").
 */
export function trailingBlanks(lines: Line[], widgets: readonly Widget[] = []): Segment[] {
  // (Not a place's blank before the date: "____, addì ___ / ___", "____, den ____".)
  const place = (l: Line, i: number) =>
    /^,?$/.test(l.words[i + 1]?.text.trim() ?? '-') && /^(?:addì|addi|lì|li|den|le)$/i.test(l.words[i + 2]?.text.trim() ?? '');
  return lines
    .filter((l) => !l.tokens.every((t) => t === '\0'))
    .flatMap((l) => l.words.filter((w, i) => isFillToken(w.text) && w.box.x1 - w.box.x0 >= 60 && !place(l, i)))
    .map(runLine)
    .filter((s) => !widgets.some((w) => overlap1(w.box.x0, w.box.x1, s.x0, s.x1) >= 0.5 * (s.x1 - s.x0) && s.y >= w.box.y0 - 2 && s.y <= w.box.y1 + 4));
}

/** A line with a letter or a digit: a blank run or a stray comma printed for the writer is not text above a line. */
export function written(l: Line): boolean {
  return l.words.some((w) => /[\p{L}\p{N}]/u.test(w.text));
}

// ------------------------------------------------------------------------------------------ rules and cells

/**
 * The blank of a caption in a form row ruled above and below but not on its sides (tax forms: "Signature
 * of U.S. person ▶ ____ Date ▶ ____", "Preparer's signature" at the top of its row): a small caption at the
 * top of a row leaves the row under it; otherwise the rest of the row after the caption (and after the
 * lines that continue it under it), up to the next words of the row. Only for signatures, initials and dates.
 */
export function ruledRow(label: Label, geo: Geometry, lines: Line[]): Rect | undefined {
  const { box, reach, line } = label;
  const type = label.entry.type;
  if (line.rtl || type === 'text') return undefined;
  // Rules across the end of the caption and well after it (a caption may start in a cell of its own: "Sign Here").
  const spans = (s: Segment, x1: number) => s.x0 <= Math.max(box.x0 + 8, reach.x1 - 20) && s.x1 >= x1;
  // (A thick bar drawn as a filled box over the row is its top rule too.)
  const tops = [...geo.h, ...geo.boxes.map((b) => ({ x0: b.x0, x1: b.x1, y: b.y1 }))];
  const above = tops.filter((s) => s.y <= box.y0 + 1 && box.y0 - s.y <= 40 && spans(s, reach.x1 + 40)).sort((a, b) => b.y - a.y)[0];
  if (!above) return undefined;
  const below = geo.h.filter((s) => s.y >= box.y1 - 1 && s.y - above.y >= 12 && s.y - above.y <= 60 && spans(s, reach.x1 + 40)).sort((a, b) => a.y - b.y)[0];
  // A row's rules end together; a line to sign on over a shorter one under a caption is no row.
  if (!below || Math.abs(above.x1 - below.x1) > 6) return undefined;
  const x1Row = Math.min(above.x1, below.x1);
  // A side rule after the caption makes it a grid's cell: the cell rules have it.
  if (geo.v.some((r) => r.x > reach.x1 && r.x <= x1Row + TOLERANCE && r.y0 <= box.y0 + TOLERANCE && r.y1 >= box.y1 - TOLERANCE)) return undefined;
  const inRow = lines.filter((l) => l !== line && written(l) && l.box.y0 >= above.y - 1 && l.box.y1 <= below.y + 1);
  // The caption's own continuation: lines under it, starting where it starts.
  const continued = inRow.filter((l) => l.box.y0 >= box.y1 - 1 && Math.abs(l.box.x0 - line.box.x0) <= 8);
  const captionBottom = Math.max(box.y1, ...continued.map((l) => l.box.y1));
  // (A run of underscores under the caption in the row is its line: "Luogo, Data" over "________" in a boxed section.)
  if (
    lines.some(
      (l) =>
        !written(l) && l.tokens.includes('\0') && l.box.y0 >= captionBottom - 1 && l.box.y1 <= below.y + 1 && overlap1(l.box.x0, l.box.x1, box.x0, box.x1) > 0,
    )
  )
    return undefined;
  // Text of the row above the caption (a certification paragraph) is above the blank too.
  let top = above.y;
  for (const l of inRow) if (l.box.y1 <= box.y0 + 1 && overlap1(l.box.x0, l.box.x1, box.x0, x1Row) > 0) top = Math.max(top, l.box.y1);
  const small = box.y1 - box.y0 <= 9 && box.y0 - top <= 0.3 * (below.y - top);
  if (small && below.y - captionBottom >= 11) {
    const x0 = Math.max(above.x0, below.x0);
    const written_ = inRow.some((l) => l.box.y0 >= captionBottom - 1 && overlap1(l.box.x0, l.box.x1, x0, x1Row) > 0 && !continued.includes(l));
    return written_ || x1Row - x0 < MIN_BESIDE[type] ? undefined : { x0, y0: captionBottom + 2, x1: x1Row, y1: below.y };
  }
  const x0 = Math.max(reach.x1, ...continued.map((l) => l.box.x1)) + 4;
  let x1 = x1Row;
  for (const l of inRow)
    for (const w of l.words) if (w.box.x0 >= x0 && w.box.x0 < x1 && overlap1(w.box.y0, w.box.y1, box.y0 - 2, captionBottom + 2) > 0) x1 = w.box.x0 - 4;
  for (const w of line.words) if (w.box.x0 >= x0 && w.box.x0 < x1) x1 = w.box.x0 - 4;
  let y0 = above.y + 1;
  for (const l of inRow) if (l.box.y1 <= box.y0 + 1 && overlap1(l.box.x0, l.box.x1, x0, x1) > 0) y0 = Math.max(y0, l.box.y1 + 1);
  if (x1 - x0 < MIN_BESIDE[type] || below.y - 1 - y0 < 10) return undefined;
  return { x0, y0, x1, y1: below.y };
}

/** Another caption above the rule, within a field's height, with its blank still to find. */
export function captionAbove(label: Label, over: Segment, labels: Label[]): boolean {
  return labels.some(
    (o) =>
      o !== label &&
      !o.done &&
      o.line !== label.line &&
      o.box.y1 <= over.y + 1 &&
      // (A caption with a colon asks for what follows it: its blank may stand a little further down.)
      over.y - o.box.y1 <= Math.max(FIELD_HEIGHT[o.entry.type], o.colon ? 2.5 * o.line.size : 0) &&
      overlap1(o.box.x0, o.box.x1, over.x0, over.x1) > 0,
  );
}
