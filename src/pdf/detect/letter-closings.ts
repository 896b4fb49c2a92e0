/**
 * Room to sign a letter: its closing formula ("Yours faithfully,", "Thanking you,", "Atentamente,",
 * "Mit freundlichen Grüßen") stands over a signature's height of empty page, then the signer's name or
 * office ("Training and Placement Officer"). The place to sign is that room, a signature wide from the
 * left of the name. Not where a line is drawn there (its own rules take it), nor on a page that says no
 * signature is needed ("computer generated, no signature is required").
 */
import { written } from './blank-geometry.js';
import { fillLines } from './filled-blanks.js';
import { namesSigner } from './caption-roles.js';
import { normalizeToken } from './token-folding.js';
import { FIELD_HEIGHT, FIELD_WIDTH, overlap1, type Line, type PageModel, type Rect, type Segment, type Suggestion } from './page-model.js';

/** Closing formulas, as a line's whole normalised tokens. */
const CLOSINGS = new Set(
  [
    ...['thanking you', 'thank you', 'yours faithfully', 'yours sincerely', 'yours truly', 'sincerely', 'sincerely yours', 'regards'],
    ...['best regards', 'kind regards', 'warm regards', 'with regards', 'respectfully', 'respectfully yours', 'yours respectfully'],
    ...['very truly yours', 'yours very truly', 'truly yours', 'faithfully yours', 'cordially', 'cordially yours', 'respectfully submitted', 'best wishes'],
    ...['with best regards', 'with kind regards', 'warmest regards', 'warm wishes', 'with best wishes'],
    ...['atentamente', 'cordialmente', 'saludos cordiales', 'atenciosamente', 'cordialement', 'bien cordialement', 'sinceres salutations'],
    ...['mit freundlichen grussen', 'freundliche grusse', 'hochachtungsvoll', 'distinti saluti', 'cordiali saluti', 'in fede', 'met vriendelijke groet'],
    ...['met vriendelijke groeten', 'hoogachtend', 'met hoogachting'],
    // A request's closing (Portuguese "Pede deferimento": it asks for a favourable decision).
    ...['pede deferimento', 'espera deferimento', 'aguarda deferimento', 'nestes termos pede deferimento', 'termos em que pede deferimento'],
  ].map((s) => s.split(' ').join('\u0001')),
);
/** The words of a letter's greeting ("Dear Sir,", "Distinguidos Señores,", "Sehr geehrte Damen und Herren,"), normalised. */
export const GREETING_WORDS = [
  ...['dear', 'sir', 'sirs', 'madam', 'senor', 'senores', 'senora', 'estimado', 'estimados', 'distinguidos', 'prezado', 'prezados'],
  ...['monsieur', 'messieurs', 'madame', 'herren', 'damen', 'geehrte', 'geehrter', 'gentile', 'egregio', 'caro', 'geachte'],
];
/** Formulas that close a letter's last sentence, however long ("Je vous prie d'agréer … mes salutations distinguées.", "Sin otro particular, le saluda atentamente."). */
const SENTENCE_ENDS = [
  ...['salutations distinguees', 'sentiments distingues', 'salutations respectueuses', 'consideration distinguee', 'meilleures salutations'],
  ...['le saluda atentamente', 'les saluda atentamente', 'distinti saluti', 'cordiali saluti'],
  // (Arabic: "وتفضلوا بقبول فائق الاحترام والتقدير", "والسلام عليكم ورحمة الله وبركاته".)
  ...['فائق الاحترام', 'فائق الاحترام والتقدير', 'ورحمة الله وبركاته'],
].map((s) => s.split(' ').map(normalizeToken));
export const isClosing = (line: Line): boolean =>
  (!line.rtl && CLOSINGS.has(line.tokens.join('\u0001'))) ||
  SENTENCE_ENDS.some((end) => end.every((t, i) => line.tokens[line.tokens.length - end.length + i] === t));

/** A closing ("In fede", "Yours faithfully,") with a place to sign found already ending right under it, anywhere along its row (within three and a half lines): that place is the closing's. */
export function closesOver(line: Line, found: readonly Suggestion[]): boolean {
  const ends = (s: Suggestion) => s.y + s.height > line.baseline && s.y + s.height <= line.baseline + 3.5 * line.size;
  return isClosing(line) && found.some((s) => s.type === 'signature' && ends(s));
}
/** "No signature is required", "signature not required" (normalised tokens). */
const NO_SIGNATURE = /\bno signatures? (?:is |are )?(?:required|needed)\b|\bsignatures? (?:is |are )?not (?:required|needed)\b/;
/** The least room between the closing and the name under it that a signature is written in. */
const LEAST = 24;
/** How far under the closing the signer's name is looked for. */
const NAME_BELOW = FIELD_HEIGHT.signature + 40;

export function roomsUnderClosings(lines: Line[], page: PageModel): Array<{ rect: Rect; line: Line }> {
  const text = lines.filter(written);
  if (NO_SIGNATURE.test(text.map((l) => l.tokens.join(' ')).join(' '))) return [];
  const rules = [...page.segments, ...fillLines(lines)];
  const out: Array<{ rect: Rect; line: Line }> = [];
  for (const closing of text) {
    if (!isClosing(closing)) continue;
    // (The closing's column: from a little left of it to well past it, where the signer's name and a line to sign may stand.)
    // (Or right of it to the page's edge: the signer's block at the right under a closing at the left, "Distinti saluti." over "Mario Rossi".)
    // (Right to left, from the page's left edge to a little right of it: the signer's block at the left under an Arabic closing.)
    const inColumn = (x0: number, x1: number) =>
      closing.rtl ? overlap1(x0, x1, 0, closing.box.x1 + 20) > 0 : overlap1(x0, x1, closing.box.x0 - 20, Math.max(closing.box.x1 + 200, page.width)) > 0;
    // (Printed: a signature in ink OCR reads as marks it has no confidence in is no name; the name under it is.)
    const below = text
      .filter((l) => l.box.y0 > closing.box.y1 && l.box.y0 - closing.box.y1 <= NAME_BELOW && inColumn(l.box.x0, l.box.x1) && printed(l))
      .sort((a, b) => a.box.y0 - b.box.y0)[0];
    if (!below || below.box.y0 - closing.box.y1 < LEAST) continue;
    // (From where the name starts when it stands right of the closing's end, the signer's block at the right; else from the closing's start.)
    const right = below.box.x1 <= closing.box.x0 - 20 ? below.box.x1 : Math.max(closing.box.x1, below.box.x1);
    const x0 = closing.rtl
      ? Math.max(18, right - FIELD_WIDTH.signature)
      : below.box.x0 >= closing.box.x1 + 20
        ? below.box.x0
        : Math.min(closing.box.x0, below.box.x0);
    const x1 = closing.rtl ? right : Math.min(page.width - 18, x0 + FIELD_WIDTH.signature);
    const y1 = below.box.y0 - 2;
    const y0 = Math.max(closing.box.y1 + 2, y1 - FIELD_HEIGHT.signature);
    // (Nor where a line is drawn between them, or right under who signs named as such: a caption over its line, "Pede deferimento"
    // over "O Requerente" over "____".)
    const end = namesSigner(below.tokens) ? below.box.y1 + FIELD_HEIGHT.signature : below.box.y0;
    if (rules.some((s) => s.y > closing.box.y1 && s.y < end && inColumn(s.x0, s.x1))) continue;
    if (text.some((l) => l !== closing && l !== below && l.box.y1 > y0 && l.box.y0 < y1 && overlap1(l.box.x0, l.box.x1, x0, x1) > 0)) continue;
    out.push({ rect: { x0, y0, x1, y1 }, line: closing });
  }
  return out;
}

/**
 * Lines drawn under a closing formula ("Atentamente," over "____" over "Alumno"; "Pede deferimento" over
 * "____"): the first row of lines within two signatures' height under it, with nothing written between, each
 * a place to sign. Lines 80 to 360 pt long (or shorter than the text's column), not taken by a caption of their own.
 */
export function linesUnderClosings(lines: Line[], segments: readonly Segment[], used: ReadonlySet<Segment>): Segment[] {
  const text = lines.filter(written);
  const out: Segment[] = [];
  const ends = attestationEnds(text);
  // (At most 360 pt long, or four fifths of the widest line of text: no rule across the text's column.)
  const longest = Math.max(360, 0.8 * Math.max(0, ...text.map((l) => l.box.x1 - l.box.x0)));
  for (const closing of text) {
    if (!isClosing(closing) && !ends.includes(closing)) continue;
    const clear = (s: Segment) =>
      s.y > closing.box.y1 &&
      s.y - closing.box.y1 <= 2 * FIELD_HEIGHT.signature &&
      s.x1 - s.x0 >= 80 &&
      s.x1 - s.x0 <= longest &&
      !text.some((l) => l !== closing && l.box.y0 >= closing.box.y1 - 1 && l.box.y1 <= s.y + 1 && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0);
    // (Under an attestation clause, not a rule of a double border nor one over a heading: the page's next section.)
    const ruled = (s: Segment) =>
      segments.some((o) => o.x1 - o.x0 >= 40 && Math.abs(o.y - s.y) > 1 && Math.abs(o.y - s.y) <= 20 && overlap1(o.x0, o.x1, s.x0, s.x1) > 0) ||
      text.some((l) => l.size > 1.3 * closing.size && l.box.y0 >= s.y - 1 && l.box.y0 - s.y <= 1.5 * l.size && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0);
    const below = segments.filter((s) => clear(s) && (isClosing(closing) || !ruled(s)));
    const first = Math.min(...below.map((s) => s.y));
    for (const s of below) if (s.y <= first + 3 && !used.has(s) && !out.includes(s)) out.push(s);
  }
  return out;
}

/** An attestation clause opening its paragraph: the signer attests by signing under it ("IN WITNESS WHEREOF, I have hereunto set my hand"). */
const ATTESTATION = /\b(?:in witness whereof|en fe de lo cual|en foi de quoi|em testemunho do que|zu urkund dessen)\b/;

/**
 * The last line of each paragraph an attestation clause opens (the lines under it, each at most a line's
 * height below the one over it, in its column): lines drawn under it are signed as under a closing.
 */
function attestationEnds(text: readonly Line[]): Line[] {
  const out: Line[] = [];
  for (const clause of text) {
    if (clause.rtl || !ATTESTATION.test(clause.tokens.join(' '))) continue;
    let last = clause;
    for (;;) {
      const bottom = last.box.y1;
      const next = text
        .filter((l) => l.box.y0 > bottom - 2 && l.box.y0 - bottom <= 0.8 * clause.size && overlap1(l.box.x0, l.box.x1, clause.box.x0, clause.box.x1 + 200) > 0)
        .sort((a, b) => a.box.y0 - b.box.y0)[0];
      if (!next) break;
      last = next;
    }
    out.push(last);
  }
  return out;
}

/** A line read as print: OCR's mean confidence in its words at least one half (text-layer words have 1). */
function printed(l: Line): boolean {
  return l.words.reduce((n, w) => n + w.confidence, 0) >= 0.5 * l.words.length;
}
