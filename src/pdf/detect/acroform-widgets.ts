/**
 * AcroForm widgets as suggestions, and which labels describe a widget rather than a blank of their own.
 * A widget's name is read part by part, its own name first ("Signature.Name" is a name held by a parent
 * called Signature; "Sign_1_Nom" a name), with the abbreviations forms use for dates ("D.DATSIG",
 * "date5", "currdate"); a date that is not the signing date ("DateOfBirth") is a text field.
 */
import { DATE_WORDS, partyAt, type FieldKey, type LabelType } from './lexicon.js';
import { matchLabels, type LabelMatch } from './label-matching.js';
import { normalizeToken } from './token-folding.js';
import { OTHER_DATE, besideSignature } from './signing-dates.js';
import { PLACE_WORDS } from './filled-blanks.js';
import { type Rect, type Widget, type PageModel, type Suggestion, type Label, type Word, overlap1, contains, clip, rectOf, xywh } from './page-model.js';

/** What a widget's (fully qualified) name says it holds, its own part before its parents'. */
export function widgetMeaning(name: string): { type: LabelType; fieldKey?: FieldKey } | null {
  const parts = name.split('.').filter(Boolean).reverse();
  for (const [i, part] of parts.entries()) {
    const words = nameWords(part);
    if (words.some(otherDateWord) || (words.some((x) => OTHER_DATE.has(x)) && words.some((x) => /dat/.test(x)))) return { type: 'text' };
    // (Named after a place's date formula, "Nürnberg, den": the date it is signed on.)
    if (words.some(isDateWord) || (words.length >= 2 && words.at(-1) === 'den')) {
      // Named after a caption that asks for the date and the signature on one line ("Ort / Datum
      // Unterschrift", "Data e firma"): the place to sign. (Not "Sign Date", "sign" then "date": in a field's name, the date of signing;
      // nor an identifier, "date_signature": the date of the signature; a caption's words have spaces between them.)
      const both = (m: LabelMatch) => m.entry.type === 'signature' && m.entry.tokens.some(isDateWord) && m.entry.tokens[0] !== 'sign';
      if (/\s/.test(part.trim()) && matchLabels(words).some(both)) return { type: 'signature' };
      return { type: 'date', fieldKey: 'sign_date' };
    }
    const meaning = fieldFromName(words.join(' '));
    if (!meaning) continue;
    if (meaning.type === 'signature') {
      // "Sign_1_Nom", "Signature_Title": the other word says what is written; a signature named by a parent is not one.
      const other = fieldFromName(words.filter((x) => !/^sig/.test(x)).join(' '));
      if (other && other.type !== 'signature') return other;
      // (Where it is signed: "lieuSign", "PlaceOfSignature".)
      if (words.some((x) => PLACE_WORDS.has(x))) return { type: 'text' };
      if (i > 0) return { type: 'text' };
    }
    return meaning;
  }
  return null;
}

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([a-z])(\d)/gi, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .map(normalizeToken)
    .filter(Boolean);
}

/**
 * A date other than the signing date named in one word: "dob", or a date word run together with a
 * birth, issue or period word ("birthdate", "dateofbirth", "datenaissance", "issuedate", "enddate").
 */
function otherDateWord(w: string): boolean {
  if (w === 'dob') return true;
  if (!/dat/.test(w) || OTHER_DATE.has(w)) return false;
  for (const o of OTHER_DATE) if (o.length >= 3 && !/dat/.test(o) && w.includes(o)) return true;
  return false;
}

/** "date", "dated", "datsig", "datesigned", "currdate", "sigdate", "datum", "fecha". */
function isDateWord(w: string): boolean {
  return /^(?:date[sd]?|datum|fecha|dat(?:e)?sig(?:n(?:ed|ature)?)?|(?:curr?|current|today|sig|sign|signed|signature)date)$/.test(w);
}

/** The words of a field's name that say one signs there, in the languages of the lexicon ("Firma" is a company in German). */
// biome-ignore format: a word list
const SIGN_WORDS = [
  'signature', 'sign', 'signed', 'sig', 'unterschrift', 'assinatura', 'handtekening', 'semnatura', 'podpis', 'underskrift',
  'التوقيع', 'توقيع',
].map(normalizeToken);

/**
 * What an AcroForm text field's name says it holds: "client_email" -> signer_email, "DateSigned" ->
 * sign_date, "CompanyName" -> company. Answers the type too: a name that says signature makes a
 * signature, a date a date; null for a name that says nothing.
 */
export function fieldFromName(name: string): { type: LabelType; fieldKey?: FieldKey } | null {
  const words = nameWords(name);
  const has = (...w: string[]) => w.some((x) => words.includes(normalizeToken(x)));
  if (has(...SIGN_WORDS)) {
    return has('date', 'datum', 'on', 'le') ? { type: 'date', fieldKey: 'sign_date' } : { type: 'signature' };
  }
  if (has('date', 'dated', 'التاريخ', 'تاريخ')) return { type: 'date', fieldKey: 'sign_date' };
  if (has('initials', 'initial', 'paraphe', 'initiales')) return { type: 'text', fieldKey: 'initials' };
  if (has('email', 'mail', 'courriel')) return { type: 'text', fieldKey: 'signer_email' };
  if (has('company', 'organisation', 'organization', 'societe', 'entreprise', 'employer', 'firm', 'الشركه')) return { type: 'text', fieldKey: 'company' };
  if (has('title', 'position', 'fonction', 'qualite', 'role', 'job')) return { type: 'text', fieldKey: 'job_title' };
  if (has('name', 'nom', 'fullname', 'prenom', 'signatory', 'الاسم', 'اسم')) return { type: 'text', fieldKey: 'signer_name' };
  return null;
}

/** The role named in a field name ("client_signature" -> client, "signer2_date" -> signer_2). */
export function roleFromName(name: string): string | undefined {
  const words = nameWords(name);
  for (let i = 0; i < words.length; i++) {
    const party = partyAt(words, i);
    if (party) return party.role;
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------ widgets

export function fromWidget(page: PageModel, w: Widget): Suggestion {
  const role = roleFromName(w.name) ?? (w.label ? roleFromName(w.label) : undefined);
  const base = { page: page.page, ...xywh(clip(w.box, page)), reason: 'acroform' as const, ...(role ? { roleHint: role } : {}) };
  if (w.kind === 'signature') return { ...base, type: 'signature', confidence: 0.98 };
  const meaning = widgetMeaning(w.name) ?? (w.label ? widgetMeaning(w.label) : null);
  if (!meaning) return { ...base, type: 'text', confidence: 0.88 };
  // Only text fields take a field_key other than sign_date (which is for date fields).
  const type = meaning.type === 'signature' || meaning.type === 'date' ? meaning.type : 'text';
  return { ...base, type, confidence: meaning.fieldKey ? 0.95 : 0.9, ...(meaning.fieldKey ? { fieldKey: meaning.fieldKey } : {}) };
}

export function widgetNear(label: Label, box: Rect): boolean {
  if (contains(box, label.box, 2) || besideWidget(label, box) || namesWidgetBefore(label, box)) return true;
  const below = box.y0 - label.box.y1;
  // Or over the caption, up to a line and a half above it: a caption printed under its box as under a line.
  const above = label.box.y0 - box.y1;
  if ((below < -2 || below > 3 * label.line.size + 16) && (above < -2 || above > 1.5 * label.line.size + 2)) return false;
  // Under (over) the caption: the widget starts under it, or lies under most of it (a few points of
  // overlap, a caption at the far end of a wide widget of the next row, do not make the widget its).
  const { x0, x1 } = label.box;
  const start = label.line.rtl ? box.x1 : box.x0;
  return (start >= x0 - 10 && start <= x1 + 10) || overlap1(box.x0, box.x1, x0, x1) >= 0.5 * (x1 - x0);
}

/** The widget's own caption: on its row, before it in reading order. */
export function besideWidget(label: Label, box: Rect): boolean {
  const { reach, line } = label;
  // (On its row: the widget's band holds two fifths of the caption's height, a widget drawn over the blank after it whose
  // bottom stops at mid-height of the text, as text set a point or two lower than the form's drawing has it.)
  const sameRow = overlap1(box.y0, box.y1, reach.y0, reach.y1) > 0.4 * (reach.y1 - reach.y0);
  const gap = line.rtl ? reach.x0 - box.x1 : box.x0 - reach.x1;
  // (A widget drawn a little wide may start over the caption's last letters or its colon.)
  return sameRow && gap >= -Math.max(2, line.size / 2) && gap <= 150;
}

/**
 * A caption without its colon ending its row right after a widget on it names that widget, as a caption after a
 * line names the line ("______ Ort, Datum" with the widget on the line's end).
 */
function namesWidgetBefore(label: Label, box: Rect): boolean {
  const { reach, line } = label;
  const gap = line.rtl ? box.x0 - reach.x1 : reach.x0 - box.x1;
  return !label.colon && label.next === -1 && overlap1(box.y0, box.y1, reach.y0, reach.y1) > 0.5 * (reach.y1 - reach.y0) && gap >= -2 && gap <= 12;
}

/** How far a widget is from a label: along the row beside it, down below it or up above it. */
export function gapTo(label: Label, box: Rect): number {
  const row = Math.max(0, label.line.rtl ? label.reach.x0 - box.x1 : box.x0 - label.reach.x1);
  return Math.max(row, box.y0 - label.box.y1, label.box.y0 - box.y1, 0) + Math.abs((box.y0 + box.y1) / 2 - (label.box.y0 + label.box.y1) / 2) / 4;
}

/**
 * The text field whose name says nothing that a signature caption names as its place to sign: on the
 * caption's row ("Firma" beside "Text7"), or right under or over it unless words just before it on its own
 * row caption it ("Phone no."); none for a caption asking for the date too ("Date et signature"), nor for "Fdo.:", after
 * which Spanish prints the name of whoever signed over it (named-rooms.ts).
 */
export function namelessToSign(label: Label, near: readonly Widget[], words: readonly Word[]): Widget | undefined {
  if (label.entry.tokens.some((t) => DATE_WORDS.has(t)) || label.entry.tokens.join(' ') === 'fdo') return undefined;
  const nameless = near.filter((w) => w.kind === 'text' && !widgetMeaning(w.name) && (besideWidget(label, w.box) || !captioned(w.box, words)));
  return nameless.sort((a, b) => gapTo(label, a.box) - gapTo(label, b.box))[0];
}

/**
 * Whether a field near a caption may be the caption's: its own on its row, or one no other caption has beside it,
 * nor right under it (a caption of the same kind under it as near as this one over it: "____ / Ort, Datum" over the
 * next row's field).
 */
export function captionOwns(label: Label, box: Rect, labels: readonly Label[]): boolean {
  return (besideWidget(label, box) || !labels.some((o) => o !== label && besideWidget(o, box))) && !captionedUnder(label, box, labels);
}

function captionedUnder(label: Label, box: Rect, labels: readonly Label[]): boolean {
  const gap = box.y0 - label.box.y1;
  if (gap < -2) return false;
  return labels.some(
    (o) =>
      o !== label &&
      o.entry.type === label.entry.type &&
      o.box.y0 >= box.y1 - 2 &&
      o.box.y0 - box.y1 <= gap + 1 &&
      overlap1(o.box.x0, o.box.x1, box.x0, box.x1) > 0,
  );
}

/** Whether words end just before the box on its row: a caption of its own ("Phone no." before its field). */
export function captioned(box: Rect, words: readonly Word[]): boolean {
  // (A mark is no caption: the cross before a place to sign, "✗ [____]", a note's mark in the field before, "[____ * 1)] [____]".)
  return words.some(
    (w) =>
      !/^[✗✘×✕]$/u.test(w.text.trim()) &&
      !/^(?:\*|\(?\d\))$/.test(w.text.trim()) &&
      overlap1(w.box.y0, w.box.y1, box.y0, box.y1) > 0.5 * (w.box.y1 - w.box.y0) &&
      w.box.x1 <= box.x0 + 2 &&
      w.box.x1 >= box.x0 - 60,
  );
}

/**
 * Form fields of no meaning of their own on the blanks of a signing date: the date's parts of a formula
 * ("En ____, día __ de ____ de ____" with a field on each blank, "de_2"), or the blank after a place ("São
 * Paulo, ____" under a field named "DATA_ASS"), each a signing date. Whether a field lay on one of them.
 */
export function widgetsOfDates(blanks: readonly Rect[], widgets: Iterable<Suggestion>): boolean {
  const on = [...widgets].filter((w) => w.type === 'text' && !w.fieldKey && blanks.some((r) => liesOn(w, r)));
  for (const w of on) Object.assign(w, { type: 'date', fieldKey: 'sign_date' });
  return on.length > 0;
}

/**
 * Form fields of no meaning of their own on what the page's wording asks for (`written`): a signing date's blanks
 * (`widgetsOfDates`), or a place to initial ("______ (initial)" with a field on the blank), each that field's meaning.
 */
export function widgetsOfWritten(written: readonly Suggestion[], widgets: readonly Suggestion[]): void {
  widgetsOfDates(written.filter((d) => d.type === 'date' && d.fieldKey === 'sign_date').map(rectOf), widgets);
  const initials = written.filter((d) => d.type === 'initials').map(rectOf);
  for (const w of widgets) if (w.type === 'text' && !w.fieldKey && initials.some((r) => liesOn(w, r))) w.type = 'initials';
}

/** A field lies on a blank: most of its width over it, half its height in its band. */
function liesOn(w: Suggestion, r: Rect): boolean {
  return overlap1(w.x, w.x + w.width, r.x0, r.x1) >= 0.8 * w.width && overlap1(w.y, w.y + w.height, r.y0, r.y1) >= 0.5 * w.height;
}

/**
 * The form fields' dates once the places to sign are known: a field named a date far from any of them
 * dates something else (a memo's date in its header: a text field); the fields right after a signing
 * date's field on its row are its other parts.
 */
export function settleWidgetDates(
  named: ReadonlySet<Suggestion>,
  widgets: ReadonlyMap<Widget, Suggestion>,
  places: readonly Rect[],
  words: readonly Word[],
): void {
  const fields = [...widgets.values()];
  logColumns(fields, places);
  datesOfOtherThings(named, widgets, places);
  namelessDateParts(fields, words, places);
  dateParts(fields, words);
}

/**
 * Date fields stacked in a column row after row, three or more of one width, most with no place to sign on their row: a log's dates (a
 * timesheet's "Date | Time in | Time out" rows), not when anything was signed. A signers' table's date column has its signatures on its rows.
 */
function logColumns(fields: readonly Suggestion[], places: readonly Rect[]): void {
  const dates = fields.filter((s) => s.type === 'date').sort((a, b) => a.y - b.y);
  const alike = (a: Suggestion, b: Suggestion) => a.page === b.page && Math.abs(a.x - b.x) <= 2 && Math.abs(a.width - b.width) <= 3;
  const done = new Set<Suggestion>();
  for (const d of dates) {
    if (done.has(d)) continue;
    // (Row after row: each field within two and a half of its heights under the one before.)
    const column = [d];
    for (const o of dates) {
      const last = column.at(-1) as Suggestion;
      if (o.y > last.y && alike(o, d) && o.y - last.y <= 2.5 * last.height) column.push(o);
    }
    for (const o of column) done.add(o);
    // (A place to sign of the row's own: its middle on the row, not a signature block beside several rows.)
    const signed = new Set(places.map((p) => column.find((o) => (p.y0 + p.y1) / 2 >= o.y - 2 && (p.y0 + p.y1) / 2 <= o.y + o.height + 2)).filter(Boolean));
    if (column.length >= 3 && signed.size < column.length / 2) for (const o of column) Object.assign(o, { type: 'text', fieldKey: undefined });
  }
}

/**
 * Form fields named a date far from any place to sign date something else (a memo's date in its header): text fields. But
 * not those named after the place and the date together ("lugarFecha", "Ort_Datum"), nor after signing and the date
 * ("signature_date"): when the form is signed.
 */
function datesOfOtherThings(named: ReadonlySet<Suggestion>, widgets: ReadonlyMap<Widget, Suggestion>, places: readonly Rect[]): void {
  const signingDate = (w: Widget) => nameWords(w.name).some((x) => PLACE_WORDS.has(x) || SIGN_WORDS.includes(x));
  const placed = new Set([...widgets].filter(([w]) => signingDate(w)).map(([, s]) => s));
  for (const s of named)
    if (s.type === 'date' && !placed.has(s) && !besideSignature(rectOf(s), places)) Object.assign(s, { type: 'text', fieldKey: undefined });
}

/** The words between two fields of a row. */
const wordsBetween = (a: Suggestion, b: Suggestion, words: readonly Word[]) =>
  words.filter((t) => overlap1(t.box.x0, t.box.x1, a.x + a.width, b.x) > 0 && overlap1(t.box.y0, t.box.y1, b.y, b.y + b.height) > 0);
/** The words that join a date's parts: "de", "/", the century of its year. */
const JOINS_DATE = /^(?:[_/.…\-–\s]+|de|del|of|[12]\d{0,2}_*)$/i;
const sameRow = (w: Suggestion, d: Suggestion) => w.page === d.page && overlap1(w.y, w.y + w.height, d.y, d.y + d.height) >= 0.5 * Math.min(w.height, d.height);
const part = (w: Suggestion) => w.type === 'text' && !w.fieldKey;

/**
 * Three nameless form fields in a row joined by a date's words ("[__] de [____] de [____]", "[__] / [__] / [____]")
 * beside a place to sign: the signing date's parts (each one a field).
 */
function namelessDateParts(widgets: readonly Suggestion[], words: readonly Word[], places: readonly Rect[]): void {
  const fields = widgets.filter(part).sort((a, b) => a.y - b.y);
  // The next field to its right on its row, at most 40 pt after it (only the fields whose tops are within
  // its height of its own are looked at: a page of thousands of fields stays quick).
  const next = (a: Suggestion): Suggestion | undefined => {
    let lo = 0;
    let hi = fields.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((fields[mid] as Suggestion).y < a.y - a.height) lo = mid + 1;
      else hi = mid;
    }
    let best: Suggestion | undefined;
    for (let k = lo; k < fields.length && (fields[k] as Suggestion).y <= a.y + a.height; k++) {
      const w = fields[k] as Suggestion;
      const gap = w.x - (a.x + a.width);
      if (gap >= -1 && gap <= 40 && w !== a && sameRow(a, w) && (!best || w.x < best.x)) best = w;
    }
    return best;
  };
  // The words joining two fields as a date's parts, if they are such words (one or two of them).
  const joining = (a: Suggestion, b: Suggestion): Word[] | undefined => {
    const between = wordsBetween(a, b, words);
    return between.length > 0 && between.length <= 2 && between.every((t) => JOINS_DATE.test(t.text.trim())) ? between : undefined;
  };
  for (const first of fields) {
    if (!part(first)) continue;
    const second = next(first);
    const firstJoin = second && joining(first, second);
    const last = firstJoin && second ? next(second) : undefined;
    const secondJoin = second && last && joining(second, last);
    if (!second || !last || !firstJoin || !secondJoin || !part(second) || !part(last) || !besideSignature(rectOf(first), places)) continue;
    // (Not a date the caption before it names otherwise: "Date of birth [__] / [__] / [____]".)
    const before = words.filter(
      (t) => t.box.x1 <= first.x + 1 && first.x - t.box.x1 <= 150 && overlap1(t.box.y0, t.box.y1, first.y, first.y + first.height) > 0,
    );
    if (before.some((t) => OTHER_DATE.has(normalizeToken(t.text)))) continue;
    // (Said to be a date: by the formula's words, "[__] de [____] de [____]", or by a place and its comma before it.)
    const formula = [...firstJoin, ...secondJoin].every((t) => /^(?:de|del|of)$/i.test(t.text.trim()));
    if (
      !formula &&
      !/,$/.test(
        before
          .sort((a, b) => a.box.x1 - b.box.x1)
          .at(-1)
          ?.text.trim() ?? '',
      )
    )
      continue;
    for (const w of [first, second, last]) Object.assign(w, { type: 'date', fieldKey: 'sign_date' });
  }
}

/**
 * Form fields right before or after a signing date's field on its row, with only separators between them
 * ("Data: [__] / [__] / [__]", "a [__] de [__] de [__]", "de [__] de 202[_]"): the date's other parts,
 * signing dates too.
 */
function dateParts(widgets: readonly Suggestion[], words: readonly Word[]): void {
  const row = [...widgets].sort((a, b) => a.x - b.x);
  const joins = (a: Suggestion, b: Suggestion) => {
    const between = wordsBetween(a, b, words);
    // (Up to 12 pt of nothing, or the words that join a date's parts.)
    const gap = b.x - (a.x + a.width);
    return between.every((t) => JOINS_DATE.test(t.text.trim())) && (gap <= 12 || (between.length > 0 && gap <= 40));
  };
  for (const d of row.filter((w) => w.type === 'date' && w.fieldKey === 'sign_date')) {
    const onRow = row.filter((w) => sameRow(w, d));
    const at = onRow.indexOf(d);
    for (let k = at + 1, last = d; k < onRow.length; k++) {
      const w = onRow[k] as Suggestion;
      if (w.x < last.x + last.width - 1) continue;
      if (!part(w) || !joins(last, w)) break;
      Object.assign(w, { type: 'date', fieldKey: 'sign_date' });
      last = w;
    }
    for (let k = at - 1, first = d; k >= 0; k--) {
      const w = onRow[k] as Suggestion;
      if (w.x + w.width > first.x + 1) continue;
      if (!part(w) || !joins(w, first)) break;
      Object.assign(w, { type: 'date', fieldKey: 'sign_date' });
      first = w;
    }
  }
}

/** A line to sign on with a form widget standing on one end of it (its date's, "Datum, Unterschrift" under it): the rest of the line. */
export function pastWidgets(r: Rect, widgets: readonly Widget[]): Rect {
  let { x0, x1 } = r;
  for (const { box: w } of widgets) {
    if (w.y1 < r.y1 - 6 || w.y0 >= r.y1 || w.x1 - w.x0 < 20) continue;
    if (w.x0 <= x0 + 10 && w.x1 < x1 - 40 && w.x1 > x0) x0 = w.x1 + 2;
    else if (w.x1 >= x1 - 10 && w.x0 > x0 + 40 && w.x0 < x1) x1 = w.x0 - 2;
  }
  return { ...r, x0, x1 };
}
