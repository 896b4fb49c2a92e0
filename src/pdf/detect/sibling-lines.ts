/**
 * Lines drawn alike: a line as long as a line to sign on, beside it on its row or right under it in its
 * column, with a caption of its own printed under it as the first one has, is another signer's
 * ("Datum, Unterschrift:" over three lines captioned "(Antragsteller/in)", "(zweite/r
 * Erziehungsberechtigte/r)", "Abteilungsleitung"; "Unterschrift Mitglied" under one line and
 * "2. Erziehungsberechtigte/r" under the next). A caption that asks for something else (a date, a
 * name) makes the line its own, not a signer's.
 */
import { trailingBlanks, written } from './blank-geometry.js';
import { filled } from './filled-blanks.js';
import { onPartyLine } from './signature-blocks.js';
import { TITLE_WORDS } from './captionless-lines.js';
import { DATUM_WORDS } from './datum-words.js';
import { clip, overlap1, xywh, type Label, type Line, type PageModel, type Rect, type Segment, type Suggestion } from './page-model.js';

/** Up to how far under its line a caption printed under it starts, in its line's heights. */
const UNDER = 1.5;
/** How far apart two lines stacked in one column may be. */
const STACKED = 100;

/**
 * The places of other signers on lines alike (siblingLines), and on the lines alike under those, down a column of
 * signers (a board's three members, each named under a line).
 */
export function siblingPlaces(found: Suggestion[], segments: Segment[], used: Set<Segment>, lines: Line[], labels: Label[], page: PageModel): Suggestion[] {
  const out: Suggestion[] = [];
  for (let round = 0, more = true; more && round < 20; round++) {
    const next = siblingLines([...found, ...out], segments, used, lines, labels, page);
    out.push(
      ...next.map((r) => ({
        type: 'signature' as const,
        page: page.page,
        ...xywh(r),
        confidence: page.ocr ? 0.68 : 0.75,
        reason: 'label_with_geometry' as const,
      })),
    );
    more = next.length > 0;
  }
  return out;
}

export function siblingLines(found: Suggestion[], segments: Segment[], used: Set<Segment>, lines: Line[], labels: Label[], page: PageModel): Rect[] {
  const places = found.filter((s) => s.type === 'signature' && s.reason !== 'acroform' && s.page === page.page);
  const runs = trailingBlanks(lines);
  const free = (r: Rect) =>
    !found.some((o) => o.page === page.page && overlap1(o.x, o.x + o.width, r.x0, r.x1) > 0 && overlap1(o.y, o.y + o.height, r.y0, r.y1) > 0);
  const out: Rect[] = [];
  const taken = new Set<Segment>();
  for (const p of places) {
    const under = (s: Segment) => Math.abs(s.y - (p.y + p.height)) <= 3 && overlap1(s.x0, s.x1, p.x, p.x + p.width) >= 0.8 * p.width;
    const own = segments.find(under);
    // (A run of underscores after a caption on its line, "If Applicable: ______", only for a place sharing it with a date.)
    const run = own ? undefined : runs.find(under);
    if (run) out.push(...splitAlike(p, run, runs, lines, labels, page).filter(free));
    // (Or the same row written again right under it, nothing else between: "____ Date: ____" twice under "Owner's Signature(s):".)
    const again = run && !captionUnder(run, lines) ? rowAgainUnder(run, runs, lines) : undefined;
    if (run && again && !taken.has(again) && !used.has(again)) {
      const r = clip(onPartyLine(again, { line: undefined, fill: undefined }, lines), page);
      r.y0 = Math.max(r.y0, run.y + 1);
      if (r.y1 - r.y0 >= 10 && free(r)) {
        taken.add(again);
        out.push(r);
      }
    }
    if (!own) continue;
    // Two lines side by side a slash apart, as long, share whatever names them: "____ / ____", one for each parent.
    const pair = segments.find(
      (s) =>
        s !== own &&
        own.x1 - own.x0 >= 80 &&
        !used.has(s) &&
        !taken.has(s) &&
        Math.abs(s.y - own.y) <= 2 &&
        Math.min(Math.abs(s.x0 - own.x1), Math.abs(own.x0 - s.x1)) <= 6 &&
        Math.abs(s.x1 - s.x0 - (own.x1 - own.x0)) <= 0.2 * (own.x1 - own.x0),
    );
    const paired = pair && clip(onPartyLine(pair, { line: undefined, fill: undefined }, lines), page);
    if (pair && paired && paired.y1 - paired.y0 >= 10 && !filled(paired, page, [])) {
      taken.add(pair);
      out.push(paired);
    }
    // Lines with no caption under them: only the one right under it, alike and alone ("In fede" over two lines, one per spouse),
    // or the one beside it on its row, the row's only other line, nothing written around it ("Signature:" over the left of two).
    if (!captionUnder(own, lines)) {
      const next = uncaptionedUnder(own, segments, lines) ?? uncaptionedBeside(own, segments, lines);
      if (next && !used.has(next) && !taken.has(next) && !uncaptionedUnder(next, segments, lines)) {
        const r = clip(onPartyLine(next, { line: undefined, fill: undefined }, lines), page);
        if (next.y > own.y + 2) r.y0 = Math.max(r.y0, own.y + 1);
        if (r.y1 - r.y0 >= 10 && !filled(r, page, [])) {
          taken.add(next);
          out.push(r);
        }
      }
      continue;
    }
    const length = own.x1 - own.x0;
    // (A place on a part of its line, shared with other captions, has no line alike: "Nürnberg, den … Mitglied Unterschrift";
    // but for one shared with a date's caption the same way: "Parent or Legal Guardian signature  Date" over "Spouse  Date".)
    if (p.width < 0.7 * length) {
      out.push(...splitAlike(p, own, [...segments, ...runs], lines, labels, page).filter(free));
      continue;
    }
    for (const s of segments) {
      if (s === own || used.has(s) || taken.has(s)) continue;
      const ratio = (s.x1 - s.x0) / length;
      if (ratio < 0.8 || ratio > 1.25) continue;
      const row = Math.abs(s.y - own.y) <= 2 && overlap1(s.x0, s.x1, own.x0, own.x1) <= 0;
      const column = Math.abs(s.x0 - own.x0) <= 4 && Math.abs(s.x1 - own.x1) <= 4 && Math.abs(s.y - own.y) > 8 && Math.abs(s.y - own.y) <= STACKED;
      if (!row && !column) continue;
      const caption = captionUnder(s, lines);
      // (Over the place to sign, a line captioned by one word is a row of the form before it: "IBAN", "BIC".)
      if (caption && column && s.y < own.y && caption.words.length < 2) continue;
      if (
        !caption ||
        // (Nor one captioned by a datum or an office, "D.N.I.", "Cargo", "Qualifica": it asks for that, beside the signature's.)
        caption.tokens.some((t) => DATUM_WORDS.has(t) || TITLE_WORDS.has(t)) ||
        DATUM_WORDS.has(caption.tokens.join('')) ||
        labels.some((l) => l.entry.type !== 'signature' && l.line === caption && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0)
      )
        continue;
      const r = underFound(clip(onPartyLine(s, { line: undefined, fill: undefined }, lines), page), found, page.page);
      if (r.y1 - r.y0 < 10 || filled(r, page, []) || !free(r)) continue;
      taken.add(s);
      out.push(r);
    }
  }
  for (const s of taken) used.add(s);
  return out;
}

/** A line's room brought under the fields found over its top part (the date of the row above: "Musterstadt, den ____" over the line), leaving it at least 20 pt. */
function underFound(r: Rect, found: readonly Suggestion[], page: number): Rect {
  let y0 = r.y0;
  for (const o of found)
    if (o.page === page && overlap1(o.x, o.x + o.width, r.x0, r.x1) > 0 && o.y < r.y0 + 1 && o.y + o.height > y0 && o.y + o.height <= r.y1 - 20)
      y0 = o.y + o.height + 1;
  return { ...r, y0 };
}

/**
 * The caption printed right under a line: a line of words starting within a line and a half under it,
 * centred within its span and not much wider, short (six words at most) and naming rather than asking or telling: no colon (a
 * caption with a colon is the next row's, before its own blank), no blank of its own ("lì, ____" is the next row), no figures but ordinals ("2.
 * Erziehungsberechtigte/r"; not "Business Address: 18 Pleasant Valley").
 */
function captionUnder(s: Segment, lines: Line[]): Line | undefined {
  return lines.find(
    (l) =>
      written(l) &&
      l.box.y0 >= s.y - 1 &&
      l.box.y0 <= s.y + UNDER * l.size + 2 &&
      (l.box.x0 + l.box.x1) / 2 > s.x0 &&
      (l.box.x0 + l.box.x1) / 2 < s.x1 &&
      l.box.x1 - l.box.x0 <= 1.5 * (s.x1 - s.x0) + 20 &&
      l.words.length <= 6 &&
      !l.tokens.includes('\0') &&
      !l.words.some((w) => /[:：]/.test(w.text)) &&
      l.words.every((w) => !/\d/.test(w.text) || /^\d{1,2}\.$/.test(w.text)),
  );
}

/** The first of `pool` alike under `s`: where it starts, as long within 5 %, from `nearest` to 40 pt (a signature's height) under it. */
function alikeUnder(s: Segment, pool: readonly Segment[], nearest: number): Segment | undefined {
  const length = s.x1 - s.x0;
  return pool.find((o) => o.y - s.y >= nearest && o.y - s.y <= 40 && Math.abs(o.x0 - s.x0) <= 4 && Math.abs(o.x1 - o.x0 - length) <= 0.05 * length);
}

/** Whether a line is written from `s` down to `y`, over its span; the lines of `rows` (the rows of runs of blanks themselves) aside. */
function writtenBetween(s: Segment, y: number, lines: readonly Line[], rows: readonly Line[] = []): boolean {
  return lines.some((l) => !rows.includes(l) && written(l) && l.box.y1 > s.y && l.box.y0 < y && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0);
}

/** A line alike right under a line (as long, where it starts, within a signature's height), with nothing written between them or under it. */
function uncaptionedUnder(s: Segment, segments: Segment[], lines: Line[]): Segment | undefined {
  const next = alikeUnder(s, segments, 12);
  return next && !writtenBetween(s, next.y, lines) && !captionUnder(next, lines) ? next : undefined;
}

/** The row's only other line, after a line, about as long (0.8 to 1.3 of it), with no caption under it and no words beside or over it. */
function uncaptionedBeside(s: Segment, segments: Segment[], lines: Line[]): Segment | undefined {
  const length = s.x1 - s.x0;
  const row = segments.filter((o) => o !== s && Math.abs(o.y - s.y) <= 2 && o.x1 - o.x0 >= 40);
  const next = row.length === 1 ? row[0] : undefined;
  if (!next || next.x0 < s.x1 || (next.x1 - next.x0) / length < 0.8 || (next.x1 - next.x0) / length > 1.3) return undefined;
  // (A full stop at the end of the line is no writing: "____________ .")
  const near = lines.some(
    (l) =>
      written(l) &&
      l.words.some((w) => /[\p{L}\d]/u.test(w.text)) &&
      l.box.y1 > s.y - 40 &&
      l.box.y0 < s.y + UNDER * l.size + 2 &&
      overlap1(l.box.x0, l.box.x1, s.x1 + 1, next.x1) > 0,
  );
  return near || captionUnder(next, lines) ? undefined : next;
}

/**
 * The lines alike in a place's column (starting where it starts, about as long, under it within STACKED) shared the same way as its own: a date's
 * caption under the same part of each, and a caption of no other kind under the place's part ("Spouse" under the line under
 * "Parent or Legal Guardian signature  Date"). The place's part of each, up to the line over it.
 */
function splitAlike(p: Suggestion, own: Segment, segments: Segment[], lines: Line[], labels: Label[], page: PageModel): Rect[] {
  const dateUnder = (s: Segment) =>
    labels.find(
      (l) => l.entry.type === 'date' && l.box.y0 >= s.y - 1 && l.box.y0 - s.y <= UNDER * l.line.size + 2 && l.box.x0 >= s.x0 - 2 && l.box.x1 <= s.x1 + 2,
    );
  const mine = dateUnder(own);
  const [x0, x1] = [p.x, p.x + p.width];
  if (!mine || mine.box.x0 < x1 - 10) return [];
  const out: Rect[] = [];
  for (const s of segments) {
    const ratio = (s.x1 - s.x0) / (own.x1 - own.x0);
    if (s === own || Math.abs(s.x0 - own.x0) > 4 || ratio < 0.9 || ratio > 1.1 || s.y - own.y <= 8 || s.y - own.y > STACKED) continue;
    const date = dateUnder(s);
    const caption = lines.find(
      (l) =>
        written(l) &&
        l.box.y0 >= s.y - 1 &&
        l.box.y0 <= s.y + UNDER * l.size + 2 &&
        overlap1(l.box.x0, l.box.x1, x0, x1) > 0 &&
        l.box.x1 <= (date?.box.x0 ?? 0),
    );
    if (!date || Math.abs(date.box.x0 - mine.box.x0) > 10 || !caption || labels.some((l) => l.line === caption && l.entry.type !== 'signature')) continue;
    const r = clip(onPartyLine({ x0, x1, y: s.y }, { line: undefined, fill: undefined }, lines), page);
    r.y0 = Math.max(r.y0, own.y + 1);
    if (r.y1 - r.y0 >= 10 && !filled(r, page, [])) out.push(r);
  }
  return out;
}

/**
 * A run of blanks alike right under a run (alikeUnder; rows of text may stand 10 pt apart), on a row written the same (the
 * same words after it, "Date: ____"), with nothing else between the two rows nor a caption under the second.
 */
function rowAgainUnder(run: Segment, runs: Segment[], lines: Line[]): Segment | undefined {
  const rowOf = (s: Segment) => lines.find((l) => Math.abs(l.baseline - s.y) <= 3 && l.box.x0 <= s.x0 + 1 && l.box.x1 >= s.x1 - 1);
  const mine = rowOf(run);
  const next = alikeUnder(run, runs, 10);
  const theirs = next && rowOf(next);
  if (!next || !mine || !theirs || mine.tokens.join(' ') !== theirs.tokens.join(' ')) return undefined;
  return writtenBetween(run, next.y, lines, [mine, theirs]) || captionUnder(next, lines) ? undefined : next;
}
