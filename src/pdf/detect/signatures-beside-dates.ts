/**
 * Places to sign beside a signing date: a blank with no caption of its own on the date's row, or alone
 * under it with nothing written between, the way a letter is dated and signed.
 */
import { filled } from './filled-blanks.js';
import { matchLabels } from './label-matching.js';
import { asksOnlyToSign } from './captionless-lines.js';
import { roleOnLine } from './caption-roles.js';
import { onPartyLine } from './signature-blocks.js';
import { clip, overlap1, rectOf, xywh, type Line, type PageModel, type Rect, type Segment, type Suggestion, type Word } from './page-model.js';

/**
 * A blank with no caption of its own on the row of a signing date's blank ("Data ___/___/____" then a
 * line across the rest of the row), or alone under it with nothing written between ("Montes Claros, ___
 * de ______ de 2011." over a bare line, the way a letter is dated and signed): where one signs. A line or
 * a run of underscores alone on its row, at least 100 pt long, with no words right before it or right
 * under it (a caption would name it) but words naming who signs there, and no place to sign already found
 * between them; on the row, no caption of something else over it beside the date's own; under the date,
 * no rule across most of the page or drawn twice (a rule dividing the page).
 */
export function blankBesideDate(date: Rect, segments: Segment[], used: Set<Segment>, lines: Line[], places: Rect[], pageWidth: number): Segment | undefined {
  const text = (l: Line) => l.tokens.some((t) => t !== '\0');
  // (A date in a ruled row, a rule right over it: the rule under it closes the row, whatever its caption.)
  const ruledRow = segments.some((o) => o.y <= date.y1 - 8 && o.y >= date.y0 - 20 && overlap1(o.x0, o.x1, date.x0, date.x1) > 0);
  return segments
    .filter((s) => {
      if (used.has(s) || s.x1 - s.x0 < 100) return false;
      const row = Math.abs(s.y - date.y1) <= 6 && !(s.x0 < date.x1 + 20 && s.x1 > date.x0 - 20);
      // (Under it, a line across most of the page, or drawn twice, divides the page: "cut here" under a slip.)
      const below =
        s.x1 - s.x0 <= 0.6 * pageWidth &&
        !segments.some((o) => o !== s && Math.abs(o.y - s.y) <= 5 && overlap1(o.x0, o.x1, s.x0, s.x1) > 0.8 * (s.x1 - s.x0)) &&
        s.y - date.y1 >= 20 &&
        s.y - date.y1 <= 130 &&
        !lines.some((l) => text(l) && l.box.y0 > date.y1 && l.box.y1 < s.y - 1) &&
        !places.some((p) => p.y1 > date.y1 && p.y0 < s.y);
      if (!row && !below) return false;
      // (On the row, a blank whose caption asking for something else stands over it on the row of the date's
      // caption is that caption's: "CLIENT FULL LEGAL NAME     DATE" over two lines; "COACH / WITNESS" signs.)
      const over = (l: Line, x0: number, x1: number) => text(l) && l.box.y1 <= s.y - 12 && s.y - l.box.y1 <= 45 && overlap1(l.box.x0, l.box.x1, x0, x1) > 0;
      const captioned = (l: Line) =>
        over(l, s.x0, s.x1) &&
        matchLabels(l.tokens).some((m) => m.entry.type !== 'signature') &&
        lines.some((m) => m !== l && over(m, date.x0, date.x1) && Math.abs(m.baseline - l.baseline) <= 2);
      if (row && lines.some(captioned)) return false;
      // (Nor a blank a caption with its colon names from further back on its row, nothing between: "Ort:      ______".)
      const onRow = (l: Line) => text(l) && overlap1(l.box.y0, l.box.y1, s.y - 12, s.y) > 0;
      const asks = (l: Line) => onRow(l) && l.box.x1 <= s.x0 && /[:：]$/.test((l.words[l.words.length - 1] as Word).text.trim());
      if (lines.some((l) => asks(l) && !lines.some((o) => o !== l && onRow(o) && o.box.x0 >= l.box.x1 && o.box.x1 <= s.x0))) return false;
      return !lines.some(
        (l) =>
          text(l) &&
          // Words on its row right before it or over it, or a caption right under it — unless it names who signs
          // there: on the date's row, a few words asking for nothing ("Ort, Datum" and "Der Vorstand" under two
          // lines); under the date, words asking for nothing but a signature (namesSigner).
          ((overlap1(l.box.y0, l.box.y1, s.y - 12, s.y) > 0 && l.box.x1 > s.x0 - 40 && l.box.x0 < s.x1) ||
            (l.box.y0 >= s.y && l.box.y0 - s.y <= 14 && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0 && !(row ? whoSigns(l) : !ruledRow && namesSigner(l)))),
      );
    })
    .sort((a, b) => Math.abs(a.y - date.y1) - Math.abs(b.y - date.y1) || Math.abs(a.x0 - date.x1) - Math.abs(b.x0 - date.x1))[0];
}

/**
 * A caption under a bare line alone under a dated formula that names who signs there, asking for nothing else:
 * no blank of its own, no caption but a signature's, no datum ("Pessoa que reconhece o (a) filho (a)" under
 * the line under "Maricá, ___ de ______ de ____"; not "Address" nor "Nome completo").
 */
function namesSigner(l: Line): boolean {
  return !l.tokens.includes('\0') && l.words.length <= 10 && asksOnlyToSign(l);
}

/** A caption of a few words, capitalised, asking for nothing: a party's or an officer's name ("Der Vorstand", "Il Presidente"). */
function whoSigns(l: Line): boolean {
  return l.words.length <= 3 && /^\p{Lu}/u.test((l.words[0] as Word).text) && !l.tokens.includes('\0') && matchLabels(l.tokens).length === 0;
}

/**
 * Signatures on the blanks a signing date's row or the room under it leaves uncaptioned (blankBesideDate), then under the French
 * closing formulas holding a signing date (signaturesUnderFormulas), added to `out`.
 */
export function signaturesBesideDates(out: Suggestion[], segments: Segment[], used: Set<Segment>, lines: Line[], page: PageModel): void {
  for (const d of out.filter((s) => s.type === 'date' && s.page === page.page && s.reason !== 'acroform')) {
    if (out.some((o) => o.type === 'signature' && Math.abs(o.y + o.height - (d.y + d.height)) <= 8)) continue;
    const places = out.filter((o) => o.type === 'signature' && o.page === page.page).map(rectOf);
    const blank = blankBesideDate(rectOf(d), segments, used, lines, places, page.width);
    if (!blank) continue;
    used.add(blank);
    const r = clip(onPartyLine(blank, { line: undefined, fill: undefined }, lines), page);
    if (r.y1 - r.y0 >= 10 && !filled(r, page, []))
      out.push({ type: 'signature', page: page.page, ...xywh(r), confidence: page.ocr ? 0.68 : 0.75, reason: 'label_with_geometry' });
  }
  signaturesUnderFormulas(out, lines, page);
}

/**
 * The line of a French closing formula holding a signing date, "Fait à ______, le ______" (or "Fait le ___", or "Fait à ____"
 * over "Le ____"), opening its line: the line whose room under it is signed, nothing being written there.
 */
function formulaLine(date: Rect, lines: readonly Line[]): Line | undefined {
  const row = lines.find((l) => overlap1(l.box.y0, l.box.y1, date.y0, date.y1) > 0 && l.box.x0 <= date.x0 && l.box.x1 >= date.x0 - 40);
  if (!row) return undefined;
  const opens = (l: Line) => l.tokens[0] === 'fait' && ['a', 'le'].includes(l.tokens[1] ?? '');
  const above = lines.find(
    (l) => l !== row && Math.abs(l.box.x0 - row.box.x0) <= 3 && row.baseline - l.baseline > 0 && row.baseline - l.baseline <= 1.8 * row.size,
  );
  const formula = opens(row) ? row : above && opens(above) && row.tokens[0] === 'le' ? row : undefined;
  // (A formula written already, "Fait à Lyon, le 30 mars 2016", closes a signed copy.)
  if (!formula || formula.words.some((w) => /\d{4}|\d[/.-]\d/.test(w.text))) return undefined;
  // (One followed on its row by a caption, "Fait à ____, le ____   Signature des parents :", leaves the place to it; so does one
  // over the captions or the parties of whoever signs, "Pour l'entreprise" and "Pour l'établissement" under it.)
  const onRow = (l: Line) => overlap1(l.box.y0, l.box.y1, formula.box.y0, formula.box.y1) > 0;
  const under = (l: Line) => l.baseline > formula.baseline + 1 && l.baseline - formula.baseline <= 90;
  const captions = (l: Line) => matchLabels(l.tokens).some((m) => m.entry.type !== 'date') || (under(l) && roleOnLine(l) !== undefined);
  return lines.some((l) => (onRow(l) || under(l)) && captions(l)) ? undefined : formula;
}

/**
 * A signature under a French closing formula holding a signing date ("Fait à Marrakech, le ____" and nothing under it), from
 * where its line starts, as wide as a signature (to the page's margin) and as high as the room left, three quarters of a
 * signature's height at least; not where a place to sign is found from a signature's height over it to 130 pt under it, but in a
 * column left of it (added to `out`).
 */
function signaturesUnderFormulas(out: Suggestion[], lines: Line[], page: PageModel): void {
  for (const d of out.filter((s) => s.type === 'date' && s.fieldKey === 'sign_date' && s.page === page.page && s.reason !== 'acroform')) {
    const line = formulaLine(rectOf(d), lines);
    if (!line) continue;
    const r = { x0: line.box.x0, y0: line.baseline + 4, x1: Math.min(line.box.x0 + 180, page.width - 24), y1: line.baseline + 44 };
    const near = (p: Rect) => p.y1 > line.box.y0 - 40 && p.y0 < line.baseline + 130 && p.x1 > line.box.x0;
    if (out.some((o) => o.type === 'signature' && o.page === page.page && near(rectOf(o)))) continue;
    for (const w of page.words) if (overlap1(w.box.x0, w.box.x1, r.x0, r.x1) > 0 && w.box.y0 >= r.y0 - 2 && w.box.y0 < r.y1) r.y1 = w.box.y0 - 2;
    if (r.y1 - r.y0 >= 30 && r.x1 - r.x0 >= 100 && !filled(r, page, []))
      out.push({ type: 'signature', page: page.page, ...xywh(r), confidence: page.ocr ? 0.68 : 0.72, reason: 'label_with_whitespace' });
  }
}
