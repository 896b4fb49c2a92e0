/**
 * The role of whoever signs under a caption: a party named on the caption's line, or by a short line
 * above it in its column (a block heading such as "The Client"); a caption naming whose signature it is, and one that names it
 * on the line under it, where its blank is.
 */
import { ARTICLES, FOR_ORGANISATION, OF, partyAt } from './lexicon.js';
import { normalizeToken } from './token-folding.js';
import { matchLabels, type LabelMatch } from './label-matching.js';
import { SIGNER_WORDS } from './lexicon-european.js';
import { FIELD_HEIGHT, FIELD_WIDTH, ROLE_SEARCH, overlap1, type Label, type Line } from './page-model.js';

const SIGNERS = new Set(SIGNER_WORDS);
const LONG_SIGNERS = SIGNER_WORDS.filter((w) => w.length >= 7);

/**
 * A word naming who signs (normalised), or a compound ending with one ("Vereinsvorsitzender", "Sorgeberechtigter"
 * are written as one word in German: "Unterschrift Vereinsvorsitzender:").
 */
export const isSigner = (token: string): boolean => SIGNERS.has(token) || LONG_SIGNERS.some((w) => token.length >= w.length + 4 && token.endsWith(w));

/** The role a party named on the line gives. */
export function roleOnLine(line: Line): string | undefined {
  for (let k = 0; k < line.tokens.length; k++) {
    const party = partyAt(line.tokens, k);
    if (party) return party.role;
  }
  return undefined;
}

/** The party named by a short line above, in the same column (a block heading such as "The Client"). */
export function roleAbove(line: Line, lines: Line[]): string | undefined {
  const column = line.rtl ? { x0: line.box.x1 - 220, x1: line.box.x1 + 20 } : { x0: line.box.x0 - 20, x1: line.box.x0 + 220 };
  const above = lines
    .filter((l) => l !== line && l.baseline < line.baseline - 1 && line.baseline - l.baseline <= ROLE_SEARCH)
    .filter((l) => overlap1(l.box.x0, l.box.x1, column.x0, column.x1) > 0)
    .filter((l) => (line.rtl ? Math.abs(l.box.x1 - line.box.x1) <= 40 : Math.abs(l.box.x0 - line.box.x0) <= 40))
    .sort((a, b) => b.baseline - a.baseline);
  for (const l of above) {
    if (l.tokens.length > 6) return undefined;
    const role = roleOnLine(l);
    if (role) return role;
  }
  return undefined;
}

/**
 * "Signature" opening its line and naming whose it is, without a colon and with nothing written under it in its column
 * ("Signature of the Land Lord", "Signature of Applicant"): printed under its room to sign. (Not "Signature of
 * Parent/Legal" over "Guardian: ____", nor "Visa de l'agent comptable", an approval's heading over its room; nor French
 * "Signature de l'élève", "Signature des parents", which head the room under them.)
 */
export function namesWhoseSignature(label: Label, lines: readonly Line[]): boolean {
  const { line, entry } = label;
  const [first, second] = line.words.map((w) => normalizeToken(w.text));
  // (Or several: "Signatures of the Parents".)
  const word = entry.tokens[0] as string;
  if (entry.type !== 'signature' || label.colon || entry.tokens.length !== 1 || !['signature', 'signatures'].includes(word) || first !== word) return false;
  if (!OF.has(second ?? '') || ['de', 'du', 'des', 'd'].includes(second ?? '') || line.words.some((w) => /[:：]/.test(w.text))) return false;
  // (Words under it within a signature's height make it a block's heading, signed under it: the signer's name typed there;
  // not another caption printed under its own room, "Name of Applicant" under "Signature of Applicant".)
  return !lines.some(
    (l) =>
      l !== line &&
      l.box.y0 >= line.box.y1 - 1 &&
      l.box.y0 - line.box.y1 <= FIELD_HEIGHT.signature &&
      overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x1) > 0 &&
      !(l.box.y0 - line.box.y1 >= 0.75 * FIELD_HEIGHT.signature && matchLabels(l.tokens).length > 0),
  );
}

/**
 * A caption printed under the room where one signs: German "Unterschrift" and "(Authorized) Signatory" without a colon,
 * and "Signature of …" naming whose it is (`namesWhoseSignature`).
 */
export function signsOver(label: Label, lines: readonly Line[]): boolean {
  return (
    (['unterschrift', 'signatory'].includes(label.entry.tokens[0] as string) && !label.colon) || namesWhoseSignature(label, lines) || remarkUnder(label, lines)
  );
}

/**
 * A signature caption alone on its line, without a colon, over the signer's office in parentheses alone on the line right
 * under it, a capital opening it ("Signature and Seal" over "(Principal)"): the foot of a signature block, printed under its
 * room. (Not the caption's own words going on in parentheses: "Signature du bailleur" over "(ou de son représentant)".)
 */
function remarkUnder(label: Label, lines: readonly Line[]): boolean {
  const { line } = label;
  if (label.entry.type !== 'signature' || !label.bare || label.colon) return false;
  return lines.some((l) => {
    const text = l.words.map((w) => w.text).join(' ');
    return (
      l !== line &&
      l.box.y0 >= line.box.y1 - 1 &&
      l.box.y0 - line.box.y1 <= 0.8 * line.size &&
      l.box.x0 >= line.box.x0 - 2 &&
      l.box.x1 <= line.box.x1 + 2 &&
      l.words.length <= 4 &&
      /^\(\p{Lu}.*\)$/u.test(text)
    );
  });
}

/** The line right under a caption's, starting where it starts, that goes on with it to a colon and a blank, with no caption of its own ("Signature of Participant or" over "Guardian: ____"). */
export function goesOnToBlank(line: Line, lines: readonly Line[]): boolean {
  return lines.some(
    (l) =>
      l !== line &&
      l.box.y0 >= line.box.y1 - 1 &&
      l.box.y0 - line.box.y1 <= line.size &&
      Math.abs(l.box.x0 - line.box.x0) <= 2 &&
      l.tokens.includes('\0') &&
      /[:：][\s_.…]*$/.test(l.words.map((w) => w.text).join(' ')) &&
      matchLabels(l.tokens).length === 0,
  );
}

/**
 * A caption's line with text under it within 150 pt, across a signature's width from its start, and more room under it
 * than over it (over it, the text it follows): "Signature of the Trainee" under a question's answer space and over a
 * longer one before the next section is signed under.
 */
export function moreRoomUnder(line: Line, lines: readonly Line[]): boolean {
  const across = (l: Line) => l !== line && overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x0 + FIELD_WIDTH.signature) > 0;
  const under = Math.min(...lines.filter((l) => across(l) && l.box.y0 >= line.box.y1 - 1).map((l) => l.box.y0 - line.box.y1));
  const over = Math.min(...lines.filter((l) => across(l) && l.box.y1 <= line.box.y0 + 1).map((l) => line.box.y0 - l.box.y1));
  return under < 150 && under > Math.min(200, over) + 10;
}

/** Tokens naming who signs as such: a signer's word or a party's name ("O Requerente", "Le représentant légal", "Tenant"). */
export const namesSigner = (tokens: readonly string[]): boolean => tokens.some((t, k) => SIGNERS.has(t) || partyAt(tokens, k) !== null);

/** A company's caption next to the office of whoever signs for it ("Company Representative", "Représentant de la société"): it names the signer, it asks for no company. */
export function signsForCompany(tokens: readonly string[], m: LabelMatch): boolean {
  if (m.entry.fieldKey !== 'company') return false;
  let k = m.start - 1;
  while (k > 0 && (ARTICLES.has(tokens[k] as string) || OF.has(tokens[k] as string))) k--;
  return FOR_ORGANISATION.has(tokens[m.end + 1] as string) || (k < m.start - 1 && FOR_ORGANISATION.has(tokens[k] as string));
}
