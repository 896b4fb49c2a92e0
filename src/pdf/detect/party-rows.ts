/**
 * Parties' captions with no line of their own. Rows of captions naming who signs, whether or not the
 * lexicon knows their words: the row under a heading that asks for the signatures ("Signatures précédée
 * de la mention « Lu et approuvé » :" over "Le Bénéficiaire :   L'Association Maths et Maryam :"), each
 * caption ending on its colon; and a row of two or more captions each saying for whom one signs ("Pour
 * l'organisme   Pour le stagiaire", "For ACME Ltd   For the Client", "Für den Verein   Für das Mitglied").
 * Each names whoever signs in the room under it, when another party's name stands beside it on its row
 * (`roomUnderParty`).
 */
import { belowSpace, continuation } from './blank-space.js';
import { headingWord } from './section-headings.js';
import { written } from './blank-geometry.js';
import { typedName } from './captionless-lines.js';
import { matchLabels } from './label-matching.js';
import { placeDateFields } from './date-formulas.js';
import { ARTICLES } from './lexicon.js';
import { onRowOf, overlap1, union, type Geometry, type Label, type Line, type PageModel, type Rect, type Word } from './page-model.js';

/** A run of a line naming a party who signs, with the role it gives and the blank after it on its line, if any. */
export interface PartyCaption {
  line: Line;
  box: Rect;
  role: string;
  /** The blank run after the caption on its line, if any. */
  fill: Word | undefined;
}

/** Words that open a caption saying for whom one signs: "Pour", "For", "Für", "Per", "Por", "Pela", "Namens". */
const FOR = new Set(['pour', 'for', 'fur', 'per', 'por', 'pela', 'pelo', 'para', 'namens', 'seitens', 'voor', 'عن']);

/** The captions on the row right under a signatures heading, as parties' captions (role "signer"); none the known ones hold already. */
export function namesUnderHeading(lines: readonly Line[], labels: readonly Label[], known: readonly PartyCaption[]): PartyCaption[] {
  const out: PartyCaption[] = [];
  for (const label of labels) {
    const heading = label.line;
    if (label.entry.type !== 'signature' || heading.tokens.includes('\0') || !(endsOnColon(heading) || headingWord(label))) continue;
    const size = heading.size;
    const below = lines.filter((l) => l !== heading && l.baseline - heading.baseline > 0.5 * size && l.baseline - heading.baseline <= 3.2 * size);
    const top = Math.min(...below.map((l) => l.baseline));
    const row = below.filter((l) => Math.abs(l.baseline - top) <= 0.3 * size);
    // (The heading alone on its line, "Signatures", heads parties opening on an article without their colons: "L'Association   Le/la bénévole".)
    const alone = headingWord(label) && heading.tokens.length === label.entry.tokens.length;
    // (Short captions, each its own line and ending on its colon, asking for nothing else: no blank, no number,
    // no caption of another kind. A line without its colon may be a name printed there already.)
    const short = (l: Line) =>
      l.words.length <= 6 &&
      (endsOnColon(l) || (alone && ARTICLES.has(l.tokens[0] as string))) &&
      !l.tokens.includes('\0') &&
      !l.tokens.some((t) => /\d/.test(t)) &&
      !labels.some((o) => o.line === l && o.entry.type !== 'signature');
    if (row.length < 2 || !row.every(short)) continue;
    for (const l of row)
      if (!known.some((p) => p.line === l) && !out.some((p) => p.line === l)) out.push({ line: l, box: l.box, role: 'signer', fill: undefined });
  }
  return out;
}

/** The line's last written character is a colon. */
const endsOnColon = (line: Line): boolean =>
  /[:：]$/.test(
    line.words
      .map((w) => w.text)
      .join('')
      .trim(),
  );

/** The rows of two or more captions each opening on a word saying for whom one signs, or naming a known party, as parties' captions (role "signer"); none the known ones hold already. */
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
    const row = lines.filter((l) => onRowOf(l, line));
    // (A party named on the row counts with them: "L'adhérent" beside "Pour l'association".)
    if (row.length < 2 || !row.every((l) => opens(l) || known.some((p) => p.line === l))) continue;
    for (const l of row) if (!known.some((p) => p.line === l)) out.push({ line: l, box: l.box, role: 'signer', fill: undefined });
  }
  return out;
}

/**
 * The room under a party's name printed with no line, when another party's name stands beside it on its
 * row ("Le Propriétaire" and "Le Locataire" over the room where each signs): the blank space under it.
 */
export function roomUnderParty(
  caption: { line: Line; box: Rect },
  parties: ReadonlyArray<{ line: Line; box: Rect }>,
  page: PageModel,
  lines: Line[],
  geo: Geometry,
  places: Rect[],
): Rect | undefined {
  const { line, box } = caption;
  const row = parties.filter((p) => p.line !== line && Math.abs(p.line.baseline - line.baseline) <= 0.5 * line.size);
  // (The nearest, of three or more on the row: "Le stagiaire   Le tuteur   Le directeur".)
  const gap = (p: { box: Rect }) => Math.max(p.box.x0 - box.x1, box.x0 - p.box.x1);
  const beside = row.filter((p) => p !== caption && overlap1(p.box.x0, p.box.x1, box.x0, box.x1) <= 0).sort((a, b) => gap(a) - gap(b))[0];
  // (Or, alone on its line, under the formula that dates the signing: "Fait à ……, le ……" or "Fait le ……" over "Le responsable légal";
  // "En ______ a ___ de ______ de ______" over "EL MANDANTE".)
  const dated =
    line.words.length <= 5 &&
    lines.some(
      (l) =>
        l.baseline < line.baseline &&
        line.baseline - l.baseline <= 3.5 * line.size &&
        (matchLabels(l.tokens).some((m) => m.entry.fieldKey === 'sign_date' && (m.entry.tokens.length > 2 || m.entry.tokens[0] === 'fait')) ||
          placeDateFields([l]).length > 0),
    );
  const other = beside ?? (dated ? caption : undefined);
  if (!other) return undefined;
  // (Nor when the other's room is written in: the names head the parties' addresses, "Bevollmächtigte(r):" over a firm's;
  // a remark under a name goes on with it, no address: "Le Locataire" over "« Lu et approuvé »".)
  const under = (l: Line) => l.box.y0 >= other.box.y1 - 1 && l.box.y0 - other.box.y1 <= 30 && overlap1(l.box.x0, l.box.x1, other.box.x0, other.box.x1) > 0;
  const name = nameUnder(caption);
  const remarks = new Set([continuation(other.line, lines), continuation(line, lines), nameUnder(other), name]);
  if (lines.some((l) => l !== other.line && l !== line && under(l) && written(l) && !parties.some((p) => p.line === l) && !remarks.has(l))) return undefined;
  // (Over a place found under it, on its side of the page, the name heads that party's block: "CLIENT" over "Signature: ____".)
  // (Its side: up to halfway to the nearest name on its row either way.)
  const left = Math.max(-Infinity, ...row.filter((p) => p.box.x1 <= box.x0).map((p) => (p.box.x1 + box.x0) / 2));
  const right = Math.min(Infinity, ...row.filter((p) => p.box.x0 >= box.x1).map((p) => (box.x1 + p.box.x0) / 2));
  const side = (x: number) => x > left && x < right;
  if (places.some((p) => p.y0 > box.y1 && p.y0 - box.y1 <= 100 && side((p.x0 + p.x1) / 2))) return undefined;
  // (A name printed right under the party's, "Pour l'organisme" over "Patrick Binam": the room is under both, and under the
  // title printed under the name, "L'Association" over "Laurent Attar-Bayrou" over "Président".)
  const title = name && titleUnder(name);
  const block = name ? { line: title ?? name, box: union([box, name.box, ...(title ? [title.box] : [])]) } : { line, box };
  const label = { ...block, reach: block.box, entry: { type: 'signature', tokens: [], strength: 'strong' } } as unknown as Label;
  return belowSpace(label, page, lines, geo);

  function titleUnder(name: Line): Line | undefined {
    const l = rightUnder({ line: name, box: name.box });
    return l && l.words.length <= 3 && written(l) && !l.tokens.some((t) => /\d/.test(t)) && !/[:：]/.test(l.words.map((w) => w.text).join('')) ? l : undefined;
  }

  function nameUnder(p: { line: Line; box: Rect }): Line | undefined {
    const l = rightUnder(p);
    return l && typedName(l) && l.words.every((w) => /\p{L}{2}/u.test(w.text)) ? l : undefined;
  }

  /** The line right under a caption (within 0.6 of its line's size), across it. */
  function rightUnder(p: { line: Line; box: Rect }): Line | undefined {
    return lines.find(
      (o) => o !== p.line && o.box.y0 >= p.box.y1 - 1 && o.box.y0 - p.box.y1 <= 0.6 * p.line.size && overlap1(o.box.x0, o.box.x1, p.box.x0, p.box.x1) > 0,
    );
  }
}
