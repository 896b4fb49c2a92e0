/**
 * The date of a place-and-date formula whose place stands alone before its blank: German and Italian
 * "Frankfurt am Main, den ____", "Roma, lì ____", "Genova il ____", and a place, its comma and a blank
 * alone on a line ("Abbiategrasso, ________") or room for the date after it ("Berlin,"); and "Ort, Datum" over whoever signs, which asks for the
 * signature too. (Portuguese, Spanish and French formulas, whose date is written in parts or after "le",
 * are in date-formulas.ts.)
 */
import { ARTICLES, LABELS, closesSentence, isFillToken, partyAt } from './lexicon.js';
import { GREETING_WORDS, isClosing } from './letter-closings.js';
import { normalizeToken } from './token-folding.js';
import { SIGNER_WORDS } from './lexicon-european.js';
import { namesSigner, roleOnLine } from './caption-roles.js';
import { widgetsOfDates } from './acroform-widgets.js';
import { filled } from './filled-blanks.js';
import { makeLine } from './lines-and-labels.js';
import { dateSeparator } from './date-parts.js';
import {
  MIN_BESIDE,
  clip,
  dateOnLine,
  onRowOf,
  overlap1,
  xywh,
  type Label,
  type Line,
  type PageModel,
  type Rect,
  type Segment,
  type Suggestion,
  type Word,
  writingLine,
} from './page-model.js';

/**
 * The word that leads the date in a place-and-date formula: "Frankfurt am Main, den ____", "Roma, lì ____" (and Italian "Genova il ____"), Portuguese
 * "____ aos ___ de ___ de ___", Polish "Łomża, dnia ____" ("dn."), Czech "V Praze, dne ____".
 */
const DATE_LEAD = new Set(['den', 'li', 'addi', 'le', 'em', 'aos', 'dnia', 'dn', 'dne'].map(normalizeToken));
/** Leads that say "on the day" and nothing else: after the place without its comma too ("V Praze dne ____", "Wrocław dnia ____"). */
const DAY_LEAD = new Set(['dnia', 'dn', 'dne']);
/** Leads that are articles or prepositions of running text too: only right after the place's comma ("Paris, le ____"), before a blank of a date's width. */
const ARTICLE_LEAD = new Set(['le', 'em']);
const SIGNERS = new Set(SIGNER_WORDS);
/** Leads of a date set apart from its place and comma on their row: "den", "lì", "le", "a", "em", "el", "il". */
const APART_LEAD = new Set([...DATE_LEAD, ...['a', 'el', 'il'].map(normalizeToken)]);

/**
 * A place and its comma set apart from their date on the row, a tab between ("São Paulo,        ____ de ____ de ____", "Berlin,
 * den ____"), or over it on the next line: the two lines joined into one, for the formulas read from a line's words.
 */
function commaRows(lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    const last = line.words.at(-1);
    if (line.rtl || !last || !/,$/.test(last.text.trim()) || line.words.length > 6) continue;
    // (Or the date on the line right under it, starting where it starts: "São Paulo," over "____ de ____ de ____".)
    const next =
      lines
        .filter((l) => l !== line && !l.rtl && onRowOf(l, line) && l.box.x0 > line.box.x1 && l.box.x0 - line.box.x1 <= 250)
        .sort((a, b) => a.box.x0 - b.box.x0)[0] ??
      lines.find(
        (l) =>
          l !== line &&
          !l.rtl &&
          l.baseline > line.baseline &&
          l.baseline - line.baseline <= 1.6 * line.size &&
          Math.abs(l.box.x0 - line.box.x0) <= 2 * line.size,
      );
    if (next && (next.tokens[0] === '\0' || APART_LEAD.has(next.tokens[0] as string))) out.push(makeLine([...line.words, ...next.words]));
  }
  return out;
}

/**
 * A row's lines set a little apart (each within 60 pt of the next: a formula typed with tabs or placed word by word, "En
 * ______   a ____   de ______   de 20__"), joined into one, for the formulas read from a line's words; rows of one line left out.
 */
function spacedRows(lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  const seen = new Set<Line>();
  for (const line of lines) {
    if (seen.has(line) || line.rtl) continue;
    const row = lines.filter((l) => !l.rtl && (l === line || onRowOf(l, line))).sort((a, b) => a.box.x0 - b.box.x0);
    for (const l of row) seen.add(l);
    let run: Line[] = [];
    for (const l of [...row, undefined]) {
      const last = run.at(-1);
      if (l && last && l.box.x0 - last.box.x1 <= 60 && l.box.x0 >= last.box.x1) {
        run.push(l);
        continue;
      }
      if (run.length > 1) out.push(makeLine(run.flatMap((r) => r.words)));
      run = l ? [l] : [];
    }
  }
  return out;
}

/** A page's formulas set apart in pieces, each joined into one line: a place and its comma with their date (`commaRows`), a row's pieces (`spacedRows`). */
export function formulaRows(lines: readonly Line[]): Line[] {
  return [...commaRows(lines), ...spacedRows(lines)];
}

/** The words naming a date's parts between their blanks ("addì ___ mese ___ anno ___"). */
const PART_NAMES = new Set(['mese', 'anno', 'mes', 'ano', 'mois', 'annee', 'monat', 'jahr', 'del', 'dell', 'de', 'di'].map(normalizeToken));

/** How wide the room after a formula's lead with no blank is taken ("Regensburg, den" and nothing after). */
const ROOM_AFTER_LEAD = 100;

/**
 * The date of a German, Italian, French or Portuguese place-and-date formula: a place, a comma, "den" / "lì" / "le" / "em", then a blank (a
 * run of dots or underscores, or a drawn line on the baseline; the room after the lead when nothing follows
 * it on the place's line). Not when a signature caption lies right
 * under that blank: then the blank is the line to sign on ("Frankfurt, den ........ / Unterschrift"). A
 * form field right after "den", or over its blank, is the date's (its box, one of `fields`, is returned as it is).
 */
export function placeDenFields(lines: Line[], rules: readonly Segment[], labels: readonly Label[], fields: readonly Rect[] = []): Rect[] {
  const out: Rect[] = [];
  for (const line of lines) {
    if (line.rtl) continue;
    // (Italian also writes the place without its comma before "il", and "Lì ____" alone at the start of a line.)
    // (Or the place a blank of its own, with its comma: "__________, il __________".)
    const blankComma = (k: number) => k <= 2 && isFillToken((line.words[0] as Word).text.replace(/,$/, '')) && /,$/.test((line.words[k - 1] as Word).text);
    const place = (k: number) => k > 0 && k <= 3 && (line.words.slice(0, k).every((w) => /^\p{Lu}\p{L}*,?$/u.test(w.text)) || blankComma(k));
    const i = line.words.findIndex(
      (w, k) =>
        // (The place may be a blank of its own before it: "Ort: ________ den ________".)
        (DATE_LEAD.has(normalizeToken(w.text)) &&
          (k === 0
            ? (normalizeToken(w.text) !== 'den' || placeOver(line, lines)) && !ARTICLE_LEAD.has(normalizeToken(w.text))
            : /,$/.test((line.words[k - 1] as Word).text) ||
              (isFillToken((line.words[k - 1] as Word).text) && !ARTICLE_LEAD.has(normalizeToken(w.text))) ||
              (DAY_LEAD.has(normalizeToken(w.text)) && place(k)))) ||
        (normalizeToken(w.text) === 'il' && place(k)),
    );
    // (A French "Fait à …, le …" is the caption's: its date is at least a date's width, dateAfterLe.)
    if (i === -1 || i > 5 || (line.tokens[0] === 'fait' && ARTICLE_LEAD.has(normalizeToken((line.words[i] as Word).text)))) continue;
    const lead = line.words[i] as Word;
    const near = (x: number) => x >= lead.box.x1 - 1 && x - lead.box.x1 <= 3 * line.size;
    const fill = line.words[i + 1];
    let blank: { x0: number; x1: number; y: number } | undefined;
    // (Not a mark a few dots long before a placeholder: "le ..... (date)".)
    if (fill && isFillToken(fill.text) && near(fill.box.x0) && (fill.box.x1 - fill.box.x0 >= 20 || !ARTICLE_LEAD.has(normalizeToken(lead.text)))) {
      // (Its parts too: "addì ___ / ___ / _______", "addì ___ mese ___ anno ___".)
      let [x1, last] = [fill.box.x1, fill.box.x1];
      for (const w of line.words.slice(i + 2)) {
        const named = PART_NAMES.has(normalizeToken(w.text));
        if ((!/^[_/.\s-]+$/.test(w.text) && !named) || w.box.x0 - last > line.size) break;
        last = w.box.x1;
        if (!named) x1 = w.box.x1;
      }
      blank = { x0: fill.box.x0, x1, y: writingLine(line.baseline, line.size) };
    }
    // (A drawn line on the baseline, or a little under it: the bottom of a ruled row.)
    else if (!fill)
      blank = rules.find((r) => near(r.x0) && r.y >= line.baseline - 0.6 * line.size && r.y <= line.baseline + 1.3 * line.size && r.x1 - r.x0 >= 40);
    // (Nothing after the lead, which ends a place's line, "Regensburg, den", "________, den": the room after it, a date's width.)
    const blankPlace = i <= 2 && line.words.slice(0, i).every((w) => w.text.trim() === ',' || isFillToken(w.text.replace(/,$/, '')));
    if (!fill && !blank && i === line.words.length - 1 && (place(i) || blankPlace)) blank = roomAfter(lead, line, lines);
    // A form field there is the date's: its own box is returned.
    const field =
      !fill && !blank ? fields.find((f) => near(f.x0) && overlap1(f.y0, f.y1, line.box.y0, line.box.y1) > 0.5 * (line.box.y1 - line.box.y0)) : undefined;
    if (field) out.push(field);
    if (!blank) continue;
    const { x0, x1, y: y1 } = blank;
    // (Portuguese "aos" dates only a formula ending its line: "… de ____ aos ___/___/____, vem requerer" is a date in the text.)
    if (normalizeToken(lead.text) === 'aos' && line.words.some((w) => w.box.x0 >= x1 && /\p{L}{2}/u.test(w.text) && !PART_NAMES.has(normalizeToken(w.text))))
      continue;
    // (A form field over the blank is the date's: "____ , den ____" with a text field on the run.)
    const over = fields.find((f) => overlap1(f.x0, f.x1, x0, x1) >= 0.5 * Math.min(f.x1 - f.x0, x1 - x0) && f.y0 <= y1 + 2 && f.y1 >= y1 - line.size - 4);
    if (over) {
      out.push(over);
      continue;
    }
    if (signedUnder(labels, x0, x1, y1, line.size, lines)) continue;
    out.push(dateOnLine(line, lines, x0, x1, y1));
  }
  return out;
}

/** The place of a formula broken over two lines, alone on the line right over it with its comma: "Bamberg," over "den ______". */
const placeOver = (line: Line, lines: readonly Line[]): boolean =>
  lines.some((l) => {
    const last = l.words[l.words.length - 1];
    return (
      l !== line &&
      !l.rtl &&
      l.baseline < line.baseline &&
      line.baseline - l.baseline <= 2.2 * line.size &&
      l.words.length <= 3 &&
      /^\p{Lu}/u.test((l.words[0] as Word).text.trim()) &&
      last !== undefined &&
      /\p{L}{2},$/u.test(last.text.trim())
    );
  });

/**
 * A signature caption right under a blank from x0 to x1 at height y (within two lines): the blank is the line to sign on.
 * (Not a caption over a blank of its own right under it, "ASSINATURA" over "________": that blank is its line.)
 */
const signedUnder = (labels: readonly Label[], x0: number, x1: number, y: number, size: number, lines: readonly Line[]): boolean =>
  labels.some(
    (l) =>
      l.entry.type === 'signature' &&
      l.box.y0 >= y - 2 &&
      l.box.y0 - y <= 2 * size &&
      overlap1(l.box.x0, l.box.x1, x0, x1) > 0 &&
      !lines.some(
        (o) =>
          o.box.y0 >= l.box.y1 - 1 &&
          o.baseline - l.line.baseline <= 2 * l.line.size &&
          overlap1(o.box.x0, o.box.x1, l.box.x0, l.box.x1) > 0 &&
          o.words.every((w) => isFillToken(w.text)),
      ),
  );

/** The word that says a date follows a place: French "le", German "den", Italian "lì" and "il". */
const DATED = new Set(['le', 'den', 'li', 'il'].map(normalizeToken));

/** First-person pronouns that open a declaration ("Eu, ____", "Yo, ____", "Ich, ____", "We, ____"). */
const DECLARERS = new Set(['eu', 'yo', 'je', 'io', 'ich', 'we', 'wir', 'nous', 'nosotros', 'noi', 'nos']);

/**
 * A place (up to four words), its comma or the date's own word and a blank, alone on a line ("Abbiategrasso, ________",
 * "San Donà di Piave, ____", "Berlin, ........", "Jendouba le ……", "Stralsund, den ……", or in the date's parts: "Curitiba,
 * ___ / ___ / _____"; the place a blank too before the date's parts: "_______ , ___ / ___ / ___"): where and when a letter
 * or form is signed, the date going in the blank. Only a signing date beside a place to sign (the caller keeps it so), as
 * a bare "Date" is.
 */
export function placeCommaFields(lines: Line[], labels: readonly Label[] = []): Rect[] {
  const out: Rect[] = [];
  for (const line of lines) {
    const { words } = line;
    // (The blank may come in the date's parts: "Curitiba, _____ / _____ / ________".)
    const start = words.findIndex((w) => isFillToken(w.text));
    // (Or the place a blank too, the date in its parts after the comma: "__________ , ____ / ________ / ____".)
    const parts = words.slice(2);
    if (
      !line.rtl &&
      start === 0 &&
      words[1]?.text.trim() === ',' &&
      parts.filter(dateSeparator).length >= 2 &&
      parts.every((w) => isFillToken(w.text) || dateSeparator(w)) &&
      isFillToken((parts[0] as Word).text) &&
      isFillToken((parts[parts.length - 1] as Word).text)
    ) {
      const [first, last] = [parts[0] as Word, parts[parts.length - 1] as Word];
      out.push(dateOnLine(line, lines, first.box.x0, last.box.x1, writingLine(first.baseline, line.size)));
      continue;
    }
    if (start === -1) {
      const room = roomAfterPlace(line, lines);
      if (room) out.push(room);
      continue;
    }
    const blank = words.slice(start);
    // (The date's own word may stand between the place and its blank: "Jendouba le ……", "Stralsund, den ……", "Roma, lì ____".)
    const dated = start >= 2 && DATED.has(normalizeToken((words[start - 1] as Word).text));
    // (The place may open the line's last sentence, after the text that closes: "… per gli usi consentiti. Roma, lì ____".)
    const from = dated ? sentenceAt(words, start) : 0;
    if (line.rtl || start - from < 1 || start - from > (dated ? 5 : 4) || !blank.every((w) => isFillToken(w.text) || dateSeparator(w))) continue;
    const [first, last] = [blank[0] as Word, blank[blank.length - 1] as Word];
    if (!isFillToken(last.text) || last.box.x1 - first.box.x0 < 40) continue;
    const place = words.slice(from, dated ? start - 1 : start);
    // (The date's word opening its sentence names no place before it: Italian "… approvato. Lì ____" is the date alone, as
    // "Lì ____" opening its line is; "… faits. Le ____" is not a place's.)
    if (place.length === 0 ? normalizeToken((words[start - 1] as Word).text) !== 'li' : !placeName(place, dated)) continue;
    // (Not with a signature caption right under the blank: "Frankfurt am Main, den ……" over "Unterschrift" is where one signs.)
    const y = writingLine(first.baseline, line.size);
    if (signedUnder(labels, first.box.x0, last.box.x1, y, line.size, lines)) continue;
    out.push(dateOnLine(line, lines, first.box.x0, last.box.x1, y));
  }
  return out;
}

/** The words of captions, of who signs and of a letter's greeting, normalised: no place's name. */
const CAPTION_TOKENS = new Set([...LABELS.flatMap((e) => e.tokens), ...SIGNER_WORDS, ...GREETING_WORDS]);

/**
 * A place and its comma alone on their row with nothing after them ("Berlin,", "L'Aquila," and room for the date, a form's
 * place-and-date written with nothing to fill in): the room after the comma, a date's width (`ROOM_AFTER_LEAD`). Not a
 * letter's greeting or closing ("Sehr geehrte Herren,", "Atentamente,"), a caption or who signs ("Signature,", "Le
 * Président,"), nor a paragraph's first line ("Acconsente, inoltre," over the rest of its sentence).
 */
function roomAfterPlace(line: Line, lines: readonly Line[]): Rect | undefined {
  const { words } = line;
  const last = words[words.length - 1] as Word;
  if (line.rtl || words.length > 3 || !placeName(words, false) || isClosing(line) || line.tokens.some((t) => CAPTION_TOKENS.has(t))) return undefined;
  // (Each word a name's, capitalised but for a short particle: "Frankfurt am Main,", not "Hiermit beantrage ich,".)
  if (partyAt(line.tokens, 0) !== null || !words.every((w) => /^\p{Lu}/u.test(w.text) || /^\p{Ll}{1,3}$/u.test(w.text))) return undefined;
  // (Alone on its row: "Data ….  Subsemnatul," is a caption's row. Nor over its date's line: "Bamberg," over "den ____".)
  const under = (l: Line, by: number) => l.baseline > line.baseline && l.baseline - line.baseline <= by * line.size;
  const para = lines.some(
    (l) =>
      l !== line &&
      ((under(l, 1.6) && Math.abs(l.box.x0 - line.box.x0) <= line.size) ||
        (under(l, 2.2) && (l.tokens[0] === '\0' || APART_LEAD.has(l.tokens[0] as string))) ||
        overlap1(l.box.y0, l.box.y1, line.box.y0, line.box.y1) > 0),
  );
  const room = para ? undefined : roomAfter(last, line, lines);
  return room && dateOnLine(line, lines, room.x0, room.x1, room.y);
}

/** The room after a line's last word, a date's width (`ROOM_AFTER_LEAD`) up to the page's text's right edge, when nothing on its row stands in it. */
function roomAfter(word: Word, line: Line, lines: readonly Line[]): { x0: number; x1: number; y: number } | undefined {
  const x0 = word.box.x1 + 2;
  const x1 = Math.min(x0 + ROOM_AFTER_LEAD, textRight(lines));
  const free = !lines.some((l) => l !== line && overlap1(l.box.y0, l.box.y1, line.box.y0, line.box.y1) > 0 && overlap1(l.box.x0, l.box.x1, x0, x1) > 0);
  return x1 - x0 >= MIN_BESIDE.date && free ? { x0, x1, y: writingLine(line.baseline, line.size) } : undefined;
}

/**
 * Whether words before a date's blank name the place it is written at: capitalised, ending with the comma (or the date's own word
 * after them, `dated`), no digits; not who declares ("Eu, ________, portador do RG…": the blank asks for a name), nor who signs
 * named with an article ("O Requerente, ____", "Le représentant légal, ____").
 */
function placeName(place: readonly Word[], dated: boolean): boolean {
  if (!/^\p{Lu}/u.test((place[0] as Word).text) || !(dated || /\p{L}{2},$/u.test((place[place.length - 1] as Word).text.trim()))) return false;
  if (place.some((w) => /\d/.test(w.text))) return false;
  if (place.length === 1 && DECLARERS.has(normalizeToken((place[0] as Word).text.replace(/,$/, '')))) return false;
  const named = place.flatMap((w) => w.text.replace(/,$/, '').split('/')).map(normalizeToken);
  return !(ARTICLES.has(named[0] as string) && namesSigner(named));
}

/** The first word of the sentence the word at `k` is in: after the last word before it that closes one. */
function sentenceAt(words: readonly Word[], k: number): number {
  let from = 0;
  for (let j = 0; j < k; j++) if (closesSentence((words[j] as Word).text.trim())) from = j + 1;
  return from;
}

/** The dates of `placeCommaFields` as suggestions, but where a form field holds the date already, or the blank is written in. */
export function placeCommaDates(lines: Line[], page: PageModel, widgets: Iterable<Suggestion>, labels: readonly Label[] = []): Suggestion[] {
  const out: Suggestion[] = [];
  for (const rect of placeCommaFields(lines, labels)) {
    if (widgetsOfDates([rect], widgets)) continue;
    const r = clip(rect, page);
    if (r.x1 - r.x0 < 4 || r.y1 - r.y0 < 4 || filled(r, page, [])) continue;
    out.push({ type: 'date', page: page.page, ...xywh(r), confidence: page.ocr ? 0.72 : 0.8, reason: 'label_with_geometry', fieldKey: 'sign_date' });
  }
  return out;
}

/**
 * A place-and-date caption without a colon with whoever signs written right under it, in its column ("Ort,
 * Datum" over "Unterschrift Mitglied", or over "Erziehungsberechtigte bei Minderjährigen"): one caption
 * asking for the place, the date and the signature. The line under it, and the signature caption there.
 */
function signerUnderDate(label: Label, lines: Line[], labels: Label[], rules: readonly Segment[]): { line: Line; signature?: Label } | undefined {
  const { line } = label;
  if (label.entry.type !== 'date' || label.colon || !label.bare || blankOnRow(line, label.reach.x1, rules)) return undefined;
  const under = lines.find(
    (l) =>
      l.baseline - line.baseline > 0.5 * line.size &&
      l.baseline - line.baseline <= 2.2 * line.size &&
      Math.abs(l.box.x0 - label.box.x0) <= 6 &&
      Math.abs(l.size - line.size) < 1,
  );
  // (A rule between them closes the caption's row: the line under it is the next row's, `Date` over `Signature` in a form grid.)
  if (
    !under ||
    under.tokens.length > 8 ||
    rules.some((r) => r.y > line.box.y1 + 1 && r.y < under.box.y0 - 1 && overlap1(r.x0, r.x1, label.box.x0, label.box.x1) > 0)
  )
    return undefined;
  const signature = labels.find((o) => o.line === under && o.entry.type === 'signature' && o.box.x0 - under.box.x0 <= 2);
  // (Each with a blank of its own on its row, "Date ____" over "Signature ____" are two places.)
  if (blankOnRow(under, signature?.reach.x1 ?? (under.words[0] as Word).box.x1, rules)) return undefined;
  if (signature) return signature.colon ? undefined : { line: under, signature };
  const first = under.tokens[0] as string;
  return SIGNERS.has(first) || partyAt(under.tokens, 0) !== null ? { line: under } : undefined;
}

/** A blank on a line's own row right after its caption (ending at `end`): a run of underscores or dots, or a rule drawn along its baseline. */
function blankOnRow(line: Line, end: number, rules: readonly Segment[]): boolean {
  return (
    line.tokens.includes('\0') || rules.some((r) => r.x0 >= end - 2 && r.x0 <= end + 40 && r.x1 > end + 20 && Math.abs(r.y - line.baseline) <= 0.6 * line.size)
  );
}

/** Each such caption becomes a signature caption; the signature caption under it names the same place. */
export function placeDateSigners(labels: Label[], lines: Line[], rules: readonly Segment[]): void {
  for (const label of labels) {
    const under = signerUnderDate(label, lines, labels, rules);
    if (!under) continue;
    label.entry = { tokens: label.entry.tokens, strength: label.entry.strength, type: 'signature' };
    label.role ??= under.signature?.role ?? roleOnLine(under.line);
    if (under.signature) under.signature.done = true;
  }
}

/** The right edge of the page's text. */
function textRight(lines: readonly Line[]): number {
  return Math.max(...lines.map((l) => l.box.x1));
}
