/**
 * The columns a row of captions sets over a table ruled across only ("Name   Signature   Date" over empty
 * rows between rules running across the page, a sign-in sheet drawn without verticals): verticals at the
 * rules' ends and between the captions' columns, so the table's cells are read as if their sides were drawn
 * (table-cells.ts then finds the cell under each caption and the column's empty rows under it).
 */
import { matchLabels } from './label-matching.js';
import { buildLines } from './lines-and-labels.js';
import { sortRules, TOLERANCE } from './page-rules.js';
import { cutAtBorders } from './table-cells.js';
import type { Geometry, Line, PageModel, Rect, Segment, VRule } from './page-model.js';

/** Rows of a ruled table are 12 to 80 pt tall; its rules at least this long. */
const ROW = { least: 12, most: 80 };
const LEAST_WIDTH = 150;

/** The page's rules sorted and its lines cut at its cells' sides, drawn or set by a header over rules across. */
export function rulesAndLines(page: PageModel): { geo: Geometry; lines: Line[] } {
  const built = buildLines(page.words);
  const verticals = [...page.verticals, ...impliedColumns(page, built)];
  return { geo: sortRules({ ...page, verticals }), lines: cutAtBorders(built, verticals) };
}

/** The verticals a header over rules across sets: at the rules' ends and halfway between its columns. */
function impliedColumns(page: PageModel, lines: readonly Line[]): VRule[] {
  const out: VRule[] = [];
  for (const rules of rulesAlike(page.segments)) {
    for (let i = 0; i + 1 < rules.length; i++) {
      const rule = rules[i] as Segment;
      const second = rules[i + 1] as Segment;
      // (The first row under the header is a row's height.)
      if (second.y - rule.y < ROW.least || second.y - rule.y > ROW.most) continue;
      // The header: the lines right over a rule, between it and the rule a row over it (or 30 pt up).
      const previous = rules[i - 1];
      const above = previous && rule.y - previous.y <= ROW.most ? previous : undefined;
      const top = above ? above.y : rule.y - 30;
      const header = lines.filter((l) => l.box.y0 >= top - 1 && l.box.y1 <= rule.y + 1 && l.box.x0 >= rule.x0 - TOLERANCE && l.box.x1 <= rule.x1 + TOLERANCE);
      const columns = columnsOf(header);
      const kinds = columns.map(
        (c) =>
          new Set(
            c.lines.flatMap((l) =>
              matchLabels(l.tokens)
                .filter((m) => m.entry.strength === 'strong')
                .map((m) => m.entry.type),
            ),
          ),
      );
      if (columns.length < 2 || !kinds.some((k) => k.has('signature'))) continue;
      // (Captions hanging from the rule over them name that line, "Signature   Date" under where one signs: not a header. A header
      // set a little high in its row, its room under it less than twice that over it, is still one.)
      const [hy0, hy1] = [Math.min(...header.map((l) => l.box.y0)), Math.max(...header.map((l) => l.box.y1))];
      if (above && rule.y - hy1 > 2 * (hy0 - above.y)) continue;
      // The rows under it: rules of a row's height apart, down to the first gap that is not one.
      let last = i + 1;
      while (last + 1 < rules.length && rowApart(rules[last] as Segment, rules[last + 1] as Segment, second.y - rule.y)) last++;
      const bottom = (rules[last] as Segment).y;
      // A table drawn with sides (or rows framed as boxes) is read from them.
      const body: Rect = { x0: rule.x0 - TOLERANCE, y0: top, x1: rule.x1 + TOLERANCE, y1: bottom };
      if (page.verticals.some((v) => v.x > body.x0 && v.x < body.x1 && v.y1 > body.y0 + 2 && v.y0 < body.y1 - 2)) continue;
      // The first row's cells under the signature's and the date's captions are empty, to write in (a name may be typed in already).
      // (Headers set at their columns' starts, the first one right at the rule's start, start their columns; others split halfway.)
      const inset = (columns[0] as Rect).x0 - rule.x0;
      const setAtStart = inset >= -TOLERANCE && inset <= 6;
      const xs = [rule.x0, ...columns.slice(1).map((c, k) => (setAtStart ? c.x0 - Math.max(0, inset) : ((columns[k] as Rect).x1 + c.x0) / 2)), rule.x1];
      const written = (k: number) =>
        lines.some((l) => l.box.y0 > rule.y && l.box.y1 < second.y && l.box.x1 > (xs[k] as number) && l.box.x0 < (xs[k + 1] as number));
      if (kinds.some((k, at) => (k.has('signature') || k.has('date')) && written(at))) continue;
      const y0 = above ? above.y : hy0 - 2;
      out.push(...xs.map((x) => ({ x, y0, y1: bottom })));
      i = last;
    }
  }
  return out;
}

/** The page's long rules grouped by their ends (within TOLERANCE), each group from the top down. */
function rulesAlike(segments: readonly Segment[]): Segment[][] {
  const groups: Segment[][] = [];
  for (const s of [...segments].filter((r) => r.x1 - r.x0 >= LEAST_WIDTH).sort((a, b) => a.y - b.y)) {
    const group = groups.find((g) => Math.abs((g[0] as Segment).x0 - s.x0) <= TOLERANCE && Math.abs((g[0] as Segment).x1 - s.x1) <= TOLERANCE);
    if (!group) groups.push([s]);
    else if (s.y - (group[group.length - 1] as Segment).y > 1) group.push(s);
  }
  return groups.filter((g) => g.length >= 2);
}

/** Two rules a row apart, the row about as tall as the first one under the header (`height`). */
function rowApart(a: Segment, b: Segment, height: number): boolean {
  const gap = b.y - a.y;
  return gap >= ROW.least && gap <= ROW.most && gap >= 0.6 * height && gap <= 1.6 * height;
}

/** Header lines side by side, one column per run of lines whose spans overlap. */
function columnsOf(header: readonly Line[]): Array<Rect & { lines: Line[] }> {
  const columns: Array<Rect & { lines: Line[] }> = [];
  for (const l of [...header].sort((a, b) => a.box.x0 - b.box.x0)) {
    const last = columns[columns.length - 1];
    if (last && l.box.x0 < last.x1) {
      last.x1 = Math.max(last.x1, l.box.x1);
      last.lines.push(l);
    } else columns.push({ ...l.box, lines: [l] });
  }
  return columns;
}
