/**
 * Room to sign over a signer's typed name, with no line drawn: a contract's closing sentence says the
 * parties sign ("En comprobante firman.", "IN WITNESS WHEREOF"), then each party's name stands under a
 * signature's height of empty page ("Bladimir Benavides" / "BBK Odontología" beside "Juan Chávez" /
 * "CEO REDEX"). The place to sign is that room, a signature wide and centred over the name. A name is
 * two to four capitalised words, no caption, with its company, number or role right under it or another
 * name beside it on its row, and no line of its own under it (a block's heading is signed on its lines).
 * And the room over an oath official's title alone on its line (an affidavit's jurat), or over an office alone on its
 * row at the foot of a letter or a form ("Principal/HOD").
 */
import { written } from './blank-geometry.js';
import { isFillToken, notAField } from './lexicon.js';
import { matchLabels } from './label-matching.js';
import { FIELD_HEIGHT, FIELD_WIDTH, onRowOf, overlap1, runLine, type Line, type PageModel, type Rect, type Segment } from './page-model.js';
import { typedName } from './captionless-lines.js';

/** Words of a sentence that says the document is signed ("the parties sign", "signed", "in witness whereof"). */
const SIGNING = new Set([
  ...['sign', 'signed', 'signing', 'whereof', 'signent', 'signe', 'signee', 'signons'],
  ...['firman', 'firmado', 'firmamos', 'firmo', 'firmano', 'firmato', 'sottoscrivono', 'suscriben'],
  ...['assinam', 'assinado', 'assinamos', 'assinaturas', 'unterschreiben', 'unterzeichnen', 'unterzeichnet'],
]);
/** How far over a name the sentence that says the parties sign may stand; how far apart names signed in turn in one column stand. */
const SENTENCE_ABOVE = 120;
const NEXT_NAME = 160;
/** How far under a name a line of its block is looked for. */
const BLOCK_LINES = 70;

export function roomsOverNames(lines: Line[], page: PageModel): Array<{ rect: Rect; line: Line }> {
  const text = lines.filter(written);
  if (text.length === 0) return [];
  const left = Math.min(...text.map((l) => l.box.x0));
  const right = Math.max(...text.map((l) => l.box.x1));
  const walls = wallsOf(text, page);
  const signing = text.filter((l) => l.tokens.some((t) => SIGNING.has(t)));
  const out: Array<{ rect: Rect; line: Line }> = [];
  const names = text
    .filter((l) => typedName(l) && !l.rtl && matchLabels(l.tokens).length === 0 && !l.tokens.some((t) => SIGNING.has(t)))
    .sort((a, b) => a.box.y0 - b.box.y0);
  // (Its lines: drawn, or runs of underscores or dots, alone or after a caption: "By: ____".)
  const rules = linesToSignOn(lines, page);
  for (const line of names) {
    // A name heading a block with lines of its own under it ("Dice Media Group" over "By: ____") is signed on them.
    if (rules.some((s) => s.y > line.box.y1 && s.y - line.box.y1 <= BLOCK_LINES && overlap1(s.x0, s.x1, line.box.x0 - 40, line.box.x1 + 40) > 0)) continue;
    // A signer's name: with its company, number or role right under it, or beside another's on its row (not a title alone).
    const under = text.some(
      (o) =>
        o !== line && o.box.y0 >= line.box.y1 - 1 && o.box.y0 - line.box.y1 <= 1.5 * line.size && overlap1(o.box.x0, o.box.x1, line.box.x0, line.box.x1) > 0,
    );
    if (!under && !names.some((o) => o !== line && Math.abs(o.baseline - line.baseline) <= 2)) continue;
    // (Nor a name said to be signed electronically right under it: "(assinado eletronicamente)", "Digitally signed".)
    if (text.some((o) => o.box.y0 >= line.box.y1 - 1 && o.box.y0 - line.box.y1 <= 1.5 * line.size && notAField(o.tokens))) continue;
    const mid = (line.box.x0 + line.box.x1) / 2;
    const x0 = Math.max(left, mid - FIELD_WIDTH.signature / 2);
    const x1 = Math.min(right, mid + FIELD_WIDTH.signature / 2);
    const y1 = line.box.y0 - 1;
    const y0 = y1 - FIELD_HEIGHT.signature;
    if (walls.some((o) => o !== line.box && o.y1 > y0 - 2 && o.y0 < y1 && overlap1(o.x0, o.x1, x0, x1) > 0)) continue;
    // (A run of underscores or dots right over the name is its line: the name is signed on it, not in a room of its own.)
    if (rules.some((s) => s.y > y0 && s.y <= y1 + 2 && overlap1(s.x0, s.x1, x0, x1) > 0)) continue;
    // Said to be signed right above, or the next of names signed in turn down the page.
    const said = signing.some((l) => l.box.y1 <= y0 && y0 - l.box.y1 <= SENTENCE_ABOVE);
    const inTurn = out.some((o) => o.line.box.y1 < line.box.y0 && line.box.y0 - o.line.box.y1 <= NEXT_NAME);
    if (!said && !inTurn) continue;
    out.push({ rect: { x0, y0, x1, y1 }, line });
  }
  return out;
}

/** The title of whoever certifies an oath, alone on its line: "NOTARY PUBLIC", "(COMMISSIONER OF OATHS)", "Oath Commissioner". */
const OATH_OFFICIAL = /^\(?(?:notary public|commissioner (?:of|for) oaths|oath commissioner|notary)\)?$/i;

/** The office of whoever signs a letter or a form's approval, opening a short line of its own: "Principal/HOD", "Chairman", "Director". */
const OFFICE_TITLE = /^(?:the )?(?:principal|chairman|chairperson|chairwoman|dean|director|registrar|h\.?o\.?d\.?|headmaster|headmistress)\b/i;

/**
 * The room over an oath official's title alone on its line (an affidavit's jurat: the official signs over
 * their title, with no line drawn), over an office alone on its row, or over "Fdo.:" and who signs: a signature's full
 * height, clear of any words, rule or box above.
 */
export function roomOverOfficials(lines: readonly Line[], page: PageModel): Array<{ rect: Rect; line: Line }> {
  const out: Array<{ rect: Rect; line: Line }> = [];
  // (Made at the first title: most pages have none.)
  let walls: Rect[] | undefined;
  let rules: Segment[] | undefined;
  for (const line of lines) {
    const text = line.words
      .map((w) => w.text)
      .join(' ')
      .trim();
    // (An office alone on its row, in a short line: "Principal/HOD" at the foot of a letter, "Chairman" over its committee.)
    const office = OFFICE_TITLE.test(text) && line.words.length <= 5 && !/[:\d]/.test(text) && !lines.some((l) => l !== line && written(l) && onRowOf(l, line));
    // (Or "Fdo." and who signs after it, "Fdo.: Juan García López", "Fdo.: El Secretario", or a form's field for the name after
    // it: Spanish prints it under the signature.)
    const fdo = line.tokens[0] === 'fdo';
    const field = fdo ? page.widgets.find((w) => w.kind === 'text' && fieldAfter(w.box, line)) : undefined;
    const signed = fdo && (line.tokens.length > 1 || field !== undefined);
    if (!office && !signed && !OATH_OFFICIAL.test(text)) continue;
    // (An office's block starts where its widest line starts: "Chairman" over "(Admissions Committee)".)
    const next = office
      ? lines.find((l) => l.box.y0 >= line.box.y1 - 1 && l.box.y0 - line.box.y1 <= line.size && overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x1) > 0)
      : undefined;
    const x0 = Math.min(line.box.x0, next?.box.x0 ?? line.box.x0);
    const x1 = Math.min(page.width, x0 + FIELD_WIDTH.signature);
    // (Over the field too, when it stands higher than the words.)
    const y1 = Math.min(line.box.y0, field?.box.y0 ?? Number.POSITIVE_INFINITY) - 1;
    // (An office under a line of its own is signed on that line: "Registrar" under "______".)
    if ((office || signed) && lineOver((rules ??= linesToSignOn(lines, page)), x0, x1, y1)) continue;
    walls ??= wallsOf(lines.filter(written), page);
    // (A signature's height clear over it, or four of the title's sizes when its type is smaller: a page printed smaller reads the same.)
    const least = Math.min(FIELD_HEIGHT.signature, 4 * line.size);
    // (Over "Fdo.", the room up to the caption of its block, "Firma del interesado" over "Fdo.:", when it is less than a signature and a half.)
    const reach = signed ? 1.5 * FIELD_HEIGHT.signature : FIELD_HEIGHT.signature;
    const over = walls.filter((o) => o !== line.box && o.y0 < y1 && o.y1 > y1 - reach && overlap1(o.x0, o.x1, x0, x1) > 0);
    const y0 = over.length > 0 ? Math.max(y1 - reach, ...over.map((o) => o.y1 + 1)) : y1 - FIELD_HEIGHT.signature;
    if (y1 - y0 < least - 2) continue;
    out.push({ rect: { x0, y0, x1, y1 }, line });
  }
  return out;
}

/** A form's field right after a line on its row. */
const fieldAfter = (box: Rect, line: Line): boolean =>
  box.x0 >= line.box.x1 - 2 && box.x0 - line.box.x1 <= 60 && overlap1(box.y0, box.y1, line.box.y0, line.box.y1) > 0.5 * (line.box.y1 - line.box.y0);

/** A page's lines to sign on: its drawn rules and its runs of underscores or dots, alone or after a caption ("By: ____"). */
function linesToSignOn(lines: readonly Line[], page: PageModel): Segment[] {
  return [...page.segments, ...lines.flatMap((l) => l.words.filter((w) => isFillToken(w.text)).map(runLine))];
}

/** One of the lines to sign on within a signature's height over y1, along x0 to x1. */
function lineOver(rules: readonly Segment[], x0: number, x1: number, y1: number): boolean {
  return rules.some((r) => r.y <= y1 + 2 && r.y >= y1 - FIELD_HEIGHT.signature && overlap1(r.x0, r.x1, x0, x1) > 0);
}

/** What room to sign in must stay clear of: the written lines' boxes (each line's own `box` object), boxes and rules. */
function wallsOf(written: readonly Line[], page: PageModel): Rect[] {
  return [...written.map((l) => l.box), ...page.boxes, ...page.segments.map((s) => ({ x0: s.x0, y0: s.y, x1: s.x1, y1: s.y }))];
}
