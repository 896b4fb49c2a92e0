/**
 * Headings among the captions: a word heading signatures ("Signatures", "Unterschriften"), a section's title by its words
 * ("DISCLAIMER AND SIGNATURE", "7. Unterschrift", "Article 59 — Signature") or by its size. A heading has no blank of its own,
 * but for a word heading signatures alone over an empty part of the page (`headingOverRoom`).
 */
import { matchLabels } from './label-matching.js';
import { normalizeToken } from './token-folding.js';
import { SIGNATURE_HEADINGS } from './lexicon-european.js';
import { ARTICLES, OF, STAMP_WORDS } from './lexicon.js';
import { FIELD_HEIGHT, FIELD_WIDTH, overlap1, type Label, type Line, type PageModel, type Rect } from './page-model.js';

/**
 * A caption that is a word heading signatures ("Signatures", "Unterschriften"); not one naming whose they are after "of", without
 * a colon ("Signatures of the Parents"), unless they are a contract's parties' ("SIGNATURES OF THE PARTIES" heads its section).
 * (Only English "of": "FIRMAS DE ACEPTACIÓN" says what the signatures do, not whose they are.)
 */
export const headingWord = (label: Label): boolean => SIGNATURE_HEADINGS.has(label.entry.tokens.join(' ')) && !whose(label);
function whose(label: Label): boolean {
  const words = label.line.words.map((w) => normalizeToken(w.text.trim()));
  const k = words.findIndex((w) => SIGNATURE_HEADINGS.has(w));
  return k !== -1 && words[k + 1] === 'of' && !label.colon && !words.some((w) => PARTIES.has(w));
}
const PARTIES = new Set(['parties', 'party', 'contracting']);

/**
 * A heading by its words, with no colon and nothing after it on its line: no line of its own. So is a caption
 * numbered as a section of the form, alone after its number ("7. Unterschrift", "III. Signature"), but in a table's
 * cell (`inCell`), where the number is the form's item's ("12. Signature" | "13. Date" over their room).
 */
export function headingByWords(label: Label, inCell = false): boolean {
  if (label.colon || label.next !== -1) return false;
  const all = label.line.words.filter((w) => w.box.x1 <= label.box.x0 + 1).map((w) => w.text.trim());
  // (After a section's number, "6.", "VI)", "Article 59 —": a section's title; or one joining it to words that ask for nothing: "DISCLAIMER AND SIGNATURE",
  // "Witness Statement & Signature", "6. DECLARAÇÃO E ASSINATURA".)
  const n = /^(\d{1,2}|[IVX]{1,4})[.)]$/.test(all[0] ?? '')
    ? 1
    : /^(article|art\.?|artículo|artigo|articolo|artikel|§)$/i.test(all[0] ?? '') && /^\d{1,3}[.)]?$/.test(all[1] ?? '')
      ? 2
      : 0;
  const before = all.slice(n).filter((w) => n === 0 || !/^[—–:.-]$/.test(w));
  const lead = before.slice(0, -1);
  const joined =
    lead.length > 0 &&
    lead.length <= 2 &&
    (n > 0 ? /^(and|&|et|e|y|und|en)$/i : /^(and|&)$/i).test(before.at(-1) as string) &&
    lead.every((w) => matchLabels([normalizeToken(w)]).length === 0) &&
    // (A stamp asked for with the signature is no heading's word: "Stamp and Signature", "Official Seal & Signature".)
    !lead.some((w) => STAMP_WORDS.has(normalizeToken(w)));
  return headingWord(label) || joined || (n > 0 && before.length === 0 && !inCell);
}

/**
 * A caption in larger type than the page's text (over small print) is a heading, with no room of its own,
 * unless it ends with its colon among other words of its row ("Fait à :  le :  signature :") or alone on its
 * row ("Signature :" under the conditions), a heading's word aside ("Signatures :"). A form's captions are often
 * set a size or two over its text (12 pt over 9 or 10): larger by less than a third, only a heading's word is one.
 */
export function headingBySize(label: Label, lines: readonly Line[], body: number, ocr = false): boolean {
  // (On a scan, OCR sizes a word by its ink over the baseline, a capital's or an ascender's, or only its small letters' for a word
  // of them alone, "norme": its sizes vary by a third from word to word, and a heading is larger by half.)
  if (label.line.size <= (ocr ? 1.5 : headingWord(label) ? 1.15 : 1.3) * body) return false;
  if (label.colon && label.bare && !headingWord(label)) return false;
  return !(label.colon && lines.some((l) => l !== label.line && Math.abs(l.baseline - label.line.baseline) < 2));
}

/** A heading on a page of these lines, whose body text is `body` points (read by OCR, `ocr`): by its words or by its size. */
export const headingOf =
  (lines: readonly Line[], body: number, ocr = false) =>
  (label: Label): boolean =>
    headingByWords(label) || headingBySize(label, lines, body, ocr);

/**
 * A word heading signatures alone on its line without a colon ("SIGNATURES") over an empty part of the page, nothing
 * written or filled in within a signature's height and a half under it along a signature's width, and no rule across
 * the page from a signature's height over it to there: the room under it is where one signs.
 */
export function headingOverRoom(label: Label, lines: readonly Line[], page: PageModel): boolean {
  if (!headingWord(label) || label.colon || label.next !== -1 || label.line.words.length > 2) return false;
  const x0 = label.box.x0;
  const x1 = x0 + FIELD_WIDTH.signature;
  const y0 = label.box.y1;
  const y1 = y0 + 1.5 * FIELD_HEIGHT.signature;
  const across = (a: number, b: number) => overlap1(a, b, x0, x1) > 0;
  // (Its own underline aside, no rule across the page from a signature's height over it to the bottom of its room: a line
  // over it is its blank, and one along its row, however far, its section's.)
  const underline = (r: { x0: number; x1: number; y: number }) => r.y >= y0 - 1 && r.y <= y0 + 3 && overlap1(r.x0, r.x1, label.box.x0, label.box.x1) > 0;
  return (
    y1 <= page.height &&
    !lines.some((l) => l !== label.line && l.box.y0 < y1 && l.box.y1 > y0 + 1 && across(l.box.x0, l.box.x1)) &&
    !page.segments.some((r) => !underline(r) && r.y > label.box.y0 - FIELD_HEIGHT.signature && r.y < y1) &&
    !page.widgets.some((w) => w.box.y0 < y1 && w.box.y1 > y0 && across(w.box.x0, w.box.x1))
  );
}

/**
 * A caption ending its line with its colon over one of its kind, with its colon, signed on the next line or the one after in its
 * column (`under`: the captions under it; `signed`: those given a place): it heads that one ("3. Signature of the Member:" over
 * "Signature: ____"), with no room of its own.
 */
export function headsSignedUnder(label: Label, under: readonly Label[], signed: ReadonlyMap<Label, unknown>): boolean {
  if (!label.colon || label.next !== -1) return false;
  return under.some((o) => signed.has(o) && o.entry.type === label.entry.type && o.colon && Math.abs(o.line.box.x0 - label.line.box.x0) <= 6);
}

/**
 * A signature caption ending its line with its colon, naming whose it is after "of" ("Signature of Subject:"), over a place to
 * sign found within six of its lines under it whose caption under it names the same signer ("Subject" under its line): it heads
 * that place, with no room of its own.
 */
export function headsPlaceOfSigner(label: Label, places: readonly Rect[], lines: readonly Line[]): boolean {
  if (label.entry.type !== 'signature' || !label.colon || label.next !== -1) return false;
  const tokens = label.line.tokens.filter((t) => t !== '\0');
  const of = tokens.findIndex((t, k) => OF.has(t) && k > 0);
  const signer = of > 0 ? tokens.slice(of + 1).filter((t) => !ARTICLES.has(t) && /\p{L}/u.test(t)) : [];
  if (signer.length === 0) return false;
  const size = label.line.size;
  return places.some((p) => {
    if (p.y0 < label.box.y1 || p.y0 - label.box.y1 > 6 * size) return false;
    const caption = lines.find((l) => l.box.y0 >= p.y1 - 2 && l.box.y0 - p.y1 <= 1.5 * l.size && overlap1(l.box.x0, l.box.x1, p.x0, p.x1) > 0);
    return caption !== undefined && signer.every((t) => caption.tokens.includes(t));
  });
}
