/**
 * Party-name signature blocks: a line to sign on with only a party's name as its caption, under it,
 * over it or after it, and no word saying "signature" ("____ / Seller", "PER: CONSULTANT ____", "Le
 * Bailleur" over a line, "الطرف الأول"). The party gives the role. A line that has a caption of its own
 * on its row (another label, "ID:") belongs to that caption, not to the party.
 */
import { ARTICLES, COMPANIES, DATE_WORDS, FOR_ORGANISATION, OF, partyAt, STOPWORDS } from './lexicon.js';
import { SIGNER_WORDS } from './lexicon-european.js';
import { isArabic } from './token-folding.js';
import { matchLabels } from './label-matching.js';
import { labelRuns } from './label-runs.js';
import { namesForParties, namesUnderHeading, type PartyCaption } from './party-rows.js';
import { PLACE_WORDS, filled } from './filled-blanks.js';
import { namedBlock } from './captionless-lines.js';
import { DATUM_WORDS } from './datum-words.js';
import { amongDataRows, dataRow, inDataColumn, opensDataRows } from './data-rows.js';
import {
  onRowOf,
  FIELD_HEIGHT,
  FIELD_WIDTH,
  clip,
  overlap1,
  rectOf,
  round,
  runLine,
  sameSpot,
  topUnderText,
  union,
  xywh,
  type Label,
  type Line,
  type PageModel,
  type Rect,
  type Segment,
  type Suggestion,
  type Word,
} from './page-model.js';

const SIGNERS = new Set(SIGNER_WORDS);
/** Words that qualify a party named after another: "Patient or Legal Guardian", "Owner or Authorized Agent". */
const QUALIFIERS = new Set(['legal', 'authorized', 'authorised', 'responsible']);
/** The words that join two who may sign in one caption ("Parent or guardian", "Parent and/or Guardian"). */
const EITHER = new Set(['or', 'and', 'ou', 'et', 'oder', 'und', 'o', 'e', 'y', 'u', 'bzw']);

/** Words that may come before a party's name in such a caption ("Per:", "For the", "Pour le"). */
const LEAD = new Set([
  ...ARTICLES,
  'per',
  'for',
  'by',
  'pour',
  'par',
  'agreed',
  'accepted',
  'approved',
  'witness',
  'عن',
  'ال',
  'fur',
  'namens',
  'seitens',
  'pela',
  'pelo',
  'por',
  '1o',
  '2o',
  // "1. Vorsitzender", "2. Vorsitzender".
  '1',
  '2',
  '1a',
  '2a',
  // "First Witness", "Second Witness".
  'first',
  'second',
  'third',
]);

/** Runs of a line that are only a party's name (and a few leading words, a colon, a blank). */
export function partyCaptions(lines: Line[], labels: Label[]): PartyCaption[] {
  const out: PartyCaption[] = [];
  for (const line of lines) {
    // (A line with a caption of its own is that caption's, but for a row of parties after the place and date: "Ort, Datum ____ Vermieter ____ Mieter ____".)
    const captions = labels.filter((l) => l.line === line);
    if (captions.some((l) => l.entry.type !== 'date') || endsCaptionAbove(line, lines)) continue;
    const runs = labelRuns(line);
    for (const run of runs) {
      const [first, last] = [line.words[line.tokenWord[run.start] as number] as Word, line.words[line.tokenWord[run.end - 1] as number] as Word];
      if (captions.some((l) => overlap1(l.box.x0, l.box.x1, first.box.x0, last.box.x1) > 0)) continue;
      let k = run.start;
      // (A leading word that names a party itself, right before its blank, is the caption: "Witness: ____".)
      // (So is one that is the whole caption: "Witness" alone under a line.)
      while (k < run.end && LEAD.has(line.tokens[k] as string) && !wholeParty(line, k, run.end)) k++;
      // (A company's word before its officer's is whom they sign for: "Company Secretary", "Company Representative".)
      if (k === run.start && COMPANIES.has(line.tokens[k] as string) && FOR_ORGANISATION.has(line.tokens[k + 1] as string)) k++;
      // A name of a few capitalised words before the one who signs for it, then its blank ("Viva Perros Representative ____").
      const named = [1, 2, 3].find(
        (n) =>
          k + n < run.end &&
          FOR_ORGANISATION.has(line.tokens[k + n] as string) &&
          line.tokens[k + n + 1] === '\0' &&
          line.tokenWord.slice(k, k + n).every((i) => /^\p{Lu}/u.test((line.words[i] as Word).text)),
      );
      const signsFor = named !== undefined && !partyAt(line.tokens, k);
      if (signsFor) k += named;
      // (The run before the signing date's caption and blank on its row: "Parent/Guardian: ____   Date: ____"; read only for who signs.)
      const dated = () => matchLabels(line.tokens.slice(run.end)).some((m) => m.start === 0 && m.entry.type === 'date' && m.entry.fieldKey === 'sign_date');
      // A word naming who signs counts after an article ("Il dichiarante", "Le demandeur", "The undersigned").
      const lead = k > run.start;
      const party =
        (signsFor ? { role: line.tokens[k] as string, length: 1 } : null) ??
        partyAt(line.tokens, k) ??
        // (Or alone on its line: "Student", "Parent/Guardian" under a line.)
        (SIGNERS.has(line.tokens[k] as string) && (lead || (run.start === 0 && (run.end === line.tokens.length || dated())))
          ? { role: 'signer', length: 1 }
          : null) ??
        // "For the Company", "Für den Verein": a company signs.
        (lead && COMPANIES.has(line.tokens[k] as string) && line.tokens[run.start] !== 'the' ? { role: 'company', length: 1 } : null);
      if (!party) continue;
      let end = k + party.length;
      // A possessive ("Owner's"), a stopword or another word naming who signs after the party name ("Il legale rappresentante").
      while (end < run.end && (line.tokens[end] === 's' || STOPWORDS.has(line.tokens[end] as string) || SIGNERS.has(line.tokens[end] as string))) end++;
      // (Or other parties' names after a slash or an "or", qualified or not: "Parent/Guardian", "Patient or Legal
      // Guardian", "Parent/Guardian/School Doctor": after a slash, one word may say which.)
      const names = (j: number) => partyAt(line.tokens, j) ?? (SIGNERS.has(line.tokens[j] as string) ? { length: 1 } : null);
      for (let at = k + party.length; at < run.end; ) {
        const from = at;
        while (at < run.end && (EITHER.has(line.tokens[at] as string) || QUALIFIERS.has(line.tokens[at] as string))) at++;
        // (A slash leaves no token: two names side by side are "Parent/Guardian"; one word may say which, not an article.)
        const slash = at === from && !STOPWORDS.has(line.tokens[at] as string);
        const which = !names(at) && slash && at + 1 < run.end && names(at + 1) ? 1 : 0;
        const other = at < run.end ? names(at + which) : null;
        if (!other) break;
        at += which + other.length;
        if (at > end) end = at;
      }
      // (Or the body it signs for, named after a joining word: "Diretora da Escola Municipal Santa Catarina".)
      const body = line.tokenWord.slice(end, run.end).map((i) => (line.words[i] as Word).text);
      if (
        (party.role === 'signer' || COMPANIES.has(line.tokens[run.end - 1] as string)) &&
        run.end === line.tokens.length &&
        line.tokens.slice(k + party.length, end).some((t) => OF.has(t)) &&
        body.length > 0 &&
        body.length <= 6 &&
        // (Or named in a word or two of any case: "Le tuteur de l'entreprise", "Le responsable de l'école".)
        (body.every((w) => /^\p{Lu}/u.test(w)) || body.length <= 2)
      )
        end = run.end;
      // (Or, in Arabic, what the party or office is of: the word or two after it with their article, "مدير المدرسة", "رئيس القسم".)
      const blankAt = line.tokens.indexOf('\0', end);
      const stop = blankAt === -1 || blankAt > run.end ? run.end : blankAt;
      const owned = line.tokens.slice(end, stop);
      if (line.rtl && stop === (blankAt === -1 ? line.tokens.length : blankAt) && owned.length <= 2 && owned[0]?.startsWith('ال') && owned.every(isArabic))
        end = stop;
      const rest = line.tokens.slice(end, run.end);
      // A value typed after the party's colon ("VENDEDOR: ACME Ltd") says who signs, at the start of a line.
      const valueAfter =
        run.start === 0 && end > k && /[:：]$/.test((line.words[line.tokenWord[end - 1] as number] as Word).text.trim()) && !rest.includes('\0');
      if (!rest.every((t) => t === '\0') && !valueAfter) continue;
      // A word naming who signs before a blank asks for that person's name ("Il sottoscritto ______",
      // "The undersigned ______"); only a party's name before a blank is a signature block ("PER: CONSULTANT ____").
      // (But not on a row going on with the signing date's caption and blank: "Parent/Guardian: ____   Date: ____".)
      if (party.role === 'signer' && rest.includes('\0') && !dated()) continue;
      // So does a company named with only its article before a blank ("La Società ____", "The Company ____");
      // "Per la Società ____" signs for it.
      if (COMPANIES.has(line.tokens[k] as string) && rest.includes('\0') && line.tokens.slice(run.start, k).every((t) => ARTICLES.has(t))) continue;
      // A caption stands alone on its line: a party named inside a sentence is not one. (Its line may hold
      // other parties' blanks and the place's and date's: "Landlord: ____   Tenant: ____", "Berlin, ____ Vermieter ____".)
      const own = (j: number) => j >= run.start && j < end;
      if (!valueAfter && !line.tokens.every((t, j) => t === '\0' || own(j) || (rest.includes('\0') && signingRow(line, runs, j)))) continue;
      // A party's blank in a row of data blanks ("BIC: ____   Bank: ____") asks for its name, not a signature.
      if (rest.includes('\0') && (dataRow(line, lines) || amongDataRows(line, lines) || opensDataRows(line, lines))) continue;
      const words = [...new Set(line.tokenWord.slice(run.start, end))].map((i) => line.words[i] as Word);
      const fillIndex = rest.length > 0 && !valueAfter ? (line.tokenWord[end] as number) : -1;
      out.push({ line, box: union(words.map((w) => w.box)), role: party.role, fill: fillIndex >= 0 ? line.words[fillIndex] : undefined });
    }
  }
  const headed = namesUnderHeading(lines, labels, out);
  return [...out, ...headed, ...namesForParties(lines, labels, [...out, ...headed])];
}

/** A party named at `j`, right before its blank or ending its run `end`: the whole caption ("Witness: ____", "Witness 2: ____"). */
function wholeParty(line: Line, j: number, end: number): boolean {
  const p = partyAt(line.tokens, j);
  return p !== null && (line.tokens[j + p.length] === '\0' || j + p.length === end);
}

/** The line ends a caption begun on the line right over it, which ends on "of" ("Address of / Employer: ____") or asks for a datum: the party is what the caption is about. */
function endsCaptionAbove(line: Line, lines: Line[]): boolean {
  return lines.some(
    (l) =>
      l !== line &&
      Math.abs(l.box.x0 - line.box.x0) <= 2 &&
      line.baseline - l.baseline > 0 &&
      line.baseline - l.baseline <= 1.6 * line.size &&
      // (Or a caption asking for a datum, its party on the next line: "Telefon gesetzlicher" over "Vertreter:".)
      (OF.has(l.tokens.at(-1) as string) || (l.tokens.length <= 4 && DATUM_WORDS.has(l.tokens[0] as string) && !/[.:;,]$/.test((l.words.at(-1) as Word).text))),
  );
}

/** The token is in a run of the line that names a party before its blank, or a place (its comma) or a date before it: a row where the parties sign. */
function signingRow(line: Line, runs: ReadonlyArray<{ start: number; end: number }>, j: number): boolean {
  const run = runs.find((r) => j >= r.start && j < r.end);
  if (!run || line.tokens[run.end - 1] !== '\0') return false;
  const words = line.tokens.slice(run.start, run.end - 1).filter((t) => t !== '\0');
  let k = run.start;
  while (k < run.end && (LEAD.has(line.tokens[k] as string) || ARTICLES.has(line.tokens[k] as string)) && !wholeParty(line, k, run.end)) k++;
  const party = partyAt(line.tokens, k);
  if (party && line.tokens.slice(k + party.length, run.end).every((t) => t === '\0' || STOPWORDS.has(t))) return true;
  // (A place and its comma, "Berlin, ____"; or only the words of a place and a date, "Ort, Datum ____", "Lieu et date ____" — not "Date of birth ____".)
  const before = line.words[(line.tokenWord[run.end - 1] as number) - 1];
  // (STOPWORDS hold the joining words: "and", "et", "und", "e", "y".)
  const placeOrDate = (t: string) => PLACE_WORDS.has(t) || DATE_WORDS.has(t) || STOPWORDS.has(t);
  return words.length > 0 && ((words.length <= 2 && /,$/.test(before?.text.trim() ?? '')) || (words.length <= 4 && words.every(placeOrDate)));
}

/** The line a party caption names: after it, right over it, or right under it; undefined if none. */
export function partyLine(
  caption: PartyCaption,
  segments: Segment[],
  used: Set<Segment>,
  lines: Line[],
  rules: readonly Segment[] = segments,
): Segment | undefined {
  const { box, line } = caption;
  if (caption.fill) {
    const w = caption.fill;
    return runLine(w);
  }
  const lone = (s: Segment) =>
    !lines.some((l) => {
      if (l === line || l.tokens.every((t) => t === '\0')) return false;
      if (l.box.y1 < s.y - 1.5 * line.size || l.box.y0 > s.y + 2) return false;
      return (l.box.x1 >= s.x0 - 40 && l.box.x1 <= s.x0 + 2) || (l.box.x0 <= s.x1 + 40 && l.box.x0 >= s.x1 - 2);
    });
  // A line drawn on the caption's row, right after it ("Tenant ______", "الطرف الأول ______" to its left).
  const after = (s: Segment) =>
    s.x1 - s.x0 >= 60 &&
    Math.abs(s.y - line.baseline) <= 0.6 * line.size &&
    (line.rtl ? s.x1 <= box.x0 + 2 && s.x1 >= box.x0 - 40 : s.x0 >= box.x1 - 2 && s.x0 <= box.x1 + 40);
  // (Not for a caption with its colon, which asks for a value — "Kontoinhaber: ____" — nor for one naming
  // whoever signs, which asks for a name — "Il Sottoscritto ____".)
  const asks =
    /[:：]$/.test(
      line.words
        .filter((w) => w.box.x0 >= box.x0 - 1 && w.box.x1 <= box.x1 + 8)
        .at(-1)
        ?.text.trim() ?? '',
    ) || caption.role === 'signer';
  // (But a party's colon with its run set apart along its row, as a tab sets it, is its line: "Witness:      ______"; not in a column of data captions.)
  const along = (s: Segment) => s.x1 - s.x0 >= 60 && Math.abs(s.y - line.baseline) <= 0.6 * line.size && s.x0 >= box.x1 - 2 && s.x0 <= box.x1 + 120;
  const tabbed = (s: Segment) => caption.role !== 'signer' && !line.rtl && along(s) && !inDataColumn(line, lines);
  const beside = segments.find(
    (s) =>
      !used.has(s) &&
      (asks ? tabbed(s) && !lines.some((l) => l !== line && l.box.x0 >= box.x1 && l.box.x1 <= s.x0 && Math.abs(l.baseline - line.baseline) < 3) : after(s)),
  );
  if (beside) return beside;
  const spans = (s: Segment) => s.x1 - s.x0 >= 60 && s.x1 - s.x0 <= 360 && overlap1(s.x0, s.x1, box.x0, box.x1) >= 0.5 * Math.min(box.x1 - box.x0, s.x1 - s.x0);
  // (Not a rule of a double border: "For Employee" under a header's rules.)
  const double = (s: Segment) => rules.some((o) => o !== s && Math.abs(o.y - s.y) > 0.2 && Math.abs(o.y - s.y) <= 3 && overlap1(o.x0, o.x1, s.x0, s.x1) > 0);
  const over = segments.filter(
    (s) => !used.has(s) && spans(s) && box.y0 - s.y >= -1 && box.y0 - s.y <= Math.max(1.3 * line.size + 2, 8) && lone(s) && !double(s),
  );
  if (over.length > 0) return over.sort((a, b) => box.y0 - a.y - (box.y0 - b.y))[0];
  // (Or over the name typed between them: "____" over "João da Silva" over "Contratante"; the name may be
  // followed by its identity, "CPF: 783.621.764-12", or by a second line of a firm's name, "LTDA".)
  const between = (s: Segment) =>
    lines.filter((l) => l !== line && l.box.y0 >= s.y - 1 && l.box.y1 <= box.y0 + 1 && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0);
  const named = (s: Segment) => {
    const block = between(s);
    return block.length <= 3 && namedBlock(block);
  };
  const overName = segments.filter(
    (s) =>
      !used.has(s) && spans(s) && box.y0 - s.y > 0 && box.y0 - s.y <= (2.6 + 3 * (between(s).length - 1)) * line.size + 4 && lone(s) && !double(s) && named(s),
  );
  if (overName.length > 0) return overName.sort((a, b) => box.y0 - a.y - (box.y0 - b.y))[0];
  // (Under it, as far as a signature and two lines and a half: room to sign between the name and its line.)
  const reach = FIELD_HEIGHT.signature + 2.5 * line.size;
  const clear = (s: Segment) =>
    !lines.some(
      (l) => l !== line && l.box.y0 >= box.y1 - 1 && l.box.y1 <= s.y + 1 && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0 && !l.tokens.every((t) => t === '\0'),
    );
  const under = segments.filter((s) => !used.has(s) && spans(s) && s.y - box.y1 >= 4 && s.y - box.y1 <= reach && clear(s) && lone(s));
  return under.sort((a, b) => a.y - b.y)[0];
}

/** The signature field standing on a party's line, kept below the text above it (and below `floor`: the heading of its block's row). */
export function onPartyLine(
  s: Segment,
  caption: Pick<PartyCaption, 'fill'> & { line: Line | undefined },
  lines: Line[],
  found: readonly Suggestion[] = [],
  floor = -Infinity,
): Rect {
  let top = Math.max(s.y - FIELD_HEIGHT.signature, floor);
  for (const l of lines) {
    if (l.box.y1 <= s.y - 1 && l.box.y1 > top && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0 && (caption.fill ? l !== caption.line : true)) top = l.box.y1 + 1;
  }
  if (top > s.y - FIELD_HEIGHT.signature) top = topUnderText('signature', s.y, top);
  if (s.y - top < 12) top = s.y - 12;
  // (A date found on the same line, its caption under it beside the party's, takes the line's end: "Parent or guardian ... date".)
  let x1 = s.x1;
  for (const d of found) if (d.type === 'date' && Math.abs(d.y + d.height - s.y) <= 2 && d.x > s.x0 + 40 && d.x < x1) x1 = d.x - 2;
  return { x0: s.x0, y0: top, x1, y1: s.y };
}

/**
 * The places of co-signers' captions on a signature's row (`coSigners`): each signs in the same band as the signature `s`, from its
 * caption on, or on the rule its caption opens when the band stands on one ("Handtekening: ____   Partner: ____").
 */
export function coSignerPlaces(s: Suggestion, others: readonly Line[], page: PageModel, found: readonly Suggestion[]): Suggestion[] {
  const out: Suggestion[] = [];
  for (const other of others) {
    // (Not one in another cell of a table's header row, a rule under the row across both and one across the row between them:
    // "Participant | Signature | Date" heads a sign-in sheet, its first column the names of those who sign in the next.)
    const between = (x: number) => (other.box.x1 <= s.x ? x >= other.box.x1 && x <= s.x + 1 : x >= s.x + s.width - 1 && x <= other.box.x0);
    const [left, right] = [Math.min(other.box.x0, s.x), Math.max(other.box.x1, s.x + s.width)];
    const border = page.segments.some((r) => r.y >= other.box.y1 - 1 && r.y - other.box.y1 <= 1.5 * other.size && r.x0 <= left + 2 && r.x1 >= right - 2);
    if (border && page.verticals.some((v) => between(v.x) && v.y0 <= other.box.y0 + 1 && v.y1 >= other.box.y1 - 1)) continue;
    const rule = page.segments.find(
      (r) => Math.abs(r.y - (s.y + s.height)) <= 4 && r.x0 >= other.box.x1 - 2 && r.x0 - other.box.x1 <= 3 * other.size && r.x1 - r.x0 >= 60,
    );
    const x0 = rule?.x0 ?? other.box.x0;
    const x1 = rule ? Math.min(rule.x1, x0 + Math.max(s.width, FIELD_WIDTH.signature)) : Math.min(x0 + s.width, page.width - 18);
    const rect = clip({ x0, y0: s.y, x1, y1: s.y + s.height }, page);
    if (rect.x1 - rect.x0 < 60 || filled(rect, page, other.words) || [...found, ...out].some((o) => o.page === page.page && sameSpot(rectOf(o), rect)))
      continue;
    out.push({ ...s, ...xywh(rect), confidence: round(Math.max(0.65, s.confidence - 0.05), 100) });
  }
  return out;
}

/**
 * Co-signers' captions on the row of a signature caption: short lines (a party or a word naming who signs,
 * at most four words, no digits, no caption of their own nor a datum's word) on the same baseline, well apart from it
 * ("Signature : Le parrain ....... Le parrainé", "Signature of the Employee ....... Supervisor"). Each
 * signs in the same band as the caption's field.
 */
export function coSigners(label: Label, lines: Line[], labels: Label[]): Line[] {
  const { line } = label;
  return lines.filter(
    (l) =>
      l !== line &&
      !labels.some((o) => o.line === l) &&
      onRowOf(l, line) &&
      Math.abs(l.size - line.size) < 1 &&
      (l.box.x0 - line.box.x1 >= 40 || line.box.x0 - l.box.x1 >= 40) &&
      // (A remark in parentheses after it is not counted: "Il genitore o tutore (in caso di minore)".)
      l.words.length - remarkWords(l) <= 4 &&
      !l.tokens.some((t) => /\d/.test(t) || t === '\0' || DATUM_WORDS.has(t)) &&
      l.tokens.some((t, k) => SIGNERS.has(t) || partyAt(l.tokens, k) !== null),
  );
}

/** How many words end a line in a remark in parentheses ("(in caso di minore)"), none when it has none or is all one. */
function remarkWords(l: Line): number {
  const open = l.words.findIndex((w) => w.text.startsWith('('));
  return open > 0 && /\)$/.test((l.words[l.words.length - 1] as Word).text) ? l.words.length - open : 0;
}

/**
 * A party-name caption right above the rule: the rule is its line (this caption's is further down) — unless
 * a rule right over the party's name is its line ("____ / Employee" over "____ / Date").
 */
export function partyAbove(over: Segment, parties: PartyCaption[], segments: readonly Segment[]): boolean {
  const underOwn = (p: PartyCaption) =>
    segments.some(
      (s) =>
        s !== over &&
        p.box.y0 - s.y >= -1 &&
        p.box.y0 - s.y <= 1.3 * p.line.size + 2 &&
        overlap1(s.x0, s.x1, p.box.x0, p.box.x1) >= 0.5 * (p.box.x1 - p.box.x0),
    );
  return parties.some(
    (p) =>
      !p.fill &&
      !underOwn(p) &&
      p.box.y1 <= over.y + 1 &&
      over.y - p.box.y1 <= FIELD_HEIGHT.signature &&
      // (Over it, not a heading of the block in the column before it: "Die Sorgeberechtigten:" left of two lines.)
      overlap1(p.box.x0, p.box.x1, over.x0, over.x1) >= 0.5 * Math.min(p.box.x1 - p.box.x0, over.x1 - over.x0),
  );
}

/** A party's caption between a rule and a caption under it: the rule is the party's to sign on ("____" over "CONCEDENTE" over "(nome e carimbo)"), not the lower caption's. */
export function partyBetween(rule: Segment, caption: Label, parties: readonly PartyCaption[]): boolean {
  return parties.some((p) => !p.fill && p.box.y0 >= rule.y - 1 && p.box.y1 <= caption.box.y0 + 1 && overlap1(p.box.x0, p.box.x1, rule.x0, rule.x1) > 0);
}

/**
 * A party caption with a place to sign found right under it in its column ("____ / CONTRACTOR / By: ____"):
 * the party signs there ("By:"); the line over its name is for the name.
 */
export function signsBelow(caption: PartyCaption, places: Rect[]): boolean {
  const { box } = caption;
  // (By the place's line, under the caption: its top may reach a little over the caption, topUnderText.)
  return places.some((p) => p.y1 >= box.y1 + 10 && p.y0 - box.y1 <= 40 && overlap1(p.x0, p.x1, box.x0, box.x1) > 0);
}
