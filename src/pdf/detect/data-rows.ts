/**
 * Rows of data to fill in ("BIC: ____   Bank: ____", "Occupation: ____" over "Employer: ____", "Bank: ____" over "IBAN: ____"): a party named
 * among them with its blank asks for that party's name or details, not for its signature.
 */
import { NAME_WORDS, isFillToken, partyAt } from './lexicon.js';
import { normalizeToken } from './token-folding.js';
import { matchLabels } from './label-matching.js';
import { onRowOf, type Line, type Word } from './page-model.js';

/** Another caption with a blank on the row, naming no party: the row is one of data to fill in. */
export function dataRow(line: Line, lines: Line[]): boolean {
  return lines.some(
    (l) =>
      l !== line &&
      onRowOf(l, line) &&
      // (Its blank may be drawn, not written: a caption ending on its colon, "BIC:" before a line.)
      (l.tokens.includes('\0') || /[:：]$/.test((l.words[l.words.length - 1] as Word).text.trim())) &&
      asksData(l),
  );
}

/** The nearest line over (-1) or under (1) the line, starting at its left edge. */
function nextRow(line: Line, lines: readonly Line[], direction: 1 | -1): Line | undefined {
  return lines
    .filter((l) => l !== line && Math.abs(l.box.x0 - line.box.x0) <= 3 && direction * (l.baseline - line.baseline) > 0.5 * line.size)
    .sort((a, b) => direction * (a.baseline - b.baseline))[0];
}

/**
 * The rows right over and right under the line, at its left edge and less than four lines away, are captions
 * with their blanks naming no party and asking for no signature: the line is one of a form's rows of data
 * ("Occupation: ____" / "Employer: ____" / "Daytime Phone Number: ____").
 */
export function amongDataRows(line: Line, lines: Line[]): boolean {
  const rows = [nextRow(line, lines, -1), nextRow(line, lines, 1)];
  return rows.every(
    (l) =>
      l !== undefined &&
      Math.abs(l.baseline - line.baseline) <= 4 * line.size &&
      l.tokens.includes('\0') &&
      asksData(l) &&
      !matchLabels(l.tokens).some((m) => m.entry.type === 'signature' || m.entry.type === 'initials'),
  );
}

/**
 * A caption with its colon over or under the line at its left edge, less than four lines away, naming no party:
 * the line is a row of a column of data captions ("BIC:" over "Bank:").
 */
export function inDataColumn(line: Line, lines: readonly Line[]): boolean {
  return (
    !nameUnder(line, lines) &&
    lines.some(
      (l) =>
        l !== line &&
        Math.abs(l.box.x0 - line.box.x0) <= 3 &&
        Math.abs(l.baseline - line.baseline) > 0.5 * line.size &&
        Math.abs(l.baseline - line.baseline) <= 4 * line.size &&
        l.words.slice(0, 4).some((w) => /[:：]$/.test(w.text.trim())) &&
        asksData(l),
    )
  );
}

/**
 * The row right under the line, at its left edge, asks for a name after its colon ("Witness: ____" over "Print Name: ____"): the
 * name is asked there, so the party's row over it is where that party signs, not a datum.
 */
function nameUnder(line: Line, lines: readonly Line[]): boolean {
  const under = nextRow(line, lines, 1);
  if (!under || under.baseline - line.baseline > 3 * line.size) return false;
  const colon = under.words.findIndex((w) => /[:：]$/.test(w.text.trim()));
  return colon !== -1 && colon < 3 && under.words.slice(0, colon + 1).some((w) => NAME_WORDS.has(normalizeToken(w.text.trim().replace(/[:：]$/, ''))));
}

/**
 * The row right under the line, at its left edge and less than three lines away, captions a blank after its colon, naming no
 * party and asking for no signature nor date: the line opens a stack of rows of data ("Bank: ____" over "IBAN: ____"). (Last in
 * such a stack, under the data it follows, "Name: ____" over "Employer: ____", a party still signs its line.)
 */
export function opensDataRows(line: Line, lines: readonly Line[]): boolean {
  return lines.some((l) => {
    const gap = l.baseline - line.baseline;
    if (l === line || Math.abs(l.box.x0 - line.box.x0) > 4 || gap < 0.8 * line.size || gap > 3 * line.size || !l.tokens.includes('\0')) return false;
    const head = l.words.slice(
      0,
      l.words.findIndex((w) => isFillToken(w.text)),
    );
    return (
      head.length > 0 &&
      head.length <= 4 &&
      /[:：]$/.test((head.at(-1) as Word).text) &&
      asksData(l) &&
      matchLabels(l.tokens).every((m) => m.entry.type === 'text')
    );
  });
}

/** A line of words naming no party. */
const asksData = (l: Line): boolean => /[\p{L}]/u.test(l.tokens.join('')) && !l.tokens.some((_, k) => partyAt(l.tokens, k) !== null);
