/**
 * Room to write: blank space beside, above or below a label when nothing is drawn for its blank (a caption
 * alone on its line, `label_with_whitespace`), kept clear of the words, boxes, rules and widgets around it.
 */
import { holdsBlank, segmentOver, standOn, written } from './blank-geometry.js';
import { DATE_FORMAT, DATE_WORDS, NAME_WORDS, OF, STOPWORDS, isFillToken, type LabelType } from './lexicon.js';
import { splitWord } from './word-tokens.js';
import { matchLabels } from './label-matching.js';
import { normalizeToken } from './token-folding.js';
import { endsColon } from './lines-and-labels.js';
import { goesOnToBlank, moreRoomUnder, namesWhoseSignature, signsOver } from './caption-roles.js';
import { underlines } from './page-rules.js';
import {
  FIELD_HEIGHT,
  FIELD_WIDTH,
  MIN_BESIDE,
  contains,
  inParentheses,
  overlap1,
  topUnderText,
  union,
  type Geometry,
  type Label,
  type Line,
  type PageModel,
  type Rect,
  type Segment,
  type Suggestion,
  type Word,
} from './page-model.js';

type RoomFinder = (label: Label, page: PageModel, lines: Line[], geo: Geometry, rowAbove?: boolean) => Rect | undefined;

/**
 * Where a caption's room is looked for, in order: a caption with its colon asks for what follows it, on its row or under it; a signature's room beside it
 * squeezed under the text above it (less than 0.65 of a signature's height, 26 pt) is only taken when there is none under it, and one asking for a date
 * or a name too ("Date et signature :", "Nombre y firma:") has its room under it first, as has one whose row's other signature caption has its room under it
 * (`underAlike`). A date's room is only the room after its colon, and a signature caption without a colon has no room beside it: guessed elsewhere (over or
 * under a "Date", beside a "Signature" with nothing to end it), such rooms were right fewer than half the time on the development documents (5 of 18 dates,
 * 5 of 12 signatures). But a date caption beside a caption whose line is over it, with no rule of its own over it (`dateRowAbove`: "Ort, Datum" beside
 * "Unterschrift" under its line), has its room over it as its row's other caption has.
 */
export function roomsToTry(label: Label, dateRowAbove = false, underAlike = false): RoomFinder[] {
  const type = label.entry.type;
  if (type === 'date') return label.colon ? [roomyBeside] : dateRowAbove ? [aboveSpace] : [];
  // (A handwritten mention alone over white space, "Lu et approuvé", is signed under: written-mentions.ts; "By:" over "Name:", after it.)
  if (label.entry.strength === 'weak') return label.entry.leading && label.colon ? [roomyBeside, besideSpace] : [belowSpace];
  const asksMore = type === 'signature' && label.entry.tokens.some((t) => DATE_WORDS.has(t) || NAME_WORDS.has(t));
  if (label.colon) return asksMore || underAlike ? [belowSpace, roomyBeside, besideSpace] : [roomyBeside, belowSpace, besideSpace];
  return type === 'signature' ? [aboveSpace, belowSpace, roomOverCaption, wholeBeside] : [aboveSpace, belowSpace, roomOverCaption, besideSpace];
}

/**
 * The room beside a caption, unless it is a signature's with less than 0.65 of a signature's height, or one
 * ending at another signature caption on its row ("Signature des parents :   Signature de l'enfant :": each signs under its own).
 */
function roomyBeside(label: Label, page: PageModel, lines: Line[], geo: Geometry): Rect | undefined {
  const r = besideSpace(label, page, lines, geo);
  if (!r || label.entry.type !== 'signature') return r;
  const cosigner = lines.some((l) => {
    const next = Math.abs(l.baseline - label.line.baseline) <= 2 ? l.words.findIndex((w) => Math.abs(w.box.x0 - 6 - r.x1) <= 1) : -1;
    return next >= 0 && matchLabels(l.words.slice(next).map((w) => normalizeToken(w.text))).some((m) => m.entry.type === 'signature');
  });
  return r.y1 - r.y0 >= 0.65 * FIELD_HEIGHT.signature && (label.line.rtl || !cosigner) ? r : undefined;
}

/**
 * A signature caption without a colon, alone on its row and starting it, with none of the other rooms: a signature's whole
 * room after it, as wide and as high as a signature's ("Signature of Deponent" with nothing under it but the next row); not one
 * that goes on under itself to its colon and blank (`goesOnToBlank`).
 */
function wholeBeside(label: Label, page: PageModel, lines: Line[], geo: Geometry): Rect | undefined {
  const { line } = label;
  if (line.rtl || Math.abs(label.box.x0 - line.box.x0) > 1 || label.reach.x1 < line.box.x1 - 1 || goesOnToBlank(line, lines)) return undefined;
  const r = besideSpace(label, page, lines, geo);
  return r && r.x1 - r.x0 >= FIELD_WIDTH.signature - 1 && r.y1 - r.y0 >= 0.75 * FIELD_HEIGHT.signature ? r : undefined;
}

/** Blank space after the label on its line. */
function besideSpace(label: Label, page: PageModel, lines: Line[], geo: Geometry): Rect | undefined {
  const type = label.entry.type;
  const { line, reach } = label;
  const margin = 24;
  const parts = dateSeparators(label);
  const obstacles = [
    ...lines.flatMap((l) => l.words.filter((w) => !parts.has(w) && !(type === 'date' && /^[/.-]$/.test(w.text.trim()))).map((w) => w.box)),
    ...geo.boxes,
    ...geo.v.map((v) => ({ x0: v.x, y0: v.y0, x1: v.x, y1: v.y1 })),
    ...page.widgets.map((w) => w.box),
    // (A rule above the row closes it: the row above's line.)
    ...geo.h.map((r) => ({ x0: r.x0, y0: r.y, x1: r.x1, y1: r.y })),
  ];
  const y1 = line.baseline + 4;
  const y0 = y1 - FIELD_HEIGHT[type];
  let x0: number;
  let x1: number;
  if (line.rtl) {
    x1 = reach.x0 - 6;
    x0 = Math.max(margin, x1 - FIELD_WIDTH[type]);
    for (const o of obstacles) if (o.x1 <= x1 && o.x1 > x0 && overlap1(o.y0, o.y1, line.box.y0, line.box.y1) > 0) x0 = o.x1 + 6;
  } else {
    x0 = reach.x1 + 6;
    x1 = Math.min(page.width - margin, x0 + FIELD_WIDTH[type]);
    for (const o of obstacles) if (o.x0 >= x0 && o.x0 < x1 && overlap1(o.y0, o.y1, line.box.y0, line.box.y1) > 0) x1 = o.x0 - 6;
  }
  if (x1 - x0 < MIN_BESIDE[type]) return undefined;
  let top = y0;
  for (const o of obstacles) if (o.y1 <= line.box.y0 + 1 && o.y1 > top && overlap1(o.x0, o.x1, x0, x1) > 0) top = o.y1 + 2;
  // (A date is written in the room of a single-spaced line, "Title: Owner" over "Date:"; other fields need 14 pt.)
  if (y1 - top < Math.min(type === 'date' ? 10 : 14, FIELD_HEIGHT[type])) return undefined;
  return { x0, y0: top, x1, y1 };
}

/**
 * A date's separators or format printed after its caption ("Data:   /   /", "Date :   /   / 2017", "التاريخ:   /   /", "Date: MM/DD/YYYY"):
 * the date's blank, not words in the way of its room, and the caption as bare as one with nothing after it. None unless there are two.
 */
export function dateSeparators(label: Label): Set<Word> {
  const parts = new Set<Word>();
  if (label.entry.type !== 'date') return parts;
  // (After it in its reading order: on its left in a right-to-left line, "التاريخ:   /   /".)
  const { rtl } = label.line;
  const after = label.line.words
    .filter((w) => (rtl ? w.box.x1 <= label.reach.x0 + 1 : w.box.x0 >= label.reach.x1 - 1))
    .sort((a, b) => (rtl ? b.box.x0 - a.box.x0 : a.box.x0 - b.box.x0));
  // (Or the date's format printed where it is written: "MM/DD/YYYY", "TT.MM.JJJJ", "jj / mm / aaaa".)
  let [slashes, format] = [0, 0];
  for (const w of after) {
    const slash = /^\/+$/.test(w.text);
    const marks = splitWord(w.text);
    const placeholder = marks.length > 0 && marks.every((m) => DATE_FORMAT.has(m));
    if (!slash && !placeholder && !(slashes > 0 && /^(19|20)\d{0,2}$/.test(w.text))) break;
    if (slash) slashes++;
    if (placeholder) format += marks.length;
    parts.add(w);
  }
  return slashes >= 2 || format >= 3 ? parts : new Set();
}

/**
 * Blank space over the label: a caption in parentheses ("(Unterschrift)") is printed under where one writes, and so are initials' ("Rubrica", "Paraphe":
 * written small, seven tenths of their height clear over them will do), "Unterschrift", "Authorized
 * Signatory" and "Signature of …" (`signsOver`) when a signature's full height is clear above it (but "Signature of …" between two blocks of text
 * signs in the larger room, `moreRoomUnder`), and a caption beside another on its row that names the line over it (`rowAbove`: "Ort, Datum" with
 * no line of its own beside "Unterschrift" under its line).
 */
function aboveSpace(label: Label, page: PageModel, lines: Line[], geo: Geometry, rowAbove = false): Rect | undefined {
  const type = label.entry.type;
  const { line } = label;
  const under = rowAbove || signsOver(label, lines) || label.entry.type === 'initials';
  if (!under && !inParentheses(line)) return undefined;
  if (!rowAbove && namesWhoseSignature(label, lines) && moreRoomUnder(label.line, lines)) return undefined;
  return spaceOver(label, page, lines, geo, (under && type !== 'initials' ? 1 : 0.7) * FIELD_HEIGHT[type]);
}

/**
 * A signature caption without a colon with no room under it (text right under it: `belowSpace` is tried
 * first) and less than a field's width free after it on its row signs in the room over it, when a
 * signature fits there ("Firma Interesado      Huella:" over "C.C.").
 */
function roomOverCaption(label: Label, page: PageModel, lines: Line[], geo: Geometry): Rect | undefined {
  if (label.entry.type !== 'signature' || label.colon || continuation(label.line, lines)) return undefined;
  const beside = besideSpace(label, page, lines, geo);
  return beside && beside.x1 - beside.x0 >= FIELD_WIDTH.signature - 1 ? undefined : spaceOver(label, page, lines, geo, Math.min(24, 2.4 * label.line.size));
}

function spaceOver(label: Label, page: PageModel, lines: Line[], geo: Geometry, least: number): Rect | undefined {
  const type = label.entry.type;
  const { line, box } = label;
  // (From the start of a short line that is all its caption: "Authorized Signatory".)
  const start = label.entry.tokens[0] === 'signatory' && line.words.length <= 3 && label.bare ? line.box.x0 : box.x0;
  const x0 = line.rtl ? Math.max(0, box.x1 - FIELD_WIDTH[type]) : start;
  const x1 = Math.min(page.width, x0 + FIELD_WIDTH[type]);
  const y1 = box.y0 - 2;
  const y0 = topOver(line, x0, x1, y1, FIELD_HEIGHT[type], page, lines, geo);
  return y1 - y0 >= least ? { x0, y0, x1, y1 } : undefined;
}

/** The top of a field's room from x0 to x1 ending at y1 over `own` (its caption's line): `height` over y1, or under whatever is written, drawn or a widget there. */
export function topOver(own: Line, x0: number, x1: number, y1: number, height: number, page: PageModel, lines: readonly Line[], geo: Geometry): number {
  let y0 = y1 - height;
  // (A rule between them too: the room over a rule over the caption, its cell's top, is the row above's.)
  const rules = geo.h.map((h) => ({ x0: h.x0, y0: h.y, x1: h.x1, y1: h.y }));
  const obstacles = [...lines.filter((l) => l !== own && written(l)).map((l) => l.box), ...geo.boxes, ...rules, ...page.widgets.map((w) => w.box)];
  for (const o of obstacles) if (o.y1 <= y1 + 1 && o.y1 > y0 && overlap1(o.x0, o.x1, x0, x1) > 0) y0 = o.y1 + 2;
  return y0;
}

/**
 * Date captions alone, without their colon, on the row of a signature caption whose room was found under it
 * ("Date          Signature" over the room where each is written, "DATUM  UNTERSCHRIFT"), or of a place to sign
 * found right under that row (among the suggestions `found`: a party's line under its name): their room is under
 * them too. (Alone, a bare "Date" is no blank: a column's header, a date printed after it.)
 */
export function datesUnderRows(
  labels: readonly Label[],
  captions: ReadonlyMap<Suggestion, Label>,
  page: PageModel,
  lines: Line[],
  geo: Geometry,
  found: readonly Suggestion[] = [],
): Array<[Label, Rect]> {
  const out: Array<[Label, Rect]> = [];
  // (The captions of signatures whose room was found right under them.)
  const over = [...captions].filter(([o, c]) => o.type === 'signature' && o.y >= c.box.y1 - 1 && o.y - c.box.y1 <= 12).map(([, c]) => c);
  for (const label of labels) {
    if (label.done || label.entry.type !== 'date' || label.colon || !label.bare || label.entry.strength === 'weak' || inRunningText(label, lines)) continue;
    // (Nor in a drawn box: the box is its field, or a form's cell with its placeholder, "DD / MM / YYYY".)
    if (geo.boxes.some((b) => contains(b, label.box, 0))) continue;
    // (Or a place to sign found right under its row, beside it: "TITULAR   DATA" over the holder's line alone.)
    const beside = (o: Suggestion) =>
      o.type === 'signature' && o.y >= label.line.box.y1 - 3 && o.y - label.line.box.y1 <= 12 && (o.x + o.width <= label.box.x0 || o.x >= label.box.x1);
    const row = over.some((c) => c.line !== label.line && Math.abs(c.line.baseline - label.line.baseline) <= 0.3 * label.line.size) || found.some(beside);
    const room = row ? belowSpace(label, page, lines, geo) : undefined;
    if (room) out.push([label, room]);
  }
  return out;
}

/**
 * Blank space under the label. It starts under the caption's first word when its line holds nothing else, eight
 * words at most ("Student Signature", "PARENT / GUARDIAN SIGNATURE", "Timbro dell'Ente e Firma del Legale
 * Rappresentante"), as under the word that makes it a caption when that leaves no room.
 */
export function belowSpace(label: Label, page: PageModel, lines: Line[], geo: Geometry): Rect | undefined {
  const { line, box } = label;
  // (A handwritten mention's line is all its own, however long: "(Ajouter la mention « Bon pour pouvoir » & signer)".)
  const whole = !line.rtl && !line.tokens.includes('\0') && (line.words.length <= 8 || label.entry.strength === 'weak') && line.box.x0 < box.x0 - 1;
  return (whole ? roomBelow(label, page, lines, geo, line.box.x0) : undefined) ?? roomBelow(label, page, lines, geo);
}

/** The room under a caption (and the lines it goes on over) from `from`, or from where the caption starts. */
function roomBelow(label: Label, page: PageModel, lines: Line[], geo: Geometry, from?: number): Rect | undefined {
  const type = label.entry.type;
  const { line } = label;
  // (A caption going on over the next line, in lower case, ends there: "Signature du président, / du
  // directeur ou du responsable des personnels".)
  const own = [line];
  for (let l = continuation(line, lines); l && !line.rtl && own.length < 3; l = continuation(l, lines)) own.push(l);
  const box = own.length > 1 ? union([label.box, ...own.slice(1).map((l) => l.box)]) : label.box;
  const width = FIELD_WIDTH[type];
  // (A caption set flush right under the line above it, with no room after it, has its room under it centred on it: "Signature" under "à ……".)
  const flushRight = lines.some(
    (l) => l !== line && Math.abs(l.box.x1 - box.x1) <= 2 && l.box.x0 < box.x0 - 20 && l.box.y1 <= box.y0 + 1 && box.y0 - l.box.y1 <= 2 * line.size,
  );
  const start = from ?? box.x0;
  const x0 = line.rtl
    ? Math.max(0, box.x1 - width)
    : flushRight && start + width > page.width - 24
      ? Math.max(0, Math.min((start + box.x1 - width) / 2, page.width - 24 - width))
      : start;
  const text = lines.filter((l) => !own.includes(l)).map((l) => l.box);
  // (Up to the next caption of its row: "Signature joueur :  Signature parent :  Signature membre :".)
  const next = line.rtl
    ? Number.POSITIVE_INFINITY
    : Math.min(...text.filter((t) => overlap1(t.y0, t.y1, box.y0, box.y1) > 0.5 * (box.y1 - box.y0) && t.x0 > box.x1).map((t) => t.x0 - 4));
  const x1 = Math.min(page.width, x0 + width, next);
  const y0 = box.y1 + 4;
  let y1 = y0 + FIELD_HEIGHT[type];
  // (A box around the caption frames its room too: its bottom rule, not the box, stops the field.)
  const boxes = geo.boxes.filter((b) => !(b.x0 <= box.x0 && b.x1 >= box.x1 && b.y0 <= box.y0 && b.y1 >= box.y1));
  // (The caption's own underline is no wall under it, however close under its letters.)
  const rules = geo.h.filter((h) => !underlines(h, line.words));
  const obstacles = [...text, ...boxes, ...rules.map((h) => ({ x0: h.x0, y0: h.y, x1: h.x1, y1: h.y })), ...page.widgets.map((w) => w.box)];
  for (const o of obstacles) if (o.y0 >= y0 - 3 && o.y0 < y1 && overlap1(o.x0, o.x1, x0, x1) > 0) y1 = o.y0 - 2;
  if (obstacles.some((o) => o.y0 < y0 - 3 && o.y1 > y0 && overlap1(o.x0, o.x1, x0, x1) > 0)) return undefined;
  // (A signature needs 24 pt, less under a small caption (two and a half of its sizes): a name typed under the place to sign leaves about that much.)
  if (y1 - y0 < (type === 'signature' ? Math.min(24, 2.4 * line.size) : 0.7 * FIELD_HEIGHT[type]) || y1 > page.height) return undefined;
  // Text under the room is not quite a wall (a name typed under the place to sign): the field keeps part of the height it lacks.
  let hard = y0 + FIELD_HEIGHT[type];
  for (const o of obstacles) if (!text.includes(o) && o.y0 >= y0 - 3 && o.y0 < hard && overlap1(o.x0, o.x1, x0, x1) > 0) hard = o.y0 - 2;
  return { x0, y0, x1, y1: Math.min(hard, page.height, y1 < hard ? y0 + y1 - topUnderText(type, y1, y0) : y1) };
}

/** The line right under a caption's line that goes on with it, across it, less than a line's height under it: starting in lower
 * case, a remark in parentheses or quotes ("(précédée de la mention « lu et approuvé »)"), or the mention itself ("Lu et approuvé"). */
export function continuation(line: Line, lines: readonly Line[]): Line | undefined {
  return lines.find(
    (l) =>
      l !== line &&
      l.box.y0 >= line.box.y1 - 1 &&
      l.box.y0 - line.box.y1 <= 0.6 * line.size &&
      overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x1) > 0 &&
      (/^[\p{Ll}(«]/u.test((l.words[0] as Word).text) ||
        matchLabels(l.tokens).some((m) => m.entry.type === 'signature' && m.entry.strength === 'weak' && !m.entry.leading)),
  );
}

/**
 * A caption set inside a line of running text ("… du …… (Date de la signature du contrat) au 15 mars"):
 * more than six words of its line lie outside it — unless it opens a line set apart from the text above
 * and below it ("Signature précédée de la mention « Lu et approuvé »" alone over the room to sign).
 */
export function inRunningText(label: Label, lines: readonly Line[]): boolean {
  // (Words across a blank from it are another field's caption: "Fait à …, le ……   Signatures des parents :".)
  const blanks = label.line.words.filter((w) => isFillToken(w.text));
  const from = Math.max(-Infinity, ...blanks.filter((w) => w.box.x1 <= label.reach.x0 + 1).map((w) => w.box.x1));
  const to = Math.min(Infinity, ...blanks.filter((w) => w.box.x0 >= label.reach.x1 - 1).map((w) => w.box.x0));
  const outside = (w: Word) => (w.box.x1 <= label.reach.x0 && w.box.x0 >= from) || (w.box.x0 >= label.reach.x1 && w.box.x1 <= to);
  if (label.line.words.filter((w) => /\p{L}/u.test(w.text) && outside(w)).length <= 6) return false;
  return !opensLineApart(label, lines);
}

/** A signature caption opening a line of words with no blank (after a stamp's words: "Cachet et signature de l'établissement"), set apart from the text above and below it: a caption qualified by the rest of its line. */
export function opensLineApart(label: Label, lines: readonly Line[]): boolean {
  const { line } = label;
  const stamped = line.words.every((w) => w.box.x1 > label.box.x0 + 0.5 || STOPWORDS.has(normalizeToken(w.text)));
  if (label.entry.type !== 'signature' || !stamped || line.tokens.includes('\0')) return false;
  // (A caption wholly in parentheses is printed under the room one signs in, whatever the form asks under it: "(Signature of the Student)" over "Name:".)
  if (inParentheses(line)) return true;
  // (Qualified: the words after it do not open with a capital — "Signature Sheet No 12" is a title — unless
  // a joining word leads to it: "date et signature du Président", "Signature of the Land Lord".)
  const at = line.words.findIndex((w) => w.box.x0 >= label.reach.x1 - 0.5);
  const after = line.words[at];
  const joined = line.words.slice(0, Math.max(at, 0)).some((w) => w.box.x0 >= label.box.x1 - 0.5 && OF.has(normalizeToken(w.text)));
  if (after && /^\p{Lu}/u.test(after.text) && !joined) return false;
  // (Its own continuation under it is part of it: "Signature du maître de stage" over "et cachet de l'organisme :"; so is a
  // short heading over it that ends with its colon, "Pour les mineurs :".)
  const own = continuation(line, lines);
  const leadIn = (l: Line) => l.box.y1 <= line.box.y0 + 1 && l.words.length <= 4 && endsColon(l);
  return !lines.some(
    (l) =>
      l !== line &&
      l !== own &&
      !leadIn(l) &&
      written(l) &&
      Math.abs(l.baseline - line.baseline) < 1.6 * line.size &&
      overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x1) > 0,
  );
}

/**
 * A field whose bottom is right over the caption, up to a line and a half above it; given the page's lines,
 * also over a short line right over the caption (a role: "____" / "Padre/Madre/Tutor" / "(Nombre y Firma)").
 */
export function namesAbove(label: Label, r: Rect, lines: readonly Line[] = []): boolean {
  const gap = label.box.y0 - r.y1;
  if (gap >= -2 && gap <= 1.5 * label.line.size + 2 && overlap1(r.x0, r.x1, label.box.x0, label.box.x1) > 0) return true;
  return lines.some(
    (m) =>
      m !== label.line &&
      m.words.length <= 4 &&
      namesAbove({ ...label, line: m, box: m.box }, r) &&
      label.box.y0 - m.box.y1 >= -1 &&
      label.box.y0 - m.box.y1 <= 0.8 * label.line.size &&
      overlap1(m.box.x0, m.box.x1, label.box.x0, label.box.x1) > 0,
  );
}

/** A caption right under another one, starting where it starts, a line or two lower; not a handwritten mention ("Lu et approuvé" under "Signature"). */
export function stackedUnder(lower: Label, upper: Label): boolean {
  if (lower.entry.strength === 'weak') return false;
  const gap = lower.line.baseline - upper.line.baseline;
  return gap > 0.5 * upper.line.size && gap <= 2.2 * upper.line.size && Math.abs(lower.box.x0 - upper.box.x0) <= 6;
}

/** A line to sign on leaves room above it (a signature at least 14 pt, a date or text 10 pt) under the text above. */
export function roomAbove(type: LabelType, s: Segment, label: Label, lines: Line[], need = type === 'signature' || type === 'initials' ? 14 : 10): boolean {
  return standOn(type, s.x0, s.x1, s.y, label, lines).y1 - highestText(s, label, lines) >= need;
}

/** The bottom of the nearest text above a line (other than the label's own line), within a field's height. */
function highestText(s: Segment, label: Label, lines: Line[]): number {
  let top = s.y - 40;
  for (const l of lines)
    if (l !== label.line && written(l) && !holdsBlank(l, s.x0, s.x1, s.y) && l.box.y1 <= s.y - 1 && l.box.y1 > top && l.box.x0 < s.x1 && l.box.x1 > s.x0)
      top = l.box.y1;
  return top;
}

/** A caption on the next line or the one after under another, anywhere along it. */
export function rowUnder(lower: Label, upper: Label): boolean {
  const gap = lower.line.baseline - upper.line.baseline;
  return gap > 0.5 * upper.line.size && gap <= 2.2 * upper.line.size;
}

/** The caption's line over it already written on ("9. 1. 2022" typed over the line "Datum" names): filled, not a caption asking for room. */
export function filledOver(label: Label, segments: Segment[], lines: Line[]): boolean {
  const over = segmentOver(label, segments, new Set());
  return (
    over !== undefined &&
    lines.some((l) => l !== label.line && written(l) && l.box.y1 <= over.y + 2 && over.y - l.box.y1 <= 12 && overlap1(l.box.x0, l.box.x1, over.x0, over.x1) > 0)
  );
}

/** A run of underscores right over a caption in its table cell, with room above it, or right under it: the caption's line to sign on, not the whole cell. */
export function runInCell(label: Label, cell: Rect, fills: Segment[], used: Set<Segment>, shared: Set<Segment>, lines: Line[]): Segment | undefined {
  const inside = fills.filter((f) => f.x0 >= cell.x0 - 2 && f.x1 <= cell.x1 + 2 && f.y > cell.y0 && f.y < cell.y1);
  const run = segmentOver(label, inside, used, shared);
  if (run && roomAbove(label.entry.type, run, label, lines, 8)) return run;
  return runUnder(label, inside, used);
}

/** A run of underscores right under a caption, within two lines and a half of it ("Luogo, Data" over its run in a boxed section). */
export function runUnder(label: Label, fills: readonly Segment[], used: Set<Segment>): Segment | undefined {
  const { box, line } = label;
  return fills
    .filter((f) => !used.has(f) && f.y > box.y1 + 4 && f.y - line.baseline <= 2.5 * line.size && overlap1(f.x0, f.x1, box.x0, box.x1) > 0)
    .sort((a, b) => a.y - b.y)[0];
}
