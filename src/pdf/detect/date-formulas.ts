/**
 * Signing dates written as formulas of blanks in the text: the parts of a date after words that say the
 * document is signed then ("executed on (month) __ (day) __ (year) __", "signed this __ day of __"), a
 * blank after "signed … on", a place and its date ("Cuiabá, ____ de ____ de 20__"), and the French "Fait
 * à …, le …" (french-dates.ts).
 */
import { DATE_WORDS, isFillToken } from './lexicon.js';
import { splitWord } from './word-tokens.js';
import { normalizeToken } from './token-folding.js';
import { dateOnLine, onRowOf, overlap1, type Line, type Rect, type Segment, type Word, writingLine } from './page-model.js';
import { SIGNING_DATE } from './signing-dates.js';
import { makeLine, sentenceStart } from './lines-and-labels.js';
import { frenchLeDates } from './french-dates.js';

const MONTH = new Set(['month', 'mois', 'mm', 'mes', 'mese'].map(normalizeToken));
const DAY = new Set(['day', 'jour', 'dd', 'jj', 'dias', 'dia', 'giorno', 'giorni'].map(normalizeToken));
const YEAR = new Set(['year', 'annee', 'yyyy', 'aaaa', 'yr', '20', '19', 'ano', 'anno'].map(normalizeToken));

/**
 * What an affidavit's or a deed's closing says its signer did that day: "Declared this ___ day of ___", "Verified at …
 * on this the ___ (day)", "set my hand this ___", "Suscrito en …, a los ___ días", "as partes assinam". (Not a jurat's
 * "Subscribed and sworn to before me this ___": the officer's.)
 */
const SIGNER_ACTS = new Set('declared verified hand done witness suscrito suscrita suscriben firman firmamos assinam assinamos'.split(' '));

/**
 * Dates written as blanks for their parts, "(month) ____ (day) ___, (year) ____" or "this ___ day of
 * ______, 20__", when what leads to them says the document is signed then ("executed on", "signed
 * this", "dated", a contract "made this") or a date's caption opens them ("Date: ___ day of ___"). The field covers the blanks.
 */
export function datePartFields(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    const t = line.tokens;
    const blanks: number[] = [];
    let parts = 0;
    let first = -1;
    for (let k = 0; k < t.length; k++) {
      const tok = t[k] as string;
      const part = MONTH.has(tok) || DAY.has(tok) || YEAR.has(tok) || (tok === 'of' && DAY.has(t[k - 1] ?? ''));
      if (tok === '\0' && (first !== -1 || DAY.has(t[k + 1] ?? ''))) blanks.push(k);
      else if (part) parts++;
      // (The words joining the parts: "a los ___ días del mes de ___ del año ___".)
      else if (first !== -1 && JOINS.has(tok)) continue;
      else if (first !== -1) break;
      else continue;
      if (first === -1) first = k;
    }
    if (blanks.length < 2 || parts < 2) continue;
    const above = lineAbove(line, lines);
    // (What leads to them: up to 16 words of the line above, a long sentence's "SE FIRMA … EN LA CIUDAD DE ____" over "A LOS ___ DÍAS …".)
    const lead = [...(above ? above.tokens.slice(-16) : []), ...t.slice(Math.max(0, first - 8), first)];
    // (Or the formula that dates a contract's making: "This Agreement made (entered into) this ___ day of ____, 20__".)
    const made = t[first - 1] === 'this' && ['made', 'into'].includes(t[first - 2] as string);
    // (Or a date's caption right before it: "Date: ____ day of ________, 20__".)
    // (Or the place's blank opens the line, after the words naming it: "En la ciudad de ____, a los ___ días del mes de ___".)
    // (Or "En ____, a los ___ días …": the place's blank right after "en" opening the line.)
    const place =
      namedPlaceBlank(t.slice(0, first).filter((x) => !['en', 'na', 'no', 'a', 'aos', 'los', 'al'].includes(x))) ||
      (['en', 'em'].includes(t[0] as string) && t[1] === '\0' && t.slice(2, first).every((x) => ['a', 'aos', 'los', 'al'].includes(x)));
    if (!lead.some((x) => SIGNING_DATE.has(x) || SIGNER_ACTS.has(x)) && !made && !DATE_WORDS.has(t[first - 1] ?? '') && !place) continue;
    const words = blanks.map((k) => line.words[line.tokenWord[k] as number] as Word);
    const x0 = Math.min(...words.map((w) => w.box.x0));
    const x1 = Math.max(...words.map((w) => w.box.x1));
    const y1 = writingLine(Math.max(...words.map((w) => w.baseline)), line.size);
    out.push({ rect: dateOnLine(line, lines, x0, x1, y1), line });
  }
  return out;
}

function lineAbove(line: Line, lines: Line[]): Line | undefined {
  return lines
    .filter(
      (l) =>
        l !== line && l.baseline < line.baseline && line.baseline - l.baseline <= 2.2 * line.size && overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x1) > 0,
    )
    .sort((a, b) => b.baseline - a.baseline)[0];
}

const JOINS = new Set(['de', 'del', 'di', 'do', 'da']);
/** The months' names of the languages dating with "de" / "di" ("Lisboa, ____ de julho de 2017": the day left blank). */
const MONTH_NAMES = new Set(
  [
    ...['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
    ...['enero', 'febrero', 'marzo', 'mayo', 'junio', 'julio', 'septiembre', 'setiembre', 'octubre', 'noviembre', 'diciembre'],
    ...['gennaio', 'febbraio', 'aprile', 'maggio', 'giugno', 'luglio', 'settembre', 'ottobre', 'dicembre'],
  ].map(normalizeToken),
);
/** A year written or begun ("2024", "20__"), and the word before it ("del año 20__", "dell'anno"). */
const YEAR_DIGITS = /^(19|20)\d{0,2}$/;
const YEAR_WORDS = new Set(['ano', 'anno']);
/** Words naming the place whose blank opens a place-and-date formula ("En la ciudad de ____, a …"), and the words joining them. */
const PLACE_NOUNS = new Set(['ciudad', 'cidade', 'localidad', 'localidade', 'municipio', 'villa', 'vila', 'citta', 'comune', 'ville']);
const PLACE_JOINS = new Set(['la', 'de', 'del', 'da', 'do', 'na', 'no', 'di', 'della']);
/** Tokens that are a place's blank after the words naming it: "la ciudad de ____", "cidade de ____". */
const namedPlaceBlank = (tokens: readonly string[]): boolean =>
  tokens.includes('\0') && tokens.some((x) => PLACE_NOUNS.has(x)) && tokens.every((x) => x === '\0' || PLACE_NOUNS.has(x) || PLACE_JOINS.has(x));

/** A place's name of one to three capitalised words after "en" (or "em", "in") right before token `k`: "… en Madrid, a ____". */
function placeAfterEn(line: Line, k: number): boolean {
  for (let j = k - 2; j >= Math.max(0, k - 4); j--) {
    if (!['en', 'em', 'in'].includes(line.tokens[j] as string)) continue;
    const place = line.tokenWord.slice(j + 1, k).map((i) => (line.words[i] as Word).text.trim());
    return place.length > 0 && place.every((w) => /^\p{Lu}/u.test(w)) && !line.tokens.slice(j + 1, k).includes('\0');
  }
  return false;
}

const ON = new Set(['on', 'am', 'em', 'el']);
/** "le" and "il" only after the participle that says the document is signed ("Signé à ____ le ____", "Firmato a ____ il ____"). */
const ON_AFTER_SIGNED = new Set(['le', 'il']);
const SIGNED_PARTICIPLES = new Set(['signe', 'signee', 'signes', 'signees', 'firmato', 'firmata', 'firmati', 'firmate']);

/**
 * A blank after "on" in a sentence that says it is signed then ("the parties have signed this agreement on
 * ______", "unterschrieben am ______", "Signé à ____ le ______", "Done at ____ on ____"): the signing date, on the blank.
 */
export function signedOnFields(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    for (let k = 1; k < line.tokens.length; k++) {
      const before = line.tokens.slice(Math.max(0, k - 9), k - 1);
      const on = line.tokens[k - 1] as string;
      if (line.tokens[k] !== '\0') continue;
      // (Or a sentence opening with "Done", a treaty's or a deed's: "Done at ____ on ____", "Done in duplicate on ____".)
      const signing = before.some((t) => SIGNING_DATE.has(t)) || line.tokens[sentenceStart(line, k)] === 'done';
      if (!(ON.has(on) && signing) && !(ON_AFTER_SIGNED.has(on) && before.some((t) => SIGNED_PARTICIPLES.has(t)))) continue;
      // (Spanish "él" is "him", not "el": "el representante que firma por él ____" asks for a name.)
      if (/^él$/i.test((line.words[line.tokenWord[k - 1] as number] as Word).text.trim())) continue;
      const w = line.words[line.tokenWord[k] as number] as Word;
      if (w.box.x1 - w.box.x0 < 40) continue;
      const y1 = writingLine(w.baseline, w.size);
      out.push({ rect: dateOnLine(line, lines, w.box.x0, w.box.x1, y1), line });
    }
  }
  return out;
}

/**
 * The date of a place-and-date formula written as blanks ("Cuiabá, ____ de ________ de 20__", "Lima, …… de
 * ………… 202..", "Madrid, a ___ de ____ de ____"): the day and month blanks joined by "de" after a place, the
 * way letters and contracts in Portuguese, Spanish and Italian are dated when they are signed; or after a
 * date's caption ("Fecha: ____ de ____ de 20__"), or alone with its year ("____ de ____ de 20__"). The field
 * covers the blanks (and the year's).
 */
export function placeDateFields(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const line of lines) {
    const t = line.tokens;
    for (let k = 0; k + 2 < t.length; k++) {
      // (Or the day alone left blank, the month and the year printed: "Lisboa, ____ de julho de 2017".)
      const month = MONTH_NAMES.has(t[k + 2] as string) && JOINS.has(t[k + 3] as string) && YEAR_DIGITS.test(t[k + 4] as string);
      if (t[k] !== '\0' || !JOINS.has(t[k + 1] as string) || (t[k + 2] !== '\0' && !month)) continue;
      // After a place (a word, then the blanks) that opens the line or a sentence of it, at most a "a" / "el"
      // between. (Or the place is a blank of its own: "En ______, a ___ de ____ de 20__", "________, ___ de
      // ____ de ____", "En ____ ____, día __ de ____ de ____".)
      const from = sentenceStart(line, k);
      const before = t.slice(from, k).filter((x) => !['a', 'el', 'em', 'en', 'il', 'dia'].includes(x));
      // (Or the place's blank after the words naming it: "En la ciudad de ______, a ___ de ____ de 20__".)
      const namedPlace = namedPlaceBlank(before);
      // (Or a sentence ends on the place after "en", then "a" and the date: "Y para que conste, firmo la presente en Madrid, a ____ de ____ de 20__".)
      const inPlace = t[k - 1] === 'a' && placeAfterEn(line, k - 1);
      if ((before.length > 4 + (namedPlace ? 2 : 0) && !inPlace) || (before.includes('\0') && before.some((x) => x !== '\0') && !namedPlace)) continue;
      // (The field covers the day's blank only when the month and the year are printed.)
      let [last, year] = [k, true];
      if (!month) {
        [last, year] = [k + 2, false];
        if (JOINS.has(t[k + 3] as string) && YEAR_WORDS.has(t[k + 4] as string)) last = k + 4;
        else if (JOINS.has(t[k + 3] as string) && (t[k + 4] === '\0' || YEAR_DIGITS.test(t[k + 4] as string))) {
          last = k + 4;
          year = YEAR_DIGITS.test(t[k + 4] as string);
        }
        if (t[last + 1] === '\0') last++;
        if (YEAR_DIGITS.test(t[last + 1] ?? '')) {
          last++;
          year = true;
        }
        if (t[last + 1] === '\0') last++;
      }
      // The place ends with its comma ("n. ____ del ____" in a sentence is a reference, not a date); without a
      // place, the year says it is a date ("A ____ de ____ del año 20___" heading a contract).
      const opening = line.words.slice(from === 0 ? 0 : (line.tokenWord[from] as number), line.tokenWord[k] as number);
      const comma = opening.some((w) => /,$/.test(w.text.trim()));
      // (Or a date's caption opens it: "Fecha: ____ de ________ de 20__", "Data ___ de ____ de ____".)
      const captioned = before.length === 1 && DATE_WORDS.has(before[0] as string);
      // (Or a place without its comma opens the line, its words capitalised, and the year says it is a date: "São Paulo ____ de ____ de 20__";
      // or the day, the month and the year are all blanks, after the place and "a": "Barcelona a ____ de ____ de ____", not after
      // another datum's caption, "Expediente: ____ de ____ de ____".)
      const lead = (w: Word) => ['a', 'el', 'em', 'en'].includes(w.text.trim());
      const blanks = last >= k + 4 && !opening.some((w) => /:$/.test(w.text.trim()));
      // (The place may be a blank of its own without its comma: "En ______ a ____ de ____ de 20__".)
      const place = (year || blanks) && k - from <= 3 && opening.every((w) => /^\p{Lu}/u.test(w.text.trim()) || lead(w) || isFillToken(w.text.trim()));
      // (Alone on its line, all three parts blanks after "A": "A ____ de ________ de ______" closing a form.)
      const alone = before.length === 0 && last >= k + 4 && last === t.length - 1 && t[from] === 'a';
      if (before.length > 0 ? !comma && !captioned && !place && !inPlace : !year && !alone) continue;
      const words = line.tokenWord.slice(k, last + 1).map((i) => line.words[i] as Word);
      const x0 = Math.min(...words.map((w) => w.box.x0));
      const x1 = Math.max(...words.map((w) => w.box.x1));
      const y1 = writingLine(Math.max(...words.map((w) => w.baseline)), line.size);
      out.push({ rect: dateOnLine(line, lines, x0, x1, y1), line });
      break;
    }
  }
  return out;
}

/**
 * A place-and-date formula whose day and month are left as room, not blanks ("Rio de Janeiro,      de
 * de 2009.", "Madrid, a      de            de 2024"): the place and its comma open the line, then "de" set
 * apart by room for the day and "de" set apart by room for the month, then the year. The field covers the
 * room for the day and the month.
 */
export function placeDateRoom(lines: Line[]): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  const word = (w: Word | undefined) => (w ? splitWord(w.text).map(normalizeToken).join('') : '');
  for (const line of lines) {
    // (The room splits the row into lines: its words are taken together, left to right.)
    if (line.rtl) continue;
    const row = lines.filter((l) => onRowOf(l, line) && l.box.x0 >= line.box.x0);
    const w = row.flatMap((l) => l.words).sort((a, b) => a.box.x0 - b.box.x0);
    const place = w.slice(0, 5).findIndex((x) => /,$/.test(x.text.trim()));
    if (place < 0) continue;
    const j = ['a', 'em', 'el', 'il'].includes(word(w[place + 1])) ? place + 2 : place + 1;
    const [day, month, year] = [w[j], w[j + 1], w[j + 2]];
    if (!day || !month || !year || !JOINS.has(word(day)) || !JOINS.has(word(month)) || !YEAR_DIGITS.test(word(year).slice(0, 4))) continue;
    const before = w[j - 1] as Word;
    if (day.box.x0 - before.box.x1 < 1.5 * line.size || month.box.x0 - day.box.x1 < 2 * line.size) continue;
    out.push({ rect: dateOnLine(line, lines, before.box.x1 + 2, month.box.x0 - 2, writingLine(line.baseline, line.size)), line });
  }
  return out;
}

/**
 * A row's lines joined where rules drawn along its baseline fill the gaps between them ("Declared this on
 * [rule] day of [rule] month of [rule] year", a word processor's underlined tabs): one line with the rules
 * as its blanks, for the formulas read from a line's words.
 */
function rowsWithDrawnBlanks(lines: readonly Line[], segments: readonly Segment[]): Line[] {
  const out: Line[] = [];
  const seen = new Set<Line>();
  for (const line of lines) {
    if (seen.has(line) || line.rtl) continue;
    const rules = segments.filter((s) => s.y >= line.baseline - 0.2 * line.size && s.y <= line.baseline + 0.6 * line.size && s.x1 - s.x0 >= 12);
    if (rules.length === 0) continue;
    const row = lines.filter((l) => !l.rtl && onRowOf(l, line)).sort((a, b) => a.box.x0 - b.box.x0);
    for (const l of row) seen.add(l);
    const filling = (x0: number, x1: number) => rules.filter((s) => s.x1 > x0 - 2 && s.x0 < x1 + 2);
    const covered = (x0: number, x1: number) => filling(x0, x1).reduce((sum, s) => sum + overlap1(s.x0, s.x1, x0, x1), 0) >= 0.8 * (x1 - x0);
    let chain: Line[] = [];
    const close = () => {
      if (chain.length > 1) {
        const x0 = (chain[0] as Line).box.x1;
        const x1 = (chain[chain.length - 1] as Line).box.x0;
        const last = chain[chain.length - 1] as Line;
        const blanks = [...filling(x0, x1), ...rules.filter((s) => s.x0 >= last.box.x1 - 2 && s.x0 - last.box.x1 <= 2 * line.size)].map(
          (s): Word => ({
            text: '_'.repeat(Math.max(3, Math.round((s.x1 - s.x0) / (0.5 * line.size)))),
            box: { x0: s.x0, y0: line.baseline - 0.8 * line.size, x1: s.x1, y1: line.baseline + 0.2 * line.size },
            baseline: line.baseline,
            size: line.size,
            confidence: 1,
          }),
        );
        out.push(makeLine([...chain.flatMap((l) => l.words), ...blanks].sort((a, b) => a.box.x0 - b.box.x0)));
      }
      chain = [];
    };
    for (const l of row) {
      const prev = chain[chain.length - 1];
      if (prev && !(l.box.x0 > prev.box.x1 && covered(prev.box.x1, l.box.x0))) close();
      chain.push(l);
    }
    close();
  }
  return out;
}

/**
 * The signing dates written as formulas: date parts, a place and its date, "signed … on ______", "Fait à … le …" set apart or before a drawn
 * line; also read on `rows`, the page's formulas set apart in pieces and joined (place-dates.ts `formulaRows`).
 */
export function formulaDates(lines: Line[], segments: readonly Segment[], rows: readonly Line[]): Array<{ rect: Rect; line: Line }> {
  const drawn = [...rowsWithDrawnBlanks(lines, segments), ...rows];
  return [
    ...datePartFields([...lines, ...drawn]),
    ...placeDateFields([...lines, ...drawn]),
    ...placeDateRoom(lines),
    ...signedOnFields(lines),
    ...frenchLeDates(lines, segments, drawn),
  ];
}
