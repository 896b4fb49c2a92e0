/**
 * Blanks under a heading of witnesses or signers: numbered ("TESTEMUNHAS:" over "1. ____   2. ____"), the
 * first row of them and the blocks stacked alike under it, or each a signer's name and its colon before a line ("Testimoni :" over "Brusco Jessica: ______");
 * lines stacked over a caption of signatures; a column of blanks over the caption of its last one.
 */
import { DATUM_WORDS } from './datum-words.js';
import { overlap1, runLine, type Line, type Segment, type Word } from './page-model.js';

/** Headings of a block of witnesses' or signers' blanks. */
const BLOCK_HEADINGS = new Set([
  'witnesses',
  'testemunhas',
  'testigos',
  'testimoni',
  'zeugen',
  'temoins',
  'signatures',
  'assinaturas',
  'firmas',
  'firme',
  'unterschriften',
]);
/** "The undersigned:" between a heading of signatures and their rows ("Firme" over "I sottoscritti :" over "Brusco Jessica: ______"). */
const UNDERSIGNED = new Set(['undersigned', 'sottoscritti', 'soussignes', 'firmantes', 'unterzeichnenden']);
const WITNESS = /^(witness|testemunha|testigo|testimon|zeuge|temoin)/;

/**
 * Numbered blanks under a heading of witnesses or signatures ("TESTEMUNHAS:" over "1. ____   2. ____"):
 * each blank, at least 80 pt long, is a place to sign (a witness's, under a heading of witnesses); a
 * line drawn right after its number, the number alone on its line ("1." before a rule), is one too.
 */
export function numberedBlanks(lines: Line[], segments: readonly Segment[] = []): Array<{ segment: Segment; role?: string }> {
  const out: Array<{ segment: Segment; role?: string }> = [];
  const headingOver = (line: Line) =>
    lines.find(
      (l) => l !== line && l.box.y1 <= line.box.y0 && line.box.y0 - l.box.y1 <= 60 && l.words.length <= 4 && l.tokens.some((t) => BLOCK_HEADINGS.has(t)),
    );
  const push = (segment: Segment, heading: Line) => out.push({ segment, ...(heading.tokens.some((t) => WITNESS.test(t)) ? { role: 'witness' } : {}) });
  // (Or through the numbered blanks over it in its column, one under the other: "Witnesses:" over "1. ____" over "2. ____".)
  const headed = new Map<Line, Line>();
  // (Or opening the row the numbered blanks are on: "Testemunhas: 1- ____   2 - ____".)
  const headingBeside = (line: Line) =>
    lines.find(
      (l) =>
        (l === line || (Math.abs(l.baseline - line.baseline) <= 0.3 * line.size && l.box.x1 <= line.box.x0 + 1)) &&
        l.words.length <= 6 &&
        BLOCK_HEADINGS.has(l.tokens[0] as string),
    );
  const blockHeading = (line: Line) =>
    headingOver(line) ??
    headingBeside(line) ??
    [...headed].find(([l]) => l.box.y1 <= line.box.y0 && line.box.y0 - l.box.y1 <= 60 && Math.abs(l.box.x0 - line.box.x0) <= 6)?.[1];
  for (const line of [...lines].sort((a, b) => a.baseline - b.baseline)) {
    if (line.tokens.length === 1 && /^\d$/.test(line.tokens[0] as string) && line.words.length === 1) {
      const rule = segments.find(
        (s) => s.x1 - s.x0 >= 80 && s.x0 >= line.box.x1 - 1 && s.x0 - line.box.x1 <= 3 * line.size && Math.abs(s.y - line.baseline) <= 0.6 * line.size,
      );
      const heading = rule && blockHeading(line);
      if (rule && heading) {
        push(rule, heading);
        headed.set(line, heading);
      }
      continue;
    }
    for (let k = 0; k + 1 < line.tokens.length; k++) {
      if (!/^\d$/.test(line.tokens[k] as string) || line.tokens[k + 1] !== '\0') continue;
      const w = line.words[line.tokenWord[k + 1] as number] as Word;
      if (w.box.x1 - w.box.x0 < 80) continue;
      const heading = blockHeading(line);
      if (heading) {
        push(runLine(w), heading);
        headed.set(line, heading);
      }
    }
  }
  return out;
}

/**
 * Rows under a heading of signers or witnesses, each a signer's name and its colon before a line ("I
 * sottoscritti :" over "Brusco Jessica: ______", "Testimoni :" over two more): each line is a place to sign.
 */
export function namedRows(lines: Line[], segments: Segment[], used: Set<Segment>): Array<{ segment: Segment; role?: string }> {
  const rowLine = (line: Line) => {
    const last = line.words[line.words.length - 1] as Word;
    if (line.rtl || line.words.length > 6 || !/:$/.test(last.text.trim())) return undefined;
    // (Not a datum's caption, which asks for its value, "CPF:" after "Testemunhas: Nome: ____": no signer's name.)
    if (line.tokens.some((t) => DATUM_WORDS.has(t))) return undefined;
    return segments.find(
      (s) =>
        !used.has(s) && s.x1 - s.x0 >= 80 && s.x0 >= last.box.x1 - 2 && s.x0 - last.box.x1 <= 3 * line.size && Math.abs(s.y - line.baseline) <= 0.6 * line.size,
    );
  };
  const out: Array<{ segment: Segment; role?: string }> = [];
  const sorted = [...lines].sort((a, b) => a.baseline - b.baseline);
  for (let i = 0; i < sorted.length; i++) {
    const segment = rowLine(sorted[i] as Line);
    if (!segment) continue;
    // Up the column, over rows of the same kind, to the heading.
    let k = i - 1;
    while (k >= 0 && rowLine(sorted[k] as Line) && (sorted[k + 1] as Line).baseline - (sorted[k] as Line).baseline <= 60) k--;
    // (Over "The undersigned:", the heading above it: alone, the rows under it list names.)
    const named = sorted[k];
    const under = named && k > 0 && named.words.length <= 4 && named.tokens.some((t) => UNDERSIGNED.has(t)) ? 1 : 0;
    const heading = sorted[k - under];
    if (
      !heading ||
      (sorted[k + 1] as Line).baseline - heading.baseline > 60 * (1 + under) ||
      heading.words.length > 4 ||
      !heading.tokens.some((t) => BLOCK_HEADINGS.has(t))
    )
      continue;
    out.push({ segment, ...(heading.tokens.some((t) => WITNESS.test(t)) ? { role: 'witness' } : {}) });
  }
  return out;
}

/**
 * The first row of blanks under a heading of witnesses or signers with nothing written between ("TESTEMUNHAS:"
 * over "______   ______" and their "Nome:" and "CPF:" under them): each blank 80 to 360 pt long (a rule across
 * the page divides it), alone on its row but for the others, is a place to sign; so is each blank stacked under one
 * of them alike, over the same caption.
 */
export function blanksUnderHeading(lines: Line[], segments: Segment[], used: Set<Segment>): Array<{ segment: Segment; role?: string; floor: number }> {
  const out: Array<{ segment: Segment; role?: string; floor: number }> = [];
  const written = (l: Line) => l.tokens.some((t) => t !== '\0');
  for (const heading of lines) {
    if (heading.words.length > 4 || !heading.tokens.some((t) => BLOCK_HEADINGS.has(t))) continue;
    const below = segments.filter((s) => s.y > heading.box.y1 + 4 && s.y - heading.box.y1 <= 60 && s.x1 - s.x0 >= 80 && s.x1 - s.x0 <= 360);
    const top = Math.min(...below.map((s) => s.y));
    const row = below.filter((s) => s.y - top <= 3);
    if (row.length === 0) continue;
    // (Nothing written between the heading and the row, nor on the row: the blanks are the block's own.)
    const x0 = Math.min(...row.map((s) => s.x0));
    const x1 = Math.max(...row.map((s) => s.x1));
    // (Words on the heading's own row beside it, "Polegar direito do Cliente   Testemunhas:", are not between.)
    if (lines.some((l) => l !== heading && written(l) && l.box.y0 >= heading.box.y1 - 1 && l.box.y0 < top && l.box.x1 > x0 - 40 && l.box.x0 < x1 + 40))
      continue;
    const role = heading.tokens.some((t) => WITNESS.test(t)) ? { role: 'witness' } : {};
    // (Each stands under the heading's row, beside it or not: "TESTEMUNHAS:" heads the whole row.)
    for (const segment of row) if (!used.has(segment)) out.push({ segment, ...role, floor: heading.box.y1 + 1 });
    // (And the blocks stacked under the first, each a blank as long over the same caption: "____" over "Nome:" over "CPF:", twice.)
    for (const first of row)
      for (const segment of stackedAlike(first, segments, lines)) if (!used.has(segment)) out.push({ segment, ...role, floor: segment.y - 40 });
  }
  return out;
}

/** Whether `l` starts right under height `y` (within a line and a half of its own size), across x0 to x1. */
export function under(l: Line, y: number, x0: number, x1: number): boolean {
  return l.box.y0 >= y - 1 && l.box.y0 - y <= 1.5 * l.size && overlap1(l.box.x0, l.box.x1, x0, x1) > 0;
}

/** The lines right under a line to sign, in its span. */
export const linesUnder = (s: Segment, lines: readonly Line[]): Line[] => lines.filter((l) => under(l, s.y, s.x0, s.x1));

/** The blanks stacked under `first`, each as long, at most 90 pt under the one before, with the same first word right under it as under `first`. */
function stackedAlike(first: Segment, segments: readonly Segment[], lines: readonly Line[]): Segment[] {
  const caption = linesUnder(first, lines)[0]?.tokens[0];
  const out: Segment[] = [];
  for (let prev = first; caption !== undefined; ) {
    const next = segments.find((s) => s.y > prev.y + 20 && s.y - prev.y <= 90 && Math.abs(s.x0 - first.x0) <= 4 && Math.abs(s.x1 - first.x1) <= 4);
    if (!next || linesUnder(next, lines)[0]?.tokens[0] !== caption) break;
    out.push(next);
    prev = next;
  }
  return out;
}

/**
 * Lines stacked alike over a caption of signatures in the plural ("Unterschriften (alle Antragsteller/innen)"
 * under three rules): the rule right over the caption and those over it, as long and where it starts, each
 * at most 50 pt over the next, are one signer's each, when nothing is written between them.
 */
export function stackOverSignatures(lines: Line[], segments: Segment[], used: Set<Segment>): Segment[] {
  const out: Segment[] = [];
  const alike = (a: Segment, b: Segment) => Math.abs(a.x0 - b.x0) <= 4 && Math.abs(a.x1 - b.x1) <= 4;
  for (const caption of lines) {
    if (caption.rtl || caption.words.length > 6 || !caption.tokens.some((t) => BLOCK_HEADINGS.has(t)) || caption.words.some((w) => /[:：]/.test(w.text)))
      continue;
    const over = segments
      .filter(
        (s) =>
          s.y <= caption.box.y0 + 1 &&
          caption.box.y0 - s.y <= 2.5 * caption.size &&
          s.x1 - s.x0 >= 80 &&
          overlap1(s.x0, s.x1, caption.box.x0, caption.box.x1) > 0,
      )
      .sort((a, b) => b.y - a.y)[0];
    if (!over) continue;
    const stack = [over];
    for (;;) {
      const top = stack[stack.length - 1] as Segment;
      const next = segments.filter((s) => s !== top && alike(s, top) && s.y < top.y - 12 && top.y - s.y <= 50).sort((a, b) => b.y - a.y)[0];
      if (
        !next ||
        lines.some((l) => l.tokens.some((t) => t !== '\0') && l.box.y0 > next.y && l.box.y1 < top.y && overlap1(l.box.x0, l.box.x1, top.x0, top.x1) > 0)
      )
        break;
      stack.push(next);
    }
    if (stack.length < 2) continue;
    for (const s of stack) if (!used.has(s) && !out.includes(s)) out.push(s);
  }
  return out;
}

/**
 * The blanks stacked over a caption's blank in its column ("Orientador: ____ ____" … "Membro da banca 2: ____ ____"
 * over "(nome)  (assinatura)"): as long and where it starts, each 8 to 30 pt over the next, each the last blank of
 * its row after words or a blank, with nothing written under it in the column: the caption under the column's last blank
 * names them all.
 */
export function columnOver(blank: Segment, blanks: Segment[], lines: Line[], used: Set<Segment>): Segment[] {
  const out: Segment[] = [];
  // (The page's written words, looked up only when a blank stands over the caption's: most have none.)
  let words: Word[] | undefined;
  for (let top = blank; ; ) {
    const next = blanks
      .filter((b) => !used.has(b) && Math.abs(b.x0 - top.x0) <= 4 && Math.abs(b.x1 - top.x1) <= 4 && b.y < top.y - 8 && top.y - b.y <= 30)
      .sort((a, b) => b.y - a.y)[0];
    if (!next) break;
    words ??= lines.flatMap((l) => [...new Set(l.tokens.flatMap((t, k) => (t === '\0' ? [] : [l.tokenWord[k] as number])))].map((i) => l.words[i] as Word));
    const onRow = [...blanks.filter((b) => Math.abs(b.y - next.y) <= 2), ...words.filter((w) => Math.abs(w.box.y1 - next.y) <= 4).map((w) => w.box)];
    // (The last blank of a row that has words or a blank before it: not a line of its own across the page.)
    if (onRow.some((o) => o.x0 > next.x1) || !onRow.some((o) => o.x1 < next.x0)) break;
    if (words.some((w) => w.box.y0 > next.y && w.box.y0 < top.y - 6 && overlap1(w.box.x0, w.box.x1, next.x0, next.x1) > 0)) break;
    out.push(next);
    top = next;
  }
  return out;
}
