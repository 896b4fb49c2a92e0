/**
 * Rows of captions naming who signs, whether or not the lexicon knows their words: the row under a heading
 * that asks for the signatures ("Signatures précédée de la mention « Lu et approuvé » :" over "Le
 * Bénéficiaire :   L'Association Maths et Maryam :"), each caption ending on its colon; and a row of two or
 * more captions each saying for whom one signs ("Pour l'organisme   Pour le stagiaire", "For ACME Ltd   For
 * the Client", "Für den Verein   Für das Mitglied"). Each names whoever signs in the room under it.
 */
import { headingWord } from './blank-space.js';
import type { PartyCaption } from './signature-blocks.js';
import type { Label, Line } from './page-model.js';

/** Words that open a caption saying for whom one signs: "Pour", "For", "Für", "Per", "Por", "Pela", "Namens". */
const FOR = new Set(['pour', 'for', 'fur', 'per', 'por', 'pela', 'pelo', 'para', 'namens', 'seitens', 'voor', 'عن']);

/** The captions on the row right under a signatures heading, as parties' captions (role "signer"); none the known ones hold already. */
export function namesUnderHeading(lines: readonly Line[], labels: readonly Label[], known: readonly PartyCaption[]): PartyCaption[] {
  const out: PartyCaption[] = [];
  for (const label of labels) {
    const heading = label.line;
    const text = heading.words
      .map((w) => w.text)
      .join(' ')
      .trim();
    if (label.entry.type !== 'signature' || heading.tokens.includes('\0') || !(/[:：]$/.test(text) || headingWord(label))) continue;
    const size = heading.size;
    const below = lines.filter((l) => l !== heading && l.baseline - heading.baseline > 0.5 * size && l.baseline - heading.baseline <= 3.2 * size);
    const top = Math.min(...below.map((l) => l.baseline));
    const row = below.filter((l) => Math.abs(l.baseline - top) <= 0.3 * size);
    // (Short captions, each its own line and ending on its colon, asking for nothing else: no blank, no number,
    // no caption of another kind. A line without its colon may be a name printed there already.)
    const short = (l: Line) =>
      l.words.length <= 6 &&
      /[:：]$/.test(
        l.words
          .map((w) => w.text)
          .join('')
          .trim(),
      ) &&
      !l.tokens.includes('\0') &&
      !l.tokens.some((t) => /\d/.test(t)) &&
      !labels.some((o) => o.line === l && o.entry.type !== 'signature');
    if (row.length < 2 || !row.every(short)) continue;
    for (const l of row)
      if (!known.some((p) => p.line === l) && !out.some((p) => p.line === l)) out.push({ line: l, box: l.box, role: 'signer', fill: undefined });
  }
  return out;
}

/** The rows of two or more captions each opening on a word saying for whom one signs, as parties' captions (role "signer"); none the known ones hold already. */
export function namesForParties(lines: readonly Line[], labels: readonly Label[], known: readonly PartyCaption[]): PartyCaption[] {
  // (A short caption alone in its column: no blank, no number, no caption of another kind, a name of a few words.)
  const opens = (l: Line) =>
    FOR.has(l.tokens[0] as string) &&
    l.words.length >= 2 &&
    l.words.length <= 8 &&
    !l.tokens.includes('\0') &&
    !l.tokens.some((t) => /\d/.test(t)) &&
    !labels.some((o) => o.line === l && o.entry.type !== 'signature');
  const out: PartyCaption[] = [];
  for (const line of lines) {
    if (!opens(line) || out.some((p) => p.line === line)) continue;
    const row = lines.filter((l) => Math.abs(l.baseline - line.baseline) <= 0.3 * line.size);
    if (row.length < 2 || !row.every(opens)) continue;
    for (const l of row) if (!known.some((p) => p.line === l)) out.push({ line: l, box: l.box, role: 'signer', fill: undefined });
  }
  return out;
}
