/**
 * A caption with a colon in a row of captions ruled under its whole length ("Client Signature: <space>
 * Date: <space>" over one rule drawn a little under the row, as an HTML table row's border): the caption
 * asks for its blank after its colon, so its field is the part of the rule after it, up to the next words
 * of its row, standing on the rule, rather than the whole rule under it. A caption alone on its row over
 * a rule is printed over its line: the field is under it. And captions side by side under one rule
 * share it: each names the part from its start to the next caption's.
 */
import { written } from './blank-geometry.js';
import { namesAbove } from './blank-space.js';
import { COLON_MARK, ENDS_ON_ARROW, OF, isFillToken } from './lexicon.js';
import { normalizeToken } from './token-folding.js';
import { namePlaceholder } from './captionless-lines.js';
import { isSignOff } from './sign-offs.js';
import {
  FIELD_HEIGHT,
  MIN_BESIDE,
  onRowOf,
  overlap1,
  rectOf,
  type Label,
  type Line,
  type Rect,
  type Segment,
  type Suggestion,
  type Word,
} from './page-model.js';

/** The part of a rule under a caption's row that lies after the caption: from its end to the next words of the row. */
export function afterColonOnRule(label: Label, s: Segment, lines: Line[]): { x0: number; x1: number } | undefined {
  const { line, reach, box } = label;
  const type = label.entry.type;
  // Only a caption with a colon, left to right, over a rule that starts under it and that a signature
  // standing on reaches up to the caption's row.
  if (!label.colon || line.rtl || s.x0 > box.x0 + 8 || s.y - box.y0 > FIELD_HEIGHT.signature) return undefined;
  const row = lines.filter((l) => overlap1(l.box.y0, l.box.y1, line.box.y0, line.box.y1) > 0.3 * line.size).flatMap((l) => l.words);
  // A row: words over the rule after the caption or in another run of its row ("Date:"); a caption alone
  // over a rule is printed over its line.
  const others = row.filter((w) => (w.box.x0 >= reach.x1 + 1 || !line.words.includes(w)) && overlap1(w.box.x0, w.box.x1, s.x0, s.x1) > 0);
  if (others.length === 0) return undefined;
  const x0 = reach.x1 + 4;
  let x1 = s.x1;
  for (const w of row) if (w.box.x0 >= reach.x1 + 1 && w.box.x0 < x1) x1 = w.box.x0 - 4;
  return x1 - x0 >= MIN_BESIDE[type] ? { x0, x1 } : undefined;
}

/**
 * The part of a rule a caption under it names when other captions of its row stand under it too
 * ("Employee's signature ... Date", and captions that ask for no field: "Ort, Datum | Vor- und Familienname
 * | Unterschrift"): from the caption (or the rule's start, for the first) to the next caption; `shared`
 * when it has such neighbours.
 */
export function partUnder(label: Label, over: Segment, labels: readonly Label[], lines: readonly Line[]): { x0: number; x1: number; shared: boolean } {
  const onRow = (b: Rect, baseline: number) => Math.abs(baseline - label.line.baseline) <= 0.5 * label.line.size && b.x0 < over.x1 && b.x1 > over.x0;
  const boxes = [
    ...labels.filter((o) => o !== label && onRow(o.box, o.line.baseline)).map((o) => o.box),
    ...lines.filter((l) => l !== label.line && written(l) && onRow(l.box, l.baseline)).map((l) => l.box),
  ];
  // Where one caption's part ends and the next one's starts: at the next caption, unless that leaves the next one
  // less than 30 pt to the rule's end or the caption after it (a short `Date` near the rule's end): then up to
  // halfway back to the caption before it, for a part of 60 pt.
  // (A caption's box and its line's are one on the row.)
  const row: Rect[] = [];
  for (const b of [...boxes.filter((b) => b.x1 <= label.box.x0 || b.x0 >= label.box.x1), label.box].sort((a, b) => a.x0 - b.x0)) {
    const last = row[row.length - 1];
    if (last && b.x0 < last.x1 && b !== label.box && last !== label.box) row[row.length - 1] = { ...last, x1: Math.max(last.x1, b.x1) };
    else row.push(b);
  }
  const k = row.indexOf(label.box);
  const end = (i: number) => (row[i + 1] ? (row[i + 1] as Rect).x0 - 4 : over.x1);
  const boundary = (i: number) => {
    const [left, right] = [row[i] as Rect, row[i + 1] as Rect];
    return end(i + 1) - right.x0 >= 30 ? right.x0 - 3 : Math.min(right.x0 - 3, Math.max((left.x1 + right.x0) / 2, end(i + 1) - 60));
  };
  return { x0: k > 0 ? boundary(k - 1) + 1 : over.x0, x1: k < row.length - 1 ? boundary(k) - 1 : over.x1, shared: boxes.length > 0 };
}

/**
 * A caption inside a remark in parentheses after another caption of its kind on its line ("Signature (Must be
 * signed by hand)"): part of that caption's remark, no caption of its own.
 */
export function inRemark(label: Label, labels: readonly Label[]): boolean {
  const { line } = label;
  const first = line.words.findIndex((w) => w.box.x0 >= label.box.x0 - 0.5);
  let open = -1;
  for (let i = 0; i < first; i++) {
    const text = (line.words[i] as Word).text;
    if (text.includes('(')) open = i;
    if (text.includes(')')) open = -1;
  }
  if (open === -1 || line.rtl) return false;
  const paren = (line.words[open] as Word).box.x0;
  return labels.some((o) => o !== label && o.line === line && o.entry.type === label.entry.type && o.box.x1 <= paren + 0.5);
}

/** A sign-off on the row of a caption that asks for a signature of its own: it names who signs there. */
function signOffBesideSignature(label: Label, labels: readonly Label[]): boolean {
  const signOff = (l: Label) => l.entry.type === 'signature' && isSignOff(l.entry.tokens);
  return signOff(label) && labels.some((o) => o.entry.type === 'signature' && !signOff(o) && Math.abs(o.line.baseline - label.line.baseline) <= 2);
}

/** What joins a name asked for to the signature in one caption: "Name und Unterschrift", "Nombre y firma", "Naam + handtekening". */
const JOINS = /^(?:and|und|y|e|et|en|i|&|\+)$/i;

/**
 * A text caption run into a signature caption on its line, without a colon between ("Company Representative
 * Signature:"), or joined to it ("Name in Druckbuchstaben und Unterschrift", "Nombre y firma", "Print name and
 * signature"): it says whose signature it is, or what the signer writes where they sign, and asks for nothing of
 * its own; nor does one after it saying whose it is ("Authorized signatory of Trust/Society/Company"); nor a sign-off on a
 * signature caption's row ("Approved by:" beside "Signature:", sign-offs.ts).
 */
export function qualifiesSignature(label: Label, labels: readonly Label[]): boolean {
  if (signOffBesideSignature(label, labels)) return true;
  if (label.entry.type !== 'text' || label.colon) return false;
  const { line, reach } = label;
  return labels.some((o) => {
    if (o.line !== line || o.entry.type !== 'signature') return false;
    const gap = line.rtl ? reach.x0 - o.box.x1 : o.box.x0 - reach.x1;
    if (gap >= -1 && gap <= 0.5 * line.size) return true;
    const between = line.words.filter((w) => w.box.x0 >= reach.x1 - 1 && w.box.x1 <= o.box.x0 + 1);
    if (!line.rtl && gap > 0 && between.length >= 1 && between.length <= 4 && JOINS.test((between.at(-1) as Word).text.trim())) return true;
    // (Or after it, saying whose: "Authorized signatory of Trust/Society/Company", "Signature of the Company".)
    const after = line.words.filter((w) => w.box.x0 >= o.box.x1 - 1 && w.box.x1 <= label.box.x0 + 1).map((w) => normalizeToken(w.text));
    return !line.rtl && label.box.x0 > o.box.x1 && after.length >= 1 && after.length <= 2 && OF.has(after[0] as string);
  });
}

/**
 * A caption, left to right, whose colon ends its run ("Signature:" with nothing after it but a blank or
 * room): it asks for what follows it. On the development part, none of the 17 signature captions so
 * ended with a rule right over them signs on that rule (8 sign below, 5 after the colon).
 */
function endsOnColon(label: Label): boolean {
  if (!label.colon || label.valueAfter || label.line.rtl) return false;
  const own = label.line.words.filter((w) => w.box.x0 >= label.reach.x0 - 0.5 && w.box.x1 <= label.reach.x1 + 0.5 && !isFillToken(w.text));
  const last = own.at(-1);
  const after = label.next >= 0 ? label.line.words[label.next] : undefined;
  return last !== undefined && COLON_MARK.test(last.text.trim().slice(-1)) && (after === undefined || after.box.x0 - last.box.x1 > 40);
}

/**
 * A caption ending its run on its colon (or an arrow) that asks for what follows it, not for the line over it: a signature's; a date's with
 * a blank right under it ("Date:" between the line over it and its own under it) or an arrow after it pointing on along its row ("Date ▶").
 */
export function asksAfter(label: Label, blanks: readonly Segment[]): boolean {
  if (!endsOnColon(label)) return false;
  const arrow = () => label.line.words.some((w) => w.box.x0 >= label.box.x1 - 0.5 && w.box.x1 <= label.reach.x1 + 0.5 && ENDS_ON_ARROW.test(w.text.trim()));
  return label.entry.type === 'signature' || (label.entry.type === 'date' && (blankRightUnder(label, blanks) || arrow()));
}

/** A blank (drawn or a run) starting right under a caption, within a line and a half of its size, across it. */
function blankRightUnder(label: Label, blanks: readonly Segment[]): boolean {
  return blanks.some((b) => b.y > label.box.y1 && b.y - label.box.y1 <= 1.5 * label.line.size && b.x0 <= label.box.x1 && b.x1 >= label.box.x0);
}

/**
 * A caption, left to right, with its value typed right after its colon (`Name (printed): Jean Dupont`, the
 * colon after up to two words that qualify it): what it asks for is written; a line over it is no field of its.
 */
function valueTyped(label: Label): boolean {
  const { line } = label;
  if (line.rtl || label.limit !== undefined || label.next < 0) return false;
  const after = line.words.slice(label.next);
  const colonAt = label.colon ? -1 : after.slice(0, 2).findIndex((w) => /[:：]$/.test(w.text.trim()));
  const value = after[colonAt + 1];
  return (label.colon || colonAt >= 0) && value !== undefined && !isFillToken(value.text) && /\p{L}/u.test(value.text);
}

/**
 * A caption whose value is written where it stands, so that a line over it is no field of its: typed after its
 * colon (`Name (printed): Jean Dupont`) or left to type there (`(escreva aqui o nome do orientador)`).
 */
export function valueInPlace(label: Label): boolean {
  return valueTyped(label) || namePlaceholder(label.line);
}

/**
 * Another signature caption with its colon on the caption's row has its room right under it ("Signature du représentant de
 * l'agence :      Signature du représentant de Onsenfou :", each over "Lu et accepté"): this one's room is under it too.
 */
export function signsUnderAlike(label: Label, captions: ReadonlyMap<Suggestion, Label>, lines: readonly Line[]): boolean {
  if (label.entry.type !== 'signature' || !label.colon) return false;
  // (So does one of more than its word after a blank on its own row, the place and date written before it: "Fait à …, le ……
  // Signatures des parents :"; a bare "Signature :" there has its room beside it.)
  const row = lines.filter((l) => onRowOf(l, label.line));
  const worded = label.line.words.filter((w) => w.box.x0 >= label.box.x0 - 1 && /\p{L}/u.test(w.text)).length > 1;
  if (!label.line.rtl && worded && row.some((l) => l.words.some((w) => w.box.x1 <= label.box.x0 && isFillToken(w.text)))) return true;
  return [...captions].some(
    ([o, c]) =>
      c !== label &&
      c.colon &&
      c.entry.type === 'signature' &&
      o.type === 'signature' &&
      Math.abs(c.line.baseline - label.line.baseline) <= 0.3 * label.line.size &&
      o.y >= c.box.y1 - 1 &&
      o.y - c.box.y1 <= 3 * c.line.size,
  );
}

/**
 * Its row's other caption names a line over it ("Unterschrift" under its line beside "Ort, Datum" with none): `over`, this
 * caption's room is over it too; `dateOver`, a date caption's too, unless a rule or a run right over it, within three of its
 * lines' height, is its row's line ("Signature ... Date" under one run).
 */
export function rowOver(label: Label, captionOf: ReadonlyMap<Suggestion, Label>, rules: readonly Segment[]): { over: boolean; dateOver: boolean } {
  const over = [...captionOf].some(
    ([o, c]) => c.line !== label.line && o.type !== 'text' && Math.abs(c.line.baseline - label.line.baseline) <= 1 && namesAbove(c, rectOf(o)),
  );
  const ruled =
    over && rules.some((r) => r.y < label.box.y0 && r.y > label.box.y0 - 3 * label.line.size && overlap1(r.x0, r.x1, label.box.x0, label.box.x1) > 0);
  return { over, dateOver: over && !ruled };
}

/**
 * A caption asks for its own room even right under a signature found already: one with a colon when that field's own caption stands
 * beside it on its row ("Client Signature: ____" over "Consultant Signature:"); one beside that field's own caption on its row, each
 * printed under its room ("Signature of Student   Signature of Parent").
 */
export function keepsOwnRoom(label: Label, field: Suggestion, own: Label | undefined): boolean {
  if (field.type !== 'signature' || own === undefined) return false;
  const sideBySide = own.line !== label.line && Math.abs(own.line.baseline - label.line.baseline) <= 2 && field.y + field.height <= own.box.y0 + 1;
  return sideBySide || (label.colon && own.line.baseline > field.y && own.line.baseline <= field.y + field.height + 2);
}

/**
 * Whether a caption asks for room of its own, in its cell, under it or over it: not one asking for its blank after it ("X" ticked in
 * a grid, "By"), but "Sign" or "Sig." alone on its line, heading a column ("Print Name | Sign | Date") or under its line ("Sign.").
 */
export const asksAlone = (label: Label): boolean => !label.entry.leading || (['sign', 'sig'].includes(label.entry.tokens.join(' ')) && label.bare);

/**
 * Whether a caption in a table's cell asks for room of its own there: as `asksAlone`, and "Initial" alone on its line heading a column
 * of boxes to initial ("Statement | Please / initial / box"); not beside a name's caption on its row, where it is the middle initial
 * ("Last Name | First Name | Initial").
 */
export const asksInCell = (label: Label, labels: readonly Label[]): boolean =>
  asksAlone(label) ||
  (label.entry.tokens.join(' ') === 'initial' &&
    label.bare &&
    !labels.some((o) => o.entry.fieldKey === 'signer_name' && Math.abs(o.line.baseline - label.line.baseline) <= 0.5 * label.line.size));

/**
 * "By:" (or "Sign:") with its colon alone on its line, over the signer's name and title asked for in its column ("By:" over
 * "Name:" over "Title:", a contract's block with no lines drawn): it asks for the signature after it, as "Signature:" does.
 * Such a word opening a line with no blank after it is otherwise running text.
 */
export function headsNamedBlock(label: Label, labels: readonly Label[]): boolean {
  const { line } = label;
  if (!label.entry.leading || label.entry.type !== 'signature' || !label.colon || line.rtl || label.reach.x1 < line.box.x1 - 1) return false;
  return labels.some(
    (o) =>
      o.entry.type === 'text' &&
      (o.entry.fieldKey === 'signer_name' || o.entry.fieldKey === 'job_title') &&
      o.line.box.x0 === o.box.x0 &&
      Math.abs(o.box.x0 - label.box.x0) <= 6 &&
      o.line.baseline > line.baseline &&
      o.line.baseline - line.baseline <= 3 * line.size,
  );
}
