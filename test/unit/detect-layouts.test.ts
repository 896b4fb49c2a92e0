// Field detection's layout rules on hand-built pages: blanks set apart from their caption, captions
// qualified or translated, lines a caption stands on or names from a line's height away, signing dates told
// apart by what is beside them; and the words and rules a text layer splits (glyph by glyph, dot by dot).
// No PDF, no child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitItem } from '../../src/pdf/detect/page-scan.js';
import { dottedRules, joinGlyphs, withLigaturesSpelled, withSplitCaptions, withoutLayeredIcons, withoutOverprint } from '../../src/pdf/detect/glyph-runs.js';
import { isFillToken } from '../../src/pdf/detect/lexicon.js';
import { suggestFields, type Suggestion, type Word } from '../../src/pdf/detect/suggest-fields.js';
import { joinPieces } from '../../src/pdf/detect/page-graphics.js';
import { buildLines, findLabels } from '../../src/pdf/detect/lines-and-labels.js';
import { filledOver, roomsToTry } from '../../src/pdf/detect/blank-space.js';
import { brief, h, page, paragraph, plainParagraph, types, v, words } from '../helpers/detect-pages.js';

test('glyphs drawn one by one make their word: Arabic glyphs in visual order read from the right, capitals spaced out, accents drawn apart', () => {
  // "عمل" drawn as three presentation-form glyphs, left to right on the page (pdf.js gives one item each).
  const glyphs = [
    { text: 'ﻞ', x: 452.1, w: 14.7 },
    { text: 'ﻤ', x: 466.8, w: 11.1 },
    { text: 'ﻋ', x: 477.9, w: 11.3 },
  ].map(({ text, x, w }) => ({ text, box: { x0: x, y0: 90, x1: x + w, y1: 104 }, baseline: 100, size: 16.5, confidence: 1 }));
  const joined = joinGlyphs(glyphs);
  assert.equal(joined.length, 1);
  assert.equal(joined[0]?.text.normalize('NFKC'), 'عمل');
  // Words with room between them stay apart; a blank run is never joined to a word.
  assert.equal(joinGlyphs([...words('Signature', 50, 200), ...words('Date', 200, 200)]).length, 2);
  assert.deepEqual(
    joinGlyphs(words('F I R M A ____', 50, 200)).map((w) => w.text),
    ['FIRMA', '____'],
  );
  // Letters of any case spaced out so spell a caption's word; other single letters stay apart.
  assert.deepEqual(
    joinGlyphs(words('U n t e r s c h r i f t : ____', 50, 200)).map((w) => w.text),
    ['Unterschrift', ':', '____'],
  );
  assert.deepEqual(
    joinGlyphs(words('a b c d e', 50, 200)).map((w) => w.text),
    ['a', 'b', 'c', 'd', 'e'],
  );
  // Accents drawn as glyphs of their own (TeX's way): inside an item and across two items.
  assert.deepEqual(
    splitItem('Signature de l’int´ eress´ e(e)', 0, 100, 150, 10, false).map((w) => w.text),
    ['Signature', 'de', 'l’interesse(e)'],
  );
  const across = joinGlyphs([...words('Je soussign´', 50, 200), ...words('e, Jean', 104.5, 200)]);
  assert.deepEqual(
    across.map((w) => w.text),
    ['Je', 'soussigne,', 'Jean'],
  );
});

test('blank runs: spaced dots and underscores, tatweel, middle dots, one glyph repeated; a tatweel inside a word stays in it', () => {
  for (const blank of ['. . . . . .', '_ _ _ _ _', 'ـــــــ', '······', 'ҸҸҸҸҸҸҸҸҸҸ', '____', '……']) assert.ok(isFillToken(blank), blank);
  for (const word of ['Signature', '...', '_ _', 'ـ', 'aaa']) assert.ok(!isFillToken(word), word);
  assert.deepEqual(
    splitItem('Firma . . . . . . . .', 0, 100, 120, 10, false).map((w) => w.text),
    ['Firma', '. . . . . . . .'],
  );
  assert.deepEqual(
    splitItem('التـــوقيع: ـــــــــ', 0, 100, 120, 10, true).map((w) => w.text),
    ['التـــوقيع:', 'ـــــــــ'],
  );
});

test('dotted rules: a row of small dots or dashes is a rule; a grid of squares is not', () => {
  const dots = Array.from({ length: 60 }, (_, i) => ({ x0: 100 + i * 2, y0: 300, x1: 100.75 + i * 2, y1: 300.75 }));
  const rules = dottedRules(dots, 24);
  assert.equal(rules.length, 1);
  assert.ok(Math.abs((rules[0]?.x0 ?? 0) - 100) < 0.01 && Math.abs((rules[0]?.x1 ?? 0) - 218.75) < 0.01);
  const grid = [0, 1, 2, 3, 4, 5].flatMap((r) =>
    Array.from({ length: 20 }, (_, i) => ({ x0: 100 + i * 2, y0: 300 + r * 2, x1: 101 + i * 2, y1: 301 + r * 2 })),
  );
  assert.deepEqual(dottedRules(grid, 24), []);
});

test('a blank set apart from its caption: by a tab on the row, after a remark in parentheses, after a qualifying clause and its colon', () => {
  const tab = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature:', 50, 200), ...words('____________________________', 160, 200)] }));
  assert.deepEqual(brief(tab), [{ type: 'signature', x: 160, y: 162, w: 140, h: 40 }]);
  // Words between the caption and a blank further along keep them apart.
  const between = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Signature:', 50, 200), ...words('Witness', 130, 200), ...words('________________', 250, 200)] }),
  );
  assert.ok(!between.some((s) => s.type === 'signature' && s.x >= 249), JSON.stringify(brief(between)));
  const remark = suggestFields(page({ words: [...paragraph('it', 100), ...words('Firma (leggibile) ______________________', 50, 200)] }));
  assert.deepEqual(brief(remark), [{ type: 'signature', x: 129, y: 162, w: 121, h: 40 }]);
  const dated = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature ______________   Date (mm/dd/yyyy): ____________', 50, 200)] }));
  assert.deepEqual(
    brief(dated).map((s) => [s.type, s.x]),
    [
      ['signature', 98],
      ['date', 274],
    ],
  );
  const clause = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('(Signature of Parent/Legal Guardian if Volunteer is Under 18): ______________', 50, 200)] }),
  );
  assert.equal(clause.length, 1);
  assert.equal(clause[0]?.type, 'signature');
  assert.ok((clause[0]?.x ?? 0) > 320, 'on the blank after the colon');
});

test('"Sign: ____" and "X ____" mark a place to sign at the start of a line; "sign" in a sentence does not', () => {
  const sign = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Sign: ______________________', 50, 200), ...words('X ______________________', 50, 240)] }),
  );
  assert.deepEqual(types(sign), ['signature', 'signature']);
  // (Two columns read as one line, "X ____" beside "X ____": each opens its run after the other's blank.)
  const column = (x: number) => [...words('X', x, 240, 13), ...words('_'.repeat(40), x + 12, 240, 11)];
  const columns = suggestFields(page({ words: [...paragraph('en', 100), ...column(60), ...column(320)] }));
  assert.deepEqual(
    brief(columns).map((s) => [s.type, s.x]),
    [
      ['signature', 72],
      ['signature', 332],
    ],
  );
  const sentence = suggestFields(page({ words: [...paragraph('en', 100), ...words('Please sign the form and return it ____', 50, 200)] }));
  assert.deepEqual(sentence, []);
});

test('two captions of one kind in a run: a translation is one caption, a qualifying clause adds none, two parties are two', () => {
  const bilingual = suggestFields(page({ words: [...paragraph('de', 100), ...words('Unterschrift / Signature: ______________________', 50, 200)] }));
  assert.equal(bilingual.filter((s) => s.type === 'signature').length, 1);
  const qualified = suggestFields(
    page({ words: [...paragraph('en', 100), ...words("(Parent's Signature, if Signatory is minor)", 326, 215)], segments: [{ x0: 324, x1: 526, y: 201 }] }),
  );
  assert.deepEqual(brief(qualified), [{ type: 'signature', x: 324, y: 161, w: 202, h: 40 }]);
});

test('lines named from further away: a bare caption a line height under its line, a rule the caption stands on, an Arabic caption with its blank on its right', () => {
  const under = suggestFields(
    page({ words: [...paragraph('it', 100), ...words('______________________________', 70, 235, 12), ...words('(Firma)', 160, 263, 12)] }),
  );
  assert.deepEqual(types(under), ['signature']);
  assert.ok(Math.abs((under[0]?.x ?? 0) - 70) < 1);
  const stands = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Signature', 50, 200), ...words('Date', 330, 200)], segments: [{ x0: 50, x1: 530, y: 202 }] }),
  );
  assert.deepEqual(
    brief(stands).map((s) => [s.type, s.x]),
    [
      ['signature', 99],
      ['date', 354],
    ],
  );
  const arabic = suggestFields(page({ words: [...words(':التوقيع', 384, 445, 10, true), ...words('....................................', 428, 445)] }));
  assert.deepEqual(
    brief(arabic).map((s) => [s.type, s.x]),
    [['signature', 428]],
  );
});

test('party captions own the line under them; "per accettazione" over the next line takes that one; "Il sottoscritto ____" asks a name', () => {
  const block = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('IL DICHIARANTE', 340, 701),
        ...words('_______________________________', 304, 725, 11),
        ...words('LA DITTA PER ACCETTAZIONE', 305, 750),
        ...words('_______________________________', 304, 774, 11),
      ],
    }),
  );
  assert.deepEqual(
    brief(block).map((s) => [s.type, s.y + s.h]),
    [
      ['signature', 727],
      ['signature', 776],
    ],
  );
  const name = suggestFields(page({ words: [...paragraph('it', 100), ...words('Il Sottoscritto ……………………………………………………', 79, 230)] }));
  assert.ok(!name.some((s) => s.type === 'signature'), JSON.stringify(brief(name)));
});

test('signing dates by their neighbourhood: date parts in short blanks, a place and its blank beside a line to sign, a caption-less blank on a date row; a date in a sentence is none', () => {
  // "Data __ /__ / _______" and, on its row, a line with no caption: where one signs.
  const row = suggestFields(
    page({ words: [...paragraph('it', 100), ...words('Data __ /__ / _________', 57, 743), ...words('________________________________', 411, 743, 8)] }),
  );
  assert.deepEqual(types(row), ['date', 'signature']);
  // "Abbiategrasso, ________" over two signature lines is their date; alone on a page it is nothing.
  const lines = [...words('______________________________', 70, 635, 12), ...words('(Firma)', 160, 663, 12)];
  const place = suggestFields(page({ words: [...paragraph('it', 100), ...words('Abbiategrasso, ________________', 92, 590, 12), ...lines] }));
  assert.deepEqual(types(place), ['date', 'signature']);
  const alone = suggestFields(page({ words: [...paragraph('it', 100), ...words('Abbiategrasso, ________________', 92, 590, 12)] }));
  assert.deepEqual(alone, []);
  // (A place of four words: "San Donà di Piave, ________".)
  const longer = suggestFields(page({ words: [...paragraph('it', 100), ...words('San Donà di Piave, ________________', 92, 590, 12), ...lines] }));
  assert.deepEqual(types(longer), ['date', 'signature']);
  // (Its blank in the date's parts: "Curitiba, _____ / _____ / ________", one date from the first part to the last.)
  const parts = brief(suggestFields(page({ words: [...paragraph('it', 100), ...words('Curitiba, _____ / _____ / ________', 92, 590, 12), ...lines] })));
  assert.deepEqual(
    parts.map((s) => [s.type, s.x]),
    [
      ['date', 147],
      ['signature', 70],
    ],
  );
  assert.ok((parts[0] as { w: number }).w > 140, JSON.stringify(parts));
  // "Eu, ________" opens a declaration with who declares: the blank asks for a name, not a date.
  const declarer = suggestFields(page({ words: [...paragraph('es', 100), ...words('Eu, ________________', 92, 590, 12), ...lines] }));
  assert.deepEqual(types(declarer), ['signature']);
  // "notificato in data ____" and "n. ____ del ____" speak of other dates.
  const sentence = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('Il provvedimento n .__________ del __________ emesso da codesto Comune', 57, 419, 12),
        ...words("l'anno ______ notificato in data ___________ per un importo", 57, 439, 12),
        ...words('Firma ______________________', 300, 500),
      ],
    }),
  );
  assert.deepEqual(types(sentence), ['signature']);
});

test("a line alike beside a place to sign, with the row above's date over its top, is another signer's under that date", () => {
  const run = '_'.repeat(36);
  const places = brief(
    suggestFields(
      page({
        words: [
          ...paragraph('de', 400),
          ...words('Musterstadt, den', 72, 508),
          ...words('_'.repeat(22), 156, 508),
          ...words(run, 72, 540),
          ...words(run, 330, 540),
          ...words('(bei Minderjährigen der Vormund)', 90, 554, 8),
          ...words('Der Antragsteller', 398, 554, 8),
        ],
      }),
    ),
  ).map((s) => [s.type, s.x, s.y, s.h]);
  const date = places.find((p) => p[0] === 'date');
  const left = places.find((p) => p[0] === 'signature' && p[1] === 72);
  assert.ok(date && places.some((p) => p[0] === 'signature' && p[1] === 330), JSON.stringify(places));
  // (The left line's room starts under the date.)
  assert.ok(left && (left[2] as number) >= (date[2] as number) + (date[3] as number), JSON.stringify(places));
});

test("lines drawn alike beside or under a place to sign, each with a caption printed under it, are other signers' places", () => {
  const run = '_'.repeat(30);
  // "Datum, Unterschrift:" over three lines of one length on a row, each captioned under it.
  const row = suggestFields(
    page({
      words: [
        ...paragraph('de', 600),
        ...words('Datum, Unterschrift:', 43, 752),
        ...words(run, 43, 773),
        ...words(run, 223, 773),
        ...words(run, 403, 773),
        ...words('(Antragsteller/in)', 43, 781, 7),
        ...words('(zweite/r Erziehungsberechtigte/r)', 223, 781, 7),
        ...words('Abteilungsleitung', 403, 781, 7),
      ],
    }),
  );
  assert.deepEqual(
    row
      .filter((s) => s.type === 'signature')
      .map((s) => Math.round(s.x))
      .sort((a, b) => a - b),
    [43, 223, 403],
  );
  // "Unterschrift Mitglied" under a line, and the line right under it in its column captioned "2. Erziehungsberechtigte/r".
  const column = suggestFields(
    page({
      words: [
        ...paragraph('de', 500),
        ...words('Unterschrift Mitglied bzw. 1. Erziehungsberechtigte/r', 275, 689, 8),
        ...words('2. Erziehungsberechtigte/r', 275, 752, 8),
      ],
      segments: [h(275, 542, 675), h(275, 542, 738)],
    }),
  );
  assert.deepEqual(
    column.filter((s) => s.type === 'signature').map((s) => [Math.round(s.x), Math.round(s.y + s.height)]),
    [
      [275, 675],
      [275, 738],
    ],
  );
  // A line alike captioned with a date is that date's, not a signer's.
  const dated = suggestFields(
    page({
      words: [...paragraph('de', 500), ...words('Unterschrift', 300, 689, 8), ...words('Zeuge', 60, 689, 8)],
      segments: [h(300, 540, 675), h(50, 290, 675)],
    }),
  );
  assert.deepEqual(types(dated), ['signature', 'signature']);
  const notSigner = suggestFields(
    page({
      words: [...paragraph('de', 500), ...words('Unterschrift', 300, 689, 8), ...words('Ort, Datum', 60, 689, 8)],
      segments: [h(300, 540, 675), h(50, 290, 675)],
    }),
  );
  assert.deepEqual(types(notSigner), ['date', 'signature']);
  // So is one whose date word a misread took out of its caption ("Ort, Datum" read "Od Datum" on a photo).
  const misread = suggestFields(
    page({
      words: [...paragraph('de', 500), ...words('Unterschrift', 300, 689, 8), ...words('Od Datum', 60, 689, 8)],
      segments: [h(300, 540, 675), h(50, 290, 675)],
    }),
  );
  assert.deepEqual(types(misread), ['signature']);
  // Rules closing form rows are no lines alike: the caption under the first is the next row's (a colon), the
  // words under the second an address.
  const rows = suggestFields(
    page({
      words: [
        ...paragraph('en', 500),
        ...words('Client Signature:', 96, 643),
        ...words('Consultant Signature:', 96, 691),
        ...words('Jeff Zweifel - Mustang Buildings & Consulting LLC', 96, 727),
        ...words('Business Address: 18 Pleasant Valley', 173, 754),
      ],
      segments: [h(90, 522, 672), h(90, 522, 743)],
    }),
  );
  assert.ok(!rows.some((s) => Math.round(s.y + s.height) === 743), JSON.stringify(brief(rows)));
});

test('"Ort, Datum" and "Unterschrift" a tab apart under one line are two captions, the date\'s and the signature\'s; a space apart, or joined by a comma or "&", one caption that signs', () => {
  const under = (gap: number, date = 'Ort, Datum') => {
    const first = words(date, 63, 450);
    const x = (first.at(-1)?.box.x1 ?? 0) + gap;
    return brief(
      suggestFields(page({ words: [...paragraph('de', 200), ...first, ...words('Unterschrift des Mitglieds', x, 450)], segments: [h(57, 486, 441)] })),
    );
  };
  const apart = under(12).sort((a, b) => a.x - b.x);
  assert.deepEqual(
    apart.map((s) => s.type),
    ['date', 'signature'],
    JSON.stringify(apart),
  );
  // (Each its own part of the line: the date's up to the signature caption, the signature's the rest.)
  assert.ok((apart[0]?.x ?? 0) < 70 && (apart[0]?.x ?? 0) + (apart[0]?.w ?? 0) <= (apart[1]?.x ?? 0), JSON.stringify(apart));
  for (const [gap, date] of [
    [3, 'Ort, Datum'],
    [12, 'Ort, Datum,'],
    [12, 'Ort, Datum &'],
  ] as const) {
    const one = under(gap, date);
    assert.deepEqual(
      one.map((s) => s.type),
      ['signature'],
      `${date} ${gap}: ${JSON.stringify(one)}`,
    );
  }
});

test('a date\'s caption on a line that a signature\'s caption stands over further along ("Data ____" with "Firma" over the rest of the line): the date\'s blank ends where that caption starts', () => {
  const found = (y: number) =>
    brief(suggestFields(page({ words: [...paragraph('it', 200), ...words('Data', 57, 527), ...words('Firma', 215, y)], segments: [h(51, 552, 530)] })));
  const date = found(511).find((s) => s.type === 'date');
  assert.ok(date && date.x < 90 && date.x + date.w <= 215, JSON.stringify(found(511)));
  // (A caption further up, two lines of its size and more over the line, does not stand on it: the date keeps its line.)
  const apart = found(480).find((s) => s.type === 'date');
  assert.ok(apart && apart.x + apart.w > 500, JSON.stringify(found(480)));
});

test('a caption printed under a form field names it: "Ort, Datum" under each of two boxes', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('de', 500), ...words('Ort, Datum', 45, 689, 8), ...words('Ort, Datum', 45, 752, 8)],
      segments: [h(275, 542, 675), h(275, 542, 738)],
      boxes: [
        { x0: 45, y0: 648, x1: 269, y1: 676 },
        { x0: 45, y0: 710, x1: 269, y1: 739 },
      ],
      widgets: [
        { kind: 'text', name: 'Textfeld 8', box: { x0: 48, y0: 651, x1: 266, y1: 673 } },
        { kind: 'text', name: 'Textfeld 8_2', box: { x0: 48, y0: 713, x1: 266, y1: 736 } },
      ],
    }),
  );
  assert.deepEqual(
    found.filter((s) => s.reason === 'acroform').map((s) => [s.type, Math.round(s.y)]),
    [
      ['date', 651],
      ['date', 713],
    ],
  );
});

test('a form field named after a caption asking for the place, the date and the signature is the place to sign', () => {
  const found = suggestFields(
    page({
      words: paragraph('de', 500),
      widgets: [
        {
          kind: 'text',
          name: 'Ort  Datum  Unterschrift bei Jugendlichen unter 18 Jahren der Erziehungsberechtigte',
          box: { x0: 69, y0: 562, x1: 526, y1: 575 },
        },
        { kind: 'text', name: 'Datum', box: { x0: 69, y0: 600, x1: 200, y1: 615 } },
      ],
    }),
  );
  assert.deepEqual(types(found), ['date', 'signature']);
});

test('"Unterschrift(en)" is a signature caption; a signature caption finds its line under a whole signature\'s room', () => {
  // At the top of a form row of a frame: the row under it.
  const row = suggestFields(
    page({
      words: [...paragraph('de', 300), ...words('Unterschrift(en) des Zahlungspflichtigen (Kontoinhaber):', 71, 742, 9)],
      segments: [h(64, 575, 700), h(64, 575, 732), h(64, 575, 786)],
      verticals: [v(64, 86, 786), v(575, 86, 786)],
    }),
  );
  assert.deepEqual(brief(row), [{ type: 'signature', x: 65, y: 746, w: 509, h: 39 }]);
  // Over a run of underscores with room for a whole signature between them.
  const below = suggestFields(
    page({ words: [...paragraph('de', 300), ...words('Unterschrift des Kontoinhabers:', 45, 709, 9), ...words('_'.repeat(90), 45, 770, 9)] }),
  );
  assert.deepEqual(
    below.map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height)]),
    [['signature', 45, 772]],
  );
});

test('place-and-date formulas: Italian "Genova il ____" and "Lì ____" at the start of a line, a form field after "Dresden, den"', () => {
  const italian = suggestFields(
    page({
      words: [
        ...paragraph('it', 300),
        ...words('Lì _______________', 111, 355),
        ...words('nato/a a ____________________ il ______________', 90, 420),
        ...words('Genova il ________________', 90, 577),
        ...words('firma leggibile', 404, 593, 9),
      ],
      segments: [h(326, 535, 578)],
    }),
  );
  assert.deepEqual(
    italian.filter((s) => s.type === 'date').map((s) => Math.round(s.y + s.height)),
    [357, 579],
  );
  const german = suggestFields(
    page({
      words: [
        ...paragraph('de', 300),
        ...words('Dresden, den', 71, 498, 11),
        ...words('_'.repeat(26), 287, 513, 11),
        ...words('Unterschrift des Mitglieds', 287, 526, 11),
      ],
      widgets: [{ kind: 'text', name: 'Textfeld 4', box: { x0: 143, y0: 487, x1: 208, y1: 500 } }],
    }),
  );
  assert.deepEqual(german.map((s) => [s.type, s.reason]).sort(), [
    ['date', 'acroform'],
    ['signature', 'label_with_geometry'],
  ]);
});

test('a caption printed larger than the small print of its page still has its line: the rule it stands on, the line under it', () => {
  // 11 pt captions over 9 pt running text: no heading (headings are told by their words, "Unterschriften").
  const stands = suggestFields(page({ words: [...paragraph('it', 100), ...words('Firma', 300, 400, 11)], segments: [h(300, 520, 402)] }));
  assert.deepEqual(
    brief(stands).map((s) => [s.type, s.x, s.y + s.h]),
    [['signature', 332, 402]],
  );
  const over = suggestFields(page({ words: [...paragraph('de', 100), ...words('Unterschrift', 300, 400, 11)], segments: [h(300, 520, 420)] }));
  assert.deepEqual(brief(over), [{ type: 'signature', x: 300, y: 404, w: 220, h: 16 }]);
  const heading = suggestFields(page({ words: [...paragraph('de', 100), ...words('Unterschriften', 60, 400, 11)], segments: [h(60, 520, 420)] }));
  assert.deepEqual(heading, []);
});

test("a section's rule across the page over a column's caption is not its line when the caption has its own line right under it", () => {
  const found = suggestFields(
    page({
      words: [...paragraph('de', 300), ...words('Ort / Datum', 71, 541, 8.5), ...words('Unterschrift Kontoinhaber', 305, 541, 8.5)],
      segments: [h(71, 524, 524), h(305, 524, 566)],
    }),
  );
  assert.deepEqual(
    brief(found)
      .filter((s) => s.type === 'signature')
      .map((s) => [s.x, s.y + s.h]),
    [[305, 566]],
  );
});

test('a signing date caption finds its line as far under it as a signature caption does; a caption over its translation leaves the blank to it', () => {
  const body = [0, 1, 2, 3].flatMap((i) => words('Di eseguire un test PCR o antigenico con esito negativo entro 48 ore dall’evento', 71, 560 + i * 26, 14));
  // "Luogo e data" over blank space, its line 55 pt lower (a signature's room and more).
  const far = suggestFields(page({ words: [...body, ...words('Luogo e data', 72, 713, 14), ...words('__________________', 72, 768, 14)] }));
  assert.deepEqual(
    brief(far).map((s) => [s.type, s.x, s.y + s.h]),
    [['date', 72, 770]],
  );
  // Italian captions over their English translations, the lines under both.
  const stacked = suggestFields(
    page({
      words: [
        ...body,
        ...words('DATA E LUOGO', 72, 713, 14),
        ...words('FIRMA', 468, 713, 14),
        ...words('DATE AND PLACE', 72, 739, 14),
        ...words('SIGNATURE', 468, 739, 14),
        ...words('__________________', 72, 792, 14),
        ...words('__________________', 432, 792, 14),
      ],
    }),
  );
  assert.deepEqual(
    brief(stacked).map((s) => [s.type, s.x, s.y + s.h]),
    [
      ['signature', 432, 794],
      ['date', 72, 794],
    ],
  );
});

test("a form's signature field placed a little over the line a caption names is that caption's blank: one suggestion, the field", () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature', 60, 430, 9)],
      segments: [h(60, 260, 420)],
      widgets: [{ kind: 'signature', name: 'Sig1', box: { x0: 62, y0: 360, x1: 258, y1: 395 } }],
    }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, s.reason]),
    [['signature', 'acroform']],
  );
});

test('a signature caption that is its whole line is a caption however long; a sentence opening with it is not', () => {
  const long = suggestFields(
    page({
      words: [...paragraph('it', 100), ...words('Firma del genitore o di chi esercita la responsabilità genitoriale', 60, 500, 10)],
      segments: [h(60, 300, 540)],
    }),
  );
  assert.deepEqual(
    brief(long).map((s) => [s.type, s.x, s.y + s.h]),
    [['signature', 60, 540]],
  );
  const sentence = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature of this agreement means acceptance of all its terms.', 60, 500, 10)],
      segments: [h(60, 300, 540)],
    }),
  );
  assert.deepEqual(sentence, []);
});

test('captions with a colon on a row ruled under its whole length write after their colons, each up to the next words of the row', () => {
  // "Client Signature:   Date:" with one rule drawn 29 pt under the row's baseline, from under the caption to past the date.
  const row = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Client Signature:', 96, 643), ...words('Date:', 420, 643)], segments: [h(90, 522, 672)] }),
  );
  assert.deepEqual(
    brief(row).map((s) => [s.type, s.x, s.x + s.w, s.y, s.y + s.h]),
    [
      ['signature', 185, 416, 632, 672],
      ['date', 449, 522, 652, 672],
    ],
  );
  // Without a colon the caption is printed over its line: the field is the whole line, under the caption.
  const over = suggestFields(page({ words: [...paragraph('en', 100), ...words('Client Signature', 96, 643)], segments: [h(90, 522, 672)] }));
  assert.deepEqual(
    brief(over).map((s) => [s.type, s.x, s.x + s.w, s.y + s.h]),
    [['signature', 90, 522, 672]],
  );
  // And so is a caption with a colon alone on its row.
  const alone = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signatures of the other authors:', 96, 643)], segments: [h(90, 522, 672)] }));
  assert.deepEqual(
    brief(alone).map((s) => [s.type, s.x, s.x + s.w, s.y + s.h]),
    [['signature', 90, 522, 672]],
  );
});

test('a field under text nearer than its height reaches partly over that text, not over a rule; a party caption over a "By:" line still leaves it the place to sign', () => {
  // The last line of a paragraph 22 pt over a line to sign on, "Signature" under the line.
  const text = [...paragraph('en', 540), ...words('BEFORE SIGNING.', 72, 602)];
  const underText = suggestFields(page({ words: [...text, ...words('Signature', 72, 636)], segments: [h(72, 298, 626)] }));
  assert.deepEqual(
    brief(underText).map((s) => [s.type, s.x, s.y, s.h]),
    [['signature', 72, 601, 25]],
  );
  // A rule at the same height is a wall: the field stops under it.
  const underRule = suggestFields(page({ words: [...paragraph('en', 540), ...words('Signature', 72, 636)], segments: [h(72, 298, 604), h(72, 298, 626)] }));
  assert.deepEqual(
    brief(underRule).map((s) => [s.type, s.x, s.y, s.h]),
    [['signature', 72, 605, 21]],
  );
  // "____" over "CONTRACTOR" over "By: ____": the party signs on the "By:" line, whose field reaches over its name.
  const party = suggestFields(
    page({
      words: [
        ...paragraph('en', 500),
        ...words('_________________________', 90, 640),
        ...words('CONTRACTOR', 120, 654),
        ...words('By: _______________________', 90, 679),
      ],
    }),
  );
  assert.deepEqual(
    brief(party)
      .filter((s) => s.type === 'signature')
      .map((s) => [s.x, s.y + s.h]),
    [[106, 681]],
  );
});

test('a company named with only its article before a blank asks for its name; "for" the company, it signs', () => {
  const named = suggestFields(page({ words: [...paragraph('it', 100), ...words('La Società ________________________________', 110, 380)] }));
  assert.deepEqual(types(named), []);
  const signs = suggestFields(page({ words: [...paragraph('it', 100), ...words('Per la Società ________________________________', 110, 380)] }));
  assert.deepEqual(types(signs), ['signature']);
});

test('blank space under a caption with a name typed 25 pt under it reaches a little over the name; a rule there stops it', () => {
  const name = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Signature of the participant', 300, 709), ...words('Robin Ayugreau', 300, 750)] }),
  );
  assert.deepEqual(
    brief(name).map((s) => [s.type, s.x, s.y, s.w, s.h]),
    [['signature', 300, 715, 180, 29]],
  );
  const rule = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature of the participant', 300, 709)], segments: [h(300, 480, 742)] }));
  assert.ok(
    rule.every((s) => s.y + s.height <= 742 + 0.5),
    JSON.stringify(brief(rule)),
  );
});

test('a caption before its line on its row: qualified by a few words, drawn as a dotted image, under a place-and-date caption with a line of its own', () => {
  // "Firma nuovo socio ____" and "Firma per ricevuta ____": the words qualify the caption up to its line.
  const qualified = suggestFields(
    page({
      words: [...paragraph('it', 600), ...words('Firma nuovo socio', 48, 734, 11), ...words('Firma per ricevuta', 294, 734, 11)],
      segments: [h(147, 289, 736), h(395, 535, 736)],
    }),
  );
  assert.deepEqual(brief(qualified.filter((s) => s.type === 'signature')), [
    { type: 'signature', x: 147, y: 696, w: 142, h: 40 },
    { type: 'signature', x: 395, y: 696, w: 140, h: 40 },
  ]);
  // "Rovereto, lì ____" over "Firma ____", each line a dotted rule drawn as a thin image: a date and a signature,
  // each on its own line (the image is the line itself, not something written on it).
  const stacked = suggestFields(
    page({
      words: [...paragraph('it', 500), ...words('Rovereto, lì', 48, 592, 11), ...words('Firma', 48, 614, 11)],
      segments: [h(115, 289, 595), h(115, 289, 617)],
      images: [
        { x0: 115, y0: 594.4, x1: 289, y1: 594.8 },
        { x0: 115, y0: 616.7, x1: 289, y1: 617.2 },
      ],
    }),
  );
  assert.deepEqual(
    brief(stacked).map((s) => [s.type, s.x, s.y + s.h]),
    [
      ['date', 115, 595],
      ['signature', 115, 617],
    ],
  );
});

test('a line drawn in two pieces end to end is one line: "Signature" centred under it names it whole', () => {
  const split = suggestFields(
    page({
      words: [...paragraph('en', 500), ...words('Signature', 161, 707)],
      segments: joinPieces([h(65, 180, 697), h(180, 295, 697)], []),
    }),
  );
  assert.deepEqual(brief(split), [{ type: 'signature', x: 65, y: 657, w: 230, h: 40 }]);
  // Pieces meeting on a vertical rule are a table's cells, each with its border.
  assert.equal(joinPieces([h(65, 180, 697), h(180, 295, 697)], [v(180, 660, 697)]).length, 2);
});

test('a signature caption over its row of blanks written twice, "____ Date: ____" under "____ Date: ____": a second signer\'s row, not a row of something else', () => {
  const rows = (second: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 200),
          ...words("Owner's Signature(s):", 36, 302, 10),
          ...words(`${'_'.repeat(49)} Date: ${'_'.repeat(23)}`, 36, 314, 10),
          ...words(second, 36, 326, 10),
        ],
      }),
    );
  const signatures = (found: Suggestion[]) => brief(found.filter((s) => s.type === 'signature')).map((s) => [s.x, s.y, s.w]);
  assert.deepEqual(signatures(rows(`${'_'.repeat(49)} Date: ${'_'.repeat(23)}`)), [
    [36, 306, 250],
    [36, 317, 250],
  ]);
  assert.deepEqual(signatures(rows(`${'_'.repeat(49)} Phone: ${'_'.repeat(23)}`)), [[36, 306, 250]]);
});

test('signers of one caption: two blank runs after it, two lines alike under a closing; a caption with a colon over its blank; a name and a signature asked as one', () => {
  // "In fede" over "Firma dei genitori ____ ____": a place for each parent, none under the closing.
  const parents = suggestFields(
    page({
      words: [
        ...paragraph('it', 500),
        ...words('In fede', 37, 803, 14),
        ...words('Firma dei genitori', 94, 822, 14),
        ...words('_'.repeat(19), 212, 822, 14),
        ...words('_'.repeat(21), 356, 822, 14),
      ],
    }),
  );
  assert.deepEqual(
    parents.map((s) => [s.type, Math.round(s.x)]),
    [
      ['signature', 212],
      ['signature', 356],
    ],
  );
  // "In fede" over two lines alike, stacked, nothing written under them: one for each spouse.
  const spouses = suggestFields(
    page({
      words: [...paragraph('it', 500), ...words('In fede', 404, 670, 11)],
      segments: [h(311, 553, 699), h(308, 550, 725)],
    }),
  );
  assert.deepEqual(
    brief(spouses).map((s) => [s.type, s.x, s.y + s.h]),
    [
      ['signature', 311, 699],
      ['signature', 308, 725],
    ],
  );
  // "Printed Name:" over a run, "Signature Individual or Guardian:" over the next: each caption's blank is the run under it.
  const run = '_'.repeat(41);
  const stacked = suggestFields(
    page({
      words: [
        ...paragraph('en', 300),
        ...words('Printed Name:', 43, 445, 10.6),
        ...words(run, 43, 470, 10.6),
        ...words('Signature Individual or Guardian:', 43, 495, 10.6),
        ...words(run, 43, 519, 10.6),
      ],
    }),
  );
  assert.deepEqual(
    brief(stacked).map((s) => [s.type, s.y + s.h]),
    [
      ['text', 472],
      ['signature', 521],
    ],
  );
  // "Nom / signature du responsable légal" with room under it: one place, to sign.
  const asOne = suggestFields(page({ words: [...paragraph('en', 300), ...words('Nom / signature du responsable légal demandeur', 283, 721, 9)] }));
  assert.deepEqual(types(asOne), ['signature']);
});

test('signing dates written in parts: a contract "made this ____ day of ____, 20__", "a los ___ días del mes de ___ del año ___"; a place and date caption before its blanks joined by "de"', () => {
  const made = suggestFields(
    page({
      words: [...paragraph('en', 400), ...words('This Release made this __________ day of ________________ , 20 _____ , is', 36, 221, 10)],
    }),
  );
  assert.deepEqual(types(made), ['date']);
  // (Made is no signing word elsewhere: a period's dates in a sentence stay none.)
  const period = suggestFields(page({ words: [...paragraph('en', 400), ...words('Payments made from __________ day of ______ to ______', 36, 221, 10)] }));
  assert.deepEqual(types(period), []);
  // (The parts joined by "del" and "de" after a sentence saying it is signed: "se firma … a los ___ días del mes de ___ del año ___".)
  const spanish = suggestFields(
    page({
      words: [
        ...paragraph('es', 400),
        ...words('constancia se firma en Bogotá D. C., a los ________ días del mes de _______________ del año ________.', 36, 645, 10),
      ],
    }),
  );
  assert.deepEqual(types(spanish), ['date']);
  // (Also when the sentence saying so fills the line above: "SE FIRMA POR MUTUO ACUERDO … EN LA CIUDAD DE ____" over "A LOS ___ DÍAS …".)
  const long = suggestFields(
    page({
      words: [
        ...paragraph('es', 400),
        ...words('SE FIRMA POR MUTUO ACUERDO HABIENDO LEÍDO EL PRESENTE CONTRATO EN LA CIUDAD DE ____________', 36, 552, 10),
        ...words('A LOS _____ DÍAS DEL MES DE ________________ DEL AÑO __________', 36, 572, 10),
      ],
    }),
  ).filter((s) => s.type === 'date');
  assert.equal(long.length, 1, JSON.stringify(brief(long)));
  assert.ok((long[0] as Suggestion).y > 552, JSON.stringify(brief(long)));
  // (Or the place's blank opens the line, after the words naming it, with no word of signing: "En la ciudad de ____, a los ___ días …",
  // "Na cidade de ____, aos ___ dias do mês de ___"; not an address's blank, "En la calle de ____".)
  const opening = (text: string) => suggestFields(page({ words: [...paragraph('es', 400), ...words(text, 36, 600, 10)] })).filter((s) => s.type === 'date');
  const city = opening('En la ciudad de ______________, a los ____ días del mes de ______________ de 20__');
  assert.equal(city.length, 1, JSON.stringify(brief(city)));
  assert.ok((city[0] as Suggestion).x > 150, JSON.stringify(brief(city)));
  assert.equal(opening('Na cidade de ______________, aos ____ dias do mês de ______________ de 20__').length, 1);
  assert.deepEqual(opening('En la calle de ______________, a los ____ días del mes de ______________ de 20__'), []);
  const joined = suggestFields(
    page({ words: [...paragraph('en', 400), ...words('Local e Data: ___________________________ , ____ de _______________ de 2025', 90, 579, 11)] }),
  );
  const date = joined.find((s) => s.type === 'date');
  assert.ok(date, 'a date');
  // From the place's blank to the month's: the whole blank.
  assert.ok(date.width > 250, `width ${date.width}`);
  // "Luogo e data ____ ____": the place's run and the date's, one blank.
  const two = suggestFields(
    page({
      words: [...paragraph('it', 400), ...words('Luogo e data', 28, 719, 11), ...words('_'.repeat(40), 102, 719, 11), ...words('_'.repeat(21), 345, 719, 11)],
    }),
  );
  assert.deepEqual(
    brief(two).map((s) => [s.type, s.x, s.x + s.w]),
    [['date', 102, 461]],
  );
});

test('a date written as blanks for its parts after a date\'s caption ("Fecha: ____ de ________ de 20___", "Date: ____ day of ________, 20___"), or alone with its year: one date across the blanks, not the first blank alone', () => {
  const dated = (lang: 'en' | 'es', line: string) =>
    brief(suggestFields(page({ words: [...paragraph(lang, 100), ...words('Signature: _________________________', 300, 250), ...words(line, 70, 300)] })))
      .filter((s) => s.type === 'date')
      .map((s) => [s.x, s.x + s.w]);
  // (words() sets 5 pt a character at 10 pt: the blanks run from the first underscore to the year's last.)
  assert.deepEqual(dated('es', 'Fecha: ____ de ____________ de 20___'), [[104, 250]]);
  assert.deepEqual(dated('es', '____ de ____________ de 20___'), [[70, 215]]);
  assert.deepEqual(dated('en', 'Date: ____ day of ____________, 20___'), [[97, 255]]);
  // (A caption that is no date's, and no year: a reference, not a date.)
  assert.deepEqual(dated('es', 'Expediente: ____ de ____________ de ______'), []);
});

test('rows under a heading of witnesses, each a name and its colon before a line, are places to sign; names listed under "I sottoscritti:" are not', () => {
  const witnesses = suggestFields(
    page({
      words: [
        ...paragraph('it', 200),
        ...words('Testimoni :', 43, 451),
        ...words('Peterle Alessia:', 43, 487),
        ...words('Sarzi Puttini, conte di Povo:', 55, 523),
      ],
      segments: [h(147, 553, 487), h(205, 553, 522)],
    }),
  );
  assert.deepEqual(
    witnesses.map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height), s.roleHint]),
    [
      ['signature', 147, 487, 'witness'],
      ['signature', 205, 522, 'witness'],
    ],
  );
  const names = suggestFields(
    page({
      words: [...paragraph('it', 200), ...words('I sottoscritti:', 57, 316), ...words('Mario Rossi:', 57, 339)],
      segments: [h(140, 522, 339)],
    }),
  );
  assert.ok(!names.some((s) => s.type === 'signature'), JSON.stringify(brief(names)));
  // (Nor a datum's caption before its line under the heading: "Testemunhas:" over "CPF: ____" asks for a number, not a signer.)
  const datum = suggestFields(
    page({
      words: [...paragraph('pt', 200), ...words('Testemunhas:', 43, 451), ...words('CPF:', 43, 487), ...words('CPF:', 43, 523)],
      segments: [h(80, 300, 487), h(80, 300, 523)],
    }),
  );
  assert.ok(!datum.some((s) => s.type === 'signature'), JSON.stringify(brief(datum)));
});

test('places to initial opening their paragraphs: a blank captioned "Initial" after it, and the blanks under "Please initial all points below"', () => {
  const captioned = suggestFields(page({ words: [...paragraph('en', 300), ...words('_____ Initial 1. REGISTRATION', 72, 459, 11)] }));
  assert.deepEqual(types(captioned), ['initials']);
  const points = suggestFields(
    page({
      words: [
        ...paragraph('en', 60),
        ...words('Please initial all points below to indicate agreement:', 58, 162),
        ...words('_____ I agree that the tuition deposit as stated is non-refundable.', 94, 190),
        ...words('_____ I agree that I am obligated to pay the tuition for the entire year.', 94, 213),
      ],
    }),
  );
  assert.deepEqual(
    brief(points).map((s) => [s.type, s.x, s.y + s.h]),
    [
      ['initials', 94, 192],
      ['initials', 94, 215],
    ],
  );
  // Without the instruction, a blank opening a paragraph is no place to initial.
  const plain = suggestFields(
    page({ words: [...paragraph('en', 60), ...words('_____ I agree that the tuition deposit as stated is non-refundable.', 94, 190)] }),
  );
  assert.deepEqual(types(plain), []);
});

test('a caption with its qualifier: on the start of its line, the blank after both; alone under its line, its whole width names the line', () => {
  const onLine = suggestFields(
    page({ words: [...paragraph('de', 300), ...words('Datum, Unterschrift Interviewte*r', 71, 662, 14)], segments: [h(69, 526, 668)] }),
  );
  assert.deepEqual(
    brief(onLine).map((s) => [s.type, s.x, s.x + s.w]),
    [['signature', 306, 526]],
  );
  const run = '_'.repeat(23);
  const under = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words(run, 252, 265, 11),
        ...words('Parent/ Guardian Signature', 252, 282, 11),
        ...words('_'.repeat(13), 432, 265, 11),
        ...words('Date', 432, 282, 11),
      ],
    }),
  );
  assert.deepEqual(
    brief(under).map((s) => [s.type, s.x]),
    [
      ['signature', 252],
      ['date', 432],
    ],
  );
});

test('two parties named side by side with room under each, in a shaded box under "Signatures :": a place under each, none beside the heading', () => {
  const parties = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signatures :', 43, 249, 12), ...words('Le Propriétaire', 43, 278, 11), ...words('Le Locataire', 476, 278, 11)],
      segments: [h(35, 556, 235), h(35, 556, 321)],
      verticals: [v(36, 234, 322), v(556, 234, 322)],
      // The box's shading, drawn as an image behind it: a background, not writing in the blanks.
      images: [{ x0: 34, y0: 233, x1: 557, y1: 323 }],
    }),
  );
  assert.deepEqual(
    brief(parties).map((s) => [s.type, s.x]),
    [
      ['signature', 43],
      ['signature', 476],
    ],
  );
  // One party alone with room under it: no place (a name in the text, a heading).
  const alone = suggestFields(page({ words: [...paragraph('en', 100), ...words('Le Locataire', 43, 278, 11)] }));
  assert.deepEqual(types(alone), []);
  // Parties heading blocks of their own captions ("CLIENT" over "Signature: ____"): the places are the blocks'.
  const blocks = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('CLIENT', 64, 190),
        ...words('PROVIDER', 460, 190),
        ...words('Signature:', 64, 248),
        ...words('Signature:', 460, 248),
      ],
      segments: [h(134, 354, 249), h(530, 750, 249)],
    }),
  );
  assert.deepEqual(
    blocks.map((s) => [s.type, Math.round(s.x)]),
    [
      ['signature', 134],
      ['signature', 530],
    ],
  );
});

test('"I genitori" over two runs of underscores: a place for each parent; a field under a date\'s run stops under that run', () => {
  const run = '_'.repeat(37);
  const parents = suggestFields(
    page({ words: [...paragraph('it', 500), ...words('I genitori', 28, 757, 11), ...words(run, 28, 771, 11), ...words(run, 28, 800, 11)] }),
  );
  assert.deepEqual(
    brief(parents).map((s) => [s.type, s.x, s.y + s.h]),
    [
      ['signature', 28, 773],
      ['signature', 28, 802],
    ],
  );
  const stacked = suggestFields(
    page({
      words: [
        ...paragraph('it', 300),
        ...words('Luogo e data', 269, 479),
        ...words('_'.repeat(38), 352, 479),
        ...words('Firma del genitore', 269, 503),
        ...words('_'.repeat(34), 356, 503),
      ],
    }),
  );
  const signature = stacked.find((s) => s.type === 'signature');
  assert.ok(signature && stacked.some((s) => s.type === 'date'), JSON.stringify(brief(stacked)));
  // (Its top under the date's run at 481, not over it.)
  assert.ok(signature.y >= 481, JSON.stringify(brief(stacked)));
});

test('a word\'s own ending in brackets is part of its caption, not a remark that ends it: "Unterschrift des / der Vorstandsmitglied(er) der Jungen Gesellschaft" under its line', () => {
  const board = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('_'.repeat(73), 71, 309, 11),
        ...words('Ort, Datum, Unterschrift des / der Vorstandsmitglied(er) der Jungen Gesellschaft', 71, 322, 9),
      ],
    }),
  );
  assert.deepEqual(types(board), ['signature']);
});

test('"____, addì ___ / ___ / _______": the date takes its parts; the place\'s blank is no line to sign for "In fede," under it', () => {
  const dated = suggestFields(
    page({
      words: [
        ...paragraph('it', 300),
        ...words('_________________ , addì ___ / ___ / _______', 125, 503, 11),
        ...words('In fede,', 125, 522, 11),
        ...words('_'.repeat(30), 326, 540, 11),
        ...words('(firma del richiedente)', 361, 559, 11),
      ],
    }),
  );
  const date = dated.find((s) => s.type === 'date');
  assert.ok(date && date.width > 80, JSON.stringify(brief(dated)));
  assert.deepEqual(
    dated.filter((s) => s.type === 'signature').map((s) => Math.round(s.x)),
    [326],
  );
});

test('"Fait en deux exemplaires à Paris, le ____": the words between "Fait" and "à" leave the date after "le"', () => {
  const date = (formula: string) =>
    brief(suggestFields(page({ words: [...paragraph('fr', 100), ...words(formula, 60, 620, 10), ...words('Signature :', 300, 660, 10)] })))
      .filter((s) => s.type === 'date')
      .map((s) => [s.x, s.y, s.w, s.h]);
  assert.deepEqual(date('Fait en deux exemplaires à Paris, le ....................'), [[275, 602, 70, 20]]);
  assert.deepEqual(date('Fait en trois (3) copies originales à Cotonou, le ................................'), [[353, 602, 117, 20]]);
});

test('"Fait à Lyon, le" with nothing after it on its line: the date goes in a date\'s width after "le"', () => {
  const line = words('Fait à Lyon, le', 283, 575, 11);
  const found = suggestFields(page({ words: [...paragraph('fr', 100), ...line] })).filter((s) => s.type === 'date');
  const le = line[line.length - 1] as Word;
  assert.equal(found.length, 1, JSON.stringify(brief(found)));
  assert.ok(Math.abs((found[0] as Suggestion).x - le.box.x1) <= 4 && (found[0] as Suggestion).width >= 100, JSON.stringify(brief(found)));
});

test('"Fait à Marrakech, le" with white room under it and no place to sign near: whoever dates it signs under it', () => {
  const signatures = (extra: Word[], formula = 'Fait à Marrakech, le') =>
    brief(suggestFields(page({ words: [...paragraph('fr', 100), ...words(formula, 283, 573, 11), ...extra] })))
      .filter((s) => s.type === 'signature')
      .map((s) => [s.x, s.y, s.w, s.h]);
  assert.deepEqual(signatures([]), [[283, 577, 180, 40]]);
  assert.deepEqual(signatures([], 'Fait le .... / .... /20 .....'), [[283, 577, 180, 40]]);
  // (Not a formula written already, a signed copy's; nor one with words under it in its room, nor one whose row names its signer.)
  assert.deepEqual(signatures([], 'Fait à Lyon, le 30 mars 2016'), []);
  // (The party under it signs under its own caption: party-rows.ts.)
  assert.deepEqual(signatures(words('Le Directeur de thèse', 283, 595, 11)), [[283, 601, 180, 40]]);
  assert.deepEqual(signatures(words('Nom et qualité du signataire', 283, 600, 11)), []);
  const captioned = brief(
    suggestFields(page({ words: [...paragraph('fr', 100), ...words('Fait à Marrakech, le', 60, 573, 11), ...words('Signature :', 330, 573, 11)] })),
  );
  assert.ok(!captioned.some((s) => s.type === 'signature' && s.x === 60), JSON.stringify(captioned));
});

test('"Fait à … le …" set apart: "le" alone on its row after "Fait à" (or "A") and room for the place; "Le ……" over "à ……"; "Le" alone under "Fait à …"', () => {
  const apart = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Fait à', 43, 265, 11), ...words('le', 183, 265, 11), ...words('en deux exemplaires.', 293, 265, 11)] }),
  );
  assert.deepEqual(
    brief(apart).map((s) => [s.type, s.x, s.x + s.w]),
    [['date', 197, 289]],
  );
  const stacked = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Le', 392, 285, 12),
        ...words('…'.repeat(30), 440, 285, 12),
        ...words('à', 392, 299, 12),
        ...words('…'.repeat(30), 437, 299, 12),
      ],
    }),
  );
  assert.deepEqual(
    brief(stacked).map((s) => [s.type, s.x]),
    [['date', 440]],
  );
  // ("Fait" left out: "A            le", the date after "le".)
  const placeOnly = suggestFields(page({ words: [...paragraph('fr', 100), ...words('A', 289, 265, 11), ...words('le', 423, 265, 11)] }));
  assert.deepEqual(
    brief(placeOnly).map((s) => [s.type, s.x]),
    [['date', 437]],
  );
  // (Its blank in a date's parts, the century printed or not: "A ______ le ___/___/____", "Le ___/___/20___".)
  const inParts = (text: string) => brief(suggestFields(page({ words: [...paragraph('fr', 100), ...words(text, 60, 400)] }))).filter((s) => s.type === 'date');
  assert.deepEqual(
    inParts('A ______________ le ___/___/____').map((s) => s.x),
    [160],
  );
  assert.deepEqual(
    inParts('Le ___/___/20___').map((s) => s.x),
    [75],
  );
  // "le" alone elsewhere is no date.
  const alone = suggestFields(page({ words: [...paragraph('en', 100), ...words('le', 183, 265, 11), ...words('en deux exemplaires.', 293, 265, 11)] }));
  assert.deepEqual(types(alone), []);
  // ("Le" alone under "Fait à …", the place written there or not: the date in the room after "Le", signed under; under other words, none.)
  for (const place of ['Fait à', 'Fait à Brest', 'Fait à ____________________']) {
    const under = suggestFields(page({ words: [...paragraph('fr', 100), ...words(place, 62, 520, 11), ...words('Le', 62, 536, 11)] }));
    assert.deepEqual(
      brief(under).map((s) => [s.type, s.x]),
      [
        ['date', 76],
        ['signature', 62],
      ],
      place,
    );
  }
  const underOther = suggestFields(page({ words: [...paragraph('fr', 100), ...words('Signé à', 62, 520, 11), ...words('Le', 62, 536, 11)] }));
  assert.deepEqual(types(underOther), []);
  // ("le" alone under "à ______", the formula's place on a line of its own under "Fait en double exemplaire,".)
  const placeOver = suggestFields(
    page({
      words: [
        ...paragraph('fr', 100),
        ...words('Fait en double exemplaire,', 60, 496, 11),
        ...words('à ______________', 60, 520, 11),
        ...words('le', 60, 536, 11),
      ],
    }),
  );
  assert.deepEqual(
    brief(placeOver).map((s) => [s.type, s.x]),
    [['date', 74]],
  );
  // ("Fait à ____, le" ending its line over a blank alone under its start: the date on that blank, not in the room after "le".)
  const runUnder = suggestFields(
    page({
      words: [...paragraph('fr', 100), ...words('Fait à _______________________ , le', 145, 417, 11), ...words('_______________________', 145, 436, 11)],
    }),
  );
  assert.deepEqual(
    brief(runUnder).map((s) => [s.type, s.x, s.y + s.h]),
    [['date', 145, 438]],
  );
  // ("le : ……" under a sentence ending on its place after "faite à", "Inscription faite à Vannes": the date on its dots; not under "Signé à".)
  const faite = (over: string) =>
    suggestFields(page({ words: [...paragraph('fr', 100), ...words(over, 50, 779, 13), ...words('le : .....................................', 50, 800, 13)] }));
  assert.deepEqual(
    brief(faite('Inscription faite à Vannes')).map((s) => [s.type, s.x]),
    [['date', 88]],
  );
  assert.deepEqual(types(faite('Inscription signée à Vannes')), []);
});

test('a date\'s short run (40 pt) over its "Date" caption is its blank', () => {
  const row = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('_'.repeat(22), 90, 546, 8),
        ...words('Umiya Dham Inc', 90, 560, 12),
        ...words('_'.repeat(12), 216, 546, 8),
        ...words('Date', 216, 560, 12),
        ...words('_'.repeat(20), 324, 546, 8),
        ...words('Renter', 324, 560, 12),
        ...words('_'.repeat(10), 432, 546, 7.96),
        ...words('Date', 432, 560, 12),
      ],
    }),
  );
  assert.deepEqual(
    brief(row)
      .filter((s) => s.type === 'date')
      .map((s) => [s.x, s.w])
      .sort((a, b) => (a[0] as number) - (b[0] as number)),
    [
      [216, 48],
      [432, 40],
    ],
  );
});

test('a bare line alone under a place-and-date formula is where one signs; with words between, it is not', () => {
  const letter = suggestFields(
    page({ words: [...paragraph('en', 300), ...words('Montes Claros, ___ de ___________ de 2011.', 172, 577, 12), ...words('_'.repeat(52), 142, 662, 12)] }),
  );
  assert.deepEqual(types(letter), ['date', 'signature']);
  const between = suggestFields(
    page({
      words: [
        ...paragraph('en', 300),
        ...words('Montes Claros, ___ de ___________ de 2011.', 172, 577, 12),
        ...words('Observações gerais do projeto', 142, 620, 12),
        ...words('_'.repeat(52), 142, 662, 12),
      ],
    }),
  );
  assert.deepEqual(types(between), ['date']);
  // A caption under the line that names who signs keeps it a place to sign; one that asks for a datum makes it that datum's.
  const under = (caption: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('es', 300),
          ...words('Maricá, _____ de ____________________ de ________', 173, 602, 10),
          ...words('_'.repeat(56), 86, 645, 10),
          ...words(caption, 86, 657, 10),
        ],
      }),
    );
  assert.deepEqual(
    brief(under('Pessoa que reconhece o (a) filho (a)'))
      .filter((s) => s.type === 'signature')
      .map((s) => [s.x, s.y + s.h]),
    [[86, 647]],
  );
  assert.deepEqual(types(under('Endereço do requerente')), ['date']);
  assert.deepEqual(types(under('Nome completo do requerente')), ['date']);
});

test('a remark in parentheses between a caption and its line below is part of the caption', () => {
  const remark = suggestFields(
    page({
      words: [
        ...paragraph('it', 300),
        ...words('Firma', 376, 730, 12.6),
        ...words("(in caso di minore, firma dell'esercente la potestà genitoriale)", 271, 743, 8.1),
        ...words('_'.repeat(43), 294, 769, 9.9),
      ],
    }),
  );
  assert.deepEqual(
    brief(remark).map((s) => [s.type, s.x, s.y + s.h]),
    [['signature', 294, 771]],
  );
});

test('a caption with its colon over a run that opens the next row ("____ DATE: ____"): the run is its blank', () => {
  const rows = suggestFields(
    page({
      words: [
        ...paragraph('en', 300),
        ...words('SIGNATURE OF PARTICIPANT:', 72, 497),
        ...words(`${'_'.repeat(64)} DATE: ${'_'.repeat(22)}`, 72, 523).map((w) => ({ ...w, box: { ...w.box, y1: 525.2 } })),
      ],
    }),
  );
  assert.deepEqual(
    brief(rows).map((s) => [s.type, s.x]),
    [
      ['signature', 72],
      ['date', 426],
    ],
  );
});

test('officers of a club under their lines, and one who signs for an organisation named before them, sign; "Io sottoscritto ____" asks a name', () => {
  const officers = suggestFields(
    page({
      words: [...paragraph('de', 300), ...words('1. Vorsitzender', 71, 500), ...words('Schatzmeister', 304, 500)],
      segments: [h(71, 292, 484), h(304, 524, 484)],
    }),
  );
  assert.deepEqual(types(officers), ['signature', 'signature']);
  const named = suggestFields(
    page({
      words: [...paragraph('en', 300), ...words(`Adopter ${'_'.repeat(52)}`, 72, 658), ...words(`Viva Perros Representative ${'_'.repeat(37)}`, 72, 682)],
    }),
  );
  assert.deepEqual(
    named.map((s) => [s.type, s.roleHint]),
    [
      ['signature', 'adopter'],
      ['signature', 'representative'],
    ],
  );
  const name = suggestFields(page({ words: [...paragraph('it', 300), ...words(`Io Sottoscritto ${'_'.repeat(54)}`, 57, 315, 12)] }));
  assert.ok(!name.some((s) => s.type === 'signature'), JSON.stringify(brief(name)));
});

test('a caption opening its line names whoever signs by the one word after "of"; in a sentence, the word after "of" is no signer', () => {
  const licensee = suggestFields(page({ words: [...paragraph('en', 100), ...words('Date et signature du licencié(e)', 57, 296, 9)] }));
  assert.deepEqual(types(licensee), ['signature']);
  const terms = suggestFields(page({ words: [...paragraph('en', 100), ...words('30% à la signature du devis', 87, 711)] }));
  assert.deepEqual(types(terms), []);
  // An article between "of" and the word: the caption still reaches its colon, and its room is under it and the mention under it.
  for (const caption of ['Signature du représentant de l’agence :', 'Signature of the Head :']) {
    const label = findLabels(buildLines(words(caption, 71, 495, 11))).find((l) => l.entry.type === 'signature');
    assert.ok(label?.bare && label.colon, `${caption}: ${JSON.stringify(label && { bare: label.bare, colon: label.colon })}`);
  }
  const agency = suggestFields(
    page({
      words: [
        ...paragraph('fr', 300),
        ...words('N.B Livrables réalisés conformément au cahier des charges conçu avec le droit de regard du client.', 71, 481, 11),
        ...words('Signature du représentant de l’agence :', 71, 495, 11),
        ...words('Signature du représentant du client :', 460, 495, 11),
        ...words('Lu et accepté', 71, 510, 11),
        ...words('Lu et accepté', 460, 510, 11),
      ],
    }),
  );
  const left = agency.filter((s) => s.type === 'signature' && s.x < 300);
  assert.equal(left.length, 1, JSON.stringify(brief(agency)));
  assert.ok((left[0] as Suggestion).y >= 512, JSON.stringify(brief(agency)));
});

test('a caption under its line already written on ("9. 1. 2022" over "Datum") asks for nothing: no room under it either', () => {
  const lines = buildLines([...words('9. 1. 2022', 82, 333, 12), ...words('Datum', 76, 349, 11)]);
  const datum = findLabels(lines).find((l) => l.entry.type === 'date');
  assert.ok(datum);
  assert.equal(filledOver(datum, [h(71, 170, 339)], lines), true);
  const empty = buildLines(words('Datum', 76, 349, 11));
  const bare = findLabels(empty)[0];
  assert.ok(bare);
  assert.equal(filledOver(bare, [h(71, 170, 339)], empty), false);
});

test('an icon drawn as glyphs layered on one spot before a caption ("Ж Ф Ц Ш" read from a symbol font) is no word: the caption still opens its line', () => {
  const icon = (x: number, y: number) =>
    ['Ж', 'Ф', 'Ц', 'Ш'].map((c) => ({ ...(words(c, x, y, 11)[0] as Word), box: { x0: x, y0: y - 9, x1: x + 13, y1: y + 2 } }));
  const caption = words('Signature du trésorier : ....................................................', 86, 400, 11);
  const found = suggestFields(page({ words: [...paragraph('fr', 100), ...icon(71, 400), ...caption] })).filter((s) => s.type === 'signature');
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.ok((found[0]?.x ?? 0) > 200, 'on the dots after the caption');
  // (Single letters side by side are words, not an icon.)
  const apart = ['a', 'b'].map((c, i) => words(c, 71 + 20 * i, 400, 11)[0] as Word);
  assert.equal(withoutLayeredIcons(apart).length, 2);
});

test('a word printed over itself (a bold faked by drawing the text two or three times) counts once', () => {
  const thrice = (ws: ReturnType<typeof words>) => ws.flatMap((w) => [w, { ...w }, { ...w, box: { ...w.box, x0: w.box.x0 + 0.2, x1: w.box.x1 + 0.2 } }]);
  assert.equal(withoutOverprint(thrice(words('Firma: ____', 50, 300))).length, 2);
  // ("En ____ , a __ de ____ de 20__" in running text, every word drawn three times: still the signing date.)
  const date = words('En ____________________ , a _____ de ____________ de 20__', 50, 400, 11);
  for (const drawn of [date, thrice(date)]) {
    const found = suggestFields(page({ words: [...paragraph('it', 100), ...drawn] })).filter((s) => s.type === 'date');
    assert.equal(found.length, 1, 'one date');
    assert.ok((found[0]?.x ?? 0) > 150, 'after the place');
  }
});

test('a caption a text layer writes in pieces ("A ssinatura", "D a ta:") is read whole; words that spell no caption stay apart', () => {
  // Pieces a few points apart on one baseline, as a wide-tracked font or a first letter set apart gives them.
  const pieces = (texts: string[], x: number, baseline: number, size = 12) => {
    let at = x;
    return texts.flatMap((t) => {
      const ws = words(t, at, baseline, size);
      at = (ws[ws.length - 1]?.box.x1 ?? at) + 4;
      return ws;
    });
  };
  assert.deepEqual(
    withSplitCaptions(pieces(['D', 'a', 'ta:', '__________'], 40, 300, 9)).map((w) => w.text),
    ['Data:', '__________'],
  );
  assert.deepEqual(
    withSplitCaptions(pieces(['A', 'casa', 'do', 'atleta'], 40, 300)).map((w) => w.text),
    ['A', 'casa', 'do', 'atleta'],
  );
  const found = suggestFields(
    page({
      words: [...paragraph('it', 100), ...words('__________________________', 40, 486, 12), ...pieces(['A', 'ssinatura do atleta ou responsável'], 40, 500)],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(signature && signature.y < 486 && signature.y + signature.height > 476, JSON.stringify(brief(found)));
});

test('a place-and-date formula whose place is itself a blank dates the signing ("__________, ____ de ________ de 20__")', () => {
  const found = suggestFields(page({ words: [...paragraph('it', 100), ...words('______________, _____ de ______________ de 20__', 60, 400)] }));
  const date = found.find((s) => s.type === 'date');
  assert.ok(date && date.x > 130, JSON.stringify(brief(found)));
  // (A reference in a sentence is not one: "n. ____ del ____".)
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('it', 100), ...words('Protocollo n. _____ del _______ relativo', 60, 400)] }))), []);
});

test('a place-and-date formula opening a sentence after another on its line dates the signing ("… del sector. En ____, a ___ de ____ de 20__"); without a place, its year says it is a date ("A ____ de ____ del año 20___")', () => {
  const dateOf = (text: string) => suggestFields(page({ words: [...paragraph('it', 100), ...words(text, 60, 400)] })).find((s) => s.type === 'date');
  const inText = dateOf('nuestro sector. En ____________________, a _____ de ____________ de 20__');
  assert.ok(inText && inText.x > 250 && inText.x + inText.width > 410, JSON.stringify(inText));
  // (Inside the sentence, the blanks are no formula: "la factura n. ____ de ____ de 20__ del sector".)
  assert.equal(dateOf('el importe de la factura del sector, n. _____ de ____________ de 20__ pagada'), undefined);
  const heading = dateOf('A ______ de ______________ del año 20 ___.');
  assert.ok(heading && heading.x < 80 && heading.x + heading.width > 250, JSON.stringify(heading));
  // (Without a place or a year, two blanks joined by "de" are no date.)
  assert.equal(dateOf('A ______ de ______________'), undefined);
  // (A place without its comma opening the line dates it when its year is there: "São Paulo ____ de ____ de 20___".)
  const noComma = dateOf('São Paulo ____ de ____________ de 20___');
  assert.ok(noComma && noComma.x > 100 && noComma.x < 120, JSON.stringify(noComma));
  assert.equal(dateOf('São Paulo ____ de ____________'), undefined);
  // (The day alone left blank, the month and the year printed: "Braga, ____ de março de 2019", the field on the day's blank.)
  const day = dateOf('Braga, ______ de março de 2019.');
  assert.ok(day && day.x > 80 && day.x + day.width < 130, JSON.stringify(day));
  assert.equal(dateOf('Braga, ______ de Almeida de 2019.'), undefined);
  // (Or when its day, month and year are all blanks, "a" after the place: "Barcelona a ____ de ____ de ____".)
  const allBlanks = dateOf('Barcelona a _______ de ____________________ de __________');
  assert.ok(allBlanks && allBlanks.x > 80 && allBlanks.x + allBlanks.width > 300, JSON.stringify(allBlanks));
  // (The place a blank of its own, no comma after it: "En ______ a ____ de ____ de 20__".)
  const placeBlank = dateOf('En ______________ a ____ de ____________ de 20____');
  assert.ok(placeBlank && placeBlank.x > 150 && placeBlank.x + placeBlank.width > 300, JSON.stringify(placeBlank));
  // (The place's blank after the words naming it: "En la ciudad de ______, a ___ de ____ de 20 ___".)
  const city = dateOf('En la ciudad de ......................... , a ...... de ............... de 20 .....');
  assert.ok(city && city.x > 200 && city.x + city.width > 400, JSON.stringify(city));
  assert.equal(dateOf('En la calle de ......................... , a ...... de ............... de 20 .....'), undefined);
  // (Alone on its line, all three parts blanks after "A": "A …… de ………… de ……"; not with words after it.)
  const parts = dateOf('A …… de ………….……… de ………..');
  assert.ok(parts && parts.x < 80, JSON.stringify(parts));
  assert.equal(dateOf('A …… de ………….……… de ……….. euros'), undefined);
});

test('a place-and-date formula with room, not blanks, for its day and month ("Rio de Janeiro,      de              de 2009.", "Madrid, a      de           de 2024") dates the signing across that room', () => {
  const dateOf = (language: 'es' | 'it', parts: Array<[string, number]>) =>
    suggestFields(page({ words: [...paragraph(language, 100), ...parts.flatMap(([text, x]) => words(text, x, 400))] })).filter((s) => s.type === 'date');
  const formulas: Array<[Array<[string, number]>, number, number]> = [
    [
      [
        ['Rio de Janeiro,', 200],
        ['de', 310],
        ['de 2009.', 420],
      ],
      277,
      141,
    ],
    [
      [
        ['Madrid, a', 70],
        ['de', 150],
        ['de 2024', 280],
      ],
      117,
      161,
    ],
  ];
  for (const [parts, x, w] of formulas) assert.deepEqual(brief(dateOf('es', parts)), [{ type: 'date', x, y: 382, w, h: 20 }]);
  // (Without the year, or without room for the day, or not after a place opening the line: no date.)
  assert.deepEqual(
    dateOf('es', [
      ['Rio de Janeiro,', 200],
      ['de', 310],
      ['de', 420],
    ]),
    [],
  );
  assert.deepEqual(
    dateOf('es', [
      ['Rio de Janeiro, de', 200],
      ['de 2009.', 420],
    ]),
    [],
  );
  assert.deepEqual(
    dateOf('it', [
      ['La sede della società di Roma, piazza', 70],
      ['de', 310],
      ['de 2009.', 420],
    ]),
    [],
  );
});

test('captions under one run that ask for no field still cut it: "Ort, Datum | Vor- Familienname | Unterschrift"', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('__________________________________________________________________________________', 70, 500, 12),
        ...words('Ort, Datum', 70, 514, 12),
        ...words('Vor- Familienname des Inhabers', 190, 514, 12),
        ...words('Unterschrift Kontoinhaber', 400, 514, 12),
      ],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(date && date.x <= 72 && date.x + date.width <= 190, JSON.stringify(brief(found)));
  assert.ok(signature && signature.x >= 395, JSON.stringify(brief(found)));
});

test('who swears an affidavit signs on the line over their title: "Deponent", "Affiant" alone under a line', () => {
  for (const who of ['Deponent', 'Affiant']) {
    const found = suggestFields(page({ words: [...paragraph('en', 100), ...words('______________________', 370, 500, 14), ...words(who, 415, 516, 14)] }));
    assert.deepEqual(types(found), ['signature'], who);
  }
});

test('a form field over the blank of "____ , den ____" is the signing date', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('de', 100), ...words('_______________________________ , den ____________________', 156, 427, 12)],
      widgets: [
        { kind: 'text', name: 'Formfieldnr7', box: { x0: 160, y0: 404, x1: 334, y1: 421 } },
        { kind: 'text', name: 'Formfieldnr8', box: { x0: 372, y0: 404, x1: 516, y1: 421 } },
      ],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  assert.ok(date && date.x === 372 && date.fieldKey === 'sign_date', JSON.stringify(found));
});

test('a date caption with no line beside a signature caption under its line ("Ort, Datum" beside "Unterschrift" under a line) has its room over it too; not under a rule over both captions', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('______________________________', 234, 718, 9),
        ...words('Ort, Datum', 92, 729, 9),
        ...words('Unterschrift', 300, 729, 9),
      ],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  assert.ok(date && date.y + date.height <= 722 && date.y + date.height >= 712 && date.x < 100, JSON.stringify(brief(found)));
  assert.ok(found.some((s) => s.type === 'signature' && s.x >= 230));
  // (A rule over both captions is the row's line: the date stands on its part of it, not in a room guessed over the caption.)
  const ruled = suggestFields(
    page({ words: [...paragraph('de', 100), ...words('Ort, Datum', 92, 729, 9), ...words('Unterschrift', 300, 729, 9)], segments: [h(72, 520, 718)] }),
  );
  const onRule = ruled.find((s) => s.type === 'date');
  assert.ok(onRule && Math.abs(onRule.y + onRule.height - 718) <= 1 && onRule.x <= 80, JSON.stringify(brief(ruled)));
});

test('three signature captions side by side over room, qualified by who signs ("Signature joueur :", "Signature parent :", "Signature membre :"): each its room, up to the next caption', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Je certifie avoir pris connaissance de la charte du club et je m’engage à la respecter.', 70, 300, 9),
        ...words('Signature joueur :', 70, 353, 9),
        ...words('Signature parent :', 240, 353, 9),
        ...words('Signature membre :', 419, 353, 9),
      ],
    }),
  ).filter((s) => s.type === 'signature');
  assert.equal(found.length, 3, JSON.stringify(brief(found)));
  for (const [i, s] of found.sort((a, b) => a.x - b.x).entries()) assert.ok(s.x + s.width <= [236, 415, 596][i]!, JSON.stringify(brief(found)));
});

test('a condition ending with its colon before a run ("If Applicable: ____", "Le cas échéant : ____") asks for nothing: the captions under the run name it; "Phone: ____" keeps its run', () => {
  const row = (lead: string) => {
    const words0 = words(lead, 72, 610, 12);
    const x = (words0[words0.length - 1] as Word).box.x1 + 3;
    const found = suggestFields(
      page({
        words: [
          ...paragraph('en', 100),
          ...words0,
          ...words('_'.repeat(50), x, 610, 12),
          ...words('Parent or Legal Guardian signature', 172, 625, 10),
          ...words('Date', 394, 625, 10),
        ],
      }),
    );
    return brief(found).map((s) => [s.type, s.y + s.h <= 613]);
  };
  const onRun = [
    ['signature', true],
    ['date', true],
  ];
  assert.deepEqual(row('If Applicable:'), onRun);
  assert.deepEqual(row('Le cas échéant :'), onRun);
  // (Under "Phone: ____" the signature caption has its room under it, and the "Date" beside it on its row, without
  // its colon, the room under it too.)
  assert.deepEqual(row('Phone:'), [
    ['signature', false],
    ['date', false],
  ]);
});

test('a caption opening its line apart, joined to whom it names ("date et signature du Président avec « bon pour accord »"), leaves the room under it', () => {
  const found = suggestFields(page({ words: [...paragraph('en', 100), ...words('date et signature du Président avec “bon pour accord”', 71, 623, 9)] }));
  assert.deepEqual(types(found), ['signature']);
  // (Not a title: "Signature Sheet No 12".)
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature Sheet No 12 of the register', 71, 623, 9)] }))), []);
});

test('a caption opening its line apart and going on in lower case on the next ("Signature du maître de stage" / "et cachet de l\'organisme :") has its room under both; another line under it sets it in text', () => {
  const caption = words('Signature du maître de stage', 384, 721, 9);
  const under = suggestFields(page({ words: [...paragraph('fr', 100), ...caption, ...words('et cachet de l’organisme :', 396, 734, 9)] }));
  assert.deepEqual(
    brief(under).map((s) => [s.type, s.x, s.y >= 736]),
    [['signature', 384, true]],
  );
  assert.deepEqual(suggestFields(page({ words: [...paragraph('fr', 100), ...caption, ...words('Cachet de l’organisme', 396, 734, 9)] })), []);
});

test('"Signature of the Land Lord": words after an article after "of" say whose signature it is, and the caption has its room', () => {
  const found = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature of the Land Lord', 397, 483, 9)] }));
  assert.deepEqual(types(found), ['signature']);
});

test('a loan\'s parties in Spanish ("Firma Prestatario", "Firma Prestamista") caption the room under them', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('es', 100),
        ...words('Firma Prestatario', 155, 403, 10),
        ...words('Nombre Completo Prestatario', 299, 403, 10),
        ...words('Firma Prestamista', 155, 508, 10),
        ...words('Nombre Completo Prestamista', 299, 508, 10),
      ],
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(found.map((s) => [Math.round(s.x), s.y > 405 && s.y < 420, s.roleHint]).sort(), [
    [155, false, 'lender'],
    [155, true, 'borrower'],
  ]);
});

test('a signature caption after a condition naming who signs ("Bei Minderjährigen Unterschrift des gesetzlichen Vertreters") names its line; the same words as a remark in parentheses do not', () => {
  const lead = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('__________________', 57, 668, 11),
        ...words('Unterschrift des Mitglieds', 57, 680, 9),
        ...words('___________________________________', 57, 716, 11),
        ...words('Bei Minderjährigen Unterschrift des gesetzlichen Vertreters', 60, 727, 8),
      ],
    }),
  );
  assert.deepEqual(types(lead), ['signature', 'signature'], JSON.stringify(brief(lead)));
  const remark = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('___________________________________________', 57, 500, 11),
        ...words('Unterschrift', 57, 512, 9),
        ...words('(bei Minderjährigen Unterschrift des Erziehungsberechtigten)', 57, 526, 9),
      ],
    }),
  );
  assert.deepEqual(types(remark), ['signature'], JSON.stringify(brief(remark)));
});

test('form fields on the blanks of a signing date written as a formula ("En ____, día __ de ____ de ____") are its parts; the place’s field is not', () => {
  const line = words('En ___________________________ _______ _ , día ______ de ________________ de __________', 32, 726, 6);
  const on = (i: number) => {
    const w = line.filter((x) => /^[_ ]+$/.test(x.text))[i] as Word;
    return { x0: w.box.x0, y0: 717.5, x1: w.box.x1, y1: 728 };
  };
  const found = suggestFields(
    page({
      words: [...paragraph('it', 100), ...line],
      widgets: [
        { kind: 'text', name: 'En', box: on(0) },
        { kind: 'text', name: 'día', box: on(1) },
        { kind: 'text', name: 'de_2', box: on(2) },
        { kind: 'text', name: 'de', box: on(3) },
      ],
    }),
  ).filter((s) => s.reason === 'acroform');
  assert.deepEqual(
    found.map((s) => [s.type, s.fieldKey ?? '']),
    [
      ['text', ''],
      ['date', 'sign_date'],
      ['date', 'sign_date'],
      ['date', 'sign_date'],
    ],
  );
});

test('form fields on a signing date formula\'s parts before and after the one it covers, joined by "de", dots or the year\'s century ("a [Día] de [Mes] de [Año]", "de [__] de 202[_]"), are its parts too', () => {
  const box = (x0: number, x1: number, y0: number, y1: number) => ({ x0, y0, x1, y1 });
  const spanish = suggestFields(
    page({
      words: [
        ...paragraph('it', 60),
        // (The words' boxes as the document that showed it sets them: the fields overlap them.)
        ...(
          [
            ['ONDA,', 85, 120.1],
            ['a', 123.5, 130.1],
            ['……….', 133.4, 156.6],
            ['de', 156.6, 169.9],
            ['………………', 169.9, 209.7],
            ['de', 213, 226.3],
            ['…..', 229.6, 242.9],
          ] as const
        ).map(([text, x0, x1]) => ({ ...(words(text, x0, 156, 9)[0] as Word), box: { x0, y0: 147, x1, y1: 156 } })),
        ...words('Firma', 300, 220),
      ],
      widgets: [
        { kind: 'text', name: 'Día', box: box(122, 151, 134, 156) },
        { kind: 'text', name: 'Mes', box: box(164, 220, 132, 154) },
        { kind: 'text', name: 'Año', box: box(233, 295, 132, 154) },
      ],
    }),
  ).filter((s) => s.reason === 'acroform');
  assert.deepEqual(
    spanish.map((s) => [s.type, s.fieldKey ?? '']),
    [
      ['date', 'sign_date'],
      ['date', 'sign_date'],
      ['date', 'sign_date'],
    ],
    JSON.stringify(brief(spanish)),
  );
  const at = (list: Array<[string, number]>, y: number) => list.flatMap(([text, x]) => words(text, x, y, 14));
  const portuguese = suggestFields(
    page({
      words: [
        ...paragraph('it', 60),
        ...at(
          [
            ['Coimbra,', 165],
            ['____', 222],
            [',', 250],
            ['de', 257],
            ['________________', 274],
            ['de', 385],
            ['202_', 402],
          ],
          498,
        ),
        ...at(
          [
            ['O/A', 204],
            ['Encarregado(a)', 227],
            ['de', 320],
            ['Educação', 337],
          ],
          524,
        ),
      ],
      widgets: [
        { kind: 'text', name: 'Coimbra', box: box(221, 248, 476, 500) },
        { kind: 'text', name: 'de', box: box(273, 384, 476, 500) },
        { kind: 'text', name: 'Ano', box: box(421, 437, 477, 501) },
      ],
    }),
  ).filter((s) => s.reason === 'acroform');
  assert.deepEqual(
    portuguese.map((s) => [s.type, s.fieldKey ?? '']),
    [
      ['date', 'sign_date'],
      ['date', 'sign_date'],
      ['date', 'sign_date'],
    ],
    JSON.stringify(brief(portuguese)),
  );
});

test('three nameless form fields joined by a date formula\'s "de" ("[__] , [__] de [____] de [____]") beside a line to sign are the signing date\'s parts; joined by slashes, a place’s comma before them; with nothing saying a date, they stay text', () => {
  const box = (x0: number, x1: number, y0: number, y1: number) => ({ x0, y0, x1, y1 });
  const form = (joiner: string, place: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('es', 560),
          ...words(place, 129, 652, 9),
          ...words(joiner, 173, 652, 8),
          ...words(joiner, 292, 652, 8),
          ...words('____________________________________________', 372, 652, 8),
          ...words('Assinatura do Declarante', 404, 665, 8),
        ],
        widgets: [
          { kind: 'text', name: 'undefined', box: box(18, 127, 625, 654) },
          { kind: 'text', name: 'de', box: box(134, 170, 625, 654) },
          { kind: 'text', name: 'de_2', box: box(187, 290, 625, 654) },
          { kind: 'text', name: 'undefined_2', box: box(304, 366, 625, 654) },
        ],
      }),
    ).filter((s) => s.reason === 'acroform');
  const formula = form('de', ',');
  assert.deepEqual(
    formula.map((s) => s.type),
    ['text', 'date', 'date', 'date'],
    JSON.stringify(brief(formula)),
  );
  const slashes = form('/', '-');
  assert.deepEqual(
    slashes.map((s) => s.type),
    ['text', 'text', 'text', 'text'],
    JSON.stringify(brief(slashes)),
  );
  // (A place and its comma before them says it is a date.)
  assert.deepEqual(
    form('/', ',').map((s) => s.type),
    ['text', 'date', 'date', 'date'],
  );
});

test('a form field named after a place\'s date formula ("Nürnberg, den") beside the caption to sign is the signing date; named after a place alone it is not', () => {
  const form = (name: string) =>
    suggestFields(
      page({
        width: 842,
        height: 595,
        words: [...paragraph('de', 60), ...words('Nürnberg, den', 437, 475, 12), ...words('Mitglied Unterschrift', 642, 475, 12)],
        segments: [h(435, 829, 460)],
        widgets: [{ kind: 'text', name, box: { x0: 437, y0: 435, x1: 601, y1: 460 } }],
      }),
    ).filter((s) => s.reason === 'acroform');
  assert.deepEqual(
    form('Nürnberg den').map((s) => [s.type, s.fieldKey ?? '']),
    [['date', 'sign_date']],
  );
  assert.deepEqual(
    form('Nürnberg').map((s) => s.type),
    ['text'],
  );
});

test('an officer named with the body it signs for, under a line ("Diretora da Escola Municipal Santa Catarina", "Secretary of the Riverside Club"), signs on it', () => {
  for (const [caption, language] of [
    ['Diretora da Escola Municipal Santa Catarina', 'it'],
    ['Secretary of the Riverside Club', 'en'],
  ] as const) {
    const found = suggestFields(
      page({
        words: [...paragraph(language, 100), ...words('___________________________________________________', 134, 607, 11), ...words(caption, 185, 620, 9)],
      }),
    );
    assert.deepEqual(types(found), ['signature'], caption);
  }
  // (A body's name alone under a line names no one who signs.)
  const body = suggestFields(
    page({ words: [...plainParagraph('en', 100), ...words('_________________________________', 134, 607, 11), ...words('Riverside Club', 185, 620, 9)] }),
  );
  assert.deepEqual(types(body), []);
});

test('"Signature Over Printed Name" under a line is one place to sign, over the whole line, not a signature beside a name', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('__________________________________', 387, 366),
        ...words('Signature Over Printed Name of the Affiant', 386, 379),
      ],
    }),
  );
  assert.deepEqual(brief(found), [{ type: 'signature', x: 387, y: 328, w: 170, h: 40 }]);
});

test('captions over their runs in a boxed section ("Luogo, Data" and "Il Delegato" over "____"): each signs or dates on its run, not in the rest of the box', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('Riservata al delegato del Consiglio Direttivo per accettazione', 45, 530),
        ...words('Luogo, Data', 113, 575.5),
        ...words('Il Delegato', 373, 575.5),
        ...words('_______________________________', 55.6, 595.9),
        ...words('_________________________________________________', 260.6, 595.9),
      ],
      boxes: [{ x0: 42.5, y0: 537.3, x1: 552.8, y1: 606.5 }],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(date && date.x >= 55 && date.x + date.width <= 215, JSON.stringify(brief(found)));
  assert.ok(signature && signature.x >= 260, JSON.stringify(brief(found)));
  // (So in a table's cell: "Luogo e data" over its run.)
  const cell = suggestFields(
    page({
      words: [...paragraph('it', 100), ...words('Luogo e data', 60, 575.5), ...words('_______________________________', 55.6, 595.9)],
      segments: [h(42.5, 300, 560), h(42.5, 300, 606.5)],
      verticals: [v(42.5, 560, 606.5), v(300, 560, 606.5)],
    }),
  );
  assert.deepEqual(
    brief(cell).filter((s) => s.type === 'date'),
    [{ type: 'date', x: 56, y: 580, w: 155, h: 18 }],
  );
});

test('"Le ……" alone on its line in a visa box is a signing date, and a form field on its dots is that date', () => {
  const line = words('Le …………………………….', 163, 757.5, 11);
  const dots = line[1] as Word;
  const plain = suggestFields(page({ words: [...paragraph('en', 100), ...words('VISA COMPTABLE', 396, 722), ...line] }));
  assert.ok(
    plain.some((s) => s.type === 'date' && s.fieldKey === 'sign_date' && s.x >= dots.box.x0 - 1),
    JSON.stringify(brief(plain)),
  );
  const field = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('VISA COMPTABLE', 396, 722), ...line],
      widgets: [{ kind: 'text', name: 'Le', box: { x0: dots.box.x0, y0: 741.6, x1: dots.box.x1, y1: 757.6 } }],
    }),
  ).filter((s) => s.reason === 'acroform');
  assert.deepEqual(
    field.map((s) => [s.type, s.fieldKey]),
    [['date', 'sign_date']],
  );
  // (Its colon typed without a space is the same caption: "Le: ……".)
  const typed = suggestFields(page({ words: [...paragraph('en', 100), ...words('VISA COMPTABLE', 396, 722), ...words('Le: …………………………….', 163, 757.5, 11)] }));
  assert.deepEqual(types(typed), ['date'], JSON.stringify(brief(typed)));
  // (Not "Le soussigné ……", who is asked for.)
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('en', 100), ...words('Le soussigné …………………………….', 163, 757.5, 11)] }))), []);
});

test('a form field of no meaning of its own on the blank after a place ("São Paulo, ________." under "DATA_ASS") is the signing date', () => {
  const line = words('São Paulo, ________.', 416, 402, 14);
  const blank = line[2] as Word;
  const widget = { kind: 'text' as const, name: 'DATA_ASS', box: { x0: blank.box.x0 - 1, y0: 389, x1: blank.box.x1 - 4, y1: 403 } };
  const found = suggestFields(page({ words: [...paragraph('es', 100), ...line], widgets: [widget] }));
  assert.deepEqual(
    found.filter((s) => s.y > 380 && s.y < 410).map((s) => [s.type, s.fieldKey, s.reason]),
    [['date', 'sign_date', 'acroform']],
    JSON.stringify(brief(found)),
  );
  // (A field that says what it holds keeps its meaning.)
  const named = suggestFields(page({ words: [...paragraph('es', 100), ...line], widgets: [{ ...widget, name: 'Email' }] }));
  assert.ok(!named.some((s) => s.reason === 'acroform' && s.type === 'date'), JSON.stringify(brief(named)));
});

test('"Parent or guardian" under a run of underscores names its signer, and "date" under the same run\'s end takes that end', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('______________________________', 72, 262.9, 12),
        ...words('Parent or guardian', 72, 275, 12),
        ...words('date', 219, 275, 12),
      ],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  const date = found.find((s) => s.type === 'date');
  assert.ok(signature && date, JSON.stringify(brief(found)));
  // (The signature over the party's caption, up to the date's part of the run.)
  assert.ok(signature.x <= 73 && signature.x + signature.width <= date.x && signature.x + signature.width >= 200, JSON.stringify(brief(found)));
  assert.ok(Math.abs(signature.y + signature.height - 263) <= 2 && date.x >= 210, JSON.stringify(brief(found)));
});

test("a signature caption with its colon, its room beside it squeezed under the line of text above, signs in the room under it; with a signature's height free beside it and no blank before it on its row, beside it", () => {
  // (The line of running text 22 pt over the caption's row leaves 22 pt beside the caption.)
  const squeezed = suggestFields(
    page({
      words: [
        ...paragraph('fr', 100),
        ...words('En soumettant ce formulaire j’accepte que les informations saisies soient exploitées dans le cadre de la cantine.', 21, 327, 11),
        ...words('Fait à Saint Georges, le ……………………', 21, 349, 11),
        ...words('Signatures des parents:', 328, 349, 11),
      ],
    }),
  ).filter((s) => s.type === 'signature');
  assert.equal(squeezed.length, 1, JSON.stringify(brief(squeezed)));
  assert.ok((squeezed[0] as Suggestion).y > 349 && (squeezed[0] as Suggestion).height >= 30, JSON.stringify(brief(squeezed)));
  // (With no blank before it on its row: after the place and date's blank, "Fait à …, le ……", it signs under itself, roomy beside or not.)
  const roomy = suggestFields(
    page({ words: [...paragraph('fr', 100), ...words('Fait à Saint Georges', 21, 349, 11), ...words('Signatures des parents:', 328, 349, 11)] }),
  ).filter((s) => s.type === 'signature');
  assert.equal(roomy.length, 1, JSON.stringify(brief(roomy)));
  assert.ok((roomy[0] as Suggestion).x > 430 && (roomy[0] as Suggestion).y < 349, JSON.stringify(brief(roomy)));
});

test('a signature caption with its colon that asks for a date or a name too ("Date et Signature :", "Nombre y firma:") has its room under it, room beside it or not; "Signature :" beside it', () => {
  const at = (caption: string) =>
    suggestFields(page({ words: [...paragraph('fr', 100), ...words(caption, 71, 300, 11)] })).filter((s) => s.type === 'signature');
  for (const caption of ['Date et Signature :', 'Nombre y firma:', 'Name and signature:']) {
    const found = at(caption);
    assert.equal(found.length, 1, `${caption} ${JSON.stringify(brief(found))}`);
    assert.ok((found[0] as Suggestion).y > 300 && (found[0] as Suggestion).x < 80, `${caption} ${JSON.stringify(brief(found))}`);
  }
  const beside = at('Signature :');
  assert.equal(beside.length, 1, JSON.stringify(brief(beside)));
  assert.ok((beside[0] as Suggestion).y < 300 && (beside[0] as Suggestion).x > 120, JSON.stringify(brief(beside)));
});

test('two signature captions with their colons on one row ("Signature des parents ou tuteur :   Signature de l\'enfant :"): the first\'s room beside it ends at the second, so each signs under its own', () => {
  const row = (second: string) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('fr', 100),
            ...words("J'ai pris connaissance de ce règlement et suis d'accord.", 57, 638, 10),
            ...words('Signature des parents ou tuteur :', 114, 686, 10),
            ...words(second, 420, 686, 10),
          ],
        }),
      ).filter((s) => s.type === 'signature'),
    ).sort((a, b) => a.x - b.x);
  const both = row("Signature de l'enfant :");
  assert.equal(both.length, 2, JSON.stringify(both));
  assert.ok(
    both.every((s) => s.y > 686),
    JSON.stringify(both),
  );
  // (A caption of another kind there leaves the first its room beside it.)
  const beside = row('Date :');
  assert.equal(beside.length, 1, JSON.stringify(beside));
  assert.ok((beside[0] as { y: number }).y < 686, JSON.stringify(beside));
});

test("a heading's word under a section's rule (\"SIGNATURES\" under the rule closing the terms) has no line there: the places are its block's", () => {
  const at = (text: string, x0: number, x1: number, baseline: number, size = 10): Word => ({
    text,
    box: { x0, y0: baseline - 0.8 * size, x1, y1: baseline + 0.2 * size },
    baseline,
    size,
    confidence: 1,
  });
  const row = (baseline: number, caption: string, x: number) => [
    ...words(caption, x, baseline, 10),
    at('______________________________', 204, 370.8, baseline),
    at('Date:', 384, 407.9, baseline),
    at('____________', 427.2, 493.9, baseline),
  ];
  const found = suggestFields(
    page({
      width: 612,
      height: 792,
      words: [
        ...words('all prior negotiations, representations, or agreements. Any modification must be in writing and', 92.4, 208, 10),
        ...words('signed by both parties.', 92.4, 223, 10),
        at('SIGNATURES', 92.4, 164.5, 286.5, 11),
        ...row(309.5, 'Landlord Signature:', 96),
        ...row(337.5, 'Tenant Signature:', 96),
      ],
      segments: [h(92.4, 519.6, 259.5)],
    }),
  );
  const signatures = found.filter((s) => s.type === 'signature');
  assert.ok(signatures.length >= 1, JSON.stringify(brief(found)));
  assert.ok(
    signatures.every((s) => s.y > 260),
    JSON.stringify(brief(found)),
  );
});

test('a party\'s name between a line and a name\'s caption ("____" over "CONCEDENTE" over "(nome e carimbo)") makes the line the party\'s place to sign', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('______________________________________________', 188, 381, 10),
        ...words('CONCEDENTE', 281, 392, 10),
        ...words('(nome e carimbo)', 276, 403, 10),
      ],
    }),
  );
  const onLine = found.filter((s) => Math.abs(s.y + s.height - 382) <= 3);
  assert.deepEqual(
    onLine.map((s) => s.type),
    ['signature'],
    JSON.stringify(brief(found)),
  );
});

test('a caption\'s run right under small print ("FIRMA ____" 1.5 pt under a 6 pt clause) is a place to sign standing under the print, not over it', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('es', 100),
        ...words('Si se actúa en representación de otra persona: Actúo en representación de ___________________ con documento de identidad', 23, 649, 6),
        ...words('FIRMA', 60, 663, 8),
        ...words('____________________________________________________________', 90, 663, 8),
        ...words('NOMBRE', 60, 679, 8),
        ...words('____________________________________________________________', 98, 679, 8),
      ],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(signature, JSON.stringify(brief(found)));
  // (Its top under the middle of the clause's line: 646.)
  assert.ok(signature.y >= 646 && signature.y + signature.height >= 663, JSON.stringify(brief(found)));
});

test('two long runs a slash apart ("____ / ____") are one line for each signer, both named by the caption under them ("Per i minori firma di chi esercita la responsabilità genitoriale")', () => {
  for (const caption of ['(firma da apporsi di proprio pugno)', 'Per i minori firma di chi esercita la responsabilità genitoriale']) {
    const found = suggestFields(
      page({
        words: [
          ...paragraph('it', 100),
          ...words('________________________', 304, 784.3, 10),
          ...words('/', 424, 784.3, 10),
          ...words('________________________', 429, 784.3, 10),
          ...words(caption, 330, 792.9, 6),
        ],
      }),
    ).filter((s) => s.type === 'signature');
    assert.deepEqual(
      found.map((s) => Math.round(s.x)).sort((a, b) => a - b),
      [304, 429],
      caption,
    );
  }
  // (A date's parts a slash apart stay one line: "Data ____/____/________".)
  const date = suggestFields(page({ words: [...paragraph('it', 100), ...words('Data ______/______/__________', 60, 500)] }));
  assert.equal(date.length, 0, JSON.stringify(brief(date)));
});

test('a form field named a date far from any place to sign dates something else (a memo’s date in its header); beside the signature it is the signing date', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 300), ...words('Signature:', 60, 700), ...words('_________________________', 112, 700)],
      widgets: [
        { kind: 'text', name: 'Date', box: { x0: 400, y0: 80, x1: 520, y1: 95 } },
        { kind: 'text', name: 'Date_2', box: { x0: 400, y0: 688, x1: 520, y1: 702 } },
      ],
    }),
  ).filter((s) => s.reason === 'acroform');
  assert.deepEqual(
    found.map((s) => [s.type, s.fieldKey ?? '', Math.round(s.y)]),
    [
      ['text', '', 80],
      ['date', 'sign_date', 688],
    ],
  );
});

test('a caption after its line’s own field of the same kind is its translation, not another place ("Date: ___ //__ __ التاريخ:")', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Date: ______ //__ __', 62, 285),
        ...words('التاريخ:', 170, 285, 10, true),
        ...words('Signature : ………………….', 230, 285),
        ...words('التوقيع:', 360, 285, 10, true),
      ],
    }),
  ).filter((s) => s.type === 'date');
  assert.equal(found.length, 1, JSON.stringify(brief(found)));
});

test('form fields right after a signing date’s field on its row, only slashes between them, are its other parts ("Date: [__] / [__] / [__]")', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 300), ...words('Date: ____ / ____ / ____', 66.5, 568.9, 8), ...words('Signature of the Member', 77.5, 596.4, 8)],
      segments: [h(67, 207, 622)],
      widgets: [
        { kind: 'text', name: 'Date', box: { x0: 148.3, y0: 541.9, x1: 171.1, y1: 569.5 } },
        { kind: 'text', name: 'undefined_5', box: { x0: 177.1, y0: 541.9, x1: 200.2, y1: 569.5 } },
        { kind: 'text', name: 'undefined_6', box: { x0: 207.2, y0: 542.2, x1: 230.2, y1: 569.8 } },
        // (A field further along the row, after words, is not a part: "Sócio n.º [____]".)
        { kind: 'text', name: 'undefined_7', box: { x0: 300, y0: 542, x1: 360, y1: 569.5 } },
      ],
    }),
  )
    .filter((s) => s.reason === 'acroform')
    .sort((a, b) => a.x - b.x);
  assert.deepEqual(
    found.map((s) => [Math.round(s.x), s.type]),
    [
      [148, 'date'],
      [177, 'date'],
      [207, 'date'],
      [300, 'text'],
    ],
  );
});

test('a caption going on over the next line in lower case ("Signature du président, / du directeur ou du responsable des personnels") has its room under both lines', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 300),
        ...words('Signature du président,', 393, 679.4, 9),
        ...words('du directeur ou du responsable des personnels', 325.4, 692.9, 9),
      ],
    }),
  ).filter((s) => s.type === 'signature');
  assert.equal(found.length, 1, JSON.stringify(brief(found)));
  assert.ok((found[0]?.y ?? 0) >= 693 && (found[0]?.x ?? 0) <= 326, JSON.stringify(brief(found)));
});

test('an oath official’s title alone on its line ("NOTARY PUBLIC", "(COMMISSIONER OF OATHS)") signs in the room over it; not when text stands there', () => {
  for (const title of ['NOTARY PUBLIC', '(COMMISSIONER OF OATHS)', 'Oath Commissioner']) {
    const found = suggestFields(page({ words: [...paragraph('en', 300), ...words('BEFORE ME', 243, 690), ...words(title, 201, 753)] }));
    assert.deepEqual(brief(found), [{ type: 'signature', x: 201, y: 704, w: 180, h: 40 }], title);
  }
  const crowded = suggestFields(
    page({ words: [...paragraph('en', 300), ...words('Sworn before me on the date above', 201, 735), ...words('NOTARY PUBLIC', 201, 753)] }),
  );
  assert.deepEqual(types(crowded), []);
});

test('an office alone on its row at the foot of a letter ("Principal/HOD", "Chairman" over its committee) signs in the room over it; not in a sentence, nor beside other words', () => {
  const letter = (extra: Parameters<typeof words>[]) =>
    brief(suggestFields(page({ words: [...paragraph('en', 300), ...extra.flatMap((w) => words(...w))] }))).filter((s) => s.type === 'signature');
  assert.deepEqual(letter([['Principal/HOD', 400, 753]]), [{ type: 'signature', x: 400, y: 704, w: 180, h: 40 }]);
  // (Its block starts where its widest line starts.)
  assert.deepEqual(
    letter([
      ['Chairman', 440, 753],
      ['(Admissions and Scholarships Committee)', 400, 765],
    ]),
    [{ type: 'signature', x: 400, y: 704, w: 180, h: 40 }],
  );
  assert.deepEqual(letter([['Director of Studies and Admissions of the School', 60, 753]]), []);
  assert.deepEqual(
    letter([
      ['Principal', 60, 753],
      ['Reference number', 300, 753],
    ]),
    [],
  );
});

test('a run of dots a form field covers is that field’s blank, not a line for the caption under it ("Fait, le [……] à [……]" over "Signature")', () => {
  const line = words(
    'Fait, le .......................................... à ................................................................................................',
    42.6,
    627.1,
    11,
  );
  const runs = line.filter((w) => /^\.+$/.test(w.text));
  const found = suggestFields(
    page({
      words: [...paragraph('en', 300), ...line, ...words('Signature', 400.2, 651.5, 10)],
      widgets: runs.map((w, i) => ({ kind: 'text' as const, name: `Texte${i}`, box: { x0: w.box.x0, y0: 615.5, x1: w.box.x1, y1: 629.3 } })),
    }),
  ).filter((s) => s.type === 'signature');
  assert.equal(found.length, 1, JSON.stringify(brief(found)));
  assert.ok((found[0]?.y ?? 0) > 653, JSON.stringify(brief(found)));
});

test('a French "A ……, le ……" opening its line, "Fait" left out, dates the signing on the blank after "le"', () => {
  const line = words('A ....................................... , le ......................................', 36.1, 753.4, 11);
  const found = suggestFields(
    page({ words: [...paragraph('en', 300), ...line, ...words('Signature précédée de la mention « lu et approuvé »,', 36.1, 780.2, 11)] }),
  );
  const date = found.find((s) => s.type === 'date');
  const dots = line[line.length - 1] as Word;
  assert.ok(date && Math.abs(date.x - dots.box.x0) < 1 && date.fieldKey === 'sign_date', JSON.stringify(brief(found)));
  // (Not "à l'étranger (Préciser le pays) :", a caption with its own blank.)
  const other = suggestFields(page({ words: [...paragraph('en', 300), ...words('à l’étranger (Préciser le pays) : ____________________', 224.6, 301.8, 11)] }));
  assert.deepEqual(
    other.filter((s) => s.type === 'date'),
    [],
  );
});

test('a date written out on its row keeps its blank: "Le : ……" and "Fait à ……, le ……" over a signature caption are dates, the signature is under the caption', () => {
  // ("Le : ……" with its colon a word of its own, over the heading of the signatures.)
  const le = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Fait à : ..................................................', 71, 520, 11),
        ...words('Le : ..................................................', 71, 536, 11),
        ...words('Signatures des représentants légaux', 71, 561, 11),
      ],
    }),
  );
  const date = le.find((s) => s.type === 'date');
  assert.ok(date && Math.abs(date.y + date.height - 538) <= 3, JSON.stringify(brief(le)));
  assert.ok(!le.some((s) => s.type === 'signature' && s.y < 540), JSON.stringify(brief(le)));
  // ("Signature" right under the blank after "le", at the right of the page.)
  const fait = suggestFields(
    page({
      words: [
        // (Running text in the size of the page's print: a caption in it is no heading.)
        ...words('Les parents autorisent leur enfant à participer aux activités du stage et à prendre les repas', 57, 640, 14),
        ...words('avec les autres stagiaires dans un établissement de restauration de la ville.', 57, 664, 14),
        ...[
          ['Fait', 219, 271],
          ['à', 279, 295],
          ['………………….', 303, 421],
          [',', 421, 428],
          ['le', 436, 460],
          ['……………', 460, 539],
        ].map(([text, x0, x1]) => ({
          text: text as string,
          box: { x0: x0 as number, y0: 698, x1: x1 as number, y1: 716 },
          baseline: 712,
          size: 14,
          confidence: 1,
        })),
        ...words('Signature', 462, 736, 14),
      ],
    }),
  );
  const dated = fait.find((s) => s.type === 'date');
  const signature = fait.find((s) => s.type === 'signature');
  assert.ok(dated && dated.x > 440 && dated.y < 712, JSON.stringify(brief(fait)));
  assert.ok(signature && signature.y > 736, JSON.stringify(brief(fait)));
});

test('a run of underscores opening a line that a caption closes is that caption\'s blank ("______ SIGNATURE", "______ DATE")', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('______________________________________________ SIGNATURE', 112, 304, 12),
        ...words('________________________________ DATE', 194, 347, 12),
      ],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  const date = found.find((s) => s.type === 'date');
  assert.ok(signature && signature.x < 120 && Math.abs(signature.y + signature.height - 306) <= 3, JSON.stringify(brief(found)));
  assert.ok(date && date.x < 200 && Math.abs(date.y + date.height - 349) <= 3, JSON.stringify(brief(found)));
  // (A blank with words before it on its line is theirs: "Name ______ Signature" asks for the name there.)
  const named = suggestFields(page({ words: [...paragraph('en', 100), ...words('Name ______________________ Signature', 60, 304, 12)] }));
  assert.ok(!named.some((s) => s.type === 'signature' && s.x < 120), JSON.stringify(brief(named)));
});

test('"Ort, Datum sowie Unterschrift" under one line asks for the signature there, as "Ort, Datum und Unterschrift" does', () => {
  for (const caption of ['Ort, Datum sowie Unterschrift (Kontoinhaber)', 'Ort, Datum und Unterschrift (Kontoinhaber)']) {
    const found = suggestFields(
      page({ words: [...paragraph('de', 100), ...words('_______________________________________', 77, 640, 11), ...words(caption, 77, 656, 9)] }),
    );
    assert.deepEqual(types(found), ['signature'], `${caption}: ${JSON.stringify(brief(found))}`);
  }
});

test('"Le ……/……/……" alone on its line, its blank in a date\'s parts, is the signing date, across all its parts', () => {
  const line = words('Le …… . / …… ./ …………… .', 71, 477, 11);
  const found = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Fait à ………………………………………', 71, 454, 11), ...line, ...words('Signature:', 71, 500, 11)] }),
  );
  const date = found.find((s) => s.type === 'date');
  const first = line[1] as Word;
  const last = line[line.length - 1] as Word;
  assert.ok(date && Math.abs(date.x - first.box.x0) <= 1 && Math.abs(date.x + date.width - last.box.x1) <= 1, JSON.stringify(brief(found)));
  assert.equal(date.fieldKey, 'sign_date');
});

test('"Le :" alone on its line with room after it is the signing date ("Nom : / Le : / A : / Signature :" in a party\'s box)', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('it', 100), ...words('Nom : Jean Rosado', 34, 719, 8), ...words('Le :', 34, 737, 8), ...words('A : Paris', 34, 756, 8)],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  assert.ok(date && date.x >= 45 && date.x < 60 && Math.abs(date.y + date.height - 738) <= 3, JSON.stringify(brief(found)));
});

test('a number ending a signer\'s caption tells signers apart and keeps its colon: "Signature Parent / Représentant légal 1 :" signs beside it', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('Signature Parent / Représentant légal 1 :', 71, 584, 9),
        ...words('Signature Parent / Représentant légal 2 :', 71, 608, 9),
      ],
    }),
  );
  const signatures = found.filter((s) => s.type === 'signature').sort((a, b) => a.y - b.y);
  assert.equal(signatures.length, 2, JSON.stringify(brief(found)));
  for (const s of signatures) assert.ok(s.x > 250, JSON.stringify(brief(found)));
});

test('"Ort: ________ den ________ Unterschrift: ________": the place is a blank of its own, the date the blank after "den"', () => {
  const row = words('Ort: ___________________________ den _______________ Unterschrift: ____________________________', 57, 248, 9);
  const found = suggestFields(page({ words: [...paragraph('de', 100), ...row] }));
  const date = found.find((s) => s.type === 'date');
  const blank = row[row.findIndex((w) => w.text === 'den') + 1];
  assert.ok(date && blank && Math.abs(date.x - blank.box.x0) <= 2, JSON.stringify(brief(found)));
  assert.ok(
    found.some((s) => s.type === 'signature' && s.x > date.x + date.width),
    JSON.stringify(brief(found)),
  );
});

test('"Regensburg, den" with nothing after it on its line: the date goes in the room after "den", as after "den" under its place ("Bamberg," over "den ____"); "den" inside a sentence is none', () => {
  const place = words('Regensburg, den', 71, 620, 12);
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...place,
        ...words('....................................................', 71, 662, 12),
        ...words('Unterschrift', 71, 676, 12),
      ],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  const den = place[1];
  assert.ok(date && den && date.x >= den.box.x1 && date.x - den.box.x1 <= 4 && date.width >= 70, JSON.stringify(brief(found)));
  assert.equal(date.fieldKey, 'sign_date');
  assert.ok(
    found.some((s) => s.type === 'signature'),
    JSON.stringify(brief(found)),
  );
  // (Broken over two lines, "Bamberg," over "den ______": the date on the blank after "den"; not when "den" opens a sentence's line.)
  const broken = (over: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100),
          ...words(over, 362, 607, 12),
          ...words('den __________', 71, 620, 12),
          ...words('....................................................', 71, 662, 12),
          ...words('Unterschrift', 71, 676, 12),
        ],
      }),
    ).filter((s) => s.type === 'date');
  assert.equal(broken('Bamberg,').length, 1);
  assert.equal(broken('Wir danken allen Mitgliedern').length, 0);
  // Not after the article of a sentence that runs on ("…, den" ending a line of running text).
  const prose = suggestFields(page({ words: [...paragraph('de', 100), ...words('Wir danken allen Mitgliedern, den', 71, 620, 12)] }));
  assert.deepEqual(
    prose.filter((s) => s.type === 'date'),
    [],
  );
});

test('a place and its date in French and Portuguese ("Paris, le ______", "São Paulo, em ______") as in German and Italian: the date on the blank; not "le ______" opening a line of running text, nor a mark a few dots long before a placeholder', () => {
  const dates = (lang: 'fr' | 'es', line: string) =>
    brief(suggestFields(page({ words: [...paragraph(lang, 100), ...words(line, 70, 320), ...words('Signature : _________________________', 300, 360)] })))
      .filter((s) => s.type === 'date')
      .map((s) => [s.x, s.w]);
  assert.deepEqual(dates('fr', 'Paris, le _______________'), [[112, 83]]);
  assert.deepEqual(dates('es', 'São Paulo, em _______________'), [[136, 79]]);
  assert.deepEqual(dates('fr', 'le _______________ si la fièvre est tombée'), []);
  // ("Fait à ….. (lieu), le ….. (date)": the formula's own date, over the placeholder too.)
  const [made] = dates('fr', 'Fait à ..... (lieu), le ..... (date)');
  assert.ok((made?.[1] ?? 0) >= 40, JSON.stringify(made));
});

test('ligatures a font maps to letters of their own are spelled out ("UnterschriŌ", "ParƟcipant", "BiƩe"); the capitals alone stay', () => {
  assert.deepEqual(
    withLigaturesSpelled(words('UnterschriŌ ParƟcipant BiƩe Ɵempo Ōsaka', 50, 300)).map((w) => w.text),
    ['Unterschrift', 'Participant', 'Bitte', 'tiempo', 'Ōsaka'],
  );
});

test('captions under their runs at the foot of a ruled section sign on the runs, not in the section over them ("Ort / Datum", "UnterschriŌ (bei Jugendlichen …)")', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('(Zutreffendes bitte ankreuzen, diese Einwilligung kann jederzeit gegenüber dem Vorstand widerrufen werden)', 92, 630, 9),
        ...words('__________________________', 57, 657, 11),
        ...words('________________________________________________________', 214, 657, 11),
        ...words('Ort / Datum', 57, 670, 11),
        ...words('UnterschriŌ (bei Jugendlichen die der gesetzlichen Vertreter)', 213, 670, 11),
      ],
      // The section: a rule over it and one under its captions.
      segments: [h(56, 538, 499), h(56, 538, 685)],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  const date = found.find((s) => s.type === 'date');
  assert.ok(signature && signature.x > 200 && Math.abs(signature.y + signature.height - 659) <= 4 && signature.y > 600, JSON.stringify(brief(found)));
  assert.ok(date && date.x < 100 && Math.abs(date.y + date.height - 659) <= 4, JSON.stringify(brief(found)));
});

test('a caption at the foot of a frame whose room above it is written on signs on its line under it, not in the frame ("Employee Signature:" over its line)', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('I understand that any false information may lead to termination of my employment.', 52, 202, 9),
        ...words('Employee Signature:', 52, 247, 9),
        ...words('Date:', 394, 247, 9),
      ],
      segments: [h(52, 202, 281), h(394, 544, 281)],
      // A frame around the page's text, its bottom just under the captions.
      boxes: [{ x0: 36, y0: 72, x1: 560, y1: 258 }],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  const date = found.find((s) => s.type === 'date');
  assert.ok(signature && signature.x < 60 && Math.abs(signature.y + signature.height - 281) <= 3, JSON.stringify(brief(found)));
  assert.ok(date && date.x > 390 && Math.abs(date.y + date.height - 281) <= 3, JSON.stringify(brief(found)));
});

test('"I sottoscritti :" under a heading of signatures ("2 Firme") heads its signers\' rows, each a name and its colon before a line', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('2 Firme', 43, 320, 14),
        ...words('I sottoscritti :', 43, 342),
        ...words('Brusco Jessica:', 43, 378),
        ...words('Troncana Filippo L.:', 43, 414),
      ],
      segments: [h(122, 553, 377), h(148, 553, 413)],
    }),
  );
  assert.deepEqual(
    found.filter((s) => s.type === 'signature').map((s) => [Math.round(s.x), Math.round(s.y + s.height)]),
    [
      [122, 377],
      [148, 413],
    ],
  );
});

test('a caption with its colon in a larger type than the text, on a row with other words ("Fait à :  le :  signature :"), is no heading: it signs in the room under it', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Fait à :', 113, 544, 12), ...words('le :', 285, 544, 12), ...words('signature :', 425, 544, 12)],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(signature && Math.abs(signature.x - 425) <= 2 && signature.y >= 544 && signature.y <= 556, JSON.stringify(brief(found)));
});

test('a caption with its colon alone on its row in a larger type than the small print ("Signature :", "Date :") is no heading: it signs and dates beside it', () => {
  const found = suggestFields(page({ words: [...paragraph('fr', 100), ...words('Signature :', 31, 537, 12), ...words('Date :', 31, 566, 12)] }));
  assert.deepEqual(
    brief(found).map((s) => [s.type, s.x > 60, s.y + s.h > 530 && s.y + s.h < 575]),
    [
      ['signature', true, true],
      ['date', true, true],
    ],
  );
  // (A heading's word stays a heading: "Signatures :".)
  assert.deepEqual(suggestFields(page({ words: [...paragraph('fr', 100), ...words('Signatures :', 31, 537, 12)] })), []);
});

test('a caption alone with its colon in type larger than a label\'s ("Signature :" in 20 pt over 14 pt text) asks for the room beside it; a heading that large does not', () => {
  const body = [0, 1, 2, 3].flatMap((i) =>
    words('Je respecte les droits des autres utilisateurs et les règles du site pour tout le temps', 50, 600 + i * 20, 14),
  );
  const found = suggestFields(page({ words: [...body, ...words('Signature :', 110, 757, 20)] }));
  assert.deepEqual(
    brief(found).map((s) => [s.type, s.x > 200, s.y + s.h > 750 && s.y + s.h < 765]),
    [['signature', true, true]],
  );
  assert.deepEqual(suggestFields(page({ words: [...body, ...words('Signatures des parties', 110, 757, 20)] })), []);
});

test('room beside a caption across a line of its kind found for another caption ("Signature:" over "Parent\'s Signature: ____") is that line\'s place: one signature, on the line', () => {
  const found = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Signature:', 72, 371, 12), ...words("Parent's Signature:", 72, 393, 10)], segments: [h(153, 360, 395)] }),
  );
  assert.deepEqual(
    brief(found).map((s) => [s.type, s.y + s.h]),
    [['signature', 395]],
  );
});

test('"Signatures" opening a longer caption ("Signatures précédées de la mention « Lu et approuvé » :") is no heading: the room under it is where both sign', () => {
  const found = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signatures précédées de la mention « Lu et approuvé » :', 159, 595)] }));
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(signature && Math.abs(signature.x - 159) <= 2 && signature.y >= 595 && signature.y <= 606, JSON.stringify(brief(found)));
});

test('a run after a place word ("à ……") is the place\'s blank, not a line for "Signature" under it; a caption set flush right has its room centred under it', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Le', 392, 286),
        ...words('…'.repeat(20), 439, 286),
        ...words('à', 392, 299),
        ...words('…'.repeat(20), 439, 299),
        ...words('Signature', 494, 313),
      ],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(signature && signature.y > 313 && signature.x < 494 && signature.x + signature.width > 539, JSON.stringify(brief(found)));
});

test('a signature caption without a colon, text right under it and another caption close after it on its row ("Firma Interesado      Huella:"), signs in the room over it', () => {
  const body = 'Declaro haber leído cuidadosamente el contenido de este documento y haberlo comprendido a cabalidad, razón por la cual lo suscribo';
  const found = suggestFields(
    page({
      words: [
        ...[0, 1, 2].flatMap((i) => words(body, 85, 610 + i * 12, 8)),
        ...words('Firma Interesado', 85, 672, 9),
        ...words('Huella:', 332, 672, 9),
        ...words('C. C.', 85, 683, 9),
        ...words('Teléfono Casa:', 85, 694, 9),
      ],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(signature && Math.abs(signature.x - 85) <= 2 && signature.y + signature.height <= 664 && signature.height >= 24, JSON.stringify(brief(found)));
});

test('a blank a caption with its colon opens on its row ("PHONE /TELEFONO: ____") is that caption\'s, not the line of the signature caption under it', () => {
  const found = suggestFields(
    page({
      width: 612,
      height: 792,
      words: [
        ...paragraph('en', 100),
        ...words('EMAIL:', 72, 585),
        ...words('_'.repeat(56), 111, 585),
        ...words('PHONE /TELEFONO:', 72, 609),
        ...words('_'.repeat(45), 164, 609),
        ...words('PARENT/GUARDIAN SIGNATURE (if under 18) /FIRMA DEL PADRE/GUARDIAN (menor de 18):', 72, 633),
        ...words('_'.repeat(52), 72, 657),
        ...words('DATE /FECHA:', 334, 657),
        ...words('_'.repeat(19), 400, 657),
      ],
    }),
  );
  assert.deepEqual(
    found.filter((s) => s.type === 'signature').map((s) => [Math.round(s.x), s.y > 633]),
    [[72, true]],
    JSON.stringify(brief(found)),
  );
});

test("captions printed over their lines: a signature caption whose line is under it does not take the line over it, the caption over that line's; captions under their lines keep them", () => {
  const at = (text: string, x: number, y: number) => words(text, x, y, 7.5);
  const over = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...at('Nombre del acudiente', 51, 641),
        ...at('Documento de identidad del acudiente', 51, 668),
        ...at('Firma del acudiente', 51, 697),
        ...at('Fecha', 384, 697),
      ],
      segments: [h(51, 544, 654), h(51, 292, 683), h(304, 544, 683), h(51, 372, 713), h(384, 544, 713)],
    }),
  );
  assert.deepEqual(
    over.filter((s) => s.type === 'signature').map((s) => [Math.round(s.x), Math.round(s.y + s.height)]),
    [[51, 713]],
    JSON.stringify(brief(over)),
  );
  // "COMPANY: ____" over the rule has its blank: the captions are under their lines.
  const under = suggestFields(
    page({
      width: 612,
      height: 792,
      words: [
        ...paragraph('en', 100),
        ...words('COMPANY:', 324, 483),
        ...words('_'.repeat(28), 373, 483),
        ...words('Signature', 329, 518),
        ...words('Date', 504, 518),
        ...words('Printed Name', 432, 554),
        ...words('Title', 432, 589),
      ],
      segments: [h(324, 532, 506), h(324, 532, 542), h(324, 532, 577)],
    }),
  );
  assert.deepEqual(
    under.filter((s) => s.type === 'signature').map((s) => [Math.round(s.x), Math.round(s.y + s.height)]),
    [[324, 506]],
    JSON.stringify(brief(under)),
  );
});

test('two runs alike under "Firma dei genitori", then "lì, ____": a signature on each run (the place\'s row under them is no caption of the second)', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('Firma dei genitori', 93, 619, 12),
        ...words('_'.repeat(19), 93, 639, 12),
        ...words('_'.repeat(19), 93, 667, 12),
        ...words('lì,', 90, 695, 12),
        ...words('_'.repeat(13), 108, 695, 12),
      ],
    }),
  );
  assert.equal(found.filter((s) => s.type === 'signature').length, 2, JSON.stringify(brief(found)));
});

test('in a table cell under a row to fill in ("En ____, día __ de ____"), a signature caption with its colon signs in the room under it, down to the name row', () => {
  const at = (text: string, x: number, y: number) => words(text, x, y, 6);
  const found = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...at('En', 32, 727),
        ...at('___________________________', 40, 727),
        ...at(', día', 147, 727),
        ...at('____', 160, 727),
        ...at('Firma del perceptor:', 32, 748),
        ...at('Fdo.: D / D.ª', 32, 780),
        ...at('_'.repeat(71), 65, 780),
      ],
      segments: [h(29, 284, 718), h(29, 284, 783)],
      verticals: [v(29, 718, 783), v(284, 718, 783)],
      widgets: [
        { kind: 'text', name: 'En', box: { x0: 40, y0: 718, x1: 146, y1: 728 } },
        { kind: 'text', name: 'día', box: { x0: 160, y0: 718, x1: 178, y1: 729 } },
        { kind: 'text', name: 'Fdo D  D', box: { x0: 65, y0: 770, x1: 278, y1: 781 } },
      ],
    }),
  );
  const signature = found.find((s) => s.type === 'signature' && s.reason !== 'acroform');
  assert.ok(signature && signature.y >= 748 && signature.y + signature.height <= 771 && signature.height >= 16, JSON.stringify(brief(found)));
});

test('parties named before their blanks on one line ("Landlord: ____   Tenant: ____", "Berlin, ____ Vermieter ____ Mieter ____", "Witness 1: ____   Witness 2: ____"): a place to sign on each party\'s blank; a row of data is none', () => {
  const row = (text: string, language: 'en' | 'de') =>
    suggestFields(page({ words: [...paragraph(language, 100), ...words(text, 71, 480)] }))
      .filter((s) => s.type === 'signature')
      .map((s) => Math.round(s.x));
  assert.equal(row('Landlord: ______________ Tenant: ______________', 'en').length, 2);
  assert.equal(row('Landlord ______________ Tenant ______________', 'en').length, 2);
  assert.equal(row('Vermieter _____________________ Mieter ____________', 'de').length, 2);
  assert.equal(row('Berlin, ____________ Vermieter _____________________ Mieter ____________', 'de').length, 2);
  // (After a caption of the place and date, "Ort, Datum ____": the date's blank is the date's.)
  assert.equal(row('Ort, Datum ____________ Vermieter ____________ Mieter ____________', 'de').length, 2);
  assert.deepEqual(row('Name: ____________ Employer: ____________', 'en'), []);
  // (Nor a row with a date of something else: "Date of birth" asks for data.)
  assert.deepEqual(row('Date of birth: ____________ Guardian: ____________', 'en'), []);
  assert.equal(row('Date: ____________ Guardian: ____________', 'en').length, 1);
  // (Two witnesses, numbered or not, or another party after a witness: "Witness 1: ____   Witness 2: ____".)
  assert.equal(row('Witness 1: ______________ Witness 2: ______________', 'en').length, 2);
  assert.equal(row('Witness: ______________ Witness: ______________', 'en').length, 2);
  assert.equal(row('Witness: ______________ Tenant: ______________', 'en').length, 2);
});

test('"Witness: ____" is a witness\'s place to sign, and so is "Witness for the Tenant: ____"', () => {
  for (const caption of ['Witness: ______________________', 'Witness for the Tenant: ______________________']) {
    const found = suggestFields(page({ words: [...paragraph('en', 100), ...words(caption, 72, 500)] })).filter((s) => s.type === 'signature');
    assert.equal(found.length, 1, caption);
  }
  const witness = suggestFields(page({ words: [...paragraph('en', 100), ...words('Witness: ______________________', 72, 500)] }));
  assert.equal(witness.find((s) => s.type === 'signature')?.roleHint, 'witness');
});

test('two parties named over their lines with a signature\'s room between ("Le Bailleur" and "Le Locataire", their lines 60 pt under): each signs on its line', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Le Bailleur', 72, 500), ...words('Le Locataire', 320, 500)],
      segments: [h(72, 250, 560), h(320, 500, 560)],
    }),
  );
  assert.deepEqual(
    found.filter((s) => s.type === 'signature').map((s) => [Math.round(s.x), Math.round(s.y + s.height)]),
    [
      [72, 560],
      [320, 560],
    ],
    JSON.stringify(brief(found)),
  );
});

test('"____ / Employee" over "____ / Date": the party under its own line leaves the line under it to the date caption under that one', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Employee', 72, 512), ...words('Employer', 330, 512), ...words('Date', 72, 552), ...words('Date', 330, 552)],
      segments: [h(72, 260, 500), h(330, 518, 500), h(72, 260, 540), h(330, 518, 540)],
    }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height)]).sort(),
    [
      ['date', 330, 540],
      ['date', 72, 540],
      ['signature', 330, 500],
      ['signature', 72, 500],
    ],
    JSON.stringify(brief(found)),
  );
});

test('"Data:   /   /" and "Date :   /   / 2017": the date is written over its printed separators, right of its caption; "Date: 12/05/2017" is written', () => {
  const dateAt = (text: string) => {
    // (A signing date: the place to sign is on its row.)
    const found = suggestFields(
      page({ words: [...paragraph('it', 100), ...words(text, 90, 684), ...words('Firma:', 330, 684), ...words('_'.repeat(30), 365, 684)] }),
    );
    return found.filter((s) => s.type === 'date').map((s) => [Math.round(s.x), Math.round(s.y + s.height)] as const);
  };
  // (words() sets each word where its characters fall: "Data:" ends at 125, the separators are at 141 and 161.)
  for (const text of ['Data:    /    /', 'Date :    /    / 2017']) {
    const [spot, ...more] = dateAt(text);
    assert.ok(spot && more.length === 0, `${text}: one date (${JSON.stringify(dateAt(text))})`);
    assert.ok(spot[0] > 124 && spot[0] < 141 && Math.abs(spot[1] - 688) <= 2, `${text}: over the separators (${JSON.stringify(spot)})`);
  }
  // Written: nothing to fill.
  assert.deepEqual(dateAt('Data: 12/05/2017'), []);
  assert.deepEqual(dateAt('Data: 12 / 05 / 2017'), []);
});

test('"CLIENT" over a line captioned "Signature" under it, then a line captioned "Printed Name": the signature is on the line under the party, not on the name\'s', () => {
  const block = (second: string) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...words('CLIENT', 72, 567), ...words('Signature', 72, 617), ...words(second, 72, 653)],
        segments: [h(72, 296, 605), h(72, 296, 641)],
      }),
    );
  const named = block('Printed Name');
  assert.deepEqual(
    brief(named).map((s) => [s.type, Math.round(s.y + s.h)]),
    [
      ['signature', 605],
      ['text', 641],
    ],
    JSON.stringify(brief(named)),
  );
  // Under a party's name with nothing captioned under the next line, that line is the caption's (the party's own line is over it).
  const bare = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('CLIENT', 72, 567), ...words('Signature', 72, 617)], segments: [h(72, 296, 605), h(72, 296, 641)] }),
  );
  assert.ok(
    bare.some((s) => s.type === 'signature' && Math.round(s.y + s.height) === 641),
    JSON.stringify(brief(bare)),
  );
});

test('"Lu et approuvé, à Crégy le :" ending its line before a drawn line: the date is on that line; "Cotisation réglée le :" (no place: a payment) is not a signing date', () => {
  const row = (text: string) =>
    suggestFields(
      page({
        words: [...paragraph('fr', 100), ...words(text, 64, 688, 12), ...words('Signature :', 64, 720, 12)],
        segments: [h(64 + [...text].length * 6 + 14, 401, 688.6)],
      }),
    ).filter((s) => s.type === 'date');
  const dates = row('Lu et approuvé, à Crégy-Les-Meaux le :');
  assert.equal(dates.length, 1, JSON.stringify(dates));
  assert.ok(Math.abs((dates[0]?.y ?? 0) + (dates[0]?.height ?? 0) - 688.6) <= 1 && (dates[0]?.x ?? 0) > 290, JSON.stringify(dates));
  assert.deepEqual(row('Cotisation réglée le :'), []);
});

test('"Bon pour accord le :" with room after it, "Mention « lu et approuvé » ____ le : ____": the date the mention is written on; "Né(e) le :" is no signing date', () => {
  const dates = (...rows: string[]) =>
    suggestFields(page({ words: [...paragraph('fr', 100), ...rows.flatMap((text, i) => words(text, 64, 640 + 16 * i, 11))] })).filter((s) => s.type === 'date');
  const accord = dates('Bon pour accord le :', 'Signature');
  assert.equal(accord.length, 1, JSON.stringify(accord));
  assert.ok((accord[0]?.x ?? 0) >= 64 + 20 * 5.5 && Math.abs((accord[0]?.y ?? 0) + (accord[0]?.height ?? 0) - 642) <= 1, JSON.stringify(accord));
  const text = `Mention « lu et approuvé » ${'_'.repeat(20)} le : ${'_'.repeat(12)} Signature : ${'_'.repeat(18)}`;
  const blank = words(text, 64, 640, 11).filter((w) => w.text.startsWith('_'))[1];
  const mention = dates(text);
  assert.equal(mention.length, 1, JSON.stringify(mention));
  assert.ok(
    Math.abs((mention[0]?.x ?? 0) - (blank?.box.x0 ?? 0)) <= 1 && Math.abs((mention[0]?.width ?? 0) - ((blank?.box.x1 ?? 0) - (blank?.box.x0 ?? 0))) <= 1,
    JSON.stringify(mention),
  );
  assert.deepEqual(dates('Né(e) le :', 'Adresse :'), []);
});

test('"(Signature of the Student with Full Name)" wholly in parentheses, "Name:" and "Roll No:" right under it: one signs in the room over it', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('I hereby declare that the above is true.', 72, 640, 10),
        ...words('(Signature of the Student with Full Name)', 72, 700, 10),
        ...words('Date:', 432, 700, 10),
        ...words('Name:', 72, 714, 10),
        ...words('Place:', 432, 714, 10),
        ...words('Roll No:', 72, 728, 10),
      ],
    }),
  );
  const signature = found.filter((s) => s.type === 'signature');
  assert.equal(signature.length, 1, JSON.stringify(brief(found)));
  assert.ok(Math.abs((signature[0]?.x ?? 0) - 72) <= 1 && (signature[0]?.y ?? 0) + (signature[0]?.height ?? 0) <= 692, JSON.stringify(brief(found)));
});

test('"Company Representative Signature:" over a run of underscores: the run is where the representative signs, no company name there; "Company:" with its colon asks for one', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Company Representative Signature:', 108, 680), ...words('_'.repeat(35), 108, 707)],
    }),
  );
  assert.deepEqual(
    brief(found).map((s) => [s.type, s.x, Math.round(s.y + s.h)]),
    [['signature', 108, 709]],
    JSON.stringify(brief(found)),
  );
  const apart = suggestFields(page({ words: [...paragraph('en', 100), ...words('Company: ______________   Signature: ______________', 108, 680)] }));
  assert.deepEqual(types(apart), ['signature', 'text'], JSON.stringify(brief(apart)));
});

test('"… firman las partes" over two typed names with their company or role under them, no line drawn: the room over each name is where each signs; without the sentence, a title alone or a name over lines of its own, none', () => {
  const closing = words('Para constancia del acuerdo firman las partes y suscriben el presente contrato en la ciudad de Ibarra.', 85, 560, 12);
  const names = [
    ...words('Bladimir Benavides', 129, 650, 12),
    ...words('Juan Chávez', 416, 650, 12),
    ...words('BBK Odontología', 131, 685, 12),
    ...words('CEO REDEX', 414, 685, 12),
  ];
  const rooms = (parts: Partial<Parameters<typeof page>[0]>) => brief(suggestFields(page(parts))).filter((s) => s.type === 'signature');
  const signed = rooms({ words: [...paragraph('it', 100), ...closing, ...names] });
  assert.equal(signed.length, 2, JSON.stringify(signed));
  for (const [s, name] of [
    [signed[0], 129 + 9 * 6],
    [signed[1], 416 + 5.5 * 6],
  ] as const)
    assert.ok(s && Math.abs(s.x + s.w / 2 - name) <= 20 && s.y + s.h <= 642 && s.y + s.h >= 636 && s.h >= 30, JSON.stringify(signed));
  assert.deepEqual(rooms({ words: [...paragraph('it', 100), ...names] }), [], 'no sentence saying the parties sign');
  assert.deepEqual(
    rooms({ words: [...paragraph('en', 100), ...words('(Must be signed by a parent)', 145, 560, 12), ...words('Battle Royale Liability Form', 36, 650, 12)] }),
    [],
  );
  const lined = rooms({ words: [...paragraph('it', 100), ...closing, ...names, ...words('_'.repeat(30), 110, 720, 12)] });
  assert.ok(
    lined.every((s) => s.x > 300),
    JSON.stringify(lined),
  );
  // (Nor a party's name heading its block of captioned runs: "THE EMPLOYER" over "By: ____", "Name: ____".)
  const block = (party: string, x: number) => [
    ...words(party, x, 343),
    ...words(`By: ${'_'.repeat(34)}`, x, 371),
    ...words(`Name: ${'_'.repeat(33)}`, x, 391),
    ...words(`Date: ${'_'.repeat(33)}`, x, 411),
  ];
  const witness = words('IN WITNESS WHEREOF, the parties have executed this Agreement as of the date first written above.', 50, 280, 9);
  const blocks = rooms({ words: [...paragraph('en', 100), ...witness, ...block('THE EMPLOYER', 60), ...block('THE EMPLOYEE', 320)] });
  assert.deepEqual(
    blocks.map((s) => s.y),
    [343, 343],
    JSON.stringify(blocks),
  );
});

test('a letter\'s closing over a signature\'s room and the signer\'s office ("Thanking you," / "Training and Placement Officer") is signed in that room; not on a page saying no signature is required, nor with too little room', () => {
  const letter = [...paragraph('en', 100), ...words('Thanking you,', 90, 660, 12), ...words('Training and Placement Officer', 90, 729, 12)];
  assert.deepEqual(brief(suggestFields(page({ words: letter }))), [{ type: 'signature', x: 90, y: 678, w: 180, h: 40 }]);
  assert.deepEqual(suggestFields(page({ words: [...letter, ...words('This is a computer generated letter: no signature is required.', 90, 800, 8)] })), []);
  assert.deepEqual(
    suggestFields(page({ words: [...paragraph('en', 100), ...words('Thanking you,', 90, 660, 12), ...words('Training and Placement Officer', 90, 690, 12)] })),
    [],
  );
});

test('a caption qualified up to a colon ending its line ("Signature du 2ème représentant légal (si applicable) :") asks for the room after that colon', () => {
  const found = brief(
    suggestFields(page({ words: [...paragraph('fr', 100), ...words('Signature du 2ème représentant légal (si applicable) :', 120, 605, 10)] })),
  );
  // The caption runs from 120 to 390.
  assert.deepEqual(
    found.map((s) => [s.type, s.x > 390, s.y + s.h >= 600 && s.y + s.h <= 612]),
    [['signature', true, true]],
  );
});

test('"Firma/huella digital del sujeto" (a signature and a fingerprint) before its line is a place to sign; a digital signature is none', () => {
  const found = (caption: string) =>
    brief(suggestFields(page({ words: [...paragraph('es', 100), ...words(caption, 71, 618, 10)], segments: [{ x0: 232, x1: 330, y: 620 }] }))).map((s) => [
      s.type,
      s.x,
    ]);
  assert.deepEqual(found('Firma/huella digital del sujeto'), [['signature', 232]]);
  assert.deepEqual(found('Firma y huella digital:'), [['signature', 232]]);
  assert.deepEqual(found('Firma digital del sujeto'), []);
});

test('a row of captions over a row of runs ("Name of participant   Date   Signature"): each caption takes the run under it, a date\'s short one too, not the next caption\'s', () => {
  const row = (dateRun: boolean) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words('Name of participant', 36, 560, 10),
            ...words('Date', 252, 560, 10),
            ...words('Signature', 324, 560, 10),
            ...words('_'.repeat(33), 36, 598, 10),
            ...(dateRun ? words('_'.repeat(6), 231, 598, 10) : []),
            ...words('_'.repeat(28), 288, 598, 10),
          ],
        }),
      ),
    ).sort((a, b) => a.x - b.x);
  assert.deepEqual(
    row(true).map((s) => [s.type, s.x]),
    [
      ['text', 36],
      ['date', 231],
      ['signature', 288],
    ],
  );
  // (With no run under "Date", the run under "Signature" is still the signature's.)
  assert.deepEqual(
    row(false)
      .filter((s) => s.type === 'signature')
      .map((s) => [s.x, s.y + s.h]),
    [[288, 600]],
  );
});

test('lines under a closing formula ("ATENTAMENTE" over two lines; "Pede deferimento" over one) are places to sign; not lines two signatures\' height under it, nor under text between', () => {
  const found = (closing: string, lineY: number, between: Word[] = []) =>
    brief(
      suggestFields(
        page({
          words: [...paragraph('es', 100), ...words(closing, 270, 590, 12), ...between],
          segments: [
            { x0: 36, x1: 263, y: lineY },
            { x0: 373, x1: 566, y: lineY },
          ],
        }),
      ),
    ).sort((a, b) => a.x - b.x);
  assert.deepEqual(found('ATENTAMENTE', 614), [
    { type: 'signature', x: 36, y: 574, w: 227, h: 40 },
    { type: 'signature', x: 373, y: 574, w: 193, h: 40 },
  ]);
  assert.deepEqual(found('Pede deferimento', 630), [
    { type: 'signature', x: 36, y: 590, w: 227, h: 40 },
    { type: 'signature', x: 373, y: 590, w: 193, h: 40 },
  ]);
  assert.deepEqual(found('ATENTAMENTE', 690), []);
  assert.deepEqual(found('ATENTAMENTE', 640, [...words('ver al dorso', 40, 610, 10), ...words('ver al dorso', 380, 610, 10)]), []);
  // A line longer than 360 pt but short of the text's column is the signer's too; a rule across the column is not.
  const letter = (x1: number) =>
    brief(
      suggestFields(
        page({
          words: [
            ...words('Autorizo a retirar el cheque de nuestra empresa, emitido por el banco, por un monto de seiscientos mil.', 44, 250, 12),
            ...words('Atentamente,', 44, 280, 12),
          ],
          segments: [{ x0: 44, x1, y: 316 }],
        }),
      ),
    );
  assert.deepEqual(letter(435), [{ type: 'signature', x: 44, y: 282, w: 391, h: 34 }]);
  assert.deepEqual(letter(560), []);
});

test('a caption\'s colon set apart at a tab stop ("Datum        :", "Handtekening :") is the caption\'s: the room after the colon is its field', () => {
  const text = words('Ondergetekende machtigt hierbij de organisatie om de gegevens van het bedrijf op te vragen en te gebruiken voor de analyse', 50, 150, 9);
  const found = suggestFields(
    page({
      words: [
        ...text,
        ...words('Datum', 71, 233, 10),
        ...words(':', 191, 233, 10),
        ...words('Plaats', 71, 254, 10),
        ...words(':', 191, 254, 10),
        ...words('Handtekening', 71, 296, 10),
        ...words(':', 191, 296, 10),
      ],
    }),
  );
  assert.deepEqual(
    brief(found).map((s) => [s.type, s.x > 194, s.y + s.h > 230 && s.y + s.h <= 302]),
    [
      ['date', true, true],
      ['signature', true, true],
    ],
  );
});

test('a date written as spaced underscores for its parts ("Data: _ _ / _ _ / _ _ _ _") is one blank from its first part to its last', () => {
  const part = (t: string, x: number) => words(t, x, 515, 12);
  const row = [...part('Data:', 85), ...part('_ _', 115), ...part('/', 134), ...part('_ _', 140), ...part('/', 158.5), ...part('_ _ _ _', 165)];
  const found = suggestFields(page({ words: [...paragraph('it', 100), ...row, ...words('_'.repeat(34), 85, 570, 12), ...words('Aluno', 170, 590, 12)] }));
  const date = brief(found).find((s) => s.type === 'date');
  assert.ok(date && date.x === 115 && date.x + date.w >= 200, JSON.stringify(brief(found)));
});

test('a caption\'s run set apart on its row, past the gap that ends a line, is its blank ("Ort / Datum      ______ Unterschrift eines Elternteils ______")', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Ort / Datum', 36, 772, 9),
        ...words('_________________________________', 109, 772, 9),
        ...words('Unterschrift eines Elternteils', 270, 772, 9),
        ...words('_____________________________', 406, 772, 9),
      ],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(date && Math.abs(date.x - 109) <= 1 && date.fieldKey === 'sign_date', JSON.stringify(brief(found)));
  assert.ok(signature && Math.abs(signature.x - 406) <= 1, JSON.stringify(brief(found)));
});

test('a blank for the place, its comma and the date in its parts over the lines to sign ("__________ , ____ / ________ / ____") is the signing date', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('______________ , ____ / _____________ / ____', 320, 564, 11),
        ...words('_______________________________', 104, 631, 11),
        ...words('_________________________________', 329, 631, 11),
        ...words('Parent or guardian signature', 104, 645, 10),
        ...words('Employee signature', 329, 645, 10),
      ],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  assert.ok(date && date.x > 390 && date.fieldKey === 'sign_date', JSON.stringify(brief(found)));
  assert.equal(found.filter((s) => s.type === 'signature').length, 2, JSON.stringify(brief(found)));
});

test('captions standing on one rule ("Data ______ Firma ______" on a single line): each its part, the room over it checked over that part alone', () => {
  const found = suggestFields(
    page({ words: [...paragraph('it', 300), ...words('Data', 57, 423, 10), ...words('Firma', 215, 421, 10)], segments: [h(51, 552, 425)] }),
  );
  const date = found.find((s) => s.type === 'date');
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(date && date.x > 78 && date.x + date.width < 215, JSON.stringify(brief(found)));
  assert.ok(signature && signature.x > 240, JSON.stringify(brief(found)));
});

test('a date caption with its colon in a single-spaced block ("Print Name: …" / "Title: Owner" / "Date:") dates in the room after it', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Signature: ______________________________', 317, 696, 11),
        ...words('Print Name: Douglas Lum', 317, 712, 11),
        ...words('Title: Owner', 317, 725, 11),
        ...words('Date:', 317, 738, 11),
      ],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  assert.ok(date && date.x > 340 && date.y + date.height >= 738 && date.y >= 727, JSON.stringify(brief(found)));
});

test('a caption under a long row with a blank of its own is no tail of running text ("Signature of Witness: (Must be a serving committee member) ____" over "Date:")', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Signature of Witness: (Must be a serving committee member) ___________________', 36, 686, 12),
        ...words('Date:', 36, 703, 12),
      ],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  assert.ok(date && date.x > 60 && date.y + date.height >= 700 && date.y + date.height <= 710, JSON.stringify(brief(found)));
});

test('a run shared by "Ort, Datum" and "Unterschrift …" under it: the date takes its part and the signature the rest, under a row of blanks', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Kind 4: ______________________________________________ Geb. datum: _________________________', 57, 455, 10),
        ...words('______________________________________________________________________________________', 57, 478, 10),
        ...words('Ort, Datum', 57, 489, 10),
        ...words('Unterschrift der/des gesetzl. Vertreter/s', 346, 489, 10),
      ],
    }),
  );
  const date = found.find((s) => s.type === 'date');
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(date && date.x < 60 && date.x + date.width < 346, JSON.stringify(brief(found)));
  assert.ok(signature && signature.x >= 340 && Math.abs(signature.y + signature.height - 480) <= 3, JSON.stringify(brief(found)));
});

test('a French signature block with the mention asked for under each caption ("Le Bailleur" over "« Lu et approuvé »"): the room is under the mention; addresses under the names are no room', () => {
  const block = (left: string, right: string, under: string | [string, string]) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('fr', 100),
            ...words(left, 60, 400),
            ...words(typeof under === 'string' ? under : under[0], 60, 412, 8),
            ...words(right, 320, 400),
            ...words(typeof under === 'string' ? under : under[1], 320, 412, 8),
          ],
        }),
      ),
    )
      .filter((s) => s.type === 'signature')
      .map((s) => [s.x, s.y]);
  const mention = '(signature précédée de la mention « lu et approuvé »)';
  assert.deepEqual(block('Le Bailleur', 'Le Locataire', mention), [
    [60, 418],
    [320, 418],
  ]);
  assert.deepEqual(block('Le Bailleur', 'Le Locataire', 'Lu et approuvé'), [
    [60, 418],
    [320, 418],
  ]);
  assert.deepEqual(block('Signature du bailleur', 'Signature du locataire', '(précédée de la mention « lu et approuvé »)'), [
    [60, 418],
    [320, 418],
  ]);
  assert.deepEqual(block('Signature du bailleur', 'Signature du locataire', '(ou de son représentant)'), [
    [60, 418],
    [320, 418],
  ]);
  assert.deepEqual(block('Le Bailleur', 'Le Locataire', ['12 rue des Lilas', '3 avenue Foch']), []);
});

test('a signature caption after or before the words of a stamp ("Cachet et signature de l\'établissement", "Stempel und Unterschrift des Arztes", "Doctor\'s signature and stamp") alone on its line has its room', () => {
  const room = (language: 'fr' | 'de' | 'en' | 'it', caption: string) =>
    suggestFields(page({ words: [...paragraph(language, 100), ...words(caption, 320, 400)] })).filter((s) => s.type === 'signature').length;
  assert.equal(room('fr', "Cachet et signature de l'établissement"), 1);
  assert.equal(room('it', 'Timbro e firma della scuola'), 1);
  assert.equal(room('de', 'Stempel und Unterschrift des Arztes'), 1);
  assert.equal(room('de', 'Unterschrift und Firmenstempel'), 1);
  assert.equal(room('en', "Doctor's signature and stamp"), 1);
  // (Not other words before it: a sentence that mentions a signature.)
  assert.equal(room('fr', "Merci de joindre la signature de l'établissement"), 0);
});

test('"Signature/Date" and "Signature & Date" under a line ask for a signature and its date there, as "Date et signature" does; "Signature date" is the date of signing', () => {
  const under = (caption: string) =>
    types(suggestFields(page({ words: [...paragraph('en', 100), ...words('_'.repeat(40), 320, 388, 10), ...words(caption, 320, 400, 9)] })));
  assert.deepEqual(under('Signature/Date'), ['signature']);
  assert.deepEqual(under('Signature & Date'), ['signature']);
  assert.deepEqual(under('Signature date'), ['date']);
  // ("Sign and date", an instruction under the line, asks for the signature there too.)
  assert.deepEqual(under('Sign and date'), ['signature']);
});

test('"By:" alone over "Name:" and "Title:" in its column, no lines drawn (a contract block made for typing), asks for the signature after it; "By:" alone, or opening running text, asks for nothing', () => {
  const block = (rows: string[]) =>
    brief(suggestFields(page({ words: [...paragraph('en', 340), ...rows.flatMap((r, i) => words(r, 72, 480 + i * 28, 10))] }))).filter(
      (s) => s.type === 'signature',
    );
  const [by] = block(['By:', 'Name:', 'Title:']);
  assert.ok(by && by.x >= 90 && by.x <= 100 && by.y + by.h >= 480 && by.y + by.h <= 486, JSON.stringify(by));
  assert.deepEqual(block(['By:']), []);
  assert.deepEqual(block(['By: signing this form you agree to the terms', 'Name:']), []);
});

test('a stamp and a signature asked for in one caption sign there however many words name whose stamp it is ("Timbro del Circolo Culturale Cittadino e firma del Presidente")', () => {
  const over = (language: 'it' | 'es', caption: string) =>
    brief(suggestFields(page({ words: [...paragraph(language, 340), ...words(caption, 190, 514, 9)] }))).filter((s) => s.type === 'signature');
  for (const [language, caption] of [
    ['it', 'Timbro del Circolo Culturale Cittadino e firma del Presidente'],
    ['es', 'Sello de la Asociación Deportiva Municipal y firma del representante'],
  ] as const) {
    const [room] = over(language, caption);
    assert.ok(room && room.x === 190 && room.y >= 514 && room.y <= 522, `${caption}: ${JSON.stringify(room)}`);
  }
});

test('a name and a signature asked for in one caption, either way round and joined by "and" ("Firma y nombre completo", "Print Name and Sign"), ask for a signature on the line over it; "Aclaración de firma" is the name', () => {
  const under = (language: 'en' | 'es' | 'pt', caption: string) =>
    types(suggestFields(page({ words: [...paragraph(language, 100), ...words(caption, 72, 600, 9)], segments: [h(70, 300, 588)] })));
  assert.deepEqual(under('es', 'Firma y nombre completo'), ['signature']);
  assert.deepEqual(under('pt', 'Assinatura e nome completo'), ['signature']);
  assert.deepEqual(under('en', 'Print Name and Sign'), ['signature']);
  assert.deepEqual(under('en', 'Sign and Print Name'), ['signature']);
  assert.deepEqual(under('en', 'Full Name & Signature'), ['signature']);
  assert.deepEqual(under('es', 'Aclaración de firma'), ['text']);
  assert.deepEqual(under('en', 'Print Name'), ['text']);
});

test('a signature caption ending its run on its colon ("Signature:", "Firma:") under a rule asks for the room after or below it, not for the rule over it; a caption without its colon, or with words after it, signs on the rule', () => {
  const signatures = (caption: string, language: 'en' | 'es' | 'de' = 'en', rule = h(70, 400, 300)) =>
    brief(suggestFields(page({ words: [...paragraph(language, 100), ...words(caption, 70, 316)], segments: [rule] })).filter((s) => s.type === 'signature'));
  for (const [caption, language] of [
    ['Signature:', 'en'],
    ['Firma:', 'es'],
    ['Client signature:', 'en'],
  ] as const) {
    const found = signatures(caption, language);
    assert.equal(found.length, 1, caption);
    assert.ok((found[0]?.y ?? 0) > 306, `${caption}: ${JSON.stringify(found)}`);
  }
  // Nor is an underscore run over it.
  const run = suggestFields(page({ words: [...paragraph('en', 100), ...words('_'.repeat(40), 70, 300), ...words('Signature:', 70, 316)] }));
  assert.ok(
    run.filter((s) => s.type === 'signature').every((s) => s.y > 306),
    JSON.stringify(brief(run)),
  );
  assert.deepEqual(signatures('Signature'), [{ type: 'signature', x: 70, y: 260, w: 330, h: 40 }]);
  // (Words after its colon qualify it, or name who signs: it signs on the rule over it.)
  assert.deepEqual(
    signatures('Unterschrift: Mitglied', 'de', h(60, 520, 300)).map((s) => s.y),
    [260],
  );
});

test('a form widget drawn over the blank after its caption is that caption’s when the caption’s text stands two points lower (4.8 of its 10 pt in the widget’s band)', () => {
  const got = suggestFields(
    page({
      words: [
        ...paragraph('de', 500),
        ...words('Name, Vorname: ____________________ Ort und Datum: ____________________', 71, 706, 10),
        ...words('Unterschrift: ____________________', 71, 750, 10),
      ],
      widgets: [
        { kind: 'text', name: 'Formfeld1', box: { x0: 150, y0: 686, x1: 250, y1: 703 } },
        { kind: 'text', name: 'Formfeld2', box: { x0: 330, y0: 686, x1: 430, y1: 703 } },
      ],
    }),
  );
  assert.deepEqual(
    got.map((s) => [s.type, s.fieldKey ?? '', Math.round(s.x)]),
    [
      ['text', 'signer_name', 150],
      ['date', 'sign_date', 330],
      ['signature', '', 133],
    ],
  );
});

test('a caption’s own underline is no wall under it, however close under its letters: the room under an underlined `SIGNATURE`', () => {
  const got = suggestFields(page({ words: [...paragraph('fr', 690), ...words('SIGNATURE', 28, 756, 9)], segments: [h(28, 68.5, 759.3)] }));
  assert.deepEqual(brief(got), [{ type: 'signature', x: 28, y: 762, w: 180, h: 40 }]);
});

test('a long line ending with its colon is no paragraph the caption under it goes on: `Date et Signature :` under `NOM du/de la directeur/trice de l’unité de recherche :`', () => {
  const got = suggestFields(
    page({
      words: [
        ...paragraph('fr', 500),
        ...words('NOM du/de la directeur/trice de l’unité de recherche :', 71, 676, 12),
        ...words('Date et Signature :', 71, 690, 12),
      ],
    }),
  );
  assert.deepEqual(brief(got), [{ type: 'signature', x: 71, y: 697, w: 180, h: 40 }]);
});

test('a caption whose room under it is a box written in already (a table’s header cell) keeps its room beside it; the room over a caption ends at a rule between them', () => {
  const beside = suggestFields(
    page({
      words: [...paragraph('fr', 200), ...words('Signature :', 53, 504, 10), ...words('Tariffs', 111, 546, 10)],
      segments: [h(51, 196, 534), h(51, 196, 548.8)],
      verticals: [v(51, 534, 549), v(196, 534, 549)],
    }),
  );
  assert.deepEqual(brief(beside), [{ type: 'signature', x: 114, y: 468, w: 180, h: 40 }]);
  // "(Signature du parent)" right under its cell's top rule: the room over the rule is the row above's.
  const ws = [...paragraph('fr', 500), ...words('(Signature du parent)', 308, 605, 9)];
  const lines = buildLines(ws);
  const label = findLabels(lines, 9, []).find((l) => l.entry.type === 'signature');
  assert.ok(label);
  const [over] = roomsToTry(label);
  assert.ok(over);
  const geo = { h: [h(300, 549, 596.3)], v: [], boxes: [], free: [] };
  assert.equal(over(label, page({ words: ws }), lines, geo), undefined);
  assert.deepEqual(over(label, page({ words: ws }), lines, { ...geo, h: [] }), { x0: 308, y0: 555.98, x1: 488, y1: 595.98 });
});

test('a caption qualified by the rest of its line is set apart from a short heading over it that ends with its colon (`Pour les mineurs :`)', () => {
  const got = (lead: string) =>
    suggestFields(
      page({
        words: [...paragraph('fr', 600), ...words(lead, 45, 751, 11), ...words("Signature de la personne détentrice de l'autorité parentale", 45, 759, 8)],
      }),
    );
  assert.deepEqual(brief(got('Pour les mineurs :')), [{ type: 'signature', x: 45, y: 765, w: 180, h: 40 }]);
  // (A line of text over it, not a heading with its colon, still makes it a line of running text.)
  assert.deepEqual(brief(got('Pour les mineurs de moins de seize ans')), []);
});

test('a line to sign on with a form widget standing on one end of it (the date’s) is signed on the rest of it', () => {
  const got = suggestFields(
    page({
      words: [...paragraph('en', 500), ...words('Signature:', 66, 708, 10), ...words('Date', 304, 720, 9), ...words('Your Name', 513, 720, 9)],
      segments: [h(115, 558, 709.6)],
      widgets: [{ kind: 'text', name: 'Date', box: { x0: 360, y0: 690, x1: 558, y1: 708 } }],
    }),
  );
  assert.deepEqual(brief(got), [
    { type: 'signature', x: 115, y: 670, w: 243, h: 40 },
    { type: 'date', x: 360, y: 690, w: 198, h: 18 },
  ]);
});

test('`Firmas` qualified by the rest of its line is a caption, not a heading over the places beside it (`Firmas otros sujetos/as` after `Firma sujeto/a A`, `Firma sujeto/a B`)', () => {
  const got = suggestFields(
    page({
      words: [
        ...paragraph('es', 500),
        ...words('Firma sujeto/a A', 85, 650, 9),
        ...words('Firma sujeto/a B', 220, 650, 9),
        ...words('Firmas otros sujetos/as', 364, 650, 9),
      ],
    }),
  );
  assert.deepEqual(brief(got), [
    { type: 'signature', x: 85, y: 656, w: 131, h: 40 },
    { type: 'signature', x: 220, y: 656, w: 140, h: 40 },
    { type: 'signature', x: 364, y: 656, w: 180, h: 40 },
  ]);
});

test('a signature caption that is its whole line is one however wide it runs when a rule right over it is its line (`Datum und Unterschrift des Spielers … des gesetzlichen` / `Vertreters`)', () => {
  const got = (ruled: boolean) =>
    suggestFields(
      page({
        words: [
          ...words('Hinweise zur Spielberechtigung: Der Verein bestätigt mit Unterschrift und Stempel, dass alle Angaben', 64, 400, 10),
          ...words('Datum und Unterschrift des Spielers/der Spielerin bzw. bei Minderjährigen auch des gesetzlichen', 64, 610, 10),
          ...words('Vertreters', 64, 625, 10),
        ],
        segments: ruled ? [h(62, 547, 596.5)] : [],
        widgets: [{ kind: 'text', name: 'Datum', box: { x0: 62, y0: 582, x1: 127, y1: 596 } }],
      }),
    ).map((s) => ({ ...brief([s])[0], fieldKey: s.fieldKey }));
  assert.deepEqual(got(true), [
    { type: 'signature', x: 129, y: 557, w: 418, h: 40, fieldKey: undefined },
    { type: 'date', x: 62, y: 582, w: 65, h: 14, fieldKey: 'sign_date' },
  ]);
  // (Without its rule it is a line of running text.)
  assert.deepEqual(got(false), [{ type: 'text', x: 62, y: 582, w: 65, h: 14, fieldKey: undefined }]);
});

test('a short line that is all a signature’s caption (`FIRMA DEL ABONADO O TITULAR`) may stand a line and a half under its run, as a bare caption may', () => {
  const got = suggestFields(
    page({ words: [...paragraph('es', 400), ...words('………………………………………………….', 452, 667, 7.9), ...words('FIRMA DEL ABONADO O TITULAR', 449, 687, 7.9)] }),
  );
  assert.deepEqual(brief(got), [{ type: 'signature', x: 452, y: 629, w: 79, h: 40 }]);
});

test('who signs a research consent: "Signature of Child/Adolescent Subject", "of Investigator", "of Interpreter" under a line, beside "Date (MM/DD/YEAR)" under its own', () => {
  for (const who of ['Child/Adolescent Subject', 'Investigator', 'Interpreter']) {
    const found = suggestFields(
      page({
        words: [
          ...paragraph('en', 100),
          ...words('__________________', 47, 174, 11),
          ...words('____________________________________________', 164, 174, 11),
          ...words(`Date (MM/DD/YEAR)  Signature of ${who}`, 47, 188, 11),
        ],
      }),
    ).filter((s) => s.type !== 'text');
    assert.deepEqual(
      found.map((s) => [s.type, Math.round(s.x)]).sort(),
      [
        ['date', 47],
        ['signature', 164],
      ],
      who,
    );
  }
});

test('an office whose holder signs under its title, alone under a line: "Registrar", "Le Maire", "Der Schulleiter", "El Alcalde", "Il Sindaco", "Head of Department"', () => {
  const offices: Array<[Parameters<typeof paragraph>[0], string]> = [
    ['en', 'Registrar'],
    ['en', 'Head of Department'],
    ['en', 'HEADMASTER'],
    ['fr', 'Le Maire'],
    ['de', 'Der Schulleiter'],
    ['es', 'El Alcalde'],
    ['it', 'Il Sindaco'],
  ];
  for (const [lang, office] of offices) {
    const found = suggestFields(
      page({ words: [...paragraph(lang, 100), ...words('__________________________________________', 72, 600, 12), ...words(office, 72, 615)] }),
    ).filter((s) => s.type === 'signature');
    assert.deepEqual(
      found.map((s) => [Math.round(s.x), Math.round(s.y + s.height)]),
      [[72, 602]],
      office,
    );
  }
});

test('a French "Le" after a signature\'s blank on its row ("Signature : ________   Le : ________") dates the signing on its blank; not an article after another datum\'s blank', () => {
  const row = (text: string) =>
    suggestFields(page({ words: [...paragraph('fr', 100), ...words(text, 60, 600, 10)] }))
      .filter((s) => s.type !== 'text')
      .map((s) => [s.type, Math.round(s.x), Math.round(s.x + s.width)]);
  assert.deepEqual(row('Signature : ______________________________________________ Le : ___________________________________'), [
    ['signature', 111, 351],
    ['date', 373, 555],
  ]);
  // (After another datum's blank, "le" is no date's: "Nom : ____ le ____".)
  assert.deepEqual(row('Nom : ______________________________________________ Le : ___________________________________'), []);
});

test('a date drawn in parts after its caption ("Data: __/__/____", "Datum: ____-____-______", a scan\'s slashes read as rules) is one blank across them, not its first part', () => {
  const date = (segments: ReturnType<typeof h>[], verticals: ReturnType<typeof v>[] = []) =>
    brief(
      suggestFields(
        page({
          words: [...paragraph('it', 100), ...words('Data:', 60, 610, 12), ...words('Firma:', 60, 660, 12)],
          segments: [...segments, h(100, 300, 662)],
          verticals,
        }),
      ).filter((s) => s.type === 'date'),
    );
  // (Three rules with a slash drawn between each, as a scan shows them: the middle one framed by the slashes.)
  assert.deepEqual(date([h(92, 118, 612), h(121, 148, 612), h(151, 205, 612)], [v(119.5, 601, 611), v(149.5, 601, 611)]), [
    { type: 'date', x: 92, y: 592, w: 113, h: 20 },
  ]);
  // (Printed dashes between the parts: "____-____-______".)
  assert.deepEqual(date([h(92, 122, 612), h(128, 158, 612), h(164, 214, 612)]), [{ type: 'date', x: 92, y: 592, w: 122, h: 20 }]);
  // A rule of its own further along the row is not a part of it: the date stops at its last part.
  assert.deepEqual(date([h(92, 122, 612), h(128, 158, 612), h(164, 214, 612), h(260, 420, 612)]), [{ type: 'date', x: 92, y: 592, w: 122, h: 20 }]);
});

test('a date whose parts are printed on the next line piece after its caption ("DATE :   ______/______/______") is one blank across the parts', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('SIGNATURE :', 68, 280, 10),
        ...words('______________________', 128, 282, 9.4),
        ...words('DATE :', 68, 304, 10),
        ...[128, 176, 227].flatMap((x, i) => [...words('______', x, 305, 9.4), ...(i < 2 ? words('/', x + 41.5, 305, 7) : [])]),
      ],
    }),
  );
  assert.deepEqual(
    brief(found.filter((s) => s.type === 'date')).map((s) => [s.x, s.x + s.w]),
    [[128, 255]],
  );
});

test('a name asked for in a signature\'s own caption under a line ("Name in Druckbuchstaben und UNTERSCHRIFT", "Nombre y firma") is the signature\'s whole line, not split with a name field', () => {
  for (const [lang, caption] of [
    ['de', 'Name in Druckbuchstaben und UNTERSCHRIFT'],
    ['es', 'Nombre y firma del solicitante'],
    ['en', 'Print name and signature'],
  ] as const) {
    const found = suggestFields(page({ words: [...paragraph(lang, 100), ...words(caption, 330, 628, 8)], segments: [h(326, 551, 617)] }));
    assert.deepEqual(
      found
        .filter((s) => s.type !== 'text' || (s.x < 551 && s.x + s.width > 326 && s.y < 617 && s.y + s.height > 580))
        .map((s) => [s.type, Math.round(s.x), Math.round(s.x + s.width)]),
      [['signature', 326, 551]],
      caption,
    );
  }
});

test('grey boxes to fill in, each named by the small caption under it ("datum & ort", "unterschrift"), are the fields; a box with writing in it is not', () => {
  const bands = [
    { x0: 156, x1: 351, y0: 446, y1: 463 },
    { x0: 357, x1: 553, y0: 446, y1: 463 },
  ];
  const captions = [...words('datum & ort', 157, 469, 6), ...words('unterschrift (bei minderjährigen der gesetzliche vertreter)', 359, 469, 6)];
  const found = (more: Partial<Parameters<typeof page>[0]>) =>
    brief(
      suggestFields(page({ words: [...paragraph('de', 100), ...words('Unterschrift', 82, 459, 11), ...captions], bands, ...more })).filter(
        (s) => s.type !== 'text',
      ),
    );
  assert.deepEqual(found({}), [
    { type: 'date', x: 156, y: 447, w: 195, h: 16 },
    { type: 'signature', x: 357, y: 447, w: 196, h: 16 },
  ]);
  // (Written in: a heading's band, "Mitgliedschaft", is no box to fill.)
  const written = found({ words: [...paragraph('de', 100), ...words('Mitgliedschaft', 160, 458, 9), ...words('Vertreter', 360, 458, 9), ...captions] });
  assert.ok(!written.some((s) => s.y >= 440 && s.y + s.h <= 464), JSON.stringify(written));
});

test('a date\'s blank on a row another date\'s caption opens ("Geburtstag [____]" with "datum" under it) is that date\'s, not the signing date, however close a signature is', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('de', 100), ...words('Geburtstag', 87, 366, 11), ...words('datum', 157, 376, 6), ...words('Unterschrift', 359, 470, 6)],
      segments: [h(156, 351, 369.7), h(357, 553, 463)],
    }),
  );
  assert.deepEqual(types(found.filter((s) => s.type !== 'text')), ['signature']);
});

test('a signature caption heading a table cell that holds a run of underscores ("Firma del Estudiante" over "F: ______") signs on the run, not across the whole cell', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('es', 100),
        ...words('Firma del Estudiante', 68, 662, 6),
        ...words('F:', 68, 690, 6),
        ...words('__________________________________', 76, 690, 6),
      ],
      segments: [h(63, 320, 640), h(63, 320, 656), h(63, 320, 663), h(63, 320, 698)],
      verticals: [v(62.6, 640, 656), v(62.6, 663.5, 698), v(320, 640, 656), v(320, 663.5, 698)],
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    found.map((s) => [Math.round(s.x), Math.round(s.x + s.width), Math.round(s.y + s.height)]),
    [[76, 178, 691]],
  );
});

test('"Signature of Applicant" with room over it and another caption further down ("Name of Applicant" under its own room) signs over its caption', () => {
  const found = suggestFields(
    page({ words: [...paragraph('en', 200), ...words('Signature of Applicant', 396, 332, 10), ...words('Name of Applicant', 407, 380, 10)] }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(brief(found), [{ type: 'signature', x: 396, y: 282, w: 180, h: 40 }]);
});

test('several signers\' captions along the foot of one tall cell ("Authorized signatory of Trust/Society/Company", "Manager/ Authorised Signatory") each sign over their own, from its start to the next', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Authorized signatory of Trust/Society/Company', 150, 720, 8),
        ...words('Manager/ Authorised Signatory', 385, 720, 8),
      ],
      boxes: [
        { x0: 36, x1: 559, y0: 654, y1: 674 },
        { x0: 36, x1: 559, y0: 674, y1: 724 },
        { x0: 36, x1: 559, y0: 724, y1: 764 },
      ],
    }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, Math.round(s.x), Math.round(s.x + s.width)]),
    [
      ['signature', 151, 329],
      ['signature', 386, 558],
    ],
  );
});

test("a bare \"Date:\" beside a signature already inked (an image of a signature's size over the signer's name) is the signing date still to write; not beside a letterhead's logo", () => {
  const dates = (image: { x0: number; x1: number; y0: number; y1: number }, y: number) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 420),
          ...words('For Scape Technologies A/S', 72, y - 20, 12),
          ...words('Date:', 72, y, 12),
          ...words('Carl Johan Danbjorg', 72, y + 60, 12),
        ],
        images: [image],
      }),
    ).filter((s) => s.type === 'date');
  assert.deepEqual(
    brief(dates({ x0: 89, x1: 201, y0: 272, y1: 317 }, 265)).map((s) => [s.x, s.y + s.h]),
    [[108, 269]],
  );
  // (A logo at the top of the page is no signature: "Date:" in a letterhead is no signing date.)
  assert.deepEqual(dates({ x0: 400, x1: 540, y0: 40, y1: 100 }, 80), []);
});

test('a place, the date\'s own word and a blank over a signature ("Jendouba le ……", "Stralsund, den ……", "Roma, lì ____") date the signing', () => {
  for (const [lang, row] of [
    ['fr', 'Jendouba le …………………………'],
    ['de', 'Stralsund, den ……………………………'],
    ['it', 'Roma, lì ______________________'],
  ] as const) {
    const found = suggestFields(page({ words: [...paragraph(lang, 100), ...words(row, 335, 580, 10), ...words('Signature', 373, 628, 10)] }));
    assert.deepEqual(types(found.filter((s) => s.type !== 'text')), ['date', 'signature'], row);
  }
  // (A place and a blank without the date's word or a comma is no date: "Jendouba ……".)
  const bare = suggestFields(page({ words: [...paragraph('fr', 100), ...words('Jendouba …………………………', 335, 580, 10), ...words('Signature', 373, 628, 10)] }));
  assert.deepEqual(types(bare.filter((s) => s.type !== 'text')), ['signature']);
});

test('a caption under its own short line while it stands on a rule across the page ("Parent\'s Sign.", "Signature") signs on the line over it, not on the rest of the rule', () => {
  for (const caption of ["Parent's Sign.", 'Signature']) {
    const found = suggestFields(
      page({
        words: [...paragraph('en', 100), ...words(caption, 93, 388, 11), ...words('REMARK', 210, 414, 11)],
        segments: [h(77, 172, 377), h(44, 569, 393.5)],
      }),
    ).filter((s) => s.type === 'signature');
    assert.deepEqual(
      found.map((s) => [Math.round(s.x), Math.round(s.x + s.width), Math.round(s.y + s.height)]),
      [[77, 172, 377]],
      caption,
    );
  }
});

test('a party named right under a line its row signs on ("Coordinador(a)" under one of four lines under "FIRMAS INSTITUCIÓN") gets no room of its own under its name', () => {
  const found = suggestFields(
    page({
      width: 612,
      height: 1008,
      words: [
        ...paragraph('es', 600),
        ...words('FIRMAS INSTITUCIÓN', 252, 785, 10),
        ...[34, 168, 304, 440].flatMap((x) => words('__________________________', x, 840, 9)),
        ...words('Padre de familia/acudiente', 34, 851, 9),
        ...words('Coordinador(a)', 198, 851, 9),
        ...words('Psicólogo(a)', 335, 851, 9),
        ...words('Rector', 489, 851, 9),
      ],
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    found.map((s) => [Math.round(s.x), Math.round(s.y + s.height)]),
    [
      [34, 842],
      [168, 842],
      [304, 842],
      [440, 842],
    ],
  );
});

test('a small caption in parentheses two of its lines under its line ("(Handtekening 2e verzoeker)" in 8 pt, 16 pt under) signs on that line', () => {
  const found = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('(Handtekening 2e verzoeker)', 369, 505, 8)], segments: [h(368.5, 561.3, 481.5)] }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    found.map((s) => [Math.round(s.x), Math.round(s.x + s.width), Math.round(s.y + s.height)]),
    [[369, 561, 482]],
  );
});

test('Dutch names who signs: "Vertegenwoordiger club" beside "Naam lid of ouder/voogd + handtekening" signs in its own room under it', () => {
  const found = suggestFields(
    page({
      words: [
        ...words('Door ondertekening verklaart het lid kennis te hebben genomen van de statuten', 72, 560, 11),
        ...words('Naam lid of ouder/voogd + handtekening', 72, 624, 11),
        ...words('Vertegenwoordiger club', 396, 624, 11),
      ],
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    found.map((s) => Math.round(s.x)),
    [72, 396],
  );
});

test('a co-signer\'s caption on a signature caption\'s row that opens a rule signs on that rule ("Handtekening: ____   Partner: ____")', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Handtekening', 72, 595, 12),
        ...words(':', 152, 595, 8),
        ...words('Partner', 320, 595, 12),
        ...words(':', 364, 595, 8),
      ],
      segments: [h(178, 301, 596.4), h(391, 515, 596.4)],
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    found.map((s) => [Math.round(s.x), Math.round(s.x + s.width), Math.round(s.y + s.height)]),
    [
      [178, 301, 596],
      [391, 515, 596],
    ],
  );
});

test('a handwritten mention alone over white space ("Mention « Lu et approuvé »"), no signature caption on the page, is where one signs: the room under it; not beside another signature caption', () => {
  const signatures = (more: Word[]) =>
    brief(
      suggestFields(
        page({
          words: [...paragraph('fr', 100), ...words('signaler tout retrait de permis qui ne permettrait plus de conduire le minibus.', 72, 455), ...more],
        }),
      ),
    ).filter((s) => s.type === 'signature');
  const mention = [...words('Date', 72, 498), ...words('Mention « Lu et approuvé »', 72, 542)];
  assert.deepEqual(
    signatures(mention).map((s) => [s.x, s.y, s.h]),
    [[72, 548, 40]],
  );
  // With a signature caption of its own, the mention is only what the signer writes there.
  const captioned = signatures([...mention, ...words('Signature :', 300, 542)]);
  assert.equal(captioned.length, 1, JSON.stringify(captioned));
  assert.equal(captioned[0]?.x !== 72, true, JSON.stringify(captioned));
});

test('a place and "den" before a run with a signature caption right under the run ("Frankfurt am Main, den ……" over "Unterschrift") is where one signs, not a date', () => {
  const found = brief(
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100),
          ...words('Frankfurt am Main, den', 72, 254, 12),
          ...words('….................................................', 225, 254, 12),
          ...words('Unterschrift', 360, 268, 12),
        ],
      }),
    ),
  );
  assert.deepEqual(
    found.map((s) => [s.type, s.x, s.y + s.h]),
    [['signature', 225, 256]],
  );
});

test('a numbered section\'s title is a heading, no caption: "6. DECLARAÇÃO E ASSINATURA" over its rule, "Article 59 — Signature"; "Timbro dell\'Ente e Firma" unnumbered stays a caption', () => {
  const signatures = (lang: Parameters<typeof paragraph>[0], title: string) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph(lang, 100),
            ...words(title, 46, 590),
            ...words('Declaro aceitar os Estatutos e o Regulamento Interno da associação.', 50, 606, 8.5),
          ],
          segments: [h(36, 559, 596)],
        }),
      ),
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(signatures('es', '6. DECLARAÇÃO E ASSINATURA'), []);
  assert.deepEqual(signatures('fr', 'Article 59 — Signature'), []);
  assert.equal(signatures('it', "Timbro dell'Ente e Firma").length, 1);
});

test('a signature caption without a colon, alone at the start of its row, with no room over or under it, signs in a whole room after it ("Signature of Student")', () => {
  const found = (caption: string, more: Word[] = []) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words('Confirmed at the place and on the date written above by the deponent', 72, 612),
            ...more,
            ...words(caption, 72, 664),
            ...words('Sworn before me on the date written above, the contents having been read over to the deponent.', 72, 700),
            ...words('Notary.', 72, 714),
          ],
        }),
      ),
    ).filter((s) => s.type === 'signature');
  const [place, ...more] = found('Signature of Student');
  assert.equal(more.length, 0, JSON.stringify(more));
  assert.ok(place && place.x > 150 && place.x < 190 && place.y + place.h >= 664 && place.y + place.h <= 670 && place.w >= 179, JSON.stringify(place));
  // Not where a row of text stands over the room, leaving it less than three quarters of a signature's height.
  assert.equal(found('Signature of Student', [...words('Place of the affidavit', 200, 640)]).filter((s) => s.y + s.h >= 650 && s.y + s.h <= 670).length, 0);
});

test('a signature caption with its colon after a blank on its own row, the place and date before it ("Fait à …, le ……   Signatures des parents :"), signs under itself', () => {
  const signatures = brief(
    suggestFields(
      page({
        words: [
          ...paragraph('fr', 100),
          ...words('Nous autorisons les photos de notre enfant pendant les activités et leur usage dans le journal', 21, 584),
          ...words('du club pour cette année.', 21, 600),
          ...words('Fait à Lyon-sur-Saône, le', 21, 622),
          ...words('……………………………………', 166, 622),
          ...words('Signatures des parents :', 325, 622),
          ...words('Ce formulaire est à rendre au secrétariat avant la fin du mois de septembre.', 21, 700),
        ],
      }),
    ),
  ).filter((s) => s.type === 'signature');
  assert.equal(signatures.length, 1, JSON.stringify(signatures));
  assert.ok((signatures[0]?.y ?? 0) > 622 && Math.abs((signatures[0]?.x ?? 0) - 325) <= 2, JSON.stringify(signatures));
});

test('two underscores are a blank too: the day of a letter\'s place-and-date formula ("Ciudad de Zacatecas, Zac., a __ de ____ de 201__.")', () => {
  const dates = brief(
    suggestFields(
      page({
        words: [
          ...words('Ciudad de Zacatecas, Zac., a', 250, 100),
          ...words('__', 401, 100),
          ...words('de', 415, 100),
          ...words('_________________', 428, 100),
          ...words('de 201__.', 519, 100),
          ...paragraph('es', 130),
          ...words('__________________________________', 36, 616),
          ...words('Alumno', 120, 630),
        ],
      }),
    ),
  ).filter((s) => s.type === 'date');
  assert.equal(dates.length, 1, JSON.stringify(dates));
  assert.ok(Math.abs((dates[0]?.x ?? 0) - 401) <= 1 && (dates[0]?.x ?? 0) + (dates[0]?.w ?? 0) >= 510, JSON.stringify(dates));
});

test('a run shared by a signature caption and a short "Date" under its end that reaches past it: the end of the run is the date', () => {
  const found = brief(
    suggestFields(
      page({
        words: [...paragraph('en', 600), ...words('_'.repeat(47), 36, 677), ...words('Signature of Parent', 36, 690), ...words('Date', 257, 690)],
      }),
    ),
  );
  const date = found.find((s) => s.type === 'date');
  assert.ok(date && date.x >= 200 && date.x + date.w <= 272 && found.some((s) => s.type === 'signature' && s.x === 36), JSON.stringify(found));
});

test('a co-signer\'s caption with a remark in parentheses after it ("Il genitore o tutore (in caso di minore)") on a signature caption\'s row signs in the same band', () => {
  const signatures = brief(
    suggestFields(
      page({
        words: [
          ...paragraph('it', 600),
          ...words('(firma dell’interessato)', 57, 693),
          ...words('Il genitore o tutore (per i minori)', 300, 693),
          ...words('_'.repeat(35), 57, 711),
          ...words('_'.repeat(39), 300, 711),
        ],
      }),
    ),
  ).filter((s) => s.type === 'signature');
  assert.equal(signatures.length, 2, JSON.stringify(signatures));
  assert.ok(signatures.some((s) => s.x === 300) && signatures.every((s) => Math.abs(s.y + s.h - 711) <= 3), JSON.stringify(signatures));
});

test('a line right under a signature caption is its blank, rather than a line a tab away along its row ("Assinatura do Associado (1)" over its dashes)', () => {
  const signatures = brief(
    suggestFields(
      page({
        words: [...paragraph('en', 500), ...words('Data da Inscrição: ____ / ____ / ____', 66, 571), ...words('Assinatura do Associado (1)', 78, 596, 8)],
        segments: [h(67, 208, 623), h(402, 456, 594)],
      }),
    ),
  ).filter((s) => s.type === 'signature');
  assert.equal(signatures.length, 1, JSON.stringify(signatures));
  assert.ok(signatures[0]?.x === 67 && (signatures[0]?.y ?? 0) + (signatures[0]?.h ?? 0) === 623, JSON.stringify(signatures));
});

test('a line right over a signature caption is its blank, rather than a run a tab away along its row in the next column ("____" over "Signature of Guardian   ______")', () => {
  const signatures = (over: boolean) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 400),
            ...words('AGREED:', 72, 508),
            ...(over ? words('________________________', 72, 538) : []),
            ...words('Signature of Guardian', 72, 553),
            ...words('Address: ______________________', 324, 538),
            ...words('_______________________', 360, 553),
          ],
        }),
      ),
    ).filter((s) => s.type === 'signature');
  const lined = signatures(true);
  assert.equal(lined.length, 1, JSON.stringify(lined));
  assert.ok(lined[0]?.x === 72 && Math.abs((lined[0]?.y ?? 0) + (lined[0]?.h ?? 0) - 540) <= 2, JSON.stringify(lined));
  // (With no line over it, the run a tab away is its blank.)
  const tab = signatures(false);
  assert.ok(tab.length === 1 && tab[0]?.x === 360, JSON.stringify(tab));
});

test('words across a blank from a caption are another field\'s caption, not running text around it ("Fait à …, le ……  Signatures des parents:" on one line)', () => {
  const signatures = brief(
    suggestFields(
      page({
        words: [
          ...paragraph('fr', 100),
          ...words('Nous autorisons les photos de notre enfant pendant les activités et leur usage dans le journal', 21, 172),
          ...words('du club pour cette année.', 21, 188),
          ...words('Fait à Villeneuve-la-Rivière, le', 21, 210),
          ...words('…'.repeat(20), 184, 210),
          ...words('Signatures des parents:', 290, 210),
          ...words('Ce formulaire est à rendre au secrétariat avant la fin du mois de septembre.', 21, 254),
        ],
      }),
    ),
  ).filter((s) => s.type === 'signature');
  assert.equal(signatures.length, 1, JSON.stringify(signatures));
  assert.ok(Math.abs((signatures[0]?.x ?? 0) - 290) <= 2 && (signatures[0]?.y ?? 0) > 210 && (signatures[0]?.h ?? 0) >= 24, JSON.stringify(signatures));
});

test('an instruction to write the mention and sign ("(Ajouter la mention « Bon pour pouvoir » & signer)"), no signature caption on the page: the room under its whole line', () => {
  const signatures = brief(
    suggestFields(
      page({
        words: [
          ...paragraph('fr', 600),
          ...words(`Fait à ${'.'.repeat(30)}, le ${'.'.repeat(30)}`, 65, 733),
          ...words('(Écrire la mention « Bon pour pouvoir » et signer)', 65, 754),
        ],
      }),
    ),
  ).filter((s) => s.type === 'signature');
  assert.equal(signatures.length, 1, JSON.stringify(signatures));
  assert.ok(signatures[0]?.x === 65 && (signatures[0]?.y ?? 0) > 754, JSON.stringify(signatures));
});

test('a date of bare blanks with its century printed, alone on its row ("____ __ ____, 20__") right over the signers\' lines, is the signing date; not with no place to sign near', () => {
  const row = { words: [...words(',', 228, 491), ...words('20', 233, 491)], segments: [h(75, 144, 491), h(158, 228, 491), h(247, 272, 491)] };
  const signers = {
    words: [...words('Husband Signature over Printed Name', 72, 557), ...words('Wife Signature over Printed Name', 385, 557)],
    segments: [h(72, 283, 545), h(360, 565, 545)],
  };
  const dates = (parts: Array<{ words: Word[]; segments: ReturnType<typeof h>[] }>) =>
    brief(suggestFields(page({ words: [...paragraph('en', 400), ...parts.flatMap((p) => p.words)], segments: parts.flatMap((p) => p.segments) }))).filter(
      (s) => s.type === 'date',
    );
  const found = dates([row, signers]);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.ok(found[0]?.x === 75 && (found[0]?.x ?? 0) + (found[0]?.w ?? 0) === 272, JSON.stringify(found));
  assert.equal(dates([row]).length, 0);
});

test('"SIGNATURES" alone over an empty part of the page is where one signs, under it at its left; over its signers\' rows it heads them', () => {
  const sign = (under: Word[]) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('fr', 100),
            ...words('Ce règlement entre en vigueur à la date de sa signature par les membres.', 57, 585, 10),
            ...words('SIGNATURES', 57, 634, 11),
            ...under,
          ],
        }),
      ).filter((s) => s.type === 'signature'),
    ).map((s) => [s.x, s.y]);
  const alone = sign([]);
  assert.equal(alone.length, 1, JSON.stringify(alone));
  const [x, y] = alone[0] as [number, number];
  assert.ok(Math.abs(x - 57) <= 2 && y >= 634 && y <= 640, JSON.stringify(alone));
  // (Over rows of its own, "Le Président : ____", the rows are the places; the heading takes none.)
  const rows = sign([...words('Le Président : ______________________', 57, 670, 10), ...words('Le Trésorier : ______________________', 57, 720, 10)]);
  assert.ok(
    rows.every(([, y]) => (y as number) > 640),
    JSON.stringify(rows),
  );
});

test('"Signature of …" between an answer over it and the next section under it signs in the larger room: under it when more room is left there, over it when nothing bounds the room under it', () => {
  const sig = (underAt: number | undefined) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words('3. What did the placement teach you?', 49, 470),
            ...words('(answer in a few lines)', 49, 484),
            ...words('Signature of the Trainee', 49, 545),
            ...(underAt === undefined ? [] : words('4. Assessment by the Department Head', 49, underAt)),
          ],
        }),
      ),
    ).filter((s) => s.type === 'signature');
  const under = sig(640);
  assert.equal(under.length, 1, JSON.stringify(under));
  assert.ok((under[0] as { y: number }).y >= 545, `under the caption: ${JSON.stringify(under)}`);
  const over = sig(undefined);
  assert.equal(over.length, 1, JSON.stringify(over));
  assert.ok((over[0] as { y: number }).y < 535, `over the caption: ${JSON.stringify(over)}`);
});

test('an approval opening its line with a blank after it ("De acordo: ____", "Conforme: ____", "Gelesen und einverstanden: ____") asks for a signature on the blank; in a sentence or with no blank, none', () => {
  const found = (lang: 'pt' | 'es' | 'de', text: string) => types(suggestFields(page({ words: [...paragraph(lang, 100), ...words(text, 60, 500)] })));
  for (const [lang, caption] of [
    ['pt', 'De acordo:'],
    ['pt', 'Ciente:'],
    ['es', 'Conforme:'],
    ['es', 'Recibí conforme:'],
    ['de', 'Gelesen und einverstanden:'],
  ] as const)
    assert.deepEqual(found(lang, `${caption} ${'_'.repeat(30)}`), ['signature'], caption);
  assert.deepEqual(found('pt', `De acordo com a cláusula ${'_'.repeat(10)} do contrato`), []);
  assert.deepEqual(found('es', `El arrendatario se declara conforme con ${'_'.repeat(20)}`), []);
  assert.deepEqual(found('de', 'Einverstanden'), []);
});

test('a Portuguese or Spanish page\'s initials caption ("Rubrica do aluno") with room over it at the foot of the page: the initials over it; in a sentence, none', () => {
  const foot = (text: string) =>
    suggestFields(page({ words: [...paragraph('pt', 100), ...words('Rubrica do aluno', 91, 706), ...words(text, 258, 706), ...words('1/2', 379, 717, 8)] }));
  assert.deepEqual(
    brief(foot('Rubrica do professor')).map((s) => [s.type, s.x, s.y + s.h]),
    [
      ['initials', 91, 696],
      ['initials', 258, 696],
    ],
  );
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('pt', 100), ...words('A rubrica do participante em todas as páginas', 60, 500)] }))), []);
});

test('a place and its comma set apart from their date on the row, a tab between ("São Paulo,      ____ de ____ de ____", "Berlin,      den ____", "Fait à Lyon,      le ____"): the date on its blanks; a comma before other words, none', () => {
  const dateOf = (lang: 'pt' | 'de' | 'fr', place: string, rest: string) => {
    const first = words(place, 60, 500);
    const x = Math.max(...first.map((w) => w.box.x1)) + 60;
    const found = suggestFields(page({ words: [...paragraph(lang, 100), ...first, ...words(rest, x, 500)] })).filter((s) => s.type === 'date');
    return { x, found: brief(found).map((s) => [s.x >= x, s.x + s.w > x + 40]) };
  };
  for (const [lang, place, rest] of [
    ['pt', 'São Paulo,', '____ de ______________ de ______.'],
    ['de', 'Berlin,', 'den ______________'],
    ['fr', 'Fait à Lyon,', 'le ______________'],
  ] as const)
    assert.deepEqual(dateOf(lang, place, rest).found, [[true, true]], place);
  assert.deepEqual(dateOf('de', 'Name, Vorname,', '______________').found, []);
});

test('a formula typed with tabs, each piece its own line on the row ("En   ______   a   ____   de   ______   de 20__", "Fait à   ______   le   ______", "Berlin,   den   ____", "Le   ___/___/____"): read as one, the date on its blanks', () => {
  const spaced = (lang: 'es' | 'fr' | 'de', parts: string[]) => {
    let x = 60;
    const ws = parts.flatMap((p) => {
      const w = words(p, x, 500);
      x = Math.max(...w.map((q) => q.box.x1)) + 30;
      return w;
    });
    return brief(suggestFields(page({ words: [...paragraph(lang, 100), ...ws] }))).filter((s) => s.type === 'date').length;
  };
  assert.equal(spaced('es', ['En', '______________', 'a', '____', 'de', '____________', 'de 20____']), 1);
  assert.equal(spaced('fr', ['Fait à', '______________', 'le', '______________']), 1);
  assert.equal(spaced('de', ['Berlin,', 'den', '______________']), 1);
  assert.equal(spaced('fr', ['Le', '____/____/______']), 1);
  // (Pieces of a row that make no formula: none.)
  assert.equal(spaced('es', ['Nombre', '______________', 'Curso', '____________']), 0);
});

test('a place and its comma over their date on the next line ("São Paulo," over "____ de ____ de ____", "Fait à Lyon," over "le ____"): the date on the next line\'s blanks; a name\'s comma over a blank, none', () => {
  const dateOf = (lang: 'pt' | 'fr' | 'de', first: string, second: string) =>
    brief(suggestFields(page({ words: [...paragraph(lang, 100), ...words(first, 60, 500), ...words(second, 60, 514)] })))
      .filter((s) => s.type === 'date')
      .map((s) => s.y + s.h >= 510 && s.y + s.h <= 520);
  assert.deepEqual(dateOf('pt', 'São Paulo,', '____ de ______________ de ______.'), [true]);
  assert.deepEqual(dateOf('fr', 'Fait à Lyon,', 'le ______________'), [true]);
  assert.deepEqual(dateOf('fr', 'Fait à ______________,', 'le ______________'), [true]);
  assert.deepEqual(dateOf('de', 'Müller, Hans,', '______________'), []);
});

test('a date caption with its format printed where the date is written ("Date: MM/DD/YYYY", "Datum: TT.MM.JJJJ", "Date : jj / mm / aaaa"): the date over the format; a format alone in a sentence, none', () => {
  const dateOf = (lang: 'en' | 'de' | 'fr', text: string) =>
    brief(suggestFields(page({ words: [...paragraph(lang, 100), ...words(`Signature: ${'_'.repeat(30)}`, 60, 470), ...words(text, 60, 500)] })))
      .filter((s) => s.type === 'date')
      .map((s) => s.x < 110 && s.x + s.w > 150);
  assert.deepEqual(dateOf('en', 'Date: MM/DD/YYYY'), [true]);
  assert.deepEqual(dateOf('de', 'Datum: TT.MM.JJJJ'), [true]);
  assert.deepEqual(dateOf('fr', 'Date : jj / mm / aaaa'), [true]);
  assert.deepEqual(dateOf('en', 'Dates are written as MM/DD/YYYY in this form'), []);
});

test('a caption followed by an arrow pointing on along its row ("Signature ▶   Date ▶" in a ruled row) asks for the room after the arrow, in its row, not the line over it', () => {
  const row = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature ▶', 80, 496, 8), ...words('Date ▶', 380, 496, 8)],
      segments: [h(36, 560, 480), h(36, 560, 510)],
    }),
  );
  assert.deepEqual(
    brief(row).map((s) => [s.type, s.x > 100, s.y >= 480, s.y + s.h <= 511]),
    [
      ['signature', true, true, true],
      ['date', true, true, true],
    ],
  );
});

test('a date caption without its colon on the left of a row whose signature caption signs over it ("Ort, Datum      Unterschrift" under white space): the date over its caption too, whichever caption comes first', () => {
  const row = (first: string, second: string) =>
    brief(suggestFields(page({ words: [...paragraph('de', 100), ...words(first, 100, 540, 9), ...words(second, 350, 540, 9)] }))).map((s) => [
      s.type,
      s.x < 300 ? 'left' : 'right',
      s.y + s.h <= 533 ? 'over' : 'under',
    ]);
  assert.deepEqual(row('Ort, Datum', 'Unterschrift'), [
    ['signature', 'right', 'over'],
    ['date', 'left', 'over'],
  ]);
  assert.deepEqual(row('Unterschrift', 'Ort, Datum'), [
    ['signature', 'left', 'over'],
    ['date', 'right', 'over'],
  ]);
});

test('French signature captions naming whose signature over white space ("Signature de l’élève      Signature des parents") both sign under themselves; English ones ("Signature of the pupil      Signature of the parents") both over', () => {
  const sides = (lang: 'fr' | 'en', left: string, right: string) =>
    brief(suggestFields(page({ words: [...paragraph(lang, 100), ...words(left, 80, 500, 10), ...words(right, 350, 500, 10)] })))
      .filter((s) => s.type === 'signature')
      .map((s) => (s.y >= 500 ? 'under' : 'over'));
  assert.deepEqual(sides('fr', 'Signature de l’élève', 'Signature des parents'), ['under', 'under']);
  assert.deepEqual(sides('fr', 'Signature du tuteur', 'Signature de l’élève'), ['under', 'under']);
  assert.deepEqual(sides('en', 'Signature of the pupil', 'Signature of the parents'), ['over', 'over']);
});

test('a date written as ellipses for its parts ("Date : …/…/……", "Date : … / … / ……") is dated on them; one ellipsis alone is no date\'s blank, the room beside it is', () => {
  const dateOf = (text: string) =>
    brief(suggestFields(page({ words: [...paragraph('fr', 100), ...words(text, 50, 500, 10), ...words('Signature :', 300, 500, 10)] })))
      .filter((s) => s.type === 'date')
      .map((s) => [s.x >= 80 && s.x <= 90, s.w < 60]);
  assert.deepEqual(dateOf('Date : …/…/……'), [[true, true]]);
  assert.deepEqual(dateOf('Date : … / … / ……'), [[true, true]]);
  assert.deepEqual(dateOf('Date : …'), [[true, false]]);
});

test('a date\'s line drawn in parts with its separators printed between them, over its caption ("___ / ___ / _____" over "Date"): the date across the parts; lines side by side without separators stay apart', () => {
  const dateOver = (separators: boolean) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words('Signature', 50, 512, 8),
            ...words('Date', 350, 512, 8),
            ...(separators ? [...words('/', 385, 499, 10), ...words('/', 420, 499, 10)] : []),
          ],
          segments: [h(50, 250, 500), h(350, 380, 500), h(390, 415, 500), h(425, 480, 500)],
        }),
      ),
    )
      .filter((s) => s.type === 'date')
      .map((s) => [s.x, s.x + s.w]);
  assert.deepEqual(dateOver(true), [[350, 480]]);
  assert.deepEqual(dateOver(false), [[350, 380]]);
});

test("a coach, a mentor, an intern, a broker, an estate's executor, trustee or beneficiary, a French doctor, an Italian head teacher, alone under a line, sign on it", () => {
  const signs = (lang: 'en' | 'fr' | 'it', caption: string) =>
    suggestFields(page({ words: [...paragraph(lang, 100), ...words(caption, 80, 512, 9)], segments: [h(60, 260, 500)] })).some(
      (s) => s.type === 'signature' && s.y < 500,
    );
  for (const caption of ['Coach', 'Mentor', 'Intern', 'Broker', 'Executor', 'Trustee', 'Beneficiary']) assert.equal(signs('en', caption), true, caption);
  assert.equal(signs('fr', 'Le médecin'), true);
  assert.equal(signs('it', 'Il dirigente'), true);
});

test('a place-and-date formula whose place is a blank and whose date is the room after its lead ("________, den", nothing after it): the date in that room', () => {
  const dates = (text: string) =>
    brief(suggestFields(page({ words: [...paragraph('de', 100), ...words(text, 50, 500, 10), ...words('Unterschrift:', 300, 540, 10)] })))
      .filter((s) => s.type === 'date')
      .map((s) => [s.x, s.w]);
  // (Right after "den", a date's width.)
  assert.deepEqual(dates('______________, den'), [[147, 100]]);
  assert.deepEqual(dates('Berlin, den'), [[107, 100]]);
});

test('a caption after a slash opening its line, its translation before it in words paraph does not read ("अभिभावक के हस्ताक्षर / Signature of Parents", "abc def ghi / Signature"), under a line: signed on that line', () => {
  const signs = (caption: string) =>
    suggestFields(page({ words: [...paragraph('en', 100), ...words(caption, 377, 600, 10)], segments: [h(384, 553, 589)] })).map((s) => [
      s.type,
      Math.round(s.x),
      Math.round(s.y + s.height),
    ]);
  assert.deepEqual(signs('अभिभावक के हस्ताक्षर / Signature of Parents'), [['signature', 384, 589]]);
  assert.deepEqual(signs('abc def ghi / Signature'), [['signature', 384, 589]]);
  // (Not words of a sentence before it without the slash.)
  assert.deepEqual(signs('abc def ghi Signature'), []);
});

test('a Spanish or Portuguese date formula after the place\'s blank right after "En" / "Em" ("En ______, a los ___ días del mes de ______ de ____"): the date across its parts', () => {
  const dates = (lang: 'es' | 'pt', text: string, signature: string) =>
    brief(suggestFields(page({ words: [...paragraph(lang, 100), ...words(text, 50, 500, 10), ...words(signature, 300, 560, 10)] })))
      .filter((s) => s.type === 'date')
      .map((s) => [s.x, s.x + s.w]);
  assert.deepEqual(dates('es', 'En ____________, a los ____ días del mes de ____________ de ____', 'Firma: ____________'), [[162, 370]]);
  assert.deepEqual(dates('pt', 'Em ____________, aos ____ dias do mês de ____________ de ____', 'Assinatura: ____________'), [[157, 355]]);
  // (Not without the place: what leads to a date in parts says it is the signing date.)
  assert.deepEqual(dates('es', 'Durante ____ días del mes de ____________ de ____', 'Firma: ____________'), []);
});

test('a place-and-date lead with the date\'s parts named between their blanks ("addì ___ mese ______ anno ____"): the date across the parts, as across parts set apart by slashes', () => {
  const dates = (lang: 'it', text: string) =>
    brief(suggestFields(page({ words: [...paragraph(lang, 100), ...words(text, 50, 500, 10), ...words('Firma: ____________', 300, 560, 10)] })))
      .filter((s) => s.type === 'date')
      .map((s) => [s.x, s.x + s.w]);
  assert.deepEqual(dates('it', 'Addì ____ mese ____________ anno ____'), [[75, 235]]);
  assert.deepEqual(dates('it', 'Addì ____ / ____ / ________'), [[77, 185]]);
});

test('a date caption after a place word ("Ciudad y fecha:", "Cidade e data:", "Località e data:", "City and date:", "Place/Date:") asks for the signing date, as "Lugar y fecha:" does; after other words of a sentence, it does not', () => {
  const dated = (lang: 'es' | 'pt' | 'it' | 'en', caption: string, signature: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph(lang, 100),
          ...words(`${caption} ______________________`, 50, 500, 10),
          ...words(`${signature} ______________________`, 50, 540, 10),
        ],
      }),
    ).some((s) => s.type === 'date');
  assert.equal(dated('es', 'Ciudad y fecha:', 'Firma:'), true);
  assert.equal(dated('pt', 'Cidade e data:', 'Assinatura:'), true);
  assert.equal(dated('it', 'Località e data:', 'Firma:'), true);
  assert.equal(dated('en', 'City and date:', 'Signature:'), true);
  assert.equal(dated('en', 'Place/Date:', 'Signature:'), true);
  assert.equal(dated('en', 'Payment due date:', 'Signature:'), false);
});

test('"Unterschriftsdatum:" (the date of signing, one German word) asks for the signing date', () => {
  const out = suggestFields(
    page({
      words: [...paragraph('de', 100), ...words('Unterschriftsdatum: ______________', 50, 500, 10), ...words('Unterschrift: ______________', 50, 540, 10)],
    }),
  );
  assert.deepEqual(types(out), ['date', 'signature']);
});

test('a person\'s name and office after its comma right under a line to sign ("John Smith, President" under "____"): one place, on the line, none under the name', () => {
  const places = () =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words('The parties have signed this agreement on the day written below.', 50, 440, 10),
            ...words('_'.repeat(30), 50, 498, 10),
            ...words('John Smith, President', 50, 512, 9),
          ],
        }),
      ),
    ).map((s) => [s.type, s.y + s.h <= 503 ? 'over' : 'under']);
  assert.deepEqual(places(), [['signature', 'over']]);
});

test('a page that names who signs ("The undersigned …", "Je soussigné …", "Il sottoscritto …") speaks of signing: a line with a name typed under it is a place to sign there', () => {
  const signs = (sentence: string) =>
    types(suggestFields(page({ words: [...words(sentence, 50, 440, 10), ...words('_'.repeat(30), 50, 498, 10), ...words('Jane Roe', 50, 512, 9)] })));
  assert.deepEqual(signs('The undersigned confirms the order placed with the shop.'), ['signature']);
  assert.deepEqual(signs('Je soussigné confirme la commande passée au magasin.'), ['signature']);
  assert.deepEqual(signs('Il sottoscritto conferma l’ordine fatto al negozio.'), ['signature']);
  assert.deepEqual(signs('The customer confirms the order placed with the shop.'), []);
});

test('a sentence closing on its place after "en", then "a" and the date in blanks ("Y para que conste, firmo la presente en Madrid, a ____ de ____ de 20__"), dates the signing there; the line under it is signed', () => {
  const found = (text: string) => brief(suggestFields(page({ words: [...paragraph('es', 340), ...words(text, 50, 440, 9)], segments: [h(180, 420, 520)] })));
  const [date, signature] = found('Y para que conste, firmo la presente en Madrid, a ____ de __________ de 20___.');
  assert.equal(date?.type, 'date');
  assert.ok(date && date.x > 250 && date.y >= 420 && date.y <= 424, JSON.stringify(date));
  assert.deepEqual(signature && { type: signature.type, y: signature.y }, { type: 'signature', y: 480 });
  // (A reference's blanks in running text are no date: "según el acta n. ____ de ____ de la junta".)
  assert.deepEqual(
    found('Según consta en el acta número ____ de ________ de la junta directiva.').filter((s) => s.type === 'date'),
    [],
  );
});

test('a letter closing at the left ("Distinti saluti.", "Yours sincerely,") with the signer\'s name at the right under it is signed in the room over the name', () => {
  const found = (language: 'it' | 'en', closing: string) =>
    brief(suggestFields(page({ words: [...paragraph(language, 340), ...words(closing, 72, 460), ...words('Mario Rossi', 400, 540)] }))).filter(
      (s) => s.type === 'signature',
    );
  for (const [language, closing] of [
    ['it', 'Distinti saluti.'],
    ['en', 'Yours sincerely,'],
  ] as const) {
    const [room] = found(language, closing);
    assert.ok(room && room.x === 400 && room.y + room.h <= 531 && room.y + room.h >= 525, `${closing}: ${JSON.stringify(room)}`);
  }
});

test('"Fdo.:" and who signs after it ("Fdo.: Juan García López", "Fdo.: El Secretario", "Fdo.: D./Dª ____") is printed under the signature: the room over it', () => {
  const found = (text: string, segments: ReturnType<typeof h>[] = []) =>
    brief(suggestFields(page({ words: [...paragraph('es', 340), ...words(text, 300, 540)], segments }))).filter((s) => s.type === 'signature');
  for (const text of ['Fdo.: Juan García López', 'Fdo.: El Secretario', 'Fdo.: D./Dª _________________________']) {
    const [room] = found(text);
    assert.ok(room && room.x === 300 && room.y + room.h <= 532 && room.y + room.h >= 528, `${text}: ${JSON.stringify(room)}`);
  }
  // (Under a line of its own, it is signed on that line.)
  assert.deepEqual(
    found('Fdo.: Juan García López', [h(290, 480, 528)]).map((s) => s.x),
    [290],
  );
});

test('"Fdo.:" with a form\'s field after it ("Fdo:" [Text3]) asks for the signer\'s name there: the field stays text, and the room over "Fdo.:" is where one signs', () => {
  const found = (widgetName: string, over: ReturnType<typeof words> = []) =>
    brief(
      suggestFields(
        page({
          words: [...paragraph('es', 340), ...over, ...words('Fdo.:', 300, 540)],
          widgets: [{ kind: 'text', name: widgetName, box: { x0: 330, y0: 529, x1: 520, y1: 545 } }],
        }),
      ),
    );
  for (const name of ['Text3', 'Fdo interesado']) {
    const all = found(name);
    assert.equal(all.find((s) => s.x === 330)?.type, 'text', `${name}: ${JSON.stringify(all)}`);
    const signatures = all.filter((s) => s.type === 'signature');
    assert.ok(
      signatures.length === 1 && signatures[0]?.x === 300 && (signatures[0]?.y ?? 0) + (signatures[0]?.h ?? 0) <= 532,
      `${name}: ${JSON.stringify(all)}`,
    );
  }
  // (Under its block's caption, "Firma del interesado" over the room: the room is all of it, a signature and a half at most.)
  const block = found('Text3', words('Firma del interesado', 300, 480)).filter((s) => s.type === 'signature');
  assert.ok(block.length === 1 && (block[0]?.y ?? 0) <= 485 && (block[0]?.y ?? 0) + (block[0]?.h ?? 0) <= 530, JSON.stringify(block));
});

test('a closing over who signs named as such over a line ("Pede deferimento." over "O Requerente" over "____") is signed on the line only, not in a room between', () => {
  const found = (signer: string) =>
    brief(
      suggestFields(
        page({ words: [...paragraph('pt', 340), ...words('Pede deferimento.', 250, 454), ...words(signer, 260, 500)], segments: [h(180, 420, 540)] }),
      ),
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    found('O Requerente').map((s) => s.y),
    [502],
  );
});

test('a Spanish page naming who signs as "el que suscribe" speaks of signing: a line with only a name typed under it is a place there', () => {
  const found = (text: string) =>
    types(suggestFields(page({ words: [...words(text, 50, 340, 9), ...words('Juan García López', 220, 535)], segments: [h(180, 420, 520)] })));
  assert.deepEqual(found('El que suscribe declara haber leído las condiciones del presente contrato.'), ['signature']);
  assert.deepEqual(found('El cliente declara haber leído las condiciones del presente contrato.'), []);
});

test('a place and its date\'s word opening the last sentence of a line of text ("… usi consentiti dalla legge. Roma, lì ____") date the signing on the blank', () => {
  const dates = (text: string) =>
    brief(
      suggestFields(page({ words: [...paragraph('it', 340), ...words(text, 50, 440, 9), ...words('Firma', 280, 535)], segments: [h(180, 420, 520)] })),
    ).filter((s) => s.type === 'date');
  const [date] = dates('Si rilascia la presente dichiarazione per gli usi consentiti dalla legge. Roma, lì ______________');
  assert.ok(date && date.x > 400 && date.y >= 420 && date.y <= 424, JSON.stringify(date));
  // (Not a blank after a word of running text in its last sentence: "… il giorno 3. Il ____".)
  assert.deepEqual(dates('La riunione si è tenuta il giorno 3. Il ______________'), []);
});

test('a company named with the office of whoever signs for it under a line ("Company Secretary", "Representante de la empresa") is a signer\'s caption, no company to fill in; "Company Name" still asks for one', () => {
  const under = (language: 'en' | 'es' | 'pt', caption: string) =>
    types(suggestFields(page({ words: [...paragraph(language, 340), ...words(caption, 80, 512)], segments: [h(72, 260, 500)] })));
  assert.deepEqual(under('en', 'Company Secretary'), ['signature']);
  assert.deepEqual(under('en', 'Company Representative'), ['signature']);
  assert.deepEqual(under('es', 'Representante de la empresa'), ['signature']);
  assert.deepEqual(under('pt', 'Representante da empresa'), ['signature']);
  assert.deepEqual(under('en', 'Company Name'), ['text']);
});

test('a letter\'s last sentence ending on its closing formula ("… l\'expression de mes salutations distinguées.", "Sin otro particular, le saluda atentamente,") closes it: the room over the signer\'s name under it, from where the name starts when it stands right of the closing', () => {
  const found = (language: 'fr' | 'es', closing: string[], x: number) =>
    brief(
      suggestFields(page({ words: [...paragraph(language, 340), ...closing.flatMap((c, i) => words(c, 72, 440 + 14 * i)), ...words('Jean Dupont', x, 520)] })),
    ).filter((s) => s.type === 'signature');
  const french = ["Je vous prie d'agréer, Madame, Monsieur, l'expression de mes", 'salutations distinguées.'];
  assert.deepEqual(
    found('fr', french, 380).map((s) => s.x),
    [380],
  );
  assert.deepEqual(
    found('fr', french, 72).map((s) => s.x),
    [72],
  );
  assert.deepEqual(
    found('es', ['Sin otro particular, le saluda atentamente,'], 72).map((s) => s.x),
    [72],
  );
  // (A sentence of the letter's body ending on other words closes nothing.)
  assert.deepEqual(found('fr', ['Je vous prie de bien vouloir trouver ci-joint les documents demandés.'], 72), []);
});

test('a date\'s separators set apart by spaces after its caption ("Date :      /      /") leave its room open: the date beside the caption across them, no field on a separator', () => {
  const dates = (language: 'fr' | 'de', date: string, signature: string) =>
    brief(suggestFields(page({ words: [...paragraph(language, 340), ...words(date, 72, 480), ...words(signature, 330, 480)] }))).filter(
      (s) => s.type === 'date',
    );
  for (const [language, date, signature] of [
    ['fr', 'Date :      /      /', 'Signature :'],
    ['de', 'Datum:      .      .', 'Unterschrift:'],
  ] as const) {
    const [found] = dates(language, date, signature);
    assert.ok(found && found.x >= 100 && found.x <= 130 && found.w >= 70, `${date}: ${JSON.stringify(found)}`);
  }
});

test('German "i.A.", "i.V." and "ppa." (signing on another\'s behalf) opening a line before its blank or rule caption a signature there; not in running text', () => {
  const found = (w: ReturnType<typeof words>, segments: ReturnType<typeof h>[] = []) =>
    types(suggestFields(page({ words: [...paragraph('de', 340), ...w], segments })));
  assert.deepEqual(found(words('i.A. ____________________', 72, 500)), ['signature']);
  assert.deepEqual(found(words('ppa. ____________________', 72, 500)), ['signature']);
  assert.deepEqual(found(words('i.V.', 72, 500), [h(90, 260, 502)]), ['signature']);
  assert.deepEqual(found(words('Die Zahlung erfolgt i.A. des Auftraggebers bis zum ____________', 72, 500)), []);
});

test('initials for each party on one footer line ("Paraphes : Bailleur ____   Locataire ____", "Initials: ____   ____") are a place each; "Initials: ____ / ____" still two', () => {
  const initials = (text: string, language: 'fr' | 'en' = 'en') =>
    brief(suggestFields(page({ words: [...paragraph(language, 340), ...words(text, 300, 805, 8)] }))).filter((s) => s.type === 'initials');
  assert.equal(initials('Paraphes : Bailleur ________   Locataire ________', 'fr').length, 2);
  assert.equal(initials('Initials: Landlord ________   Tenant ________').length, 2);
  assert.equal(initials('Initials: ________   ________').length, 2);
  assert.equal(initials('Initials: ________ / ________').length, 2);
  // (A blank after other words is no other party's initials.)
  assert.equal(initials('Initials: ________   Page ________').length, 1);
});

test('an Arabic letter\'s closing ("وتفضلوا بقبول فائق الاحترام والتقدير", "والسلام عليكم ورحمة الله وبركاته") over the signer\'s name at the left: the room over the name, ending where the name ends', () => {
  const rtl = (text: string, right: number, y: number) => words(text, right - [...text].length * 5, y, 10, true);
  const found = (closing: string) =>
    brief(suggestFields(page({ words: [...paragraph('ar', 340), ...rtl(closing, 545, 450), ...rtl('أحمد بن محمد', 200, 520)] }))).filter(
      (s) => s.type === 'signature',
    );
  for (const closing of ['وتفضلوا بقبول فائق الاحترام والتقدير', 'والسلام عليكم ورحمة الله وبركاته']) {
    const [room] = found(closing);
    assert.ok(room && room.x + room.w === 200 && room.y + room.h <= 511 && room.y + room.h >= 505, `${closing}: ${JSON.stringify(room)}`);
  }
  // (A sentence of the letter's body closes nothing.)
  assert.deepEqual(found('نرجو التكرم بالموافقة على الطلب المرفق'), []);
});

test('American letters\' closings ("Very truly yours,", "Respectfully submitted,", "Cordially,") over the signer\'s name are signed in the room between', () => {
  for (const closing of ['Very truly yours,', 'Yours very truly,', 'Respectfully submitted,', 'Cordially,', 'Best wishes,']) {
    const letter = [...paragraph('en', 100), ...words(closing, 90, 660, 12), ...words('Dana Whitfield, Treasurer', 90, 729, 12)];
    assert.deepEqual(brief(suggestFields(page({ words: letter }))), [{ type: 'signature', x: 90, y: 678, w: 180, h: 40 }], closing);
  }
});

test('"Signatory" naming whose another caption is ("Name of Authorized Signatory") and a participle in a condition ("(if signed by a representative)") ask for no signature', () => {
  const lines = [h(60, 330, 610), h(60, 330, 660)];
  const block = (first: string, second: string) =>
    suggestFields(page({ words: [...paragraph('en', 100), ...words(first, 60, 622, 9), ...words(second, 60, 672, 9)], segments: lines }));
  const signatory = block('Signature of Authorized Signatory', 'Name of Authorized Signatory');
  assert.deepEqual(types(signatory), ['signature', 'text']);
  assert.deepEqual(brief(signatory.filter((s) => s.type === 'signature')), [{ type: 'signature', x: 60, y: 570, w: 270, h: 40 }]);
  const patient = block('Signature of Patient or Representative', 'Relationship to Patient (if signed by a representative)');
  assert.deepEqual(brief(patient), [{ type: 'signature', x: 60, y: 570, w: 270, h: 40 }]);
  // ("Signatory" alone under its line still asks for one.)
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('en', 100), ...words('Signatory', 60, 622, 9)], segments: [h(60, 330, 610)] }))), [
    'signature',
  ]);
});

test("a line with `Name:` and `Title:` (or `Date:`) stacked under it at its left and no caption of its own is a signature block's: signed on the line", () => {
  const block = (x: number, second: string) => [...words('Name:', x, 660, 10), ...words(second, x, 676, 10)];
  const signed = suggestFields(page({ words: [...paragraph('en', 100), ...block(320, 'Title:')], segments: [h(320, 540, 645)] }));
  assert.deepEqual(brief(signed.filter((s) => s.type === 'signature')), [{ type: 'signature', x: 320, y: 605, w: 220, h: 40 }]);
  assert.deepEqual(types(signed), ['signature', 'text', 'text']);
  const dated = suggestFields(
    page({ words: [...paragraph('en', 100), ...block(60, 'Date:'), ...block(320, 'Date:')], segments: [h(60, 280, 645), h(320, 540, 645)] }),
  );
  assert.deepEqual(types(dated), ['date', 'date', 'signature', 'signature', 'text', 'text']);
  // (Nor with other captions than a signer's under the line: an address block.)
  const address = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Name:', 320, 660, 10), ...words('Street:', 320, 676, 10)], segments: [h(320, 540, 645)] }),
  );
  assert.deepEqual(
    address.filter((s) => s.type === 'signature'),
    [],
  );
});

test('"Signatures of the Parent/Guardian" names whose signatures: a caption, where "Signatures" alone or "Signatures of the Parties" heads a section', () => {
  const under = (caption: string) =>
    brief(suggestFields(page({ words: [...paragraph('en', 100), ...words(caption, 320, 662, 9)], segments: [h(320, 540, 650)] })));
  assert.deepEqual(under('Signatures of the Parent/Guardian'), [{ type: 'signature', x: 320, y: 610, w: 220, h: 40 }]);
  assert.deepEqual(under('Signatures'), []);
  assert.deepEqual(under('Signatures of the Parties'), []);
});

test('a party\'s caption with its colon over `Print Name:` ("Witness: ____" / "Print Name: ____") signs on its line: the name is asked under it; `Its:` under `By:` asks for the office', () => {
  const block = (party: string) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...words(party, 60, 640, 10), ...words('Print Name:', 60, 662, 10)],
        segments: [h(110, 300, 642), h(125, 300, 664)],
      }),
    );
  for (const party of ['Witness:', 'Tenant:'])
    assert.deepEqual(
      brief(block(party)),
      [
        { type: 'signature', x: 110, y: 602, w: 190, h: 40 },
        { type: 'text', x: 125, y: 644, w: 175, h: 20 },
      ],
      party,
    );
  // (Over a datum's caption, the party's row asks for its name: a column of data.)
  const data = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Tenant:', 60, 640, 10), ...words('Address:', 60, 662, 10)],
      segments: [h(110, 300, 642), h(110, 300, 664)],
    }),
  );
  assert.deepEqual(
    data.filter((s) => s.type === 'signature'),
    [],
  );
  const company = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('By:', 320, 640, 10), ...words('Its:', 320, 662, 10)], segments: [h(340, 540, 642), h(340, 540, 664)] }),
  );
  assert.deepEqual(
    company.map((s) => [s.type, s.fieldKey ?? '']),
    [
      ['signature', ''],
      ['text', 'job_title'],
    ],
  );
});

test('"Stamp and Signature" under a line asks for both, no section\'s heading ("Disclaimer and Signature" is one)', () => {
  const under = (caption: string) =>
    types(suggestFields(page({ words: [...paragraph('en', 100), ...words(caption, 60, 662, 9)], segments: [h(60, 300, 650)] })));
  for (const caption of ['Stamp and Signature', 'Seal & Signature', 'Official Stamp and Signature']) assert.deepEqual(under(caption), ['signature'], caption);
  assert.deepEqual(under('Disclaimer and Signature'), []);
});

test('"Le ____" opening a line that goes on with a signature\'s caption ("Le ____/____/______   Signature : ____") dates the signing on its blank', () => {
  const row = (text: string) => brief(suggestFields(page({ words: [...paragraph('fr', 100), ...words(text, 40, 640, 9)] })));
  assert.deepEqual(row('Le ____________________   Signature : ____________________'), [
    { type: 'signature', x: 204, y: 602, w: 97, h: 40 },
    { type: 'date', x: 53, y: 622, w: 97, h: 20 },
  ]);
  assert.deepEqual(
    row('Le ____/____/______   Signature : ____________________').map((s) => s.type),
    ['signature', 'date'],
  );
  // (Not before a caption of another kind: "Le ____   Nom : ____" dates nothing.)
  assert.deepEqual(
    row('Le ____________________   Nom : ____________________').filter((s) => s.type === 'date'),
    [],
  );
});

test('on a scan, a caption OCR reads a fifth larger than the body ("Firma" over white space) is no heading: OCR sizes words by their ink', () => {
  const read = (ocr: boolean) => brief(suggestFields(page({ ocr, words: [...paragraph('it', 100), ...words('Firma', 100, 600, 12.5)] })));
  assert.deepEqual(read(true), [{ type: 'signature', x: 100, y: 607, w: 180, h: 40 }]);
  // (On a page with a text layer, a line a fifth larger than the body is a heading.)
  assert.deepEqual(read(false), []);
});

test('"Done at ____ on ____" opening a sentence (a deed\'s, a treaty\'s) dates the signing on the blank after "on"; "work done on ____" inside a sentence does not', () => {
  const dates = (text: string) =>
    brief(
      suggestFields(page({ words: [...paragraph('en', 100), ...words(text, 50, 600, 10), ...words('Signature: ______________________', 50, 660, 10)] })),
    ).filter((s) => s.type === 'date');
  assert.deepEqual(dates('Done at ____________ on ____________'), [{ type: 'date', x: 166, y: 582, w: 64, h: 20 }]);
  assert.deepEqual(dates('Describe the repairs done on ____________'), []);
});

test('"Sign." alone under its line (the English of India\'s forms) signs on the line; "Sign" opening a sentence does not', () => {
  const under = (caption: string) =>
    brief(suggestFields(page({ words: [...paragraph('en', 100), ...words(caption, 60, 662, 9)], segments: [h(60, 300, 650)] })));
  assert.deepEqual(under('Sign.'), [{ type: 'signature', x: 60, y: 610, w: 240, h: 40 }]);
  assert.deepEqual(under('Sign and return both copies to the office'), []);
});

test('two captions side by side, each printed under its room ("Signature of Student   Signature of Parent"), get a room each, though the first reaches over the second', () => {
  const row = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Signature of Student', 60, 600, 9), ...words('Signature of Parent', 200, 600, 9)] }),
  );
  assert.deepEqual(brief(row), [
    { type: 'signature', x: 60, y: 551, w: 180, h: 40 },
    { type: 'signature', x: 200, y: 551, w: 180, h: 40 },
  ]);
});

test('numbered blanks one under the other under a heading of witnesses ("Witnesses:" over "1. ____" over "2. ____", the second more than 60 pt under it) are each a witness\'s place', () => {
  const blank = '______________________________';
  const found = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Witnesses:', 60, 560, 10), ...words(`1. ${blank}`, 60, 610, 10), ...words(`2. ${blank}`, 60, 660, 10)] }),
  );
  assert.deepEqual(brief(found), [
    { type: 'signature', x: 65, y: 572, w: 160, h: 40 },
    { type: 'signature', x: 65, y: 622, w: 160, h: 40 },
  ]);
  assert.deepEqual(
    found.map((s) => s.roleHint),
    ['witness', 'witness'],
  );
});

test('numbered blanks on the row a heading of witnesses opens ("Testemunhas: 1- ____   2 - ____") are each a witness\'s place', () => {
  const blank = '____________________________';
  const row = (heading: string) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('pt', 100),
            ...words(`${heading} 1- ${blank}`, 21, 708, 9),
            ...words(`2 - ${blank}`, 269, 708, 9),
            ...words('Nome/RG:', 97, 717, 8),
            ...words('Nome/RG:', 269, 717, 8),
          ],
        }),
      ).filter((s) => s.type === 'signature'),
    ).map((s) => s.x);
  assert.deepEqual(row('Testemunhas:'), [88, 281]);
  // (Under a caption that is no heading of signers, the numbered blanks are a list's, not places to sign.)
  assert.deepEqual(row('Observações:'), []);
});

test('"First Witness: ____" over "Second Witness: ____": an ordinal before the party\'s name leads its caption, as "1." does', () => {
  const blank = '______________________________';
  const found = suggestFields(
    page({ words: [...paragraph('en', 100), ...words(`First Witness: ${blank}`, 60, 570, 10), ...words(`Second Witness: ${blank}`, 60, 600, 10)] }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, s.roleHint]),
    [
      ['signature', 'witness'],
      ['signature', 'witness'],
    ],
  );
});

test('"In the presence of: ____" (a deed\'s witness) asks for a signature, as "Witnessed by:" does', () => {
  const row = (text: string) => types(suggestFields(page({ words: [...paragraph('en', 100), ...words(text, 60, 640, 10)] })));
  assert.deepEqual(row('In the presence of: ______________________________'), ['signature']);
  assert.deepEqual(row('Witnessed by: ______________________________'), ['signature']);
});

test('"Initial: ____" opening its line asks for initials, and so do Spanish, German, Italian and Dutch captions ("Iniciales:", "Kürzel:", "Sigla:", "Paraaf:")', () => {
  const footer = (language: 'en' | 'es' | 'de' | 'it', text: string) =>
    types(suggestFields(page({ words: [...paragraph(language, 100), ...words(`${text} ____________`, 400, 800, 9)] })));
  assert.deepEqual(footer('en', 'Initial:'), ['initials']);
  assert.deepEqual(footer('es', 'Iniciales:'), ['initials']);
  assert.deepEqual(footer('de', 'Kürzel:'), ['initials']);
  assert.deepEqual(footer('it', 'Sigla:'), ['initials']);
  // (A verb elsewhere: "Initial each page" in running text asks for nothing.)
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('en', 100), ...words('Please initial each page of the lease.', 60, 700, 9)] }))), []);
});

test('a caption that asks for its blank after it ("By", "X", "Initial") with none is no place to sign: a "Date" widget under it stays text', () => {
  const dated = (head: string) =>
    suggestFields(
      page({
        words: [...paragraph('en', 300), ...words(head, 300, 140, 9), ...words('Date', 60, 140, 9)],
        widgets: [{ kind: 'text', name: 'Text7', box: { x0: 90, y0: 130, x1: 200, y1: 144 } }],
      }),
    ).map((s) => [s.type, s.fieldKey ?? '']);
  assert.deepEqual(dated('By'), [['text', '']]);
  assert.deepEqual(dated('X'), [['text', '']]);
  // ("Sign" alone is a caption of its own, signed over: the date beside it is its.)
  assert.deepEqual(dated('Sign').sort(), [
    ['date', 'sign_date'],
    ['signature', ''],
  ]);
});

test('"Signé le ____", "Firmato il ____", "Firmado el ____", "Signed on ____": the blank is the signing date, no signature; "Signed on behalf of" still signs', () => {
  const row = (language: 'fr' | 'it' | 'es' | 'en', text: string) =>
    types(suggestFields(page({ words: [...paragraph(language, 100), ...words(`${text} ____________________`, 60, 640, 9)] })));
  assert.deepEqual(row('fr', 'Signé le'), ['date']);
  assert.deepEqual(row('it', 'Firmato il'), ['date']);
  assert.deepEqual(row('es', 'Firmado el'), ['date']);
  assert.deepEqual(row('en', 'Signed on'), ['date']);
  assert.deepEqual(row('en', 'Signed on behalf of the Company:'), ['signature', 'text']);
});

test('Arabic offices, with what they are the office of after them ("مدير المدرسة", "رئيس القسم", "عميد الكلية"), caption the line over them or the blank after them', () => {
  const under = (caption: string) =>
    types(suggestFields(page({ words: [...paragraph('ar', 100), ...words(caption, 380, 662, 10, true)], segments: [h(330, 540, 650)] })));
  assert.deepEqual(under('مدير المدرسة'), ['signature']);
  assert.deepEqual(under('عميد الكلية'), ['signature']);
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('ar', 100), ...words('رئيس القسم: ____________________', 300, 640, 10, true)] }))), [
    'signature',
  ]);
});

test('who signs named before a blank on a row going on with the signing date ("Parent/Guardian: ____   Date: ____") signs there; alone ("Parent/Guardian: ____") it asks for a name', () => {
  const row = (text: string) => types(suggestFields(page({ words: [...paragraph('en', 100), ...words(text, 60, 640, 9)] })));
  assert.deepEqual(row('Parent/Guardian: ____________________   Date: ____________'), ['date', 'signature']);
  assert.deepEqual(row('Parent/Guardian: ____________________'), []);
});

test('a signature caption alone over the signer\'s office in parentheses ("Signature and Seal" over "(Principal)") is the foot of its block: signed over it', () => {
  const block = (remark: string) =>
    brief(suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature and Seal', 400, 640, 10), ...words(remark, 415, 654, 10)] })));
  assert.deepEqual(block('(Principal)'), [{ type: 'signature', x: 400, y: 590, w: 180, h: 40 }]);
  // (Words under it that are no remark leave its room under it.)
  assert.deepEqual(block('Principal'), [{ type: 'signature', x: 400, y: 660, w: 180, h: 40 }]);
});

test('a French "A ……… le ………" going on with the signature\'s caption on its row ("A ……… le ………   Signature") dates the signing on the blank after "le"; other words after it do not', () => {
  const dates = (text: string) =>
    brief(suggestFields(page({ words: [...paragraph('fr', 100), ...words(text, 50, 600, 10)] }))).filter((s) => s.type === 'date');
  assert.deepEqual(dates('A …………………… le …………………… Signature'), [{ type: 'date', x: 117, y: 582, w: 44, h: 20 }]);
  assert.deepEqual(dates('À …………………… le ……………………   Signature :'), [{ type: 'date', x: 120, y: 582, w: 47, h: 20 }]);
  assert.deepEqual(dates('A …………………… le …………………… pour le compte de'), []);
});

test('a French "Le ……… à ………" opening its line, the date before the place, dates the signing on the blank after "Le"; "Le ……… à ……… du mois" does not', () => {
  const dates = (text: string) =>
    brief(suggestFields(page({ words: [...paragraph('fr', 100), ...words(text, 50, 600, 10), ...words('Signature :', 50, 660, 10)] }))).filter(
      (s) => s.type === 'date',
    );
  assert.deepEqual(dates('Le ______________ à ______________'), [{ type: 'date', x: 64, y: 582, w: 73, h: 20 }]);
  assert.deepEqual(dates('Le ______________ à ______________ du mois'), []);
});

test('Italian "Lì ____" opening a sentence after another on its line ("… approvato. Lì ____") is the date alone, as it is opening its line: no place before it to read', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('it', 100), ...words('Letto e approvato. Lì ______________', 50, 600, 9), ...words('Firma: ____________________', 50, 660, 10)],
    }),
  );
  assert.deepEqual(types(found), ['date', 'signature']);
});

test('a Spanish or Portuguese place-and-date formula opening a sentence after another on its line ("Leído y conforme. En ____ a ____ de ____ de 20__") dates the signing as it does opening its line', () => {
  const dates = (text: string) =>
    brief(suggestFields(page({ words: [...paragraph('es', 100), ...words(text, 50, 600, 9), ...words('Firma: ____________________', 50, 660, 10)] }))).filter(
      (s) => s.type === 'date',
    );
  assert.equal(dates('En ______________ a ____ de ______________ de 20____').length, 1);
  assert.equal(dates('Leído y conforme. En ______________ a ____ de ______________ de 20____').length, 1);
  // (Words of running text before it in its sentence leave it a reference: "según el expediente ____ de ____ de ____".)
  assert.equal(dates('Leído y conforme según el expediente ____ de ______________ de ______').length, 0);
});

test('a French "A ……, le ……" or "Le …… à ……" opening the last sentence of its line ("Lu et approuvé. A ____, le ____") dates the signing as it does opening the line; "… sous réserve. Le ____ du mois" does not', () => {
  const dates = (text: string) =>
    brief(
      suggestFields(page({ words: [...paragraph('fr', 100), ...words(text, 50, 600, 9), ...words('Signature : ____________________', 50, 660, 10)] })),
    ).filter((s) => s.type === 'date').length;
  assert.equal(dates('Lu et approuvé. A ______________, le ______________'), 1);
  assert.equal(dates('Lu et approuvé. Le ______________ à ______________'), 1);
  assert.equal(dates('Lu et approuvé, sous réserve. Le ______________ du mois'), 0);
});

test('an approval asks for a signature only with nothing but its blank after it ("Conforme: ____"); "(conforme documento de identidade)" under "Assinatura" says how to sign, and the room under both is the signature\'s', () => {
  const under = brief(
    suggestFields(
      page({
        words: [
          ...paragraph('pt', 100),
          ...words('Assinatura', 60, 600, 10),
          ...words('(conforme documento de identidade)', 60, 613, 8),
          ...words('Página 1', 280, 800, 8),
        ],
      }),
    ),
  );
  assert.deepEqual(under, [{ type: 'signature', x: 60, y: 619, w: 180, h: 40 }]);
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('es', 100), ...words('Conforme: ______________________', 60, 600, 10)] }))), ['signature']);
});

test('"Sign" asks for a signature only with nothing but its blank after it ("Sign: ____", "Sign." under a line); "(sign in ink)" under "Signature" says how, and the room under both is the signature\'s', () => {
  const under = brief(
    suggestFields(
      page({ words: [...paragraph('en', 100), ...words('Signature', 60, 600, 10), ...words('(sign in ink)', 60, 613, 8), ...words('Page 1', 280, 800, 8)] }),
    ),
  );
  assert.deepEqual(under, [{ type: 'signature', x: 60, y: 619, w: 180, h: 40 }]);
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('en', 100), ...words('Sign: ______________________', 60, 600, 10)] }))), ['signature']);
});

test('"Sig." opening its line before its blank, or alone under its line, asks for a signature on an English page; Italian "Sig. Rossi" (Mr Rossi) does not', () => {
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('en', 100), ...words('Sig.: ______________________', 60, 600, 10)] }))), ['signature']);
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('en', 100), ...words('Sig.', 60, 662, 9)], segments: [h(60, 300, 650)] }))), ['signature']);
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('it', 100), ...words('Sig. ______________________', 60, 600, 10)] }))), []);
  assert.deepEqual(types(suggestFields(page({ words: [...paragraph('en', 100), ...words('Sig. figures ______________________', 60, 600, 10)] }))), []);
});

test('Italian "____________, il ____________" (the place a blank of its own, with its comma) dates the signing on the blank after "il", as "Roma, il ____" does; "____________ il ____________" without the comma does not', () => {
  const dates = (text: string) =>
    brief(suggestFields(page({ words: [...paragraph('it', 100), ...words(text, 50, 600, 10), ...words('Firma: ____________________', 50, 660, 10)] }))).filter(
      (s) => s.type === 'date',
    ).length;
  assert.equal(dates('Roma, il ______________'), 1);
  assert.equal(dates('______________, il ______________'), 1);
  assert.equal(dates('______________ il ______________'), 0);
});

test("a caption right under a line that is the top of its box (a wall hanging from the line's end, none rising over it) heads the box: it signs in the box under it, not over the line; the same line without the wall is its line", () => {
  const member = (verticals: ReturnType<typeof v>[]) =>
    brief(
      suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature of the member', 196, 654, 8)], segments: [h(191, 374, 641.6)], verticals })),
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(member([v(374, 642, 697)]), [{ type: 'signature', x: 191, y: 658, w: 183, h: 38 }]);
  assert.deepEqual(member([]), [{ type: 'signature', x: 191, y: 602, w: 183, h: 40 }]);
  assert.deepEqual(member([v(374, 600, 697)]), [{ type: 'signature', x: 191, y: 602, w: 183, h: 40 }]);
});

test('Portuguese "____________ aos ____ de ____________ de ______" (the place a blank, then "aos" and the date\'s parts) over a signature dates the signing; "aos ___/___/____" going on with the sentence is a date in the text', () => {
  const dates = (text: string) =>
    brief(
      suggestFields(page({ words: [...paragraph('pt', 100), ...words(text, 72, 600, 10), ...words('Assinatura: ____________________', 72, 660, 10)] })),
    ).filter((s) => s.type === 'date').length;
  assert.equal(dates('______________________ aos _________ de _______________ de _________'), 1);
  assert.equal(dates('emitido em ______________ aos ___/___/_____, vem requerer a sua inscrição'), 0);
});

test('"Dated this ____ day of ____ 20___" is the date its caption opens: "Dated" looks for no other blank, and the bare line under it is the signature\'s', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Dated this ____ day of ______________ 20___', 72, 600, 10), ...words('____________________', 72, 660, 10)],
    }),
  );
  assert.deepEqual(types(found), ['date', 'signature']);
  assert.equal(brief(found).find((s) => s.type === 'date')?.y, 582);
});

test('Spanish "Recibí: ……" (a receipt\'s acknowledgement) opening its line before its blank asks for a signature; "Recibí de … la cantidad de ____" is a sentence', () => {
  const sigs = (text: string) =>
    types(suggestFields(page({ words: [...paragraph('es', 100), ...words(text, 57, 600, 10)] }))).filter((t) => t === 'signature').length;
  assert.equal(sigs('Recibí: ………………………'), 1);
  assert.equal(sigs('Recibí de la empresa la cantidad de ______________'), 0);
});

test('a form field named after the place and the date together ("lugarFecha", "Ort_Datum") is the signing date however far from where one signs; one named "fecha" alone, far from it, dates something else', () => {
  const typeOf = (name: string) => {
    const widgets = [
      { kind: 'text' as const, name, box: { x0: 125, y0: 300, x1: 405, y1: 319 } },
      { kind: 'signature' as const, name: 'firma', box: { x0: 184, y0: 689, x1: 427, y1: 714 } },
    ];
    return suggestFields(page({ words: paragraph('es', 100), widgets })).find((s) => s.y === 300)?.type;
  };
  assert.equal(typeOf('lugarFecha'), 'date');
  assert.equal(typeOf('Ort_Datum'), 'date');
  assert.equal(typeOf('fecha'), 'text');
});

test('a form field named "signatory" holds who signs, not the signature; one named after signing and the date ("signature_date") is the signing date however far from where one signs', () => {
  const widgets = [
    { kind: 'text' as const, name: 'signature_date', box: { x0: 125, y0: 300, x1: 405, y1: 319 } },
    { kind: 'text' as const, name: 'signatory', box: { x0: 125, y0: 680, x1: 405, y1: 699 } },
  ];
  const found = suggestFields(page({ words: paragraph('en', 100), widgets }));
  assert.deepEqual(
    found.map((s) => [s.y, s.type, s.fieldKey]),
    [
      [300, 'date', 'sign_date'],
      [680, 'text', 'signer_name'],
    ],
  );
});

test('a place and its blank ("São Paulo, ________.") over a signature caption that has a blank of its own right under it ("ASSINATURA" over "______") dates the signing: that blank is the caption\'s line, not the place\'s; without it, no date', () => {
  const found = (withLine: boolean) =>
    types(
      suggestFields(
        page({
          words: [
            ...paragraph('pt', 100),
            ...words('São Paulo, ________.', 415, 400, 11),
            ...words('ASSINATURA', 450, 430, 11),
            ...(withLine ? words('______________________________________________', 258, 448, 11) : []),
          ],
        }),
      ),
    );
  assert.deepEqual(found(true), ['date', 'signature']);
  assert.ok(!found(false).includes('date'));
});

test('Spanish "… que firma por él ____" (signs on his behalf) asks for no date: "él" is "him", not the "el" of "firmado el ____"', () => {
  const dates = (text: string) =>
    types(suggestFields(page({ words: [...paragraph('es', 100), ...words(text, 85, 590, 9), ...words('Firma ______________________', 85, 690, 9)] }))).filter(
      (t) => t === 'date',
    ).length;
  assert.equal(dates('Nombre del representante que firma por él ______________________'), 0);
});

test('parties named side by side in their cells ("TESTEMUNHA | TESTEMUNHA") with a signature inked right under each are signed already: no place; without the ink, each signs in its cell', () => {
  const found = (images: Array<{ x0: number; y0: number; x1: number; y1: number }>) =>
    types(
      suggestFields(
        page({
          words: [...paragraph('pt', 100), ...words('TESTEMUNHA', 42, 208, 9), ...words('TESTEMUNHA', 334, 208, 9)],
          segments: [h(36, 261, 198.6), h(36, 261, 220.2), h(329, 577, 198.6), h(329, 577, 220.2)],
          verticals: [v(36.2, 198.9, 220), v(261, 198.9, 220), v(328.6, 198.9, 220), v(577.2, 198.9, 220)],
          images,
        }),
      ),
    );
  assert.deepEqual(found([]), ['signature', 'signature']);
  assert.deepEqual(
    found([
      { x0: 83, y0: 213, x1: 158, y1: 249 },
      { x0: 373, y0: 213, x1: 477, y1: 249 },
    ]),
    [],
  );
});

test('"Client\'s initial: ____" (whose initial, before its blank) asks for initials, as "Initial: ____" opening its line does; "the client\'s initial consultation" does not', () => {
  const initials = (text: string) =>
    types(suggestFields(page({ words: [...paragraph('en', 100), ...words(text, 300, 600, 10)] }))).filter((t) => t === 'initials').length;
  assert.equal(initials('Client’s initial: ________'), 1);
  assert.equal(initials('the client’s initial consultation ________'), 0);
});

test('a short blank with "(initial)" right after it asks for initials, and so does each blank opening a point under "Initial next to each statement"; a form field on such a blank is the place to initial', () => {
  const initials = (parts: Partial<Parameters<typeof page>[0]>) =>
    suggestFields(page({ ...parts, words: [...paragraph('en', 100), ...(parts.words ?? [])] })).filter((s) => s.type === 'initials');
  assert.equal(initials({ words: words('The fosterer pays the bill. ______ (initial)', 200, 600, 10) }).length, 1);
  assert.equal(initials({ words: words('The fosterer pays the bill. ______ (note)', 200, 600, 10) }).length, 0);
  // (Or "Initials" without parentheses ending the line after a sentence's end: the blank, and nothing after the caption.)
  const plain = initials({
    words: [...words('The tent must not be left out overnight.', 60, 600, 10), ...words('_____', 270, 600, 10), ...words('Initials', 300, 600, 10)],
  });
  assert.deepEqual(
    plain.map((s) => Math.round(s.x)),
    [270],
  );
  const statements = [
    ...words('Initial next to each statement:', 72, 560, 10),
    ...words('_______ I understand the rules of the program.', 72, 590, 10),
    ...words('_______ I agree to follow the safety policies.', 72, 620, 10),
    ...words('_______ I attest that the information is correct.', 72, 650, 10),
  ];
  assert.equal(initials({ words: statements }).length, 3);
  const field = initials({
    words: words('The fosterer pays the bill. ______ (initial)', 200, 600, 10),
    widgets: [{ kind: 'text', name: 'fosterer will be responsible for the bill', box: { x0: 330, y0: 590, x1: 370, y1: 603 } }],
  });
  assert.deepEqual(
    field.map((s) => s.reason),
    ['acroform'],
  );
});

test('"Initial" alone heading a table\'s column of empty boxes ("Statement | Please / initial / box") asks for initials in them; beside a name\'s caption on its row ("First Name | Initial") it is the middle initial', () => {
  const rows = [504, 550, 610, 656, 690];
  const table = (left: string, right: string[]) =>
    types(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words(left, 81, 517, 9),
            ...right.flatMap((t, i) => words(t, 494, 517 + 13 * i, 9)),
            ...words('1. I confirm that I have read the information sheet.', 81, 564, 9),
            ...words('2. I agree to take part.', 81, 620, 9),
          ],
          segments: rows.map((y) => h(76, 539, y)),
          verticals: [v(76.5, 503.4, 690.3), v(489.9, 503.4, 690.3), v(538.4, 503.4, 690.3)],
        }),
      ),
    ).filter((t) => t === 'initials').length;
  assert.equal(table('Statement', ['Please', 'initial', 'box']), 2);
  assert.equal(table('First Name', ['Initial']), 0);
});

test('the rows listed right under "Please indicate with your initials that you have read each section:", each a heading with its colon and a short blank ("I. GENERAL RELEASE: _______"), ask for initials on their blanks; the same rows without the instruction do not', () => {
  const rows = [
    ...words('I. GENERAL RELEASE: _______', 72, 573, 10),
    ...words('II. PHOTO RELEASE: _______', 72, 587, 10),
    ...words('III. EMERGENCY CONTACTS: _______', 72, 602, 10),
  ];
  const initials = (instruction: string) =>
    types(suggestFields(page({ words: [...paragraph('en', 100), ...words(instruction, 72, 558, 10), ...rows] }))).filter((t) => t === 'initials').length;
  assert.equal(initials('Please indicate with your initials that you have read each section:'), 3);
  assert.equal(initials('The sections below are part of this agreement:'), 0);
});

test('under "Please initial each box to indicate your agreement:", the empty cells of a narrow last column beside the statements are boxes to initial; without the instruction they are not', () => {
  const ys = [270, 308, 360, 412];
  const initials = (instruction: string) =>
    types(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words(instruction, 72, 246, 10),
            ...words('I confirm that I have read the information sheet.', 78, 287, 10),
            ...words('I understand that taking part is voluntary.', 78, 325, 10),
            ...words('I agree to take part in the study.', 78, 377, 10),
          ],
          segments: ys.flatMap((y) => [h(72.5, 450.2, y), h(450.7, 522.9, y)]),
        }),
      ),
    ).filter((t) => t === 'initials').length;
  assert.equal(initials('Please initial each box to indicate your agreement:'), 3);
  assert.equal(initials('Please read each statement below:'), 0);
});

test('short lines drawn before the statements under an "INITIAL" heading alone on its row are places to initial; under a name\'s "Initial" beside "First Name" they are not', () => {
  const initials = (heading: Array<[string, number]>) =>
    types(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...heading.flatMap(([t, x]) => words(t, x, 229, 10)),
            ...words('I certify that I am 18 years or older.', 68.7, 245, 10),
            ...words('I certify that my medications are listed in my record.', 68.7, 269, 10),
          ],
          segments: [h(38, 65.3, 245.7), h(38, 65.3, 269.7)],
        }),
      ),
    ).filter((t) => t === 'initials').length;
  assert.equal(initials([['INITIAL', 39.7]]), 2);
  assert.equal(
    initials([
      ['First Name', 200],
      ['Initial', 39.7],
    ]),
    0,
  );
});

test('"Initial*" alone on its line over a small box drawn right under it asks for initials in the box; alone over white space it asks for nothing', () => {
  const initials = (box: boolean) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...words('Initial*', 46, 316, 10)],
        segments: box ? [h(47.7, 92.1, 319.9), h(47.7, 91.6, 336.2)] : [],
        verticals: box ? [v(47.2, 319.4, 336.4), v(92, 320.4, 336.4)] : [],
      }),
    ).filter((s) => s.type === 'initials');
  assert.equal(initials(true).length, 1);
  assert.equal(initials(false).length, 0);
});

test('"Local e data: ______ , ____ de ________ de ____" (the place\'s blank, its comma and the date\'s parts joined by "de") is the signing date: the comma and "de" are no writing in its blank', () => {
  const dates = (text: string) =>
    types(
      suggestFields(page({ words: [...paragraph('pt', 100), ...words(text, 85, 600, 10), ...words('Assinatura: ____________________', 85, 660, 10)] })),
    ).filter((t) => t === 'date').length;
  assert.equal(dates('Local e data: ___________________________ , ____ de ________________ de __________'), 1);
  assert.equal(dates('Local e data: Curitiba, 12 de março de 2024'), 0);
});

test('"Pour l\'association", "For the Foundation", "Für die Stiftung" (an association, a foundation or a club signing, as "Pour la société" is) under or over its line name the line to sign on', () => {
  const cases: Array<['fr' | 'en' | 'de', string]> = [
    ['fr', 'Pour l’association, le Président'],
    ['en', 'For the Foundation'],
    ['de', 'Für die Stiftung'],
    ['fr', 'Pour la Fondation'],
  ];
  for (const [language, caption] of cases)
    for (const y of [662, 600])
      assert.equal(
        types(suggestFields(page({ words: [...paragraph(language, 100), ...words(caption, 60, y, 10)], segments: [h(60, 260, 650)] }))).filter(
          (t) => t === 'signature',
        ).length,
        1,
        `${caption} ${y > 650 ? 'under' : 'over'} its line`,
      );
});

test("initials' caption alone at a page's foot (\"Paraphe du client\") takes the room over it when seven tenths of an initials' height is clear there, not the margin under it", () => {
  const found = (gap: number) => {
    const text = paragraph('fr', 640);
    const bottom = Math.max(...text.map((w) => w.box.y1));
    const s = suggestFields(page({ words: [...text, ...words('Paraphe du client', 90, bottom + gap + 9, 9)] })).find((f) => f.type === 'initials');
    return s && s.y + s.height <= bottom + gap + 2 ? 'over' : s ? 'under' : 'none';
  };
  assert.equal(found(24), 'over');
  assert.equal(found(40), 'over');
  assert.equal(found(12), 'under');
});

test('a sign-off opening its line before its blank ("Reviewed by: ____", "Autorizado por: ____", "Genehmigt: ____") is where whoever signs off signs; on the row of a signature\'s own caption it names who signs there', () => {
  const sigs = (language: 'en' | 'es' | 'de', ...rows: string[]) =>
    types(suggestFields(page({ words: [...paragraph(language, 100), ...rows.flatMap((r, i) => words(r, 60, 600 + 40 * i, 10))] }))).filter(
      (t) => t === 'signature',
    ).length;
  assert.equal(sigs('en', 'Reviewed by: ____________________'), 1);
  assert.equal(sigs('es', 'Autorizado por: ____________________'), 1);
  assert.equal(sigs('de', 'Genehmigt: ____________________'), 1);
  assert.equal(sigs('en', 'Signature: ____________________   Checked by: ____________________'), 1);
  assert.equal(sigs('en', 'The form was reviewed by the office.'), 0);
});

test('a caption set a little more than a third larger than the page\'s text ("Firma" in 15.8 pt over 11 pt, as OCR sizes a capital\'s word) is still a caption; half again as large it is a heading', () => {
  const sigs = (size: number) =>
    types(
      suggestFields(
        page({
          words: [
            ...[0, 1, 2, 3, 4, 5].flatMap((i) =>
              words('Il sottoscritto dichiara di aver letto e accettato le condizioni del regolamento', 50, 500 + 14 * i, 11),
            ),
            ...words('Firma', 50, 640, size),
          ],
          segments: [h(110, 300, 641)],
        }),
      ),
    ).filter((t) => t === 'signature').length;
  assert.equal(sigs(15.8), 1);
  assert.equal(sigs(16.6), 0);
});

test('Spanish "V.º B.º" (visto bueno, approved) written with its periods under a line is where the approver signs, as "Vº Bº" is', () => {
  for (const caption of ['V.º B.º El Director', 'Vº Bº El Director'])
    assert.deepEqual(
      types(suggestFields(page({ words: [...paragraph('es', 480), ...words(caption, 60, 652)], segments: [h(60, 260, 640)] }))),
      ['signature'],
      caption,
    );
});

test('Arabic "توقيعه" (his signature) with its pronoun joined to it, after "and" ("اسم ولي الأمر وتوقيعه") or alone, captions a line as "التوقيع" does', () => {
  for (const caption of ['اسم ولي الأمر وتوقيعه', 'توقيعها'])
    assert.deepEqual(
      types(
        suggestFields(
          page({ words: [...paragraph('ar', 480), ...words(caption, 540 - 5 * [...caption].length, 652, 10, true)], segments: [h(340, 540, 640)] }),
        ),
      ).filter((t) => t !== 'text'),
      ['signature'],
      caption,
    );
});

test('a signature caption ending its line with a condition ("Guardian signature if the player is under 18", "… si l’adhérent est mineur") is a caption alone over its room; followed by other words it is not', () => {
  const sigs = (language: 'en' | 'fr', text: string) =>
    types(suggestFields(page({ words: [...paragraph(language, 480), ...words(text, 60, 640, 10)] }))).filter((t) => t === 'signature').length;
  assert.equal(sigs('en', 'Guardian signature if the player is under 18'), 1);
  assert.equal(sigs('fr', 'Signature du responsable si l’adhérent est mineur'), 1);
  assert.equal(sigs('en', 'Guardian signature is needed for every trip abroad'), 0);
});

test("another column's small print beside a form's row, set apart and half as large again or more, is not the row's line: \"Fait à …… Le ……\" still opens its own and dates the signing", () => {
  const small = words('Vos informations restent privées et servent au suivi de votre dossier', 33, 774, 5);
  const row = (x: number) => [
    ...small,
    ...words('Fait à ....................................', x, 775, 8.5),
    ...words('Le ............................', x + 150, 775, 8.5),
  ];
  const dates = (ws: ReturnType<typeof words>) => suggestFields(page({ words: [...paragraph('fr', 100), ...ws] })).filter((s) => s.type === 'date');
  // (The small print ends at 205.5; the row starts 9 pt after it.)
  const [date, ...more] = dates(row(214.5));
  assert.equal(more.length, 0);
  assert.ok(date && date.x > 364, JSON.stringify(date));
  // (Words of one size side by side stay one line: the same row set in the small print's size is running text.)
  assert.equal(buildLines(words('Vos informations restent privées et servent au suivi de votre dossier Fait à', 33, 774, 5)).length, 1);
});

test('a timesheet\'s column of date fields row after row ("Date1", "Date2", … under "DATE" beside "TIME IN") is a log, not signing dates; a field named "Sign Date" on the signature line is its signing date', () => {
  const rows = [392, 404, 416, 429, 441, 453];
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('DATE', 296, 184, 8),
        ...words('TIME IN', 322, 184, 8),
        ...words("Student's Signature", 20, 440, 9),
        ...words('Date', 140, 440, 9),
      ],
      segments: [h(18, 190, 430)],
      widgets: [
        ...rows.map((y, i) => ({ kind: 'text' as const, name: `Date${i + 1}`, box: { x0: 292, y0: y, x1: 317, y1: y + 12 } })),
        { kind: 'text', name: 'Sign Date1', box: { x0: 133, y0: 414, x1: 185, y1: 428 } },
      ],
    }),
  );
  assert.deepEqual(
    found.filter((s) => s.reason === 'acroform' && s.type !== 'text').map((s) => [s.type, s.fieldKey, Math.round(s.y)]),
    [['date', 'sign_date', 414]],
    JSON.stringify(found),
  );
});

test('"Signature of Subject:" over a paragraph and a line with "Subject" under it: the caption heads that line, with no room of its own beside it', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('I have read this consent form and I understand the information given to me.', 72, 386, 12),
        ...words('Signature of Subject:', 72, 429, 14),
        ...words('I give my consent to take part in this research study and agree to allow my health', 72, 459, 12),
        ...words('information to be used and shared as described above.', 72, 472, 12),
        ...words('Subject', 72, 532, 12),
        ...words('Date', 324, 532, 12),
      ],
      segments: [h(72, 288, 517), h(324, 401, 517)],
    }),
  ).filter((s) => s.type === 'signature');
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.ok(Math.abs((found[0]?.y ?? 0) + (found[0]?.height ?? 0) - 517) <= 1 && Math.abs((found[0]?.x ?? 0) - 72) <= 1, JSON.stringify(found));
});

test('a caption heading a box drawn with open sides (a rule over it, a wall hanging from one end) with a run of underscores in the box under it: the run is its line', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('pt', 100),
        ...words('Assinatura dos Representantes Autorizados com carimbo', 60, 596, 10),
        ...words('identificador:', 60, 608, 10),
        ...words('_____________________________________________', 78, 641, 10),
        ...words('Órgão/Empregador', 159, 652, 10),
      ],
      segments: [h(57, 347, 586.8), h(348, 539, 586.8)],
      verticals: [v(347, 587, 766)],
    }),
  ).filter((s) => s.type === 'signature');
  assert.equal(found.length, 1, JSON.stringify(brief(found)));
  assert.ok(Math.abs((found[0]?.x ?? 0) - 78) <= 1 && Math.abs((found[0]?.y ?? 0) + (found[0]?.height ?? 0) - 643) <= 2, JSON.stringify(brief(found)));
});

test('two signers\' lines written as one run of underscores with a space between ("_____ _____"), captions under the first only: a place on each line', () => {
  const run = `${'_'.repeat(27)} ${'_'.repeat(28)}`;
  for (const caption of ['CONTRATADA CONTRATANTE', 'Witness First Party']) {
    const found = suggestFields(page({ words: [...paragraph('pt', 300), ...words(run, 85, 514, 12), ...words(caption, 85, 540, 12)] })).filter(
      (s) => s.type === 'signature',
    );
    assert.equal(found.length, 2, `${caption}: ${JSON.stringify(brief(found))}`);
    const [a, b] = [...found].sort((p, q) => p.x - q.x);
    assert.ok(Math.abs((a?.x ?? 0) - 85) <= 2 && (a?.x ?? 0) + (a?.width ?? 0) < (b?.x ?? 0), `${caption}: ${JSON.stringify(brief(found))}`);
    assert.ok(Math.abs((b?.x ?? 0) + (b?.width ?? 0) - (85 + run.length * 6)) <= 30, `${caption}: ${JSON.stringify(brief(found))}`);
  }
});

test('a place and its comma alone on their row with nothing after them ("Berlin,", "L\'Aquila,") near a line to sign: the date goes in the room after the comma; not after a greeting, a closing, a sentence\'s words or a paragraph\'s first line', () => {
  const signing = (over: string, more: Word[] = []) =>
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100),
          ...words(over, 71, 647, 13),
          ...more,
          ...words('________________________________', 71, 711, 11),
          ...words('(Vollmachtgeber/in)', 71, 731, 11),
        ],
      }),
    );
  for (const place of ['Berlin,', "L'Aquila,", 'Frankfurt am Main,']) {
    const found = signing(place);
    const date = found.find((s) => s.type === 'date');
    const end = 71 + [...place].length * 6.5;
    assert.ok(
      date && Math.abs(date.x - end) <= 4 && date.width >= 70 && Math.abs(date.y + date.height - 650) <= 4,
      `${place}: ${JSON.stringify(brief(found))}`,
    );
    assert.equal(date.fieldKey, 'sign_date');
  }
  for (const other of ['Sehr geehrte Herren,', 'Hochachtungsvoll,', 'Hiermit beantrage ich,', 'Liebe Eltern,'])
    assert.deepEqual(types(signing(other)), ['signature'], other);
  // (A paragraph's first line, the rest of its sentence under it; a row shared with other words.)
  assert.deepEqual(types(signing('Ich erkenne,', words('dass die Satzung des Vereins für mich gilt.', 71, 662, 13))), ['signature']);
  assert.deepEqual(types(signing('Bonn,', words('Der Urlaub wird genehmigt', 250, 647, 13))), ['signature']);
});

test('a French "Le" opening its line before a date\'s three parts ("LE . . . / . . . / . . . . .", "Le : __ / __ / ____"): the date from its first part to its last; "Le ______" opening a sentence is none', () => {
  const form = (row: string) =>
    suggestFields(
      page({
        words: [...paragraph('fr', 100), ...words(row, 38, 694, 8.5), ...words('Signature du licencié', 300, 660, 8.5)],
        segments: [h(300, 520, 694)],
      }),
    ).filter((s) => s.type === 'date');
  for (const row of ['LE . . . . . . / . . . . . . . / . . . . . . . . . . . . .', 'Le : ________ / ________ / ______________']) {
    const found = form(row);
    const parts = words(row, 38, 694, 8.5).filter((w) => /[._]{3}/.test(w.text.replace(/\s/g, '')));
    const [first, last] = [parts[0], parts.at(-1)];
    assert.equal(found.length, 1, `${row}: ${JSON.stringify(brief(found))}`);
    assert.ok(
      first && last && Math.abs((found[0]?.x ?? 0) - first.box.x0) <= 1 && Math.abs((found[0]?.x ?? 0) + (found[0]?.width ?? 0) - last.box.x1) <= 1,
      row,
    );
  }
  assert.deepEqual(form('Le ______________ soussigné déclare'), []);
});

test('a caption\'s colon printed over the start of its blank, the blank set a little lower in a larger size ("Signature :" in 9 pt, its run in 13 pt): the run is its line', () => {
  const word = (text: string, x0: number, x1: number, baseline: number, size: number): Word => ({
    text,
    box: { x0, y0: baseline - 0.8 * size, x1, y1: baseline + 0.2 * size },
    baseline,
    size,
    confidence: 1,
  });
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        word('Signature', 306, 352.6, 439, 9.4),
        word(':', 355.4, 358.2, 439, 9.4),
        word('__________________', 354.4, 527.5, 442.4, 13.1),
      ],
    }),
  ).filter((s) => s.type === 'signature');
  assert.equal(found.length, 1, JSON.stringify(brief(found)));
  assert.ok(Math.abs((found[0]?.x ?? 0) - 354.4) <= 1 && Math.abs((found[0]?.y ?? 0) + (found[0]?.height ?? 0) - 444.4) <= 2, JSON.stringify(brief(found)));
});

test('Danish and Norwegian captions on their pages ("Dato", "Signatur", "Navn"); Italian "dato" (a datum) asks for no date', () => {
  const danish = words('Jeg bekræfter at oplysningerne er korrekte og at jeg har læst vedtægterne for medlemskab af foreningen og accepterer dem', 57, 300, 10);
  const form = (text: Word[], row: string) =>
    suggestFields(page({ words: [...text, ...words(row, 57, 400, 10)] }))
      .map((s) => [s.type, s.fieldKey ?? ''])
      .sort();
  assert.deepEqual(form(danish, 'Dato: ______________   Signatur: ______________________'), [
    ['date', 'sign_date'],
    ['signature', ''],
  ]);
  assert.deepEqual(form(danish, 'Navn: ______________________'), [['text', 'signer_name']]);
  assert.deepEqual(form(paragraph('it', 300), 'Dato: ______________'), []);
});

test('a caption set a little larger than the page\'s text (11.5 pt over 9 pt) over the room it asks for is signed under; a heading\'s word at that size with its colon ("Signatures :") and a caption half as large again are headings', () => {
  const form = (text: string, size: number) =>
    suggestFields(page({ words: [...paragraph('fr', 300), ...words(text, 57, 372, size)] }))
      .filter((s) => s.type === 'signature')
      .map((s) => ({ x: Math.round(s.x), top: Math.round(s.y), bottom: Math.round(s.y + s.height) }));
  const signed = form('Signature du responsable légal', 11.5);
  assert.equal(signed.length, 1, JSON.stringify(signed));
  assert.ok(signed[0] && signed[0].x === 57 && signed[0].top > 372 && signed[0].bottom <= 430, JSON.stringify(signed));
  assert.deepEqual(form('Signatures :', 11.5), []);
  assert.deepEqual(form('Signature du responsable légal', 13.5), []);
});

test('"Administrator" under a line beside "date" under the same line names who signs there, as "Parent or guardian" does; a word naming nobody does not', () => {
  const row = (who: string) =>
    suggestFields(
      page({
        words: [...paragraph('en', 200), ...words('______________________________', 72, 261, 12), ...words(who, 72, 275, 12), ...words('date', 219, 275, 12)],
      }),
    )
      .map((s) => s.type)
      .sort();
  assert.deepEqual(row('Administrator'), ['date', 'signature']);
  assert.deepEqual(row('Parent or guardian'), ['date', 'signature']);
  assert.deepEqual(row('Banana'), []);
});

test('a name under a line with the party it signs as in parentheses ("JOÃO PEREIRA LIMA (LOCATÁRIO)") on a page that speaks of signing: the line is to sign on, however long (a contract\'s lines run 445 pt); a word in parentheses naming no party is no such name', () => {
  const text = words('As partes assinam este contrato em duas vias de igual teor para que produza os seus efeitos', 72, 598, 11);
  const signed = (name: string, x1: number) =>
    suggestFields(page({ words: [...text, ...words(name, 72, 680, 11)], segments: [h(75, x1, 664)] }))
      .filter((s) => s.type === 'signature')
      .map((s) => [Math.round(s.x), Math.round(s.x + s.width), Math.round(s.y + s.height)]);
  assert.deepEqual(signed('JOÃO PEREIRA LIMA (LOCATÁRIO)', 520), [[75, 520, 664]]);
  assert.deepEqual(signed('JOÃO PEREIRA LIMA (LOCATÁRIO)', 375), [[75, 375, 664]]);
  assert.deepEqual(signed('JOÃO PEREIRA LIMA (BANANA)', 375), []);
});

test("a line after its caption under a line of text that ends before the line: the place rises no higher than that text's middle, as under text over the line itself: the text lies over its caption (a row of a form, 15 pt under the row above)", () => {
  const text = words('I have read this document and I sign it freely.', 72, 405, 9);
  const [signed] = suggestFields(
    page({ words: [...paragraph('en', 300), ...text, ...words('Signature :', 240, 420, 9), ...words('________________________', 300, 420, 9)] }),
  ).filter((s) => s.type === 'signature');
  const textMiddle = (Math.min(...text.map((w) => w.box.y0)) + Math.max(...text.map((w) => w.box.y1))) / 2;
  assert.ok(Math.max(...text.map((w) => w.box.x1)) < 300, 'the text above ends before the line');
  assert.ok(
    signed && signed.x >= 299 && signed.y >= textMiddle && signed.height <= 20 && signed.y + signed.height >= 419,
    JSON.stringify({ signed, textMiddle }),
  );
});

test('"Signature :" 27 pt under the row above, with nothing after it on its row: its room is beside it, squeezed to 26 pt or more under that row; 22 pt under it, its room is under it', () => {
  const signed = (gap: number) =>
    suggestFields(
      page({
        words: [...paragraph('fr', 560), ...words('Fait à ……………………… le ……………….', 71, 789 - gap, 12), ...words('Signature :', 71, 789, 12)],
      }),
    )
      .filter((s) => s.type === 'signature')
      .map((s) => (s.x > 130 && s.y + s.height <= 795 ? 'beside' : s.y >= 790 ? 'under' : `elsewhere ${JSON.stringify(s)}`));
  assert.deepEqual(signed(27), ['beside']);
  assert.deepEqual(signed(22), ['under']);
});

test('"Fait à ……, le ……" then a bare "Signature :" on its row, with room over it: its room is beside it; a caption of more words there ("Signatures des parents :") signs under it', () => {
  const place = (caption: string) =>
    suggestFields(
      page({
        words: [...paragraph('fr', 400), ...words('Fait à …………………………, le ………………………', 57, 520, 11), ...words(caption, 300, 520, 11)],
      }),
    )
      .filter((s) => s.type === 'signature')
      .map((s) => (s.y + s.height <= 526 && s.x > 300 ? 'beside' : s.y >= 521 ? 'under' : `elsewhere ${JSON.stringify(s)}`));
  assert.deepEqual(place('Signature :'), ['beside']);
  assert.deepEqual(place('Signatures des parents :'), ['under']);
});
