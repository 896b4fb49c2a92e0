/**
 * Whether a blank is still blank, and blanks printed as text. A blank a person already filled in (a name, a date,
 * a signature typed, drawn as an image over the line, blacked out by a dark panel or written by hand on a scan, `Signed: S. van Heerden ____`)
 * is not a place to sign. Words that a reader does not see do not fill a blank: white text is dropped when the
 * page is read, and the anchor strings e-signature services hide in templates (`/sn1/`, `\s1\`, `{{...}}`) are
 * ignored here.
 */
import { DATE_FORMAT, NAME_WORDS, isBlankMark, isFillToken, partyAt } from './lexicon.js';
import { normalizeToken } from './token-folding.js';
import { inkIn } from './ink-grid.js';
import { area, overlap1, runLine, type Label, type Line, type PageModel, type Rect, type Segment, type Word } from './page-model.js';

const ANCHOR = /^(?:[/\\][\w.-]{1,16}[/\\]|\{\{[^}]*\}\}|\[\[[^\]]*\]\])$/;
export const isAnchorText = (text: string): boolean => ANCHOR.test(text.trim());
/** A date's format printed where it is written, for the writer to replace ("DD/MM/YYYY", "(jj.mm.aaaa)"): no writing. */
const isDateFormat = (text: string): boolean => {
  const marks = text.split(/[\s/.\-()]+/).filter((m) => m !== '');
  return marks.length > 0 && marks.every((m) => DATE_FORMAT.has(normalizeToken(m)));
};

/** The fewest cells of ink (ink-grid.ts), and the least share of its cells, that fill a blank on a scan. */
const INK_CELLS = 12;
const INK_SHARE = 0.06;

/** True when something a reader sees is written or drawn inside the blank. */
export function filled(rect: Rect, page: PageModel, own: readonly Word[]): boolean {
  const inner = { x0: rect.x0 + 1, y0: rect.y0 + 1, x1: rect.x1 - 1, y1: rect.y1 - 1 };
  let written = 0;
  for (const w of page.words) {
    // (Blank characters are no writing, short runs of a date's parts included: "__ /__ /____"; nor is a date's format.)
    if (own.includes(w) || isFillToken(w.text) || isBlankMark(w.text) || isAnchorText(w.text) || isDateFormat(w.text)) continue;
    const cx = (w.box.x0 + w.box.x1) / 2;
    const cy = (w.box.y0 + w.box.y1) / 2;
    if (cx > inner.x0 && cx < inner.x1 && cy > inner.y0 && cy < inner.y1) written += w.box.x1 - w.box.x0;
  }
  if (written >= Math.min(20, 0.15 * (rect.x1 - rect.x0))) return true;
  // (On a scan, ink OCR read no words in, inside the blank's edges (its line and frame, the text over it, a photo's tilted
  // edge of it): a handwritten signature, a stamp. Not specks: a share of the blank's cells.)
  if (page.ocr) {
    if (!page.ink) return false;
    const core = { x0: inner.x0 + 4, y0: inner.y0 + 8, x1: inner.x1 - 4, y1: inner.y1 - 5 };
    const { ink, cells } = inkIn(
      page.ink,
      core,
      page.words.map((w) => w.box),
    );
    return ink >= INK_CELLS && ink >= INK_SHARE * cells;
  }
  const pageArea = page.width * page.height;
  for (const img of page.images ?? []) {
    const a = area(img);
    // A scan behind the whole page, or a background (of the page, or of a box many times the blank's size),
    // is not something written in the blank; nor is a line drawn as a thin image (a dotted rule): the line
    // to write on itself.
    if (a <= 0 || a > 0.25 * pageArea || a > 6 * area(rect) || Math.min(img.x1 - img.x0, img.y1 - img.y0) < 2) continue;
    // (Nor is an icon in a corner of it, narrower than a signature and a small part of the blank.)
    if (img.x1 - img.x0 < 30 && a < 0.15 * area(rect)) continue;
    // (Nor is a frame painted behind the blank's whole row, its caption inside it too: "Le :   /   /" in a box.)
    if (framesCaption(img, own)) continue;
    const inter = area({ x0: Math.max(img.x0, rect.x0), y0: Math.max(img.y0, rect.y0), x1: Math.min(img.x1, rect.x1), y1: Math.min(img.y1, rect.y1) });
    if (inter >= 0.3 * area(rect) || inter >= 0.4 * a) return true;
    if (signedOver(img, rect, page)) return true;
  }
  return false;
}

/**
 * A signature image set over the line with room between: its foot reaches down to a signature's room (taller than a
 * date's or a name's) or into it, its middle over the room, signature-sized, with no rule across it (a cell's border: a logo
 * hanging into the cell under it) and no words printed on it (a letterhead).
 */
function signedOver(img: Rect, rect: Rect, page: PageModel): boolean {
  const w = img.x1 - img.x0;
  const h = img.y1 - img.y0;
  const cx = (img.x0 + img.x1) / 2;
  if (rect.y1 - rect.y0 <= 24 || cx <= rect.x0 || cx >= rect.x1 || img.y0 >= rect.y0 || img.y1 <= rect.y0 - 4 || img.y1 > rect.y1 + 2) return false;
  if (w < 30 || w > 300 || h < 20 || h > 150) return false;
  if (page.segments.some((g) => g.y > img.y0 + 2 && g.y < img.y1 - 2 && g.x1 > img.x0 && g.x0 < img.x1)) return false;
  return !page.words.some((word) => {
    const x = (word.box.x0 + word.box.x1) / 2;
    const y = (word.box.y0 + word.box.y1) / 2;
    return !isFillToken(word.text) && x > img.x0 && x < img.x1 && y > img.y0 && y < img.y1;
  });
}

/** An image around every printed word of the blank's own line but its blank characters: a frame behind the row. */
function framesCaption(img: Rect, own: readonly Word[]): boolean {
  const printed = own.filter((w) => !isFillToken(w.text) && !isBlankMark(w.text));
  return printed.length > 0 && printed.every((w) => w.box.x0 >= img.x0 - 1 && w.box.x1 <= img.x1 + 1 && w.box.y0 >= img.y0 - 1 && w.box.y1 <= img.y1 + 1);
}

/**
 * Runs of underscores or dots alone on their line, as lines to write on: a caption printed under such a
 * run ("Seller's Initials") names it, as it would a drawn line.
 */
export function fillLines(lines: Line[]): Segment[] {
  const out: Segment[] = [];
  for (const line of lines) {
    if (!line.tokens.every((t) => t === '\0')) continue;
    // (Separators alone are no line: a date's slashes set apart by spaces, "Date :      /      /", leave its room open.)
    if (line.words.every((w) => /^[/.-]$/.test(w.text.trim()))) continue;
    // (A date's parts joined by slashes, "_____/_____/_____", are one line; two long runs either side of
    // a slash are two, one for each signer: "________________ / ________________".)
    let last: Segment | undefined;
    let slash = false;
    for (const [i, w] of line.words.entries()) {
      const run = runLine(w);
      const isSlash = w.text.trim() === '/';
      const long = (x: Word | undefined) => x !== undefined && x.box.x1 - x.box.x0 >= 100;
      if (isSlash && long(line.words[i - 1]) && long(line.words[i + 1])) {
        last = undefined;
        slash = false;
        continue;
      }
      // (Nor are runs that touch, printed in pieces of other glyphs: "........…………………......".)
      if (last && run.x0 - last.x1 <= 0.5 * line.size && (isSlash || slash || touching(line.words[i - 1] as Word, w, line))) {
        last.x1 = run.x1;
        slash = isSlash;
        continue;
      }
      out.push(run);
      last = run;
      slash = isSlash;
    }
  }
  return out;
}

/** Whether word `b` touches `a` before it on their line (in reading order): pieces of one blank. */
export function touching(a: Word, b: Word, line: Line): boolean {
  return (line.rtl ? a.box.x0 - b.box.x1 : b.box.x0 - a.box.x1) <= 0.1 * line.size;
}

/**
 * Further blank runs after the first, one for each party: initials' each after a slash ("Initials: ____ /
 * ____"), right after the one before or after its party's name; signatures' right after each other ("Firma dei genitori
 * ______ ______").
 */
export function moreBlanks(label: Label): Segment[] {
  if (label.next === -1 || label.line.rtl || (label.entry.type !== 'initials' && label.entry.type !== 'signature')) return [];
  const words = label.line.words;
  const out: Segment[] = [];
  // (Initials' each after a slash, or right after the one before, or after the party whose they are: "Paraphes : Bailleur ____
  // Locataire ____", "Initials: ____   ____".)
  if (label.entry.type === 'initials') {
    for (let i = label.next + 1; i < words.length; i++) {
      const w = words[i] as Word;
      if (isFillToken(w.text)) {
        const before = words[i - 1] as Word;
        if (!isFillToken(before.text) || !touching(before, w, label.line)) out.push(runLine(w));
      } else if (!/^\/$/.test(w.text.trim()) && !(partyAt([normalizeToken(w.text)], 0) !== null && isFillToken((words[i + 1] as Word | undefined)?.text ?? '')))
        break;
    }
    return out;
  }
  // (Signatures' right after each other, 60 pt long at least; not a piece of the blank before, printed apart. Not when the caption
  // asks for a name too: "Signature and Printed Name ____ ____", the name's blank after the signature's.)
  if (words.slice(0, label.next).some((w) => w.box.x0 >= label.box.x0 - 1 && NAME_WORDS.has(normalizeToken(w.text)))) return out;
  for (let i = label.next + 1; i < words.length && isFillToken((words[i] as Word).text) && (words[i] as Word).box.x1 - (words[i] as Word).box.x0 >= 60; i++)
    if (!touching(words[i - 1] as Word, words[i] as Word, label.line)) out.push(runLine(words[i] as Word));
  return out;
}

/**
 * Runs of underscores at least 100 pt long that open their line ("____________ DATE: ____"): a caption
 * printed over such a run ("SIGNATURE OF PARTICIPANT:") names it, as it would a line of its own.
 */
export function leadingRuns(lines: Line[]): Segment[] {
  return lines
    .filter((l) => !l.rtl && l.words.length > 1 && l.tokens[0] === '\0' && l.tokens.some((t) => t !== '\0'))
    .map((l) => l.words[0] as Word)
    .filter((w) => w.box.x1 - w.box.x0 >= 100)
    .map(runLine);
}

/** Words naming where a document is signed ("Lieu", "Ort", "Luogo"), as the lexicon writes them. */
export const PLACE_WORDS = new Set([
  'lieu',
  'ort',
  'place',
  'luogo',
  'lugar',
  'local',
  'localidade',
  'localidad',
  'localita',
  'city',
  'ville',
  'ciudad',
  'cidade',
  'citta',
]);
/** What opens a place's blank alone on its row: a place word, or a word saying "at" ("à ……", "Ort: ____", "in ____"). */
const PLACE_BEFORE = new Set([...PLACE_WORDS, 'a', 'in', 'en', 'em', 'at']);

/** Blanks but those a place word opens on their row ("à ……" over "Signature"): the place's, not a line for a caption under it. */
export function unplaced<R extends Segment>(runs: R[], lines: readonly Line[]): R[] {
  const places = lines.filter((l) => l.tokens.length === 1 && PLACE_BEFORE.has(l.tokens[0] as string));
  return runs.filter(
    (r) => !places.some((l) => l.box.x1 <= r.x0 + 1 && r.x0 - l.box.x1 <= Math.max(48, 3 * l.size) && Math.abs(l.baseline - r.y) <= 0.6 * l.size),
  );
}

/** Words of a condition ending with a colon before a blank ("If applicable:", "le cas échéant :", "falls zutreffend:"): they ask for nothing. */
const CONDITIONS = new Set([
  'applicable',
  'zutreffend',
  'echeant',
  'aplica',
  'applicabile',
  'aplicavel',
  'optional',
  'facultatif',
  'facultativo',
  'facoltativo',
]);

/**
 * Blanks but those a caption with its colon opens on their row ("PHONE: ____" over "SIGNATURE:"), or heads as a
 * stack of two or more under it ("Anschrift des Verbrauchers:" over two lines for the address): that caption's,
 * not a line for a caption under it. A condition ending with its colon ("If Applicable: ____") is no caption.
 */
export function unasked<R extends Segment>(runs: R[], lines: readonly Line[]): R[] {
  const stacked = new Set(lines.flatMap((l) => stackUnder(l, runs, lines)));
  return onRowUnasked(runs, lines).filter((r) => !stacked.has(r));
}

/**
 * The runs stacked right under a line ending on its colon with nothing after it, at its left edge (alike in
 * width, at most three lines apart, no words between), down to one with a caption right under it, when there
 * are two or more.
 */
function stackUnder<R extends Segment>(caption: Line, runs: R[], lines: readonly Line[]): R[] {
  const last = caption.words[caption.words.length - 1] as Word;
  // (Or a caption whose own run goes on over lines of runs as wide: "Titolo e breve sintesi del lavoro ……" over three more.)
  const runsOn = caption.tokens[caption.tokens.length - 1] === '\0' && caption.tokens.some((t) => t !== '\0');
  if (caption.rtl || !((/[:：]$/.test(last.text.trim()) && !caption.tokens.includes('\0')) || runsOn)) return [];
  const words = lines.filter((l) => l !== caption && !l.tokens.every((t) => t === '\0'));
  // (A run with a caption right under it is that caption's line: "Kaution …:" over its run and the run over "Ort, Datum, Unterschrift";
  // a row with a blank of its own under it is no such caption.)
  const captionUnder = (r: R) =>
    words.some((l) => !l.tokens.includes('\0') && l.box.y0 >= r.y - 1 && l.baseline - r.y <= 1.6 * l.size && l.box.x0 < r.x1 && l.box.x1 > r.x0);
  const stack: R[] = [];
  let y = caption.baseline;
  for (;;) {
    const next = runs.find(
      (r) =>
        r.y > y + 0.5 * caption.size &&
        r.y - y <= 3 * caption.size &&
        Math.abs(r.x0 - caption.box.x0) <= 4 &&
        (stack.length === 0 ? !runsOn || Math.abs(r.x1 - caption.box.x1) <= 12 : Math.abs(r.x1 - (stack[0] as R).x1) <= 4) &&
        !words.some((l) => l.box.y0 > y && l.box.y1 < r.y - 1 && l.box.x0 < r.x1 && l.box.x1 > r.x0),
    );
    if (!next || captionUnder(next)) break;
    stack.push(next);
    y = next.y;
  }
  return stack.length >= 2 ? stack : [];
}

function onRowUnasked<R extends Segment>(runs: R[], lines: readonly Line[]): R[] {
  const asks = (l: Line, i: number) => {
    const w = l.words[i] as Word;
    if (!/[:：]$/.test(w.text.trim())) return false;
    const said = w.text.trim().length > 1 ? w.text : (l.words[i - 1]?.text ?? '');
    return !CONDITIONS.has(normalizeToken(said.replace(/[:：]$/, '')));
  };
  return runs.filter(
    (r) =>
      !lines.some(
        (l) =>
          Math.abs(l.baseline - r.y) <= 0.6 * l.size &&
          l.words.some((w, i) => asks(l, i) && w.box.x1 <= r.x0 + 1 && r.x0 - w.box.x1 <= Math.max(12, 1.2 * l.size)),
      ),
  );
}

const PARTICIPLES = new Set(['signed', 'signe', 'signee', 'firmato', 'firmata', 'firmado', 'firmada', 'assinado', 'assinada', 'unterschrieben']);

/**
 * "Signed" after the words it says something of, with no colon and no blank after it ("* Le règlement signé"): words, no
 * caption. Nor is "Signed:" with a name typed after it, before its blank: a typed signature ("Signed: S. van Heerden ____");
 * nor a signature caption with a conformed signature after it ("Signature: /s/ J. Smith"): signed.
 */
export function signedInText(label: Label): boolean {
  const after = label.line.words.filter((w) => w.box.x0 >= label.box.x1 - 0.5).map((w) => w.text.trim());
  if (label.entry.type === 'signature' && /^\/s\/?$/i.test(after.find((t) => !/^[:：]$/.test(t)) ?? '')) return true;
  if (label.entry.tokens.length !== 1 || !PARTICIPLES.has(label.entry.tokens[0] as string)) return false;
  if (label.inSentence === true && !label.colon && label.next === -1) return true;
  const blank = after.findIndex((t) => isFillToken(t));
  const name = after.slice(0, Math.max(0, blank));
  const typed = (t: string, i: number) => /^\p{Lu}[\p{L}'’.-]*$/u.test(t) || (i > 0 && /^(van|von|de|da|di|del|der|do|dos|la|le)$/.test(t));
  return label.colon && blank >= 2 && blank <= 4 && name.every(typed);
}

/** Lines drawn along a run of underscores or dots, its underline: the same blank ("Date: ______" over a rule under its run). */
export function underlinesOf(run: Segment, rules: readonly Segment[]): Segment[] {
  return rules.filter((r) => Math.abs(r.y - run.y) <= 3 && overlap1(r.x0, r.x1, run.x0, run.x1) >= 0.8 * (r.x1 - r.x0));
}

/**
 * Images of a signature's size below the page's top fifth (a letterhead's logo is above it): signatures already inked.
 * A date's blank beside one is the signing date still to write ("Date: ____" over a party's inked signature and name).
 */
export function signatureImages(page: Pick<PageModel, 'images' | 'height'>): Rect[] {
  return (page.images ?? []).filter((r) => r.x1 - r.x0 >= 50 && r.x1 - r.x0 <= 260 && r.y1 - r.y0 >= 15 && r.y1 - r.y0 <= 90 && r.y0 > 0.2 * page.height);
}
