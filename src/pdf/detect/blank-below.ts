/**
 * The blank under a caption: a line of its own right under it (a caption over its line), a drawn line or a
 * box further down its column with nothing written in between, and the row under a form row's rule.
 */
import { captionAbove, written } from './blank-geometry.js';
import { TOLERANCE } from './page-rules.js';
import { matchLabels } from './label-matching.js';
import { typedName } from './captionless-lines.js';
import { continuation } from './blank-space.js';
import { FIELD_HEIGHT, FIELD_WIDTH, overlap1, type Geometry, type Label, type Line, type Rect, type Segment, type VRule } from './page-model.js';

/** Length from which a rule with text right under it is a section's border: two signatures' width. */
const SEPARATOR = 2 * FIELD_WIDTH.signature;

/** A line of the caption's own right under it: starting where it starts, at least as long, within three lines' height, nothing written in between. */
export function ownLineBelow(label: Label, segments: Segment[], lines: Line[], used: Set<Segment>): boolean {
  const { box, line } = label;
  return segments.some(
    (s) =>
      !used.has(s) &&
      Math.abs(s.x0 - box.x0) <= 6 &&
      s.x1 - s.x0 >= Math.max(40, box.x1 - box.x0) &&
      s.y - box.y1 >= 4 &&
      s.y - box.y1 <= 3 * line.size + 4 &&
      !lines.some((l) => l !== line && written(l) && l.box.y0 >= box.y1 - 1 && l.box.y1 <= s.y + 1 && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0),
  );
}

/**
 * A rule across the text's width with the next section's text under it, within two of its lines (a footnote's rule, a cut line
 * between two copies of a form, a page's footer): it closes what is over it, nobody writes on it.
 */
function separator(s: Segment, lines: readonly Line[]): boolean {
  return (
    s.x1 - s.x0 >= SEPARATOR &&
    lines.some(
      (l) =>
        written(l) &&
        l.box.y0 >= s.y - 1 &&
        l.box.y0 - s.y <= 2 * l.size &&
        overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0 &&
        // (Not another caption: the rule is then the border between two rows of a form; nor the name of
        // who signs on it.)
        matchLabels(l.tokens).length === 0 &&
        !typedName(l),
    )
  );
}

/** A drawn line or a box under the label, with nothing written in between, not the line of another caption of its row (`labels`). */
export function geometryBelow(label: Label, geo: Geometry, lines: Line[], used: Set<Segment>, labels: readonly Label[] = []): Segment | Rect | undefined {
  const { box, line } = label;
  // (A line under another caption of its row and not under this one is that caption's: "Name   Date   Signature" over three runs.)
  const mates = labels.filter((o) => o !== label && Math.abs(o.line.baseline - line.baseline) <= 0.5 * line.size);
  const over = (b: Rect, s: Segment) => overlap1(b.x0, b.x1, s.x0, s.x1);
  const othersLine = (s: Segment) => over(box, s) === 0 && mates.some((o) => over(o.box, s) > 0);
  const type = label.entry.type;
  // (Room for a whole signature and two lines and a half of space between the caption and its line.)
  // (A date's caption with its colon asks for what follows it: a line for it below stands within a date's
  // height and a line and a half under it, not a signature's height further down.)
  const reach =
    type === 'date' && label.colon
      ? FIELD_HEIGHT.date + 1.5 * line.size
      : type === 'signature' || type === 'date'
        ? FIELD_HEIGHT.signature + 2.5 * line.size
        : 2.5 * line.size + 14;
  // (Or a line under the caption's whole line, most of its width, when the caption ends it: "Il Dirigente Scolastico (timbro e firma)".)
  const underLine = (x0: number, x1: number) =>
    !line.tokens.includes('\0') && x0 >= line.box.x0 - 4 && x1 <= line.box.x1 + 4 && x1 - x0 >= 0.5 * (line.box.x1 - line.box.x0);
  const aligned = (x0: number, x1: number) =>
    (line.rtl ? Math.abs(x1 - box.x1) <= 40 : Math.abs(x0 - box.x0) <= 40) || (x0 <= box.x0 + 4 && x1 >= box.x1 - 4) || underLine(x0, x1);
  // (A run of underscores alone on its line is the blank itself, not writing in the way; nor is a remark in parentheses under the caption.)
  const remark = (l: Line) => /^\(/.test(l.words[0]?.text ?? '') && /\)[.:]?$/.test(l.words.at(-1)?.text ?? '') && l.box.y0 - box.y1 <= line.size;
  // (A line that the blank opens, "____ DATE: ____", is its own row, not writing over it.)
  const opens = (l: Line, x0: number, top: number) => Math.abs(l.box.x0 - x0) <= 2 && Math.abs(l.baseline - top) <= 3;
  // (Nor is the caption's own second line, going on in lower case: "Firma del genitore" / "o affidatario che esercita …".)
  const goesOn = continuation(line, lines);
  const clear = (top: number, x0: number, x1: number) =>
    !lines.some(
      (l) =>
        l !== line &&
        l !== goesOn &&
        written(l) &&
        !remark(l) &&
        !opens(l, x0, top) &&
        l.box.y0 >= box.y1 - 1 &&
        l.box.y1 <= top + 1 &&
        overlap1(l.box.x0, l.box.x1, x0, x1) > 0,
    );
  type Hit = { item: Segment | Rect; distance: number };
  const hits: Hit[] = [];
  // (A date's caption in a row of captions over a row of lines, `Date:` beside `Signature`, each over its own
  // line: its line stands as far under it as the signature's under its caption.)
  const lineOfRow = (s: Segment) =>
    type === 'date' &&
    mates.some((o) => o.entry.type === 'signature' && geo.free.some((t) => t !== s && Math.abs(t.y - s.y) <= 1 && over(o.box, t) > 0 && over(box, t) === 0));
  for (const s of geo.free) {
    const d = s.y - box.y1;
    if (d > reach && d <= FIELD_HEIGHT.signature + 2.5 * line.size && lineOfRow(s) && !used.has(s) && aligned(s.x0, s.x1) && clear(s.y, s.x0, s.x1)) {
      hits.push({ item: s, distance: d });
      continue;
    }
    // (A date's line may be short when its caption stands over it: "Date" over "______".)
    const least = type === 'date' && over(box, s) > 0 ? 24 : 40;
    if (used.has(s) || d < 4 || d > reach || s.x1 - s.x0 < least || !aligned(s.x0, s.x1) || !clear(s.y, s.x0, s.x1) || separator(s, lines) || othersLine(s))
      continue;
    hits.push({ item: s, distance: d });
  }
  // (A box much taller than a signature or a date is signed or dated at its foot.)
  const field = FIELD_HEIGHT[label.entry.type];
  for (const b of geo.boxes) {
    const d = b.y0 - box.y1;
    if (d < 0 || d > reach || !aligned(b.x0, b.x1) || !clear(b.y0, b.x0, b.x1)) continue;
    hits.push({ item: type !== 'text' && b.y1 - b.y0 > 2 * field ? { ...b, y0: b.y1 - field } : b, distance: d });
  }
  return hits.sort((a, b) => a.distance - b.distance)[0]?.item;
}

/**
 * The blank of a caption at the top of a form row, under the rule that closes the row above: as wide as
 * that rule within the side rules around the caption, from the caption down to the next rule, with nothing
 * written in between.
 */
export function rowBelow(label: Label, over: Segment, geo: Geometry, lines: Line[]): Rect | undefined {
  const { box, line } = label;
  const mid = (box.y0 + box.y1) / 2;
  let x0 = over.x0;
  let x1 = over.x1;
  for (const r of geo.v) {
    if (r.y0 - TOLERANCE > mid || r.y1 + TOLERANCE < mid) continue;
    if (r.x <= box.x0 && r.x > x0) x0 = r.x;
    if (r.x >= box.x1 && r.x < x1) x1 = r.x;
  }
  const y0 = box.y1 + 1;
  const reach = (label.entry.type === 'signature' ? 3.5 : 2.5) * line.size + 24;
  const below = geo.h.filter((s) => s.y - box.y1 >= 4 && s.y - box.y1 <= reach && overlap1(s.x0, s.x1, x0, x1) > 0).sort((a, b) => a.y - b.y)[0];
  if (!below || x1 - x0 < 40) return undefined;
  // (The run of underscores that is the row's bottom is no writing in it.)
  const written = lines.some(
    (l) => l !== line && !l.tokens.every((t) => t === '\0') && l.box.y0 >= y0 - 1 && l.box.y1 <= below.y + 1 && overlap1(l.box.x0, l.box.x1, x0, x1) > 0,
  );
  return written ? undefined : { x0, y0, x1, y1: below.y };
}

/**
 * A rule right under another caption still looking for its blank is the bottom of that caption's row ("Your
 * signature" over "Spouse's signature" in a grid), and one right under a party's name (`underParty`) is the
 * party's line ("IL DICHIARANTE" / "____" / "LA DITTA PER ACCETTAZIONE" / "____"): this caption's blank is
 * its row below (undefined: none). False: the rule is this caption's own — as it is under a party's name when
 * the row below ends on another caption's line ("CLIENT" / "____" / "Signature" / "____" / "Printed Name").
 */
export function rowInstead(label: Label, over: Segment, labels: Label[], underParty: boolean, geo: Geometry, lines: Line[]): Rect | undefined | false {
  const inGrid = captionAbove(label, over, labels);
  if (!inGrid && !underParty) return false;
  const row = rowBelow(label, over, geo, lines);
  const nextCaption = (r: Rect) =>
    labels.some((o) => o.line !== label.line && o.box.y0 >= r.y1 - 1 && o.box.y0 - r.y1 <= 1.5 * o.line.size && overlap1(o.box.x0, o.box.x1, r.x0, r.x1) > 0);
  return !inGrid && row && nextCaption(row) ? false : row;
}

/**
 * Captions printed over their lines: the rule over the caption has a caption of its own right over it (with
 * no blank of its own), as far over it as the caption is over a line of its own right under it, and the
 * column of captions and rules above starts with a caption ("Nombre del acudiente" over its line, then
 * "Documento de identidad" over its own, then "Firma del acudiente"): the rule over it is the other
 * caption's. (A column that starts with a rule has its captions under their lines.)
 */
export function captionedAlike(over: Segment, label: Label, segments: Segment[], lines: Line[], used: Set<Segment>): boolean {
  const { box, line } = label;
  const near = (gap: number) => gap >= 2 && gap <= 2 * line.size + 4;
  const own = segments.filter((s) => !used.has(s) && s !== over && Math.abs(s.x0 - box.x0) <= 6 && near(s.y - box.y1));
  const captionOver = (rule: Segment) =>
    lines.find((l) => l !== line && written(l) && !l.tokens.includes('\0') && Math.abs(l.box.x0 - rule.x0) <= 6 && near(rule.y - l.box.y1));
  const ruleOver = (caption: Line) => segments.find((s) => s !== over && Math.abs(s.x0 - caption.box.x0) <= 6 && near(caption.box.y0 - s.y));
  let caption = captionOver(over);
  if (!caption || !own.some((s) => Math.abs(s.y - box.y1 - (over.y - (caption as Line).box.y1)) <= 3)) return false;
  for (let steps = 0; steps < 12; steps++) {
    const rule = ruleOver(caption);
    if (!rule) return true;
    const above = captionOver(rule);
    if (!above) return false;
    caption = above;
  }
  return false;
}

/**
 * A caption right over a paragraph (its next line, at most a line and a half under it, running text of eight
 * words or more) under a rule across that paragraph's width: a section's heading under the rule that divides
 * the page ("ACKNOWLEDGMENT & SIGNATURE" over "By signing below, I confirm…"), not the caption of a line to sign on.
 */
export function headsParagraph(label: Label, over: Segment, lines: readonly Line[]): boolean {
  const { line } = label;
  return lines.some(
    (l) =>
      l !== line &&
      l.box.y0 >= line.box.y1 - 1 &&
      l.baseline - line.baseline <= 1.8 * line.size &&
      Math.abs(l.box.x0 - line.box.x0) <= 3 &&
      l.words.length >= 8 &&
      over.x0 <= l.box.x0 + 3 &&
      over.x1 >= l.box.x1 - 3,
  );
}

/**
 * The top of a field on a line under its caption: under the caption; or, when the line is right under it
 * (`ASSINATURA` over its run 5 pt lower), from the caption's descenders, so the field has 8 pt. Not in a row
 * ruled over the caption too: the rule under it is the row's bottom, not a line to sign on.
 */
export function topUnder(label: Label, below: Segment, rules: readonly Segment[]): number {
  const { box, line } = label;
  const ruled = rules.some((r) => r.y < box.y0 + 1 && r.y >= box.y0 - 1.5 * line.size && overlap1(r.x0, r.x1, box.x0, box.x1) > 0);
  return ruled ? box.y1 + 2 : Math.min(box.y1 + 2, Math.max(below.y - 8, box.y1 - 0.25 * line.size));
}

/**
 * A signature caption right under another that has its place already (`توقيع المشرف المباشر` over `Supervisor
 * Sign`, both under one line): the same caption again, in another language or on a second line; no place of its own.
 */
export function restates(label: Label, signedCaptions: Iterable<Label>): boolean {
  if (label.entry.type !== 'signature') return false;
  const { line } = label;
  for (const upper of signedCaptions) {
    const gap = line.baseline - upper.line.baseline;
    const width = Math.min(line.box.x1 - line.box.x0, upper.line.box.x1 - upper.line.box.x0);
    if (
      upper.entry.type === 'signature' &&
      gap > 0.5 * upper.line.size &&
      gap <= 2.2 * upper.line.size &&
      overlap1(line.box.x0, line.box.x1, upper.line.box.x0, upper.line.box.x1) >= 0.5 * width
    )
      return true;
  }
  return false;
}

/**
 * A line that is the top of the caption's box: a wall hangs from one of its ends, none rises over it there, and it
 * goes on well under the caption (`Signature of the member` heading a box drawn with open sides). The caption is
 * the box's heading: its room is under it, across the line's width down to the wall's foot, not over the line.
 */
export function boxUnderTop(label: Label, over: Segment, verticals: readonly VRule[]): Rect | undefined {
  const atEnd = (v: VRule) => Math.abs(v.x - over.x0) <= 3 || Math.abs(v.x - over.x1) <= 3;
  const top = label.box.y1 + 2;
  const hangs = verticals.filter((v) => atEnd(v) && Math.abs(v.y0 - over.y) <= 2 && v.y1 >= top + FIELD_HEIGHT.signature / 2);
  if (!hangs.length || verticals.some((v) => atEnd(v) && v.y0 < over.y - 3 && v.y1 >= over.y - 2)) return undefined;
  return { x0: over.x0, x1: over.x1, y0: top, y1: Math.min(top + FIELD_HEIGHT[label.entry.type], Math.max(...hangs.map((v) => v.y1)) - 1) };
}

/** A run of underscores in a box's room under its heading: the caption's line to sign on (found under it), not the room. */
export const holdsRun = (room: Rect, fills: readonly Segment[]): boolean =>
  fills.some((f) => f.y > room.y0 && f.y <= room.y1 + 4 && f.x0 >= room.x0 - 2 && f.x1 <= room.x1 + 2);
