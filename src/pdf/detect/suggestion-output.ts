/**
 * Suggestions as the API gives them: a label's field with its confidence, role and field key (unless the
 * blank is already filled), and one suggestion per spot.
 */
import type { LabelType } from './lexicon.js';
import { filled } from './filled-blanks.js';
import { pastWidgets } from './acroform-widgets.js';
import { initialPlaces } from './initial-blanks.js';
import {
  area,
  clip,
  common,
  overlap1,
  rectOf,
  round,
  sameSpot,
  xywh,
  type Label,
  type Line,
  type PageModel,
  type Reason,
  type Rect,
  type Segment,
  type Suggestion,
  type Word,
} from './page-model.js';
import { formulaDates } from './date-formulas.js';
import { onCaptionRow, writtenAfter } from './signing-dates.js';
import { tagFields } from './text-tags.js';
import { dateSeparators } from './blank-space.js';
import { roomOverOfficials, roomsOverNames } from './named-rooms.js';
import { roomsUnderClosings } from './letter-closings.js';

export function suggestion(page: PageModel, label: Label, type: LabelType, rect: Rect, reason: Reason, base: number): Suggestion | undefined {
  const r = clip(type === 'signature' ? pastWidgets(rect, page.widgets) : rect, page);
  // (A signature or a date less than 8 pt high is no room to write in: a rule right under its caption;
  // nor is a signature less than 40 pt wide: the stub of a rule between two cells.)
  if (r.x1 - r.x0 < (type === 'signature' ? 40 : 4) || r.y1 - r.y0 < (type === 'text' ? 4 : 8)) return undefined;
  if (filled(r, page, ownWords(label))) return undefined;
  let c = base;
  if (label.entry.strength === 'weak') c -= 0.1;
  if (label.bare) c += 0.03;
  if (label.role) c += 0.02;
  if (page.ocr) c *= 0.88 + 0.12 * label.confidence;
  const fieldKey = label.entry.fieldKey;
  return {
    type,
    page: page.page,
    ...xywh(r),
    confidence: round(Math.min(0.99, Math.max(0.65, c)), 100),
    reason,
    ...(label.role ? { roleHint: label.role } : {}),
    ...(fieldKey && (type === 'text' || (type === 'date' && fieldKey === 'sign_date')) ? { fieldKey } : {}),
  };
}

/**
 * Fields the page's wording writes out: e-signature services' text tags, signing dates written as formulas
 * ("made this ___ day of ___"), places to initial written as blanks opening their paragraphs, the room
 * over an oath official's title or over a signer's typed name, and under a letter's closing.
 */
export function writtenFields(page: PageModel, lines: Line[], rows: readonly Line[]): Suggestion[] {
  const out: Suggestion[] = [];
  for (const tag of tagFields(lines)) {
    const r = clip(tag.rect, page);
    if (r.x1 - r.x0 < 4 || r.y1 - r.y0 < 4) continue;
    const key = tag.fieldKey ? { fieldKey: tag.fieldKey } : {};
    out.push({ type: tag.type, page: page.page, ...xywh(r), confidence: 0.9, reason: 'label_with_geometry', roleHint: tag.role, ...key });
  }
  const officials = [...roomOverOfficials(lines, page), ...roomsOverNames(lines, page), ...roomsUnderClosings(lines, page)].map((p) => ({
    ...p,
    type: 'signature' as const,
  }));
  const initials = initialPlaces(lines, page.segments, page.words);
  for (const part of [...formulaDates(lines, page.segments, rows).map((p) => ({ ...p, type: 'date' as const })), ...initials, ...officials]) {
    const r = clip(part.rect, page);
    if (r.x1 - r.x0 < 4 || r.y1 - r.y0 < 4 || filled(r, page, part.line.words)) continue;
    const key = part.type === 'date' ? { fieldKey: 'sign_date' as const } : {};
    out.push({ type: part.type, page: page.page, ...xywh(r), confidence: 0.85, reason: 'label_with_geometry', ...key });
  }
  return out;
}

/**
 * Whether a caption's field is written out already on its row: a date's after its start ("Dated this ___ day of ___" on the
 * row "Dated" opens), initials' on the blank right before it ("… overnight. _____ Initials").
 */
export function writtenOwns(label: Label, written: readonly Suggestion[]): boolean {
  if (label.entry.type === 'date') return written.some((w) => writtenAfter(w, label));
  return (
    label.entry.type === 'initials' && written.some((w) => w.type === 'initials' && onCaptionRow(w, label) && Math.abs(label.box.x0 - w.x - w.width) <= 12)
  );
}

/**
 * Blanks but those a signing date found already stands on ("Le : ……"): that date's, not a line for a caption under it;
 * unless the date took its part of one shared by the captions under it ("Ort, Datum   Unterschrift" under one run).
 */
export function undated<R extends Segment>(runs: R[], found: readonly Suggestion[], shared: ReadonlySet<Segment> = new Set()): R[] {
  const dates = found.filter((f) => f.type === 'date');
  return runs.filter(
    (r) => shared.has(r) || !dates.some((d) => Math.abs(d.y + d.height - r.y) <= 3 && overlap1(d.x, d.x + d.width, r.x0, r.x1) > 0.5 * (r.x1 - r.x0)),
  );
}

/**
 * The words of a label's line up to the end of the label (in reading order): what follows it on the
 * line (a name typed over its blank, a signature read by OCR) may be what fills its field.
 */
function ownWords(label: Label): Word[] {
  // (With a date's printed separators and year: "Date :   /   / 2017"; and the words joining its parts' blanks after it, the place's
  // comma and "de": "Local e data: ______ , ____ de ________ de ____".)
  const joins = label.entry.type === 'date' ? label.line.words.filter((w) => w.box.x0 >= label.reach.x1 - 1 && DATE_JOINS.test(w.text.trim())) : [];
  return [...(label.next === -1 ? label.line.words : label.line.words.slice(0, label.next)), ...dateSeparators(label), ...joins];
}

/** Words that join a date's blanks written out: "de", "del", "do", "of", the comma after the place. */
const DATE_JOINS = /^(?:,|de|del|do|da|di|of)$/i;

export const RANK: Record<Reason, number> = { acroform: 3, label_with_geometry: 2, label_with_whitespace: 1 };

/** One suggestion per spot: a form field beats a label, geometry beats blank space, then confidence. */
export function dedupe(list: Suggestion[]): Suggestion[] {
  // (Of two blank spaces found for one caption, a place to sign or date goes before a text field: "Nom / signature du
  // responsable" asks for one place, to sign.)
  const text = (s: Suggestion) => (s.type === 'text' && s.reason === 'label_with_whitespace' ? 1 : 0);
  const sorted = [...list].sort((a, b) => RANK[b.reason] - RANK[a.reason] || text(a) - text(b) || b.confidence - a.confidence);
  const kept: Suggestion[] = [];
  for (const s of sorted) {
    if (kept.some((k) => k.page === s.page && (sameSpot(rectOf(k), rectOf(s)) || formFieldOf(k, s) || roomOnField(k, s)))) continue;
    kept.push(s);
  }
  return kept.sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
}

/**
 * A form field of the kind a caption's blank asks for, touching that blank or a few points from it in its
 * column (a signature field placed a little over the line it belongs to): the caption's blank is the field's.
 */
function formFieldOf(field: Suggestion, s: Suggestion): boolean {
  if (field.reason !== 'acroform' || s.reason === 'acroform' || field.type !== s.type) return false;
  const across = Math.min(field.x + field.width, s.x + s.width) - Math.max(field.x, s.x);
  const gap = Math.max(field.y, s.y) - Math.min(field.y + field.height, s.y + s.height);
  return across >= 0.5 * Math.min(field.width, s.width) && gap <= 6;
}

/** Blank space found for a caption across a quarter of a field of its kind drawn there (a line, a cell): the field is that place. */
function roomOnField(field: Suggestion, s: Suggestion): boolean {
  if (s.reason !== 'label_with_whitespace' || field.reason === 'label_with_whitespace' || field.type !== s.type) return false;
  const a = rectOf(field);
  const b = rectOf(s);
  const inter = common(a, b);
  return inter > 0 && inter / Math.min(area(a), area(b)) >= 0.25;
}
