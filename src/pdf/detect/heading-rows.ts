/**
 * The row under a heading that asks for the signatures ("Signatures précédée de la mention « Lu et
 * approuvé » :" over "Le Bénéficiaire :   L'Association Maths et Maryam :"): each of the row's two or more
 * short captions, each ending on its colon, names whoever signs in the room under it, whether or not the
 * lexicon knows its words.
 */
import { headingWord } from './blank-space.js';
import type { PartyCaption } from './signature-blocks.js';
import type { Label, Line } from './page-model.js';

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
