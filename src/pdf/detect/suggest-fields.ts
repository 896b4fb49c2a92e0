/**
 * From what a page shows to where its fields go. Pure: the input is one page in display coordinates (PDF points, origin top-left,
 * y downward, after /Rotate) with its words, horizontal rules, boxes, images and form widgets, whether they came from the text layer
 * or from OCR; the output is field suggestions. The rules, in the order they apply, each in its own module:
 * - AcroForm widgets are fields already (`acroform`, acroform-widgets.ts); text tags mark theirs (text-tags.ts); dates written as
 *   month/day/year blanks after "executed on", or a blank after "signed … on" (date-formulas.ts).
 * - A label from the lexicon (read as label runs, label-runs.ts, lines-and-labels.ts) becomes a field where geometry says where the blank is
 *   (`label_with_geometry`, blank-geometry.ts): a run of underscores or dots after it, a drawn line beside, over or under it (a
 *   form-row border is not one), a box, a table cell; a date's blank drawn in parts is one (date-parts.ts).
 * - A party's name alone under, over or after a line signs on it; so does a blank without a caption on a signing date's row (signature-blocks.ts).
 * - Failing geometry, room to write beside or below a label (`label_with_whitespace`, blank-space.ts).
 * Filled blanks give nothing (filled-blanks.ts); dates are signing dates only (signing-dates.ts); one spot, one suggestion (suggestion-output.ts).
 */
import type { LabelType } from './lexicon.js';
import { captionOwns, fromWidget, gapTo, namelessToSign, settleWidgetDates, widgetMeaning, widgetNear, widgetsOfWritten } from './acroform-widgets.js';
import {
  roomsToTry,
  dateSeparators,
  datesUnderRows,
  filledOver,
  inRunningText,
  opensLineApart,
  namesAbove,
  roomAbove,
  runUnder,
  runInCell,
  rowUnder,
  stackedUnder,
} from './blank-space.js';
import { boxAround, boxBeside } from './caption-boxes.js';
import { partyPlaces } from './party-places.js';
import { undated, dedupe, writtenFields, writtenOwns, suggestion } from './suggestion-output.js';
import { blankBefore, fillAfter, ruledRow, segmentBeside, segmentOver, ruleUnder, rowEnd, standOn, trailingBlanks } from './blank-geometry.js';
import { boxUnderTop, holdsRun, captionedAlike, geometryBelow, headsParagraph, ownLineBelow, restates, rowInstead, topUnder } from './blank-below.js';
import { bandFoots, blankBands, combBottoms } from './page-rules.js';
import { rulesAndLines } from './ruled-columns.js';
import { findLabels } from './lines-and-labels.js';
import { afterColonOnRule, asksAfter, asksAlone, headsNamedBlock, inRemark, keepsOwnRoom, partUnder } from './caption-rows.js';
import { asksInCell, qualifiesSignature, rowOver, signsUnderAlike, valueInPlace } from './caption-rows.js';
import { blankInOtherCell, captionCell, cellAt, cellBlank, furtherCells } from './table-cells.js';
import { isTextTag, outsideTags } from './text-tags.js';
import { coSignerPlaces, coSigners, onPartyLine, partyBetween, partyAbove, partyCaptions } from './signature-blocks.js';
import { captionlessLines, signersByTitle } from './captionless-lines.js';
import { closesOver } from './letter-closings.js';
import { bareDate, besideSignature, keptDate, onOtherDateRow, otherDate, timedColumn } from './signing-dates.js';
import { dateAfterLe } from './french-dates.js';
import { centuryDates, dateParts, separatedParts } from './date-parts.js';
import { formulaRows, placeCommaDates, placeDateSigners, placeDenFields } from './place-dates.js';
import { signaturesBesideDates } from './signatures-beside-dates.js';
import { fillLines, filled, leadingRuns, moreBlanks, signatureImages, signedInText, unasked, underlinesOf, unplaced } from './filled-blanks.js';
import { ocrWords } from './ocr-misreads.js';
import { asRead } from './glyph-runs.js';
import { siblingPlaces } from './sibling-lines.js';
import { mentionAlone, notMentionBeside } from './written-mentions.js';
import { headingByWords, headingOf, headingOverRoom, headingWord, headsPlaceOfSigner, headsSignedUnder } from './section-headings.js';
import { columnOver } from './block-rows.js';
import {
  clip,
  overlap1,
  bodySize,
  rectOf,
  sameSpot,
  xywh,
  type Label,
  type PageModel,
  type Rect,
  type Reason,
  type Segment,
  type Suggestion,
  type Widget,
  type Word,
} from './page-model.js';

export type { PageModel, Rect, Segment, Suggestion, VRule, Widget, Word } from './page-model.js';
export { buildLines } from './lines-and-labels.js';
export { cellAt } from './table-cells.js';
export { dedupe } from './suggestion-output.js';

export function suggestFields(read: PageModel): Suggestion[] {
  const page = read.ocr ? { ...read, words: ocrWords(read.words, read.segments) } : { ...read, words: asRead(read.words) };
  const widgetSuggestions = new Map(page.widgets.map((w) => [w, fromWidget(page, w)]));
  const namedDates = new Set([...widgetSuggestions.values()].filter((s) => s.type === 'date'));
  const out: Suggestion[] = [...widgetSuggestions.values()];
  const { geo, lines } = rulesAndLines(page);
  const labels = signersByTitle(outsideTags(findLabels(lines, bodySize(page.words), page.segments), lines), lines, geo.free).filter(
    (l, _, all) => !signedInText(l) && !qualifiesSignature(l, all) && !inRemark(l, all),
  );
  const used = new Set<Segment>();
  const fills = fillLines(lines);
  // A field stops under a line above it, drawn, a blank run, a comb's or a coloured band's.
  const feet = bandFoots(page.bands ?? []);
  const blank = blankBands(page, feet);
  const walls = [...geo.h, ...fills, ...combBottoms(geo.v), ...feet, ...blank.tops];
  const claimedFills: Segment[] = [];
  const shared = new Set<Segment>(); // Rules shared by captions of one row: each caption takes its part.
  const signedCells: Rect[] = []; // Signatures' cells, all of them: a date beside one goes with it.
  const rows = formulaRows(lines); // A formula's pieces set apart on a row or over two, joined once for the page.
  const written = writtenFields(page, lines, rows);
  out.push(...written);
  widgetsOfWritten(written, [...widgetSuggestions.values()]);
  const heading = headingOf(lines, bodySize(page.words), page.ocr);
  /** Dates from a bare "Date": kept only beside a place to sign. */
  const bareDates = new Set<Suggestion>();
  const signed = new Map<Label, Suggestion>();
  const captionOf = new Map<Suggestion, Label>();
  // "Ort, Datum" over whoever signs, in its column: a caption asking for the place, the date and the signature.
  placeDateSigners(labels, lines, page.segments);
  const claim = (label: Label, type: LabelType, rect: Rect, reason: Reason, base: number) => {
    label.done = true;
    const s = suggestion(page, label, type, rect, reason, base);
    if (!s || (type === 'date' && (written.some((w) => w.type === 'date' && sameSpot(rectOf(w), rectOf(s))) || onOtherDateRow(rectOf(s), lines)))) return;
    out.push(s);
    captionOf.set(s, label);
    if (type === 'signature' && !signed.has(label)) signed.set(label, s);
    if (type === 'date' && bareDate(label)) bareDates.add(s);
  };

  // "Abbiategrasso, ______": a signing date when a place to sign is beside it.
  for (const s of placeCommaDates(lines, page, widgetSuggestions.values(), labels)) {
    out.push(s);
    bareDates.add(s);
  }
  // "____ __ ____, 20__" alone on its row: likewise.
  for (const s of centuryDates(page)) {
    out.push(s);
    bareDates.add(s);
  }
  // Birth, issue, period dates and the like are not signing dates; a date's caption on the row of a date written out is that date's ("Dated this ___ day of ___").
  for (const label of labels) if (otherDate(label) || writtenOwns(label, written)) label.done = true;
  for (const rect of placeDenFields(
    [...lines, ...rows],
    page.segments,
    labels,
    page.widgets.map((w) => w.box),
  )) {
    const field = widgetSuggestions.get(page.widgets.find((w) => w.box === rect) as Widget);
    if (field?.type === 'text' && !field.fieldKey) Object.assign(field, { type: 'date', fieldKey: 'sign_date' });
    const r = clip(rect, page);
    if (field) continue;
    if (r.x1 - r.x0 < 4 || r.y1 - r.y0 < 4) continue;
    out.push({ type: 'date', page: page.page, ...xywh(r), confidence: page.ocr ? 0.78 : 0.85, reason: 'label_with_geometry', fieldKey: 'sign_date' });
  }
  // "Fait à …, le …": the date after "le" (a "date" written there is its placeholder, not another caption).
  for (const label of labels) {
    const rect = label.done ? undefined : dateAfterLe(label, lines, page.width, walls);
    if (!rect || blankInOtherCell(label, geo, page) || page.widgets.some((w) => widgetNear(label, w.box))) continue;
    for (const o of labels) if (o.line === label.line && o.entry.type === 'date' && o.box.x0 >= label.box.x0 && o.box.x1 <= rect.x1 + 1) o.done = true;
    label.done = true;
    const r = clip(rect, page);
    if (r.y1 - r.y0 < 4 || filled(r, page, label.line.words)) continue;
    out.push({ type: 'date', page: page.page, ...xywh(r), confidence: page.ocr ? 0.78 : 0.85, reason: 'label_with_geometry', fieldKey: 'sign_date' });
  }

  // A label right before a text tag describes the tag's field.
  for (const label of labels) if (label.next !== -1 && isTextTag((label.line.words[label.next] as Word).text)) label.done = true;
  /** Nameless widgets a date label describes: dates once the places to sign are known. */
  const adopt: Array<{ label: Label; s: Suggestion }> = [];
  // A label next to a form widget describes that widget (a widget whose name says nothing takes the
  // label's meaning); a signature label is only the widget's when that widget is for a signature.
  // A widget's meaning comes from its own caption (beside it, or the caption whose table cell holds it)
  // before a caption of another row.
  for (const label of labels) {
    const cell = cellAt(geo, (label.box.x0 + label.box.x1) / 2, (label.box.y0 + label.box.y1) / 2);
    const near = page.widgets.filter(
      (w) =>
        widgetNear(label, w.box) &&
        // A rule between them closes the caption's row: a widget under it is the next row's.
        !geo.h.some(
          (r) =>
            r.y > label.box.y1 + 1 &&
            r.y < w.box.y0 - 1 &&
            overlap1(r.x0, r.x1, label.box.x0, label.box.x1) > 0 &&
            overlap1(r.x0, r.x1, w.box.x0, w.box.x1) > 0,
        ) &&
        (!cell || overlap1(w.box.y0, w.box.y1, cell.y0, cell.y1) > 2) &&
        captionOwns(label, w.box, labels),
    );
    if (near.length === 0) continue;
    const type = label.entry.type;
    if (type === 'signature' || type === 'initials') {
      const same = (w: (typeof near)[number]) => {
        const meaning = widgetMeaning(w.name);
        return w.kind === 'signature' || meaning?.type === 'signature' || (type === 'initials' && meaning?.fieldKey === 'initials');
      };
      if (near.some(same)) label.done = true;
      else if (type === 'signature') {
        const widget = namelessToSign(label, near, page.words);
        const s = widget && widgetSuggestions.get(widget);
        if (s && s.type === 'text' && !s.fieldKey) {
          s.type = 'signature';
          label.done = true;
        }
      }
      continue;
    }
    label.done = true;
    const widget = near.sort((a, b) => gapTo(label, a.box) - gapTo(label, b.box))[0] as (typeof near)[number];
    const s = widgetSuggestions.get(widget);
    if (!s || s.type !== 'text' || s.fieldKey || widgetMeaning(widget.name) || otherDate(label)) continue;
    if (type === 'date') adopt.push({ label, s });
    else if (label.entry.fieldKey) s.fieldKey = label.entry.fieldKey;
  }

  // Geometry on the label's own line, in its table cell, around it or right above it.
  for (const label of labels) {
    if (label.done || label.valueAfter) continue;
    const type = label.entry.type;
    const fill = blankBefore(label, geo.free, lines) ?? fillAfter(label, lines);
    if (fill) {
      const { run, parts } = dateParts(type, fill.segment, [...page.segments, ...fills], used, label.line.size);
      for (const r of [...parts, ...underlinesOf(run, geo.free)]) used.add(r);
      claimedFills.push(...parts);
      claim(label, type, standOn(type, run.x0, run.x1, run.y, label, lines, walls), 'label_with_geometry', 0.9);
      for (const more of moreBlanks(label)) claim(label, type, standOn(type, more.x0, more.x1, more.y, label, lines), 'label_with_geometry', 0.88);
      continue;
    }
    const cell = captionCell(geo, label.box, label.line.box, page.words);
    const beside = segmentBeside(label, [...geo.free, ...fills], used, headingByWords(label) ? [] : lines);
    // (A line drawn on the caption's baseline in its cell or its row is the blank, not the whole cell or row.)
    const onBaseline = beside !== undefined && Math.abs(beside.y - label.line.baseline) <= 0.5 * label.line.size;
    if (cell && !(onBaseline && beside.x0 >= cell.x0 - 2 && beside.x1 <= cell.x1 + 2)) {
      // In a table the cell decides: a run of underscores right over the caption in its cell, a blank beside or below it, or nothing.
      label.done = true;
      const run = runInCell(label, cell, fills, used, shared, lines);
      if (run) {
        used.add(run);
        const rect = standOn(type, run.x0, run.x1, run.y, label, lines, walls);
        claim(label, type, { ...rect, y0: run.y > label.box.y1 ? Math.max(rect.y0, label.box.y1 + 2) : rect.y0 }, 'label_with_geometry', 0.92);
        continue;
      }
      // (A caption that asks for its blank after it, "X" or "By", has no cell of its own: an "X" ticked in a grid; nor has a heading.)
      const asks = asksInCell(label, labels) && !(type === 'date' && timedColumn(label, lines));
      const blank = !asks || headingByWords(label, true) ? undefined : cellBlank(label, cell, geo, page);
      if (blank) claim(label, type, blank, 'label_with_geometry', 0.92);
      if (blank && type === 'signature') signedCells.push(cell);
      // A sign-in sheet: the column's further empty rows too, or the row's further empty cells.
      for (const more of blank && type !== 'text' ? furtherCells(cell, blank, geo, page) : []) claim(label, type, more, 'label_with_geometry', 0.9);
      continue;
    }
    // A caption right under a line with room above it signs on that line (the pass below), even when
    // the next caption's line closes a "row" under it.
    const signsAbove = (over: Segment | undefined) => over !== undefined && roomAbove(type, over, label, lines);
    // (Not a heading, in its row or over a section's rule: "Unterschriften" over a rule across the page.)
    const headed = headingByWords(label);
    const row = headed ? undefined : ruledRow(label, geo, lines);
    const under = headed ? undefined : ruleUnder(label, geo.free, used, lines);
    // (Nor when the caption stands on a line of the row that runs on after it: that line is the blank.)
    const standsOn = under !== undefined && roomAbove(type, { x0: under.x0, x1: under.x1, y: under.y }, label, lines, 8);
    if (row && !onBaseline && !standsOn && !signsAbove(segmentOver(label, [...geo.free, ...fills], used, shared))) {
      claim(label, type, row, 'label_with_geometry', 0.9);
      continue;
    }
    // (A line on the caption's own baseline is one to write on even in single-spaced text: a line's height of room.)
    if (beside && roomAbove(type, beside, label, lines, Math.abs(beside.y - label.line.baseline) <= 0.5 * label.line.size ? 8 : undefined)) {
      const { run, parts } = dateParts(type, beside, [...page.segments, ...fills], used, label.line.size);
      const x1 = rowEnd(label, run, lines);
      for (const s of parts) (x1 < s.x1 ? shared : used).add(s);
      claim(label, type, standOn(type, run.x0, x1, run.y, label, lines, walls), 'label_with_geometry', 0.92);
      continue;
    }
    if (under && standsOn && !signsAbove(segmentOver(label, [...geo.free, ...fills], used, shared))) {
      claim(label, type, standOn(type, under.x0, under.x1, under.y, label, lines, walls), 'label_with_geometry', 0.9);
      continue;
    }
    // (A box around the caption with its run under it, or right over it: the run is its line, the passes below; so
    // for a frame whose room over or under the caption is written on: a section, not a box to fill.)
    const run = runUnder(label, fills, used) || segmentOver(label, fills, used, shared);
    const box = boxBeside(label, geo.boxes) ?? (run ? undefined : boxAround(label, geo.boxes));
    if (box && !filled(clip(box, page), page, label.line.words)) {
      claim(label, type, box, 'label_with_geometry', 0.93);
    }
  }
  // Party-name captions ("IL DICHIARANTE" over its line) own the line under them.
  const parties = partyCaptions(lines, labels);
  // A bare "By" only counts with a blank on its own line, or over its signer's name and title ("By:" over "Name:"); "Initial" alone, over its box.
  for (const label of labels) if (!asksInCell(label, labels) && !headsNamedBlock(label, labels)) label.done = true;
  // A caption under a line signs on it; a heading's word does not ("SIGNATURES" under the rule closing the terms).
  for (const label of labels) {
    if (label.done || headingByWords(label)) continue;
    // (A blank run after words of its own line counts unless a label on that line took it.)
    const trailing = trailingBlanks(lines, page.widgets).filter((t) => !claimedFills.some((c) => Math.abs(c.x0 - t.x0) < 1 && Math.abs(c.y - t.y) < 1));
    // (Nor the blank of a date its row writes out: "Le : ……" over "Signatures des représentants légaux".)
    const pool = unasked(unplaced(undated([...geo.free, ...fills, ...trailing, ...blank.foots], out, shared), lines), lines);
    const over = segmentOver(label, pool, used, shared);
    // A caption ending its run on its colon that asks for what follows it ("Signature:", "Date ▶") does not name the line over it.
    if (over && asksAfter(label, pool)) continue;
    // A rule that starts well before the caption (a section's rule across the page) is not its line when
    // a line of its own starts under it, right below (captions printed over their lines, in columns).
    if (over && over.x0 < label.box.x0 - 40 && ownLineBelow(label, geo.free, lines, used)) continue;
    if (over && captionedAlike(over, label, geo.free, lines, used)) continue;
    const boxed = over && !headsParagraph(label, over, lines) ? boxUnderTop(label, over, geo.v) : undefined;
    if (boxed && !holdsRun(boxed, fills)) claim(label, label.entry.type, boxed, 'label_with_geometry', 0.88);
    if (boxed || (over && headsParagraph(label, over, lines))) continue;
    if (over && label.entry.type === 'text' && (partyBetween(over, label, parties) || valueInPlace(label))) continue;
    if (
      over &&
      roomAbove(label.entry.type, over, label, lines, label.entry.type === 'signature' && !label.colon ? 8 : undefined) &&
      !(label.colon && label.entry.type === 'text')
    ) {
      // A rule right under another caption still looking for its blank is the bottom of that caption's
      // row ("Your signature" over "Spouse's signature" in a grid): this caption's blank is its own row, below it.
      const row = rowInstead(label, over, labels, partyAbove(over, parties, [...geo.free, ...fills]), { ...geo, h: [...geo.h, ...fills] }, lines);
      if (row !== false) {
        if (row) claim(label, label.entry.type, row, 'label_with_geometry', 0.88);
        continue;
      }
      // Captions sharing one rule ("Employee's signature ... Date" under a single line) split it between them.
      const { x0, x1, shared: split } = partUnder(label, over, labels, lines);
      (split ? shared : used).add(over);
      const more = split ? [] : separatedParts(label.entry.type, over, [...page.segments, ...fills], used, label.line.size, page.words);
      for (const p of more) used.add(p);
      claim(label, label.entry.type, standOn(label.entry.type, x0, more.at(-1)?.x1 ?? x1, over.y, label, lines, walls), 'label_with_geometry', 0.88);
      // (A signature caption under the last blank of a column names the blanks stacked over it.)
      const column = label.entry.type === 'signature' && !split ? columnOver(over, pool, lines, used) : [];
      for (const b of column) claim(label, 'signature', standOn('signature', b.x0, b.x1, b.y, label, lines, walls), 'label_with_geometry', 0.85);
      for (const b of column) used.add(b);
    }
  }
  // Geometry below the label (not for a heading: the lines under it belong to the captions of the block).
  for (const label of labels) {
    if (label.done || label.valueAfter || headingByWords(label) || restates(label, signed.keys())) continue;
    const below = geometryBelow(label, { ...geo, free: [...geo.free, ...fills, ...leadingRuns(lines)] }, lines, used, labels);
    if (!below) continue;
    if ('y' in below) {
      // A caption with a colon on a row ruled under its whole length writes after its colon; the row's next caption, after its own.
      const after = afterColonOnRule(label, below, lines);
      if (!after) used.add(below);
      const rect = standOn(label.entry.type, after?.x0 ?? below.x0, after?.x1 ?? below.x1, below.y, label, lines, walls);
      if (!after) rect.y0 = Math.max(rect.y0, topUnder(label, below, geo.h));
      claim(label, label.entry.type, rect, 'label_with_geometry', 0.87);
    } else if (!filled(clip(below, page), page, label.line.words)) {
      // (A box under it written in already, a table's header cell, leaves it its room.)
      claim(label, label.entry.type, below, 'label_with_geometry', 0.9);
    }
  }
  // Party-name signature blocks: a line captioned by a party's name alone (or, for two parties side by side, the room under each).
  const partyLines = partyPlaces(page, parties, lines, geo, [...geo.free, ...fills], used, out);
  // Lines with only a name typed under them on a page that speaks of signing; numbered blanks under "Witnesses:".
  for (const { segment, role, floor } of captionlessLines(lines, [...geo.free, ...fills], used)) {
    const r = clip(onPartyLine(segment, { line: undefined, fill: undefined }, lines, [], floor), page);
    if (r.y1 - r.y0 < 10 || filled(r, page, []) || out.some((o) => o.page === page.page && sameSpot(rectOf(o), r))) continue;
    used.add(segment);
    const hint = role ? { roleHint: role } : {};
    out.push({ type: 'signature', page: page.page, ...xywh(r), confidence: page.ocr ? 0.68 : 0.75, reason: 'label_with_geometry', ...hint });
  }
  // Room to write (dates last: a date caption without its colon is dated over when its row's other caption signs over).
  for (const label of [...labels.filter((l) => l.entry.type !== 'date'), ...labels.filter((l) => l.entry.type === 'date')]) {
    const heads = label.entry.leading && headsNamedBlock(label, labels);
    if (label.done || !(asksAlone(label) || heads) || !(label.bare || opensLineApart(label, lines) || dateSeparators(label).size > 0)) continue;
    // Headings ("Signatures", a larger line) and the handwritten mentions ("Lu et approuvé") are not blanks (but a mention alone over white space is signed under).
    const onlyWritten = label.entry.strength === 'weak' && !heads && !mentionAlone(label, labels, out, page);
    if (
      onlyWritten ||
      (heading(label) && !headingOverRoom(label, lines, page)) ||
      inRunningText(label, lines) ||
      filledOver(label, [...geo.free, ...fills], lines)
    )
      continue;
    // (Nor a caption whose line gave its kind a field already: its translation, "Date: ___ التاريخ:"; its party's room, "Signed by the Employee:".)
    if ([...captionOf].some(([o, c]) => c !== label && c.line === label.line && o.type === label.entry.type)) continue;
    if (label.entry.type === 'signature' && partyLines.has(label.line)) continue;
    // A caption right under a field found already names it ("X ______" over "Signature of Patient"), or under the role under it.
    if (out.some((o) => o.type === label.entry.type && namesAbove(label, rectOf(o), lines) && !keepsOwnRoom(label, o, captionOf.get(o)))) continue;
    // A caption over another of its kind in its column (its translation, "DATA E LUOGO" over "DATE AND PLACE"; not a mention) leaves the blank to it.
    // So does a closing over the row where one signs ("In fede" over "Firma dei genitori ____ ____"), or over a place found along its row.
    // (And a caption with its colon heading one of its kind signed under it: "3. Signature of the Member:" over "Signature: ____".)
    const under = [...labels.filter((o) => o !== label && stackedUnder(o, label)), ...[...signed.keys()].filter((o) => rowUnder(o, label))];
    const signedUnder = headsSignedUnder(label, under, signed) || headsPlaceOfSigner(label, out.filter((o) => o.type === 'signature').map(rectOf), lines);
    if (closesOver(label.line, out) || (!label.colon && under.some((o) => o.entry.type === label.entry.type)) || signedUnder) continue;
    // A heading's word with its colon over places found under it heads them ("Signatures :" over "Le Propriétaire" and "Le Locataire").
    const under3 = (o: Suggestion) => o.type === label.entry.type && o.y > label.box.y1 && o.y - label.box.y1 <= 3 * label.line.size;
    if (headingWord(label) && label.next === -1 && out.some(under3)) continue;
    // (Its row's other caption names a line over it: this one's room is over it too.)
    const row = rowOver(label, captionOf, [...geo.h, ...fills]);
    for (const find of roomsToTry(label, row.dateOver, signsUnderAlike(label, captionOf, lines))) {
      const rect = find(label, page, lines, geo, row.over);
      if (rect) {
        claim(label, label.entry.type, rect, 'label_with_whitespace', label.colon ? 0.76 : 0.73);
        break;
      }
    }
  }
  for (const [label, room] of datesUnderRows(labels, captionOf, page, lines, geo, out)) claim(label, 'date', room, 'label_with_whitespace', 0.73);
  // Co-signers' captions on a signature caption's row sign in the same band.
  for (const [label, s] of signed) out.push(...coSignerPlaces(s, coSigners(label, lines, labels), page, out));
  // A blank without a caption on a signing date's row, or alone under it, is where one signs; so is the room under "Fait à ___, le ___".
  signaturesBesideDates(out, [...geo.free, ...fills], used, lines, page);
  // Lines drawn alike beside or under a place to sign, each captioned under, are other signers'.
  out.push(...siblingPlaces(out, [...geo.free, ...fills], used, lines, labels, page));
  // Where one signs: the places found, signature captions (not "By" or "Initial" with no blank after), signed cells, and signatures already inked.
  const places = [...out.filter((s) => s.type === 'signature' || s.type === 'initials').map(rectOf), ...signedCells, ...signatureImages(page)];
  places.push(...labels.filter((l) => (l.entry.type === 'signature' || l.entry.type === 'initials') && asksAlone(l)).map((l) => l.box));
  for (const { label, s } of adopt) {
    if (bareDate(label) && !besideSignature(rectOf(s), places)) continue;
    s.type = 'date';
    s.fieldKey = 'sign_date';
  }
  settleWidgetDates(namedDates, widgetSuggestions, places, page.words);
  return dedupe(out.filter(keptDate(bareDates, out, places)).filter(notMentionBeside(out, captionOf)));
}
