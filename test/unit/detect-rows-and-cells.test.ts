// Field detection's rules for rows and cells on hand-built pages: column headers over empty rows, captions
// at the bottom of a cell, stacked rows of lines, captions wider than their line or set apart from it by a
// line's height, long qualifiers before a blank; caption wording of several languages; what is not a place
// to sign (a caption inside running text, a caption under a field found already, a row of data captions).
// No PDF, no child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellAt, suggestFields, type PageModel, type Suggestion, type Word } from '../../src/pdf/detect/suggest-fields.js';
import { cellBlank } from '../../src/pdf/detect/table-cells.js';
import { suggestAcross } from '../../src/pdf/detect/continued-tables.js';
import { guessLanguage } from '../../src/pdf/detect/page-language.js';
import { buildLines, findLabels } from '../../src/pdf/detect/lines-and-labels.js';
import { fillLines, unasked } from '../../src/pdf/detect/filled-blanks.js';
import { brief, h, page, paragraph, plainParagraph, types, v, words } from '../helpers/detect-pages.js';

/** The fields suggested on a page of a paragraph in `lang` and `parts`, as [type, x, y, width, height]. */
const placed = (lang: Parameters<typeof paragraph>[0], parts: Partial<PageModel>) =>
  brief(suggestFields(page({ ...parts, words: [...paragraph(lang, 100), ...(parts.words ?? [])] }))).map((s) => [s.type, s.x, s.y, s.w, s.h]);

test('table cells: a row of column headers over empty rows gives the cells under it, down the column for signatures and dates; a caption at the bottom of a tall cell, the room above it', () => {
  const headers = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Name', 60, 212), ...words('Signature', 240, 212), ...words('Date', 420, 212)],
      segments: [h(50, 540, 200), h(50, 540, 218), h(50, 540, 245), h(50, 540, 272)],
      verticals: [v(50, 200, 272), v(230, 200, 272), v(410, 200, 272), v(540, 200, 272)],
    }),
  );
  assert.deepEqual(brief(headers), [
    { type: 'text', x: 51, y: 219, w: 178, h: 25 },
    { type: 'signature', x: 231, y: 219, w: 178, h: 25 },
    { type: 'date', x: 411, y: 219, w: 128, h: 25 },
    // Each empty row further down the column is another signer's (a sign-in sheet); a name is not asked for again.
    { type: 'signature', x: 231, y: 246, w: 178, h: 25 },
    { type: 'date', x: 411, y: 246, w: 128, h: 25 },
  ]);
  // Headers of several lines over shorter rows, their words read as one line across the border: "Datum" and
  // "Unterschrift des/der Studierenden" head two columns, each cell under them a place of its own.
  const tall = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Name', 70, 376, 12),
        ...words('Datum', 336, 376, 12),
        ...words('Unterschrift des/der', 388, 375, 12),
        ...words('Studierenden', 400, 391, 12),
        ...words('Note', 499, 376, 12),
      ],
      segments: [h(65, 530, 346), h(65, 530, 410), h(65, 530, 437), h(65, 530, 463)],
      verticals: [324, 376, 489].map((x) => v(x, 346, 463)).concat([v(65, 346, 463), v(530, 346, 463)]),
    }),
  );
  assert.deepEqual(
    brief(tall).filter((s) => s.type !== 'text'),
    [
      { type: 'date', x: 325, y: 411, w: 50, h: 25 },
      { type: 'signature', x: 377, y: 411, w: 111, h: 25 },
      { type: 'date', x: 325, y: 438, w: 50, h: 24 },
      { type: 'signature', x: 377, y: 438, w: 111, h: 24 },
    ],
  );
  // A line drawn on the caption's baseline inside its cell is the blank, not the rest of the cell.
  const lined = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature', 50, 200), ...words('Date', 350, 200)],
      segments: [h(40, 550, 165), h(100, 330, 201), h(380, 530, 201), h(40, 550, 212)],
      verticals: [v(40, 165, 212), v(340, 165, 212), v(550, 165, 212)],
    }),
  );
  assert.deepEqual(brief(lined), [
    { type: 'signature', x: 100, y: 166, w: 230, h: 35 },
    { type: 'date', x: 380, y: 181, w: 150, h: 20 },
  ]);
  const bottom = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature of Applicant', 60, 245), ...words('Date', 360, 245)],
      segments: [h(50, 540, 200), h(50, 540, 250)],
      verticals: [v(50, 200, 250), v(350, 200, 250), v(540, 200, 250)],
    }),
  );
  assert.deepEqual(brief(bottom), [
    { type: 'signature', x: 51, y: 201, w: 298, h: 34 },
    { type: 'date', x: 351, y: 201, w: 188, h: 34 },
  ]);
});

test('a table ruled across only ("Name   Signature   Date" over empty rows between rules): its captions set its columns, each empty row a signer\'s; not captions hanging from a line', () => {
  const header = [...words('Name', 70, 400, 10), ...words('Signature', 250, 400, 10), ...words('Date', 430, 400, 10)];
  const rows = [h(60, 540, 435), h(60, 540, 465), h(60, 540, 495)];
  const signers = [
    ['signature', 171, 406, 191, 28],
    ['date', 364, 406, 176, 28],
    ['signature', 171, 436, 191, 28],
    ['date', 364, 436, 176, 28],
    ['signature', 171, 466, 191, 28],
    ['date', 364, 466, 176, 28],
  ];
  // The header right over the first rule (the columns split halfway between its captions), or between two rules.
  assert.deepEqual(placed('en', { words: header, segments: [h(60, 540, 405), ...rows] }), [['text', 61, 406, 108, 28], ...signers]);
  // Captions set at their columns' starts (the first right at the rules' start, as a word processor sets a
  // table's text): each column starts where its caption does.
  const setAtStart = placed('en', {
    words: [...words('Name', 63, 400, 10), ...words('Signature', 250, 400, 10), ...words('Date', 430, 400, 10)],
    segments: [h(60, 540, 405), ...rows],
  });
  assert.deepEqual(
    setAtStart.filter(([type]) => type !== 'text').map(([type, x, , w]) => [type, x, w]),
    [
      ['signature', 248, 178],
      ['date', 428, 111],
      ['signature', 248, 178],
      ['date', 428, 111],
      ['signature', 248, 178],
      ['date', 428, 111],
    ],
  );
  // A name typed in its column already leaves the signature's and the date's cells to fill in (and its header, over a
  // value, no room of its own).
  const named = placed('en', { words: [...header, ...words('John Smith', 70, 428, 10)], segments: [h(60, 540, 388), h(60, 540, 405), ...rows] });
  assert.deepEqual(named, signers);
  // "Signature   Date" hanging from the line over them name that line: no header of the rules under it.
  const hanging = placed('en', {
    words: [...words('Signature', 72, 516, 10), ...words('Date', 243, 516, 10)],
    segments: [h(72, 270, 506), h(72, 270, 542), h(72, 270, 577)],
  });
  // (`Date` 27 pt from the line's end: its part reaches back to 60 pt.)
  assert.deepEqual(hanging, [
    ['signature', 72, 466, 137, 40],
    ['date', 211, 486, 59, 20],
  ]);
});

test('rows of lines: stacked rows keep a field each; a line under the row or starting under the caption is its blank', () => {
  const stacked = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Name', 50, 200), ...words('Signature', 50, 222), ...words('Date', 50, 244)],
      segments: [h(110, 360, 201), h(110, 360, 223), h(110, 360, 245)],
    }),
  );
  assert.deepEqual(brief(stacked), [
    { type: 'text', x: 110, y: 181, w: 250, h: 20 },
    { type: 'signature', x: 110, y: 202, w: 250, h: 21 },
    { type: 'date', x: 110, y: 225, w: 250, h: 20 },
  ]);
  // A border drawn 9 pt under the baseline (an HTML blank), and a line that starts under the caption's colon.
  const low = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature', 50, 200)], segments: [h(100, 360, 209)] }));
  assert.deepEqual(brief(low), [{ type: 'signature', x: 100, y: 169, w: 260, h: 40 }]);
  // One rule after "Signature" running on under "Date": each caption takes its part.
  const one = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Signature', 50, 200), ...words('Date', 380, 200)], segments: [h(100, 530, 201)] }),
  );
  assert.deepEqual(brief(one), [
    { type: 'signature', x: 100, y: 161, w: 276, h: 40 },
    { type: 'date', x: 404, y: 181, w: 126, h: 20 },
  ]);
  // A row ruled above and below with a line on the caption's baseline: the line is the blank, not the row.
  const ruled = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature', 50, 200), ...words('Date', 350, 200)],
      segments: [h(40, 550, 165), h(100, 330, 201), h(380, 530, 201), h(40, 550, 212)],
    }),
  );
  assert.deepEqual(brief(ruled), [
    { type: 'signature', x: 100, y: 166, w: 230, h: 35 },
    { type: 'date', x: 380, y: 181, w: 150, h: 20 },
  ]);
  const early = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature:', 50, 200)], segments: [h(90, 360, 201)] }));
  assert.deepEqual(brief(early), [{ type: 'signature', x: 104, y: 161, w: 256, h: 40 }]);
});

test('captions under their line: wider than the line and centred under it, or a line and a half below it; a party named in several words', () => {
  const wide = suggestFields(page({ words: [...paragraph('it', 100), ...words('Firma del legale rappresentante', 340, 215)], segments: [h(360, 480, 200)] }));
  assert.deepEqual(brief(wide), [{ type: 'signature', x: 360, y: 160, w: 120, h: 40 }]);
  const far = suggestFields(page({ words: [...paragraph('de', 100), ...words('Unterschrift', 400, 224)], segments: [h(330, 530, 200)] }));
  assert.deepEqual(brief(far), [{ type: 'signature', x: 330, y: 160, w: 200, h: 40 }]);
  const party = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('......................................................', 300, 200),
        ...words('Il legale rappresentante', 360, 214),
      ],
    }),
  );
  assert.deepEqual(
    brief(party).map((s) => [s.type, s.x]),
    [['signature', 300]],
  );
});

test('a caption in parentheses right after its blank names that blank: "______ (Date) ______ (Signature)", a line then "(Unterschrift)"', () => {
  const pair = suggestFields(page({ words: [...paragraph('en', 100), ...words('______________ (Date)      ______________________ (Signature)', 50, 200)] }));
  assert.deepEqual(brief(pair), [
    { type: 'signature', x: 176, y: 162, w: 123, h: 40 },
    { type: 'date', x: 50, y: 182, w: 78, h: 20 },
  ]);
  const line = suggestFields(page({ words: [...paragraph('de', 100), ...words('(Unterschrift)', 260, 200)], segments: [h(50, 250, 201)] }));
  assert.deepEqual(brief(line), [{ type: 'signature', x: 50, y: 161, w: 200, h: 40 }]);
});

test('party captions led by "for": "For the Company:" and "Für den Mieter" over a line, "Pela CONTRATANTE" under one', () => {
  const company = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('For the Company:', 50, 200),
        ...words('For the Client:', 330, 200),
        ...words('______________________', 50, 235),
        ...words('______________________', 330, 235),
      ],
    }),
  );
  assert.deepEqual(
    brief(company).map((s) => [s.type, s.x]),
    [
      ['signature', 50],
      ['signature', 330],
    ],
  );
  const german = suggestFields(
    page({
      words: [...paragraph('de', 100), ...words('Für den Mieter', 50, 200), ...words('Für den Vermieter', 330, 200)],
      segments: [h(50, 250, 240), h(330, 530, 240)],
    }),
  );
  assert.deepEqual(
    german.map((s) => [s.type, s.roleHint]),
    [
      ['signature', 'tenant'],
      ['signature', 'landlord'],
    ],
  );
  const under = suggestFields(page({ words: [...paragraph('it', 100), ...words('Pela CONTRATANTE', 50, 214)], segments: [h(50, 250, 200)] }));
  assert.deepEqual(
    under.map((s) => s.type),
    ['signature'],
  );
});

test('a party\'s colon with its run set apart along its row, as a tab sets it ("Witness:      ______"): the run is where the party signs; not in a column of data captions ("BIC:" over "Bank:")', () => {
  const tabbed = (parts: Array<[string, number, number]>) =>
    placed('en', { words: parts.flatMap(([t, x, y]) => words(t, x, y)) }).filter((s) => s[0] === 'signature');
  const run = '_'.repeat(28);
  for (const gap of [30, 60, 90])
    assert.deepEqual(
      tabbed([
        ['Witness:', 70, 300],
        [run, 110 + gap, 300],
      ]),
      [['signature', 110 + gap, 262, 140, 40]],
      `gap ${gap}`,
    );
  assert.deepEqual(
    tabbed([
      ['BIC:', 70, 260],
      [run, 212, 260],
      ['Bank:', 70, 300],
      [run, 212, 300],
    ]),
    [],
  );
});

test('a party caption with a "By:" line under it signs there; the line over its name is for the name', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('_________________________________________', 318, 640, 10),
        ...words('CONTRACTOR', 356, 653, 12),
        ...words('By: _____________________________', 318, 678, 12),
      ],
    }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, Math.round(s.y + s.height)]),
    [['signature', 680]],
  );
});

test('a signature caption that opens its run reaches a long blank at its end without a colon; "Signed this ___ day of" is a date', () => {
  for (const [language, line] of [
    ['it', 'Firma del genitore o di chi esercita la responsabilità genitoriale ______________________'],
    ['de', 'Unterschrift des Antragstellers bzw. des gesetzlichen Vertreters ______________________'],
    ['en', 'Signature of parent or legal guardian if participant is under 18 ______________________'],
  ] as const) {
    const found = suggestFields(page({ words: [...paragraph(language, 100), ...words(line, 50, 200)] }));
    assert.equal(found.length, 1, line);
    assert.equal(found[0]?.type, 'signature', line);
    assert.ok((found[0]?.x ?? 0) > 340 && (found[0]?.y ?? 0) < 200, `${line}: on the blank, not under the caption`);
  }
  const dated = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signed this ______ day of ______________, 20____', 50, 200)] }));
  assert.deepEqual(
    dated.map((s) => s.type),
    ['date'],
  );
});

test('caption wording: qualifiers, elided articles, gender endings, Italian "in fede", Arabic "and" and OCR misreadings, name and signature in one caption, Spanish "Firma, aclaración y DNI" and "Vº Bº"', () => {
  const cases: Array<[Word[], Array<{ x0: number; x1: number; y: number }>, string]> = [
    [[...paragraph('de', 100), ...words('Rechtsverbindliche Unterschrift', 350, 215)], [h(330, 530, 200)], 'signature@330'],
    [[...paragraph('it', 100), ...words("Firma dell'interessato ______________________", 50, 200)], [], 'signature@155'],
    [[...paragraph('de', 100), ...words('Unterschrift Erziehungsberechtigte(r) ______________________', 50, 200)], [], 'signature@230'],
    [[...paragraph('it', 100), ...words('In fede', 400, 200)], [h(330, 530, 240)], 'signature@330'],
    [[...paragraph('ar', 100), ...words('الختم والتوقيع: ..........................', 300, 200, 10, true)], [], 'signature@300'],
    [[...paragraph('ar', 100), ...words('التوفيع: ..........................', 300, 200, 10, true)], [], 'signature@300'],
    [[...paragraph('it', 100), ...words('Nome e firma', 400, 215)], [h(330, 530, 200)], 'signature@330'],
    [[...paragraph('de', 100), ...words('Datum der Unterschrift: ____________', 50, 200)], [], 'date@164'],
    [[...paragraph('es', 100), ...words('Firma, aclaración y DNI', 340, 215)], [h(330, 530, 200)], 'signature@330'],
    [[...paragraph('es', 100), ...words('Vº Bº EL DIRECTOR', 340, 215)], [h(330, 530, 200)], 'signature@330'],
  ];
  for (const [pageWords, segments, expected] of cases) {
    const found = suggestFields(page({ words: pageWords, segments }));
    assert.deepEqual(
      found.map((s) => `${s.type}@${Math.round(s.x)}`),
      [expected],
      pageWords.at(-1)?.text,
    );
  }
});

test('no place to sign: a caption inside running text, a caption under a field found already, a party blank in a row of data captions', () => {
  const running = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('The contract runs from the …………. (Date of signature of the contract) until the end of March of the next year', 50, 200),
      ],
    }),
  );
  assert.deepEqual(running, []);
  const named = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('X ______________________', 50, 200), ...words('Signature of Patient', 50, 214)] }),
  );
  assert.deepEqual(
    named.map((s) => s.type),
    ['signature'],
  );
  const data = suggestFields(
    page({ words: [...paragraph('de', 100), ...words('BIC:', 72, 658), ...words('Bank: __________________', 242, 659)], segments: [h(106, 207, 660)] }),
  );
  assert.ok(!data.some((s) => s.type === 'signature'), JSON.stringify(brief(data)));
  // A name ending with a caption's word is a name: "Alderson Reporting Company" at a transcript's foot.
  assert.deepEqual(suggestFields(page({ words: [...paragraph('en', 100), ...words('Alderson Reporting Company', 264, 754)] })), []);
});

test('a blank after "on" in a sentence about signing is the signing date; a birth date after "nato a ____ il" is none', () => {
  const signed = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('In witness whereof, the parties have signed this agreement on ______________.', 50, 200)] }),
  );
  assert.deepEqual(brief(signed), [{ type: 'date', x: 352, y: 182, w: 83, h: 20 }]);
  const born = suggestFields(
    page({ words: [...paragraph('it', 100), ...words('Il sottoscritto ______________ nato a ____________ il ___________', 50, 200)] }),
  );
  assert.ok(!born.some((s) => s.type === 'date'), JSON.stringify(brief(born)));
});

test('room under a caption whose line of up to eight words holds nothing else starts under its first word ("Student Signature", "PARENT / GUARDIAN SIGNATURE"); under the caption\'s word when words under the line\'s start leave no room there', () => {
  const room = (caption: string, under: Word[] = []) =>
    placed('en', { words: [...words(caption, 70, 300), ...under, ...words('Please return this form to the office before the end of the month.', 70, 360)] });
  assert.deepEqual(room('Student Signature'), [['signature', 70, 306, 180, 40]]);
  assert.deepEqual(room('PARENT / GUARDIAN SIGNATURE'), [['signature', 70, 306, 180, 40]]);
  // Up to eight words on the line: "Timbro dell'Ente e Firma del Legale Rappresentante" signs under its first word too.
  const ente = placed('it', {
    words: [...words("Timbro dell'Ente e Firma del Legale Rappresentante", 70, 300), ...words('Inviare il modulo compilato alla segreteria.', 70, 360)],
  });
  assert.deepEqual(ente, [['signature', 70, 306, 180, 40]]);
  // ("Sign within box" right under the line's start: the room is under "Signature", clear of it.)
  assert.deepEqual(room('Participant Signature', words('Sign within box', 70, 318, 7)), [['signature', 127, 306, 180, 40]]);
});

test('room to write: German "Unterschrift" without a colon signs above it when a signature\'s height is clear there; with a colon, beside it', () => {
  const above = suggestFields(page({ words: [...paragraph('de', 100), ...words('Frankfurt, den', 57, 323), ...words('Unterschrift', 376, 323)] }));
  assert.deepEqual(
    brief(above).filter((s) => s.type === 'signature'),
    [{ type: 'signature', x: 376, y: 273, w: 180, h: 40 }],
  );
  // Each of two captions side by side, one naming who signs by a capitalised word after it ("Unterschrift Vorstand").
  const two = suggestFields(
    page({ words: [...paragraph('de', 100), ...words('Unterschrift Mitglied', 72, 323), ...words('Unterschrift Vorstand', 330, 323)] }),
  );
  assert.deepEqual(
    brief(two).map((s) => [s.type, s.x, s.y]),
    [
      ['signature', 72, 273],
      ['signature', 330, 273],
    ],
  );
  // (On an English page a word after "Signature" may be anything's name: "Signature Pen" in a row of a program's tools.)
  const tools = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Straight Freeform', 203, 385), ...words('Signature Pen', 319, 385), ...words('Cloud Tool', 433, 385)] }),
  );
  assert.deepEqual(brief(tools), []);
  const beside = suggestFields(page({ words: [...paragraph('de', 100), ...words('Unterschrift:', 330, 300)] }));
  assert.ok((beside[0]?.x ?? 0) > 390 && (beside[0]?.y ?? 0) > 250, JSON.stringify(brief(beside)));
});

test('room to write: a signature caption naming whose it is, without a colon ("Signature of the Land Lord", "Signature of Applicant"), signs above it when a signature\'s height is clear there', () => {
  const signature = (lang: 'en' | 'fr', caption: string, more: Word[] = []) =>
    brief(suggestFields(page({ words: [...paragraph(lang, 100), ...words(caption, 397, 483), ...more] }))).filter((s) => s.type === 'signature');
  assert.deepEqual(signature('en', 'Signature of the Land Lord'), [{ type: 'signature', x: 397, y: 433, w: 180, h: 40 }]);
  assert.deepEqual(signature('en', 'Signature of Applicant'), [{ type: 'signature', x: 397, y: 433, w: 180, h: 40 }]);
  // (Text close over it: the room under it, as before.)
  assert.deepEqual(
    signature('en', 'Signature of the Land Lord', words('Received with thanks the rent for the month', 300, 460)).map((s) => s.y > 483),
    [true],
  );
});

test('room to write: "Authorized Signatory" without a colon signs above it, from the start of its line, when a signature\'s height is clear there', () => {
  const signature = (caption: string, more: Word[] = []) =>
    brief(suggestFields(page({ words: [...paragraph('en', 100), ...words(caption, 374, 600), ...more] }))).filter((s) => s.type === 'signature');
  assert.deepEqual(signature('Authorized Signatory'), [{ type: 'signature', x: 374, y: 550, w: 180, h: 40 }]);
  // (Text close over it: the room under it, as before.)
  assert.deepEqual(
    signature('Authorized Signatory', words('Received with thanks the fee for the year', 300, 577)).map((s) => s.y > 600),
    [true],
  );
});

test('a line drawn along a caption\'s run of underscores is that caption\'s blank, not a line for the caption over them ("Authorized Signatory" over "Date: ____" drawn over a rule)', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Stamp and Seal of the Institution:', 30, 651),
        ...words('Authorized Signatory', 30, 726),
        ...words('Bright Mind International Academy', 30, 741),
        ...words('Date: __________________', 30, 756),
      ],
      segments: [h(60, 149, 757)],
    }),
  );
  const signatures = brief(found).filter((s) => s.type === 'signature');
  assert.equal(signatures.length, 1, JSON.stringify(signatures));
  // (Over the caption, under the stamp's caption.)
  assert.ok((signatures[0] as { y: number; h: number }).y + (signatures[0] as { h: number }).h <= 720, JSON.stringify(signatures));
  assert.deepEqual(brief(found).filter((s) => s.type === 'date').length, 1);
});

test('room to write: a row of names under their offices, no line drawn ("VºBº Presidencia   El secretario" over the names), signs between office and name; names alone do not', () => {
  const signatures = (more: Word[]) => brief(suggestFields(page({ words: [...paragraph('es', 100), ...more] }))).filter((s) => s.type === 'signature');
  const names = [...words('Juan Ignacio Rodríguez de León', 109, 484), ...words('Sergio Delgado Quintero', 376, 484)];
  const offices = [...words('VºBº Presidencia', 109, 370), ...words('El secretario', 376, 370)];
  const rooms = signatures([...offices, ...names]);
  assert.deepEqual(
    rooms.map((s) => [s.x, s.y + s.h <= 476 && s.y + s.h >= 470, s.h]),
    [
      [109, true, 40],
      [376, true, 40],
    ],
  );
  assert.deepEqual(signatures(names), []);
});

test('room to write: officers closing a record over white space, no line drawn ("Amaury Carrade, Président de …", a name over "(Presidente dell\'Assemblea)"), sign under; a letter\'s signer with room over the name does not', () => {
  const signatures = (lang: Parameters<typeof paragraph>[0], more: Word[]) =>
    brief(suggestFields(page({ words: [...paragraph(lang, 100), ...words('Fin de la réunion à 18h08', 75, 250), ...more] }))).filter(
      (s) => s.type === 'signature',
    );
  const minutes = signatures('fr', [
    ...words("Amaury Carrade, Président de l'association", 75, 273),
    ...words("Alban Traineau, Secrétaire de l'association", 75, 343),
  ]);
  assert.deepEqual(
    minutes.map((s) => [s.x, s.y, s.h]),
    [
      [75, 277, 40],
      [75, 347, 40],
    ],
  );
  const verbale = signatures('it', [
    ...words("Alle ore 21:40 l'assemblea termina e viene redatto il presente verbale.", 42, 734),
    ...words('Andrea Rossi', 127, 758),
    ...words('Riccardo Scartozzi', 385, 758),
    ...words("(Presidente dell'Assemblea)", 90, 782),
    ...words('(Segretario verbalizzante)', 366, 782),
  ]);
  assert.deepEqual(
    verbale.map((s) => [s.x, s.y > 782 && s.y < 790, s.h]),
    [
      [90, true, 40],
      [366, true, 40],
    ],
  );
  // Room over the name: a letter's signature goes there, over "Prof. A. P. Mittal" and "Member Secretary, AICTE".
  assert.deepEqual(signatures('en', [...words('Prof. Anil Mittal', 470, 294), ...words('Member Secretary, AICTE', 470, 304)]), []);
});

test('room to write: a student and a supervisor side by side under "Assinaturas" sign in the room under each ("Estudante   Supervisor")', () => {
  const found = brief(
    suggestFields(
      page({ words: [...paragraph('es', 100), ...words('Assinaturas', 62, 644), ...words('Estudante', 80, 675), ...words('Supervisor', 320, 675)] }),
    ),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    found.map((s) => [s.x, s.y > 675]),
    [
      [80, true],
      [320, true],
    ],
  );
});

test("room to write: two signature captions with their colons on one row each sign under their own when the first's room is under it, not the second in the margin beside it", () => {
  const found = brief(
    suggestFields(
      page({
        width: 841.92,
        height: 595.2,
        words: [
          ...paragraph('fr', 300),
          ...words('N.B Livrables réalisés conformément au cahier des charges avec le droit de regard du client.', 71, 490, 11),
          ...words('Signature du représentant de l’agence :', 71, 504, 11),
          ...words('Signature du représentant de Onsenfou :', 460, 504, 11),
          ...words('Lu et accepté', 71, 518, 11),
          ...words('Lu et accepté', 460, 518, 11),
        ],
      }),
    ),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    found.map((s) => [s.x, s.y > 504]),
    [
      [71, true],
      [460, true],
    ],
  );
});

test('a line with only a name typed under it is a place to sign on a page that speaks of signing', () => {
  const signing = [...paragraph('en', 100), ...words('IN WITNESS WHEREOF the parties have signed this Agreement.', 50, 170)];
  const named = suggestFields(
    page({ words: [...signing, ...words('John Smith', 330, 214), ...words('Chief Executive Officer', 330, 226)], segments: [h(330, 530, 200)] }),
  );
  // (27 pt of room under the sentence: the field reaches a little over it, topUnderText.)
  assert.deepEqual(brief(named), [{ type: 'signature', x: 330, y: 170, w: 200, h: 30 }]);
  // Not without signing on the page, nor over a heading, nor a double rule.
  const unsigned = suggestFields(page({ words: [...plainParagraph('en', 100), ...words('John Smith', 330, 214)], segments: [h(330, 530, 200)] }));
  assert.deepEqual(unsigned, []);
  const heading = suggestFields(page({ words: [...signing, ...words('Mustang Consulting LLC', 330, 222, 18)], segments: [h(330, 530, 200)] }));
  assert.deepEqual(heading, []);
  const double = suggestFields(page({ words: [...signing, ...words('John Smith', 330, 214)], segments: [h(330, 530, 192), h(330, 530, 200)] }));
  assert.deepEqual(double, []);
  // On any page when the name has the signer's identity number under it ("RUT: 12.456.879-0"); not a figure of another kind.
  const identified = (under: string) =>
    brief(
      suggestFields(
        page({ words: [...plainParagraph('es', 100), ...words('JUAN PEREZ SOTO', 330, 214), ...words(under, 330, 228)], segments: [h(330, 530, 200)] }),
      ),
    );
  assert.deepEqual(identified('RUT: 12.456.879-0'), [{ type: 'signature', x: 330, y: 160, w: 200, h: 40 }]);
  assert.deepEqual(identified('Total: 12.456.879'), []);
});

test('a line with an office named under it ("Secretaria do Curso de …") is where the office signs, on a page that speaks of signing', () => {
  const office = (under: string, declared = true) =>
    brief(
      suggestFields(
        page({
          words: [
            ...words('O estágio obrigatório tem a duração de um semestre e uma carga horária de 360 horas.', 60, 100),
            ...(declared ? words('Declaro, para os devidos fins, que a aluna concluiu o estágio obrigatório.', 60, 500) : []),
            ...words(under, 200, 700),
          ],
          segments: [h(198, 440, 687)],
        }),
      ),
    ).map((s) => [s.type, s.x, s.y + s.h]);
  assert.deepEqual(office('Secretaria do Curso de Física da Terra'), [['signature', 198, 687]]);
  // (Not a service's words in running text, nor without a word of signing or declaring on the page.)
  assert.deepEqual(office('Coordenação do curso às terças e quintas'), []);
  // (Nor a form's part kept for an office.)
  assert.deepEqual(office('Secretaria de Uso Exclusivo da Escola Técnica'), []);
  assert.deepEqual(office('Secretaria do Curso de Física da Terra', false), []);
});

test('lines with a name typed under each sign under an approval ("approved by the following board"), each line drawn twice or not', () => {
  const approval = (sentence: string, twice: boolean) =>
    brief(
      suggestFields(
        page({
          words: [...plainParagraph('en', 100), ...words(sentence, 50, 150), ...words('Mary Jones', 330, 214), ...words('Peter Brown', 330, 274)],
          segments: [h(330, 530, 200), h(330, 530, 260), ...(twice ? [h(330.2, 529.8, 200.1), h(330.2, 529.8, 260.1)] : [])],
        }),
      ),
    ).map((s) => [s.type, s.y]);
  const signed = [
    ['signature', 160],
    ['signature', 220],
  ];
  assert.deepEqual(approval('This report has been approved by the following board:', false), signed);
  assert.deepEqual(approval('This report has been approved by the following board:', true), signed);
  // (Nothing said of signing or approving: names under lines are no places to sign.)
  assert.deepEqual(approval('This report has been read by the following board:', true), []);
});

test("a row of lines standing apart, who signs named under each (minutes closed by their writer and chair), is where each signs, on any page; a form's rows of fields, close together, are not", () => {
  const minutes = (more: ReturnType<typeof words> = [], rules = [h(57, 240, 554), h(340, 518, 554)]) =>
    brief(
      suggestFields(
        page({
          words: [
            ...plainParagraph('de', 100),
            ...words('Protokollführer', 57, 488, 10),
            ...words('1. Vorstand', 305, 488, 10),
            ...words('Markus Kraus', 57, 568, 10),
            ...words('Peter Lux', 340, 568, 10),
            ...more,
          ],
          segments: rules,
        }),
      ),
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(minutes(), [
    { type: 'signature', x: 57, y: 514, w: 183, h: 40 },
    { type: 'signature', x: 340, y: 514, w: 178, h: 40 },
  ]);
  // One line alone is no row; a row of fields under another row 40 pt over it is a form's.
  assert.deepEqual(minutes([], [h(57, 240, 554)]), []);
  assert.deepEqual(minutes(words('Straße', 57, 528, 10), [h(57, 240, 514), h(340, 518, 514), h(57, 240, 554), h(340, 518, 554)]), []);
});

test('a line with whose signature named under it ("Study Doctor or Person Obtaining Consent") beside a line captioned "Date" alone is where that person signs, and the date line dates it; without the date line beside it, no place', () => {
  const block = (rules: Array<ReturnType<typeof h>>) =>
    brief(
      suggestFields(
        page({
          words: [...plainParagraph('en', 100), ...words('Study Doctor or Person Obtaining Consent', 72, 308, 10), ...words('Date', 324, 308, 10)],
          segments: rules,
        }),
      ),
    );
  const found = block([h(72, 288, 293), h(324, 401, 293)]);
  assert.deepEqual(
    found.map((s) => s.type),
    ['signature', 'date'],
    JSON.stringify(found),
  );
  assert.ok(found[0] && found[0].x === 72 && Math.abs(found[0].y + found[0].h - 293) <= 2, JSON.stringify(found));
  assert.deepEqual(block([h(72, 288, 293)]), []);
});

test('a line over a name caption with the name written after it ("Nombre y apellidos: Oscar Huarcaya Canal" over "Dirección e-mail: …") is where that person signs, on any page; not when the name is still to write', () => {
  const request = (name: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('es', 100),
          ...words('________________________________________', 57, 633, 14),
          ...words(`Nombre y apellidos: ${name}`, 57, 650, 14),
          ...words('Dirección e-mail: ohuarcayac@uni.pe', 57, 666, 14),
        ],
      }),
    );
  const [sig, ...more] = request('Oscar Huarcaya Canal').filter((s) => s.type === 'signature');
  assert.equal(more.length, 0);
  assert.ok(sig && Math.round(sig.x) === 57 && Math.abs(sig.y + sig.height - 635) <= 2 && sig.height >= 30, JSON.stringify(sig));
  assert.deepEqual(
    request('____________________').filter((s) => s.type === 'signature'),
    [],
  );
});

test('lines with names typed under them in a closing that signs with a verb ("as partes firmam"), and a party named under the name: one place on each line, none under', () => {
  const closing = words('E por estarem assim justos e contratados, as partes firmam o presente instrumento em duas vias.', 50, 170, 9);
  const block = (under: (x: number, i: number) => ReturnType<typeof words>) =>
    brief(
      suggestFields(
        page({
          words: [...paragraph('es', 100), ...closing, ...[60, 320].flatMap((x, i) => [...words('_'.repeat(40), x, 420), ...under(x, i)])],
        }),
      ),
    ).map((s) => [s.type, s.x, s.y]);
  assert.deepEqual(
    block((x, i) => words(['JOÃO DA SILVA', 'MARIA SOUZA LTDA'][i] as string, x, 432, 9)),
    [
      ['signature', 60, 382],
      ['signature', 320, 382],
    ],
  );
  assert.deepEqual(
    block((x, i) => [...words(['João da Silva', 'Maria Souza'][i] as string, x, 432, 9), ...words(['Contratante', 'Contratada'][i] as string, x, 444, 9)]),
    [
      ['signature', 60, 382],
      ['signature', 320, 382],
    ],
  );
});

test('a drawn line over a name, its identity number and the party under them ("Gabriel Adler" / "CPF: …" / "CONTRATANTE"): the party signs on the line; not over a sentence', () => {
  const closing = words('E por estarem assim justos e contratados, as partes assinam o presente instrumento.', 50, 170, 9);
  const block = (middle: [string, string]) =>
    placed('es', {
      words: [
        ...closing,
        ...words('Gabriel Adler Aedron', 80, 414, 9),
        ...words(middle[0], 80, 436, 9),
        ...words('CONTRATANTE', 100, 458, 9),
        ...words('SOLAR ENERGIA RENOVAVEIS', 340, 414, 9),
        ...words('LTDA', 380, 425, 9),
        ...words(middle[1], 340, 436, 9),
        ...words('CONTRATADA', 370, 458, 9),
      ],
      segments: [h(60, 270, 400), h(325, 535, 400)],
    });
  assert.deepEqual(block(['CPF: 783.621.764-12', 'CNPJ: 42.518.541/0001-56']), [
    ['signature', 60, 360, 210, 40],
    ['signature', 325, 360, 210, 40],
  ]);
  // (A sentence between the name and the party is no identity: the line is the name's, and the party signs in the room under it.)
  assert.deepEqual(block(['que declara estar de acordo', 'que declara estar de acordo']), [
    ['signature', 60, 360, 210, 40],
    ['signature', 325, 360, 210, 40],
    ['signature', 100, 464, 180, 40],
    ['signature', 370, 464, 180, 40],
  ]);
});

test('an underscore line over a firm\'s name ending in its legal form ("ALFA – SERVIÇOS DE LIMPEZA LTDA.") over its party: the party signs on the line', () => {
  const closing = words('E por estarem de acordo, as partes assinam o presente contrato em duas vias.', 50, 170, 9);
  const block = (firm: string) =>
    placed('es', { words: [...closing, ...words('_'.repeat(42), 325, 384, 9), ...words(firm, 330, 405, 9), ...words('CONTRATADA', 370, 419, 9)] }).filter(
      (s) => s[0] === 'signature',
    );
  assert.deepEqual(block('ALFA – SERVIÇOS DE LIMPEZA LTDA.'), [['signature', 325, 346, 189, 40]]);
  // (Not over a line of words that is no firm's name, its legal form missing: five capitalised words are no person's name either;
  // nor one whose last word only reads as a legal form in other letters' case, "Me" of "Write To Me" for Brazil's "ME".)
  assert.deepEqual(block('ALFA – SERVIÇOS DE LIMPEZA GERAL'), []);
  assert.deepEqual(block('Please Call Or Write To Me'), []);
});

test('a drawn line over a firm\'s name ending in its legal form and the person who signs for it ("ACME Ltda." over "João Silva Santos"), on a page that says nothing of signing: the firm signs on the line', () => {
  const terms = [0, 1, 2].flatMap((i) =>
    words('O presente contrato vigora por doze meses a contar desta data e pode ser renovado por acordo entre as partes.', 50, 120 + i * 12, 9),
  );
  const block = (firms: [string, string], people: [string, string]) =>
    brief(
      suggestFields(
        page({
          words: [
            ...terms,
            ...words('São Paulo, 22 de julho de 2025.', 400, 187, 9),
            ...[88, 319].flatMap((x, i) => [...words(firms[i] as string, x + 58, 285, 8), ...words(people[i] as string, x + 65, 298, 8)]),
          ],
          segments: [h(88, 277, 270), h(319, 508, 270)],
        }),
      ),
    )
      .filter((s) => s.type === 'signature')
      .map((s) => [s.x, s.y, s.w, s.h]);
  assert.deepEqual(block(['TechSolutions Ltda.', 'DevMaster Soluções Digitais EIRELI'], ['João Silva Santos', 'Maria Fernanda Costa']), [
    [88, 230, 189, 40],
    [319, 230, 189, 40],
  ]);
  // (A firm's name over its address is no signer's block; nor is a name without a legal form over another name.)
  assert.deepEqual(block(['TechSolutions Ltda.', 'DevMaster Soluções Digitais'], ['Rua das Flores 123', 'Maria Fernanda Costa']), []);
});

test('a row of captions ending on their colons under a signatures heading ("Le Bénéficiaire :   L\'Association … :"): the room under each is a signature; not for a row without colons', () => {
  const block = (left: string, right: string) =>
    placed('fr', {
      words: [
        ...words('Fait à Lyon, le 3 mars 2026', 168, 575, 10),
        ...words('Signatures précédées de la mention « Lu et approuvé » :', 57, 600, 10),
        ...words(left, 57, 627, 10),
        ...words(right, 309, 627, 10),
      ],
    });
  assert.deepEqual(block('Le Bénéficiaire :', "L'Association Maths et Maryam :"), [
    ['signature', 57, 633, 180, 40],
    ['signature', 309, 633, 180, 40],
  ]);
  // (Without their colons the lines may be names printed there already: nothing asks for room under them.)
  assert.deepEqual(block('Le Bénéficiaire', "L'Association Maths et Maryam"), []);
});

test('under a "Signatures" heading, a row of parties opening on an article ("L\'Association   Le/la bénévole") signs under each, under the name and title printed under one; not a row of names', () => {
  const block = (rows: Array<[string, number, number]>) =>
    placed('fr', {
      words: [
        ...words('Fait à Lyon en double exemplaire, le 21/03/2023', 71, 622, 11),
        ...words('Signatures', 71, 656, 11),
        ...rows.flatMap(([t, x, y]) => words(t, x, y, 11)),
      ],
    })
      .filter(([type]) => type === 'signature')
      .sort((a, b) => Number(a[1]) - Number(b[1]));
  const parties: Array<[string, number, number]> = [
    ["L'Association", 71, 681],
    ['Le/la bénévole', 402, 681],
  ];
  assert.deepEqual(
    block(parties).map(([, x]) => x),
    [71, 402],
  );
  // (The left one under the name and title printed under it.)
  const titled = block([...parties, ['Laurent Attar-Bayrou', 71, 694], ['Président', 71, 707]]);
  assert.deepEqual(
    titled.map(([, x]) => x),
    [71, 402],
  );
  assert.ok(Number(titled[0]?.[2]) > 707, JSON.stringify(titled));
  assert.deepEqual(
    block([
      ['Laurent Attar-Bayrou', 71, 681],
      ['Marie Dupont', 402, 681],
    ]),
    [],
  );
});

test('a party named alone on its line under the formula that dates the signing ("Fait à ……, le ……" over "Le responsable légal"): the room under it is a signature; not without the formula', () => {
  const formula = words('Fait à ……………………………, le ………………………', 60, 600, 10);
  const party = words('Le responsable légal', 330, 630, 10);
  assert.deepEqual(placed('fr', { words: [...formula, ...party] }), [
    ['date', 169, 582, 60, 20],
    ['signature', 330, 636, 180, 40],
  ]);
  assert.deepEqual(placed('fr', { words: party }), []);
  // (The Spanish formula likewise, "En ______ a ___ de ______ de ______" over "EL MANDANTE", who gives the mandate.)
  const mandate = words('EL MANDANTE', 271, 668, 10);
  const formulaEs = words('En _____________________ a ____ de _______________ de ________________', 165, 648, 10);
  const signatures = (found: unknown[][]) => found.filter((f) => f[0] === 'signature');
  assert.deepEqual(signatures(placed('es', { words: [...formulaEs, ...mandate] })), [['signature', 271, 674, 180, 40]]);
  assert.deepEqual(signatures(placed('es', { words: mandate })), []);
});

test('a row of captions each saying for whom one signs ("Pour l\'Objethèque de Cornouaille   Pour la « mise à disposition »"): the room under each is a signature; not when only one says it', () => {
  const block = (left: string, right: string) =>
    placed('fr', {
      words: [...words('Fait en deux exemplaires à Quimper, le 3 mars 2026.', 57, 480, 10), ...words(left, 57, 520, 10), ...words(right, 330, 520, 10)],
    });
  const both = [
    ['signature', 57, 526, 180, 40],
    ['signature', 330, 526, 180, 40],
  ];
  assert.deepEqual(block("Pour l'Objethèque de Cornouaille", 'Pour la « mise à disposition »'), both);
  assert.deepEqual(block('For ACME Consulting Ltd', 'For Jane Doe Studio'), both);
  // (A caption of something else beside it: the row is no row of parties.)
  assert.deepEqual(block("Pour l'Objethèque de Cornouaille", 'Adresse de la mise à disposition'), []);
});

test('a board\'s officers side by side ("Le Président   Le Secrétaire", "Il Presidente   Il Segretario", "Chairman   Secretary", "De voorzitter   De secretaris", "El Secretario   El Vocal"): the room under each is a signature', () => {
  const row = (lang: 'fr' | 'it' | 'en' | 'es', left: string, right: string) => placed(lang, { words: [...words(left, 90, 300), ...words(right, 380, 300)] });
  const both = [
    ['signature', 90, 306, 180, 40],
    ['signature', 380, 306, 180, 40],
  ];
  assert.deepEqual(row('fr', 'Le Président', 'Le Secrétaire'), both);
  assert.deepEqual(row('fr', 'La Trésorière', 'La Présidente'), both);
  assert.deepEqual(row('it', 'Il Presidente', 'Il Segretario'), both);
  assert.deepEqual(row('en', 'Chairman', 'Secretary'), both);
  assert.deepEqual(row('en', 'De voorzitter', 'De secretaris'), both);
  // (A board's or a jury's member in Spanish: "Vocal"; in Portuguese, "Vogal".)
  assert.deepEqual(row('es', 'El Secretario', 'El Vocal'), both);
});

test('three parties side by side ("Le stagiaire   Le tuteur   Le directeur"), a party named with the body it signs for in a word or two ("Le responsable de l\'école"), a party beside a caption saying for whom one signs ("L\'adhérent   Pour l\'association"): the room under each', () => {
  const row = (...captions: Array<[string, number]>) =>
    placed('fr', {
      words: [...captions.flatMap(([t, x]) => words(t, x, 330)), ...words('Merci de retourner ce document signé avant le 30 juin.', 70, 420)],
    }).map(([type, x]) => [type, x]);
  assert.deepEqual(row(['Le stagiaire', 50], ['Le tuteur', 220], ['Le directeur', 400]), [
    ['signature', 50],
    ['signature', 220],
    ['signature', 400],
  ]);
  // (The middle one nearer its right neighbour: the left one's room is not on its side.)
  assert.deepEqual(row(['Le bailleur', 50], ['Le locataire', 250], ['La caution', 400]), [
    ['signature', 50],
    ['signature', 250],
    ['signature', 400],
  ]);
  assert.deepEqual(row(['Le stagiaire', 50], ["Le responsable de l'école", 300]), [
    ['signature', 50],
    ['signature', 300],
  ]);
  assert.deepEqual(row(["L'adhérent", 70], ["Pour l'association", 330]), [
    ['signature', 70],
    ['signature', 330],
  ]);
  // (A teacher signs beside the pupil: "L'élève   L'enseignant".)
  assert.deepEqual(row(["L'élève", 70], ["L'enseignant", 330]), [
    ['signature', 70],
    ['signature', 330],
  ]);
});

test('two parties\' names side by side with a name printed under one ("Pour l\'organisme" over "Patrick Binam"): the room under each, under the printed name; not under words that are no name', () => {
  const block = (printed: string) =>
    placed('fr', {
      words: [
        ...words('Fait en deux exemplaires à Quimper, le 3 mars 2026.', 31, 680, 10),
        ...words('Pour le stagiaire', 31, 705, 10),
        ...words("Pour l'organisme", 244, 705, 10),
        ...words('(nom et qualité du signataire)', 31, 719, 10),
        ...words(printed, 246, 719, 10),
      ],
    });
  assert.deepEqual(block('Patrick Binam'), [
    ['signature', 31, 725, 180, 40],
    ['signature', 244, 725, 180, 40],
  ]);
  // ("C. C." under it is no name: the party's room is written in, as under an address.)
  assert.deepEqual(
    block('C. C.').filter((s) => s[0] === 'signature'),
    [],
  );
});

test('"Date" and "Signature" side by side without colons over empty room: the room under each, in either order; not a "Date" alone, nor one in a drawn box', () => {
  const row = (lang: 'en' | 'fr', left: string, right: string) => placed(lang, { words: [...words(left, 72, 600, 10), ...words(right, 263, 600, 10)] });
  assert.deepEqual(row('fr', 'Date', 'Signature'), [
    ['date', 72, 606, 110, 20],
    ['signature', 263, 606, 180, 40],
  ]);
  assert.deepEqual(row('en', 'Signature', 'Date'), [
    ['signature', 72, 606, 180, 40],
    ['date', 263, 606, 110, 20],
  ]);
  // (A "Date" with no signature on its row is a header or a date printed after it; one in a drawn box, over its
  // placeholder "DD / MM / YYYY", has no room under it in the page: the box is a form's cell, the date written in it.)
  assert.deepEqual(row('en', 'Date', 'Reference'), []);
  const boxed = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('PARTICIPANT SIGNATURE', 44, 600, 7),
        ...words('DATE SIGNED', 457, 600, 7),
        ...words('DD / MM / YYYY', 457, 630, 7),
      ],
      boxes: [
        { x0: 40, y0: 590, x1: 263, y1: 635 },
        { x0: 452, y0: 590, x1: 555, y1: 635 },
      ],
    }),
  );
  assert.deepEqual(brief(boxed), [
    { type: 'signature', x: 40, y: 604, w: 223, h: 31 },
    { type: 'date', x: 452, y: 604, w: 103, h: 31 },
  ]);
});

test('a party named alone under a line signs on it: "Witness", "Der Vorstand", "El Fiador", "Il datore di lavoro", "Le Directeur", "Witness 2"', () => {
  const under = (lang: 'en' | 'de' | 'es' | 'it' | 'fr', caption: string) =>
    suggestFields(page({ words: [...paragraph(lang, 100), ...words(caption, 60, 430, 10)], segments: [h(60, 260, 414)] })).map((s) => [
      s.type,
      Math.round(s.x),
      Math.round(s.y + s.height),
      s.roleHint,
    ]);
  assert.deepEqual(under('en', 'Witness'), [['signature', 60, 414, 'witness']]);
  assert.deepEqual(under('de', 'Der Vorstand'), [['signature', 60, 414, 'board']]);
  assert.deepEqual(under('es', 'El Fiador'), [['signature', 60, 414, 'guarantor']]);
  assert.deepEqual(under('it', 'Il datore di lavoro'), [['signature', 60, 414, 'employer']]);
  assert.deepEqual(under('fr', 'Le Directeur'), [['signature', 60, 414, 'signer']]);
  // (Numbered after its name: "Witness 2", "Testigo 1".)
  assert.deepEqual(under('en', 'Witness 2'), [['signature', 60, 414, 'witness']]);
  assert.deepEqual(under('es', 'Testigo 1'), [['signature', 60, 414, 'witness']]);
});

test('the parties of a non-disclosure, an assignment, a licence or a franchise ("Disclosing Party   Receiving Party", "Assignor", "Lizenzgeber", "Franqueado") named over their lines sign on them', () => {
  const over = (lang: 'en' | 'de' | 'pt', left: string, right: string) =>
    suggestFields(
      page({ words: [...paragraph(lang, 100), ...words(left, 60, 460), ...words(right, 320, 460)], segments: [h(60, 260, 500), h(320, 520, 500)] }),
    ).map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height), s.roleHint]);
  for (const [lang, left, right, roles] of [
    ['en', 'DISCLOSING PARTY', 'RECEIVING PARTY', ['discloser', 'recipient']],
    ['en', 'Assignor', 'Assignee', ['assignor', 'assignee']],
    ['de', 'Lizenzgeber', 'Lizenznehmer', ['licensor', 'licensee']],
    ['pt', 'Franqueador', 'Franqueado', ['franchisor', 'franchisee']],
  ] as const)
    assert.deepEqual(
      over(lang, left, right),
      [
        ['signature', 60, 500, roles[0]],
        ['signature', 320, 500, roles[1]],
      ],
      left,
    );
  // (A party's word alone is none: "Receiving" names no party.)
  assert.deepEqual(over('en', 'Receiving', 'Shipping'), []);
});

test('a pupil\'s guardian named alone over a line, in Portuguese ("O/A Encarregado(a) de Educação"), signs on it', () => {
  const over = (caption: string) =>
    suggestFields(page({ words: [...paragraph('pt', 100), ...words(caption, 200, 400, 10)], segments: [h(176, 420, 450)] })).map((s) => [
      s.type,
      Math.round(s.y + s.height),
      s.roleHint,
    ]);
  assert.deepEqual(over('O/A Encarregado(a) de Educação'), [['signature', 450, 'guardian']]);
  // (The guardian's duty named in running text is no caption.)
  assert.deepEqual(over('Declaro que o encarregado de educação autoriza a participação do aluno'), []);
});

test('a table drawn in a rectangle, its columns ruled inside it: the rectangle\'s sides close its cells ("Signature | Date | Signature/Camp Health Officer | Date")', () => {
  const table = (boxes: PageModel['boxes']) =>
    placed('en', {
      words: [
        ...words('I have read and understand all of the above.', 36, 614, 9),
        ...words('Signature', 37, 627, 7),
        ...words('Date', 251, 627, 7),
        ...words('Signature/Camp Health Officer', 315, 627, 7),
        ...words('Date', 531, 627, 7),
      ],
      segments: [h(31, 587, 618)],
      verticals: [v(244, 618, 644), v(308, 618, 644), v(523, 618, 644)],
      boxes,
    }).map(([type, x, , w]) => [type, x, w]);
  assert.deepEqual(table([{ x0: 30, y0: 603, x1: 587, y1: 644 }]), [
    ['signature', 31, 212],
    ['date', 245, 62],
    ['signature', 309, 213],
    ['date', 524, 62],
  ]);
  // (Without the rectangle, its first and last cells are open at one side: nothing is guessed.)
  assert.deepEqual(table([]), []);
  // A table drawn as one rectangle per cell, side by side (FPDF's and TCPDF's bordered cells): the same cells.
  const ys = [200, 218, 245, 272];
  const cells = ys.slice(0, -1).flatMap((y, i) =>
    [
      [50, 230],
      [230, 410],
      [410, 540],
    ].map(([x0, x1]) => ({ x0: x0 as number, y0: y, x1: x1 as number, y1: ys[i + 1] as number })),
  );
  const grid = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Name', 60, 212), ...words('Signature', 240, 212), ...words('Date', 420, 212)], boxes: cells }),
  );
  assert.deepEqual(
    brief(grid).map((s) => [s.type, s.x, s.y]),
    [
      ['text', 51, 219],
      ['signature', 231, 219],
      ['date', 411, 219],
      ['signature', 231, 246],
      ['date', 411, 246],
    ],
  );
});

test('a signature row whose outer border is not drawn: the rules over and under it start together at the caption, a side rule closes its cell on the other side ("Your signature | Date | Occupation")', () => {
  const row = (height: number, outer: boolean) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 100),
          ...words('I confirm that the figures given on this form are right to the best of my knowledge.', 92, 396, 7),
          ...words('Your signature', 92, 408, 7),
          ...words('Date', 302, 408, 7),
          ...words('Your occupation', 382, 408, 7),
        ],
        segments: [h(90, 560, 400), h(90, 560, 400 + height)],
        verticals: [...(outer ? [v(90, 400, 400 + height), v(560, 400, 400 + height)] : []), v(300, 400, 400 + height), v(380, 400, 400 + height)],
      }),
    ).map((s) => [s.type, Math.round(s.x), Math.round(s.y), Math.round(s.y + s.height)]);
  for (const height of [24, 36]) {
    // (Drawn all round or open on its outer sides: the same cells, each under its caption.)
    const closed = row(height, true);
    assert.deepEqual(closed.slice(0, 2), [
      ['signature', 91, 412, 400 + height - 1],
      ['date', 301, 412, 400 + height - 1],
    ]);
    assert.deepEqual(row(height, false).slice(0, 2), closed.slice(0, 2));
  }
  // (Open on its right: the last cell ends where its rules end.)
  const last = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Date', 92, 408, 7), ...words('Signature of the taxpayer', 302, 408, 7)],
      segments: [h(90, 560, 400), h(90, 560, 430)],
      verticals: [v(300, 400, 430)],
    }),
  );
  assert.deepEqual(
    brief(last).map((s) => [s.type, s.x, s.x + s.w]),
    [
      ['date', 91, 299],
      ['signature', 301, 559],
    ],
  );
});

test("a field on a line under a coloured band stops under the band (a form's grey header row), as under a rule", () => {
  const field = (bands: PageModel['bands']) =>
    placed('en', { words: words('Signature:', 336, 414, 10), segments: [h(400, 556, 413)], ...(bands ? { bands } : {}) });
  assert.deepEqual(field([{ x0: 51, y0: 380, x1: 560, y1: 391 }]), [['signature', 400, 392, 156, 21]]);
  assert.deepEqual(field(undefined), [['signature', 400, 373, 156, 40]]);
  // (Not under a band that goes on right under it as wide, the rows of a table all shaded: the field reaches into them.)
  assert.deepEqual(
    field([
      { x0: 51, y0: 380, x1: 560, y1: 391 },
      { x0: 51, y0: 391, x1: 560, y1: 403 },
      { x0: 51, y0: 403, x1: 560, y1: 416 },
    ]),
    [['signature', 400, 373, 156, 40]],
  );
});

test('the first row of blanks under a heading of witnesses, unnumbered, each with "Nome:" and "CPF:" under it: a witness signs on each; a rule across the page under "Unterschriften" divides it', () => {
  // (The heading at 480, the row of blanks at `blank`, each blank's "Nome:" and "CPF:" under it.)
  const witnessRow = (blank: number) =>
    suggestFields(
      page({
        words: [
          ...paragraph('es', 100),
          ...words('TESTEMUNHAS:', 60, 480),
          ...[60, 320].flatMap((x) => [...words('_'.repeat(40), x, blank), ...words('Nome:', x, blank + 12, 9), ...words('CPF:', x, blank + 24, 9)]),
        ],
      }),
    ).filter((s) => s.type === 'signature');
  const witnesses = witnessRow(520);
  assert.deepEqual(witnesses.map((s) => [Math.round(s.x), s.roleHint]).sort(), [
    [320, 'witness'],
    [60, 'witness'],
  ]);
  // (Each stands under the heading's row, the one beside it as well: "TESTEMUNHAS:" heads the whole row.)
  assert.deepEqual(
    witnessRow(505).map((s) => Math.round(s.y)),
    [479, 479],
  );
  const divided = suggestFields(page({ words: [...paragraph('de', 100), ...words('Unterschriften', 60, 480)], segments: [h(60, 540, 500)] }));
  assert.deepEqual(divided, []);
});

test('blanks stacked under a heading of witnesses, each over "Nome:" and "CPF:", are each a witness\'s; words beside the heading on its row ("Polegar direito do Cliente") are not written between', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('pt', 100),
        ...words('Polegar direito do Cliente', 44, 634, 9),
        ...words('Testemunhas:', 200, 633, 9),
        ...[652, 708].flatMap((y) => [...words('_'.repeat(44), 200, y, 10), ...words('Nome:', 200, y + 18, 9), ...words('CPF:', 200, y + 37, 9)]),
      ],
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    found.map((s) => [Math.round(s.x), s.roleHint]),
    [
      [200, 'witness'],
      [200, 'witness'],
    ],
    JSON.stringify(found),
  );
});

test('two parties joined by "or", the second qualified ("Patient or Legal Guardian"), under a line caption it; so does "By: John Smith, President" on a page that says nothing of signing', () => {
  const under = (caption: string) =>
    brief(suggestFields(page({ words: [...paragraph('en', 100), ...words('_'.repeat(40), 60, 430), ...words(caption, 60, 442, 9)] }))).map((s) => [
      s.type,
      s.x,
      s.y,
    ]);
  assert.deepEqual(under('Patient or Legal Guardian'), [['signature', 60, 392]]);
  assert.deepEqual(under('By: John Smith, President'), [['signature', 60, 392]]);
  assert.deepEqual(under('Per: Jane Doe'), [['signature', 60, 392]]);
  // (Not a sentence that starts with "By", nor "By:" before words that are no name.)
  assert.deepEqual(under('By: the end of the month'), []);
});

test('numbered blanks under a heading of witnesses are their places to sign', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Witnesses:', 50, 200),
        ...words('1. ____________________________', 50, 235),
        ...words('2. ____________________________', 330, 235),
      ],
    }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, s.roleHint, Math.round(s.x)]).sort((a, b) => Number(a[2]) - Number(b[2])),
    [
      ['signature', 'witness', 55],
      ['signature', 'witness', 335],
    ],
  );
  const list = suggestFields(page({ words: [...paragraph('en', 100), ...words('1. ____________________________', 50, 235)] }));
  assert.deepEqual(list, []);
});

test('"Initials: ____ / ____" asks each party for initials', () => {
  const found = suggestFields(page({ words: [...paragraph('en', 100), ...words('Initials: _________ / ________', 90, 753, 12)] }));
  assert.deepEqual(
    found.map((s) => s.type),
    ['initials', 'initials'],
  );
  assert.ok((found[1]?.x ?? 0) > (found[0]?.x ?? 0) + (found[0]?.width ?? 0), JSON.stringify(brief(found)));
});

test('on a scanned page, a dotted line OCR read as small letters it has no confidence in is a run of dots', () => {
  const doubtful = (w: Word): Word => ({ ...w, confidence: 0.05 });
  const read = [
    ...paragraph('de', 100),
    ...words('Frankfurt am Main, den', 73, 703, 12),
    ...[
      ['eer', 246, 269],
      ['eevee', 272, 307],
      ['fetes', 311, 357],
      ['eee', 365, 407],
    ].map(([text, x0, x1]) =>
      doubtful({ text: text as string, box: { x0: x0 as number, y0: 694, x1: x1 as number, y1: 705 }, baseline: 703, size: 12, confidence: 1 }),
    ),
    ...words('(Unterschrift)', 326, 717, 12),
  ];
  const found = suggestFields(page({ words: read, ocr: true }));
  assert.deepEqual(
    found.map((s) => [s.type, Math.round(s.x)]),
    [['signature', 246]],
  );
  // The same words read with confidence are words.
  assert.deepEqual(
    suggestFields(page({ words: read.map((w) => ({ ...w, confidence: 0.9 })), ocr: true })).filter((s) => s.x >= 240 && s.x < 250),
    [],
  );
});

test('a bare date a row from a place to sign is its date wherever it sits across the page', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('it', 100), ...words('Data ______________', 50, 200), ...words('Firma', 420, 225), ...words('______________________', 360, 255)],
    }),
  );
  assert.deepEqual(found.map((s) => s.type).sort(), ['date', 'signature']);
});

test('"Ort, Datum" over whoever signs, in its column, asks for the place, the date and the signature: a row of cells with the captions under it', () => {
  const cells = suggestFields(
    page({
      words: [
        ...paragraph('de', 300),
        ...words('Ort, Datum', 71, 737, 6),
        ...words('Ort, Datum', 224, 737, 6),
        ...words('Ort, Datum', 378, 737, 6),
        ...words('Unterschrift Mitglied & Kontoinhaber', 71, 744, 6),
        ...words('Erziehungsberechtigte bei Minderjährigen', 224, 744, 6),
        ...words('Kontoinhaber (falls abweichend vom Mitglied)', 378, 744, 6),
      ],
      segments: [h(66, 526, 699), h(66, 526, 738)],
      verticals: [v(66, 699, 738), v(219, 699, 738), v(373, 699, 738), v(526, 699, 738)],
    }),
  );
  assert.deepEqual(
    brief(cells).map((s) => [s.type, s.x, s.y]),
    [
      ['signature', 67, 700],
      ['signature', 220, 700],
      ['signature', 374, 700],
    ],
  );
});

test('on a scanned page, a long caption word OCR misread by a letter (two, when OCR was unsure of a word of eleven) is read as the word; in a text layer, or two letters off a word OCR was sure of, it is not', () => {
  const read = (text: string, confidence: number, ocr: boolean) =>
    suggestFields(
      page({
        words: [...paragraph('de', 100), ...words(text, 234, 651, 10.6).map((w) => ({ ...w, confidence }))],
        segments: [h(234, 468, 641)],
        ocr,
      }),
    ).map((s) => s.type);
  assert.deepEqual(read('Unterschyift', 0.88, true), ['signature']);
  assert.deepEqual(read('Unterschyift', 1, false), []);
  assert.deepEqual(read('Untersshrif', 0.24, true), ['signature']);
  assert.deepEqual(read('Untersshrif', 0.9, true), []);
  // ("unterschrieben", signed, is a word of its own, two letters from "Unterschriften".)
  assert.deepEqual(read('unterschrieben', 0.9, true), []);
  assert.deepEqual(read('Uniersciinft', 0.27, true), []);
});

test('on a scanned page, a short caption word with a pair of letters OCR reads for one ("Finna" for "Firma", "Narne" for "Name") is read as the word; one OCR was sure of, or one no such reading makes a caption word, is left', () => {
  const read = (text: string, confidence: number) =>
    suggestFields(
      page({
        words: [...paragraph('it', 100), ...words(text, 234, 651, 10.6).map((w) => ({ ...w, confidence }))],
        segments: [h(234, 468, 641)],
        ocr: true,
      }),
    ).map((s) => s.type);
  assert.deepEqual(read('Finna', 0.66), ['signature']);
  assert.deepEqual(read('Finna', 0.99), []);
  assert.deepEqual(read('Donna', 0.66), []);
});

test('on a scanned page, braces OCR read for the parentheses of a remark under a caption are read as parentheses', () => {
  const found = (remark: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('it', 100).map((w) => ({ ...w, confidence: 0.9 })),
          ...words('Firma', 377, 399, 9).map((w) => ({ ...w, confidence: 0.96 })),
          ...words(remark, 271, 412, 9).map((w) => ({ ...w, confidence: 0.7 })),
        ],
        segments: [h(291, 491, 439)],
        ocr: true,
      }),
    ).map((s) => [s.type, Math.round(s.x), Math.round(s.y)]);
  const expected = found("(In caso di minore, firma dell'esercente la potestà genitoriale)");
  assert.deepEqual(
    expected.map(([type, x]) => [type, x]),
    [['signature', 291]],
  );
  assert.deepEqual(found("{In caso di minore, firma dell'esercente la potestà genitoriale}"), expected);
  assert.deepEqual(found("{In caso di minore, firma dell'esercente la potestà genitoriale)"), expected);
});

test("on a scanned page, a word OCR read larger than the rest of its row (a brace taller than capitals) takes its row's size", () => {
  const read = (signatureSize: number) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 100).map((w) => ({ ...w, size: 11 })),
          ...words('Date, Place', 165, 569, 12.8).map((w) => ({ ...w, confidence: 0.96 })),
          ...words('Signature(s}', 384, 569, 12.8).map((w) => ({ ...w, size: signatureSize, box: { ...w.box, y0: 557 }, confidence: 0.23 })),
        ],
        segments: [h(93, 298, 555), h(316, 521, 555)],
        ocr: true,
      }),
    ).map((s) => [s.type, Math.round(s.x)]);
  assert.deepEqual(read(12.8), [
    ['signature', 316],
    ['date', 93],
  ]);
  assert.deepEqual(read(16.1), read(12.8));
});

test('Arabic signature captions naming who signs ("توقيع ولي الأمر", the guardian\'s; "توقيع الطالب", the student\'s; "توقيع المشرف", the supervisor\'s) over blank room: the room under each', () => {
  const sign = (...captions: Array<[string, number]>) =>
    suggestFields(
      page({
        words: [
          ...paragraph('ar', 100),
          ...captions.flatMap(([text, x]) => words(text, x, 300, 10, true)),
          ...words('يرجى إعادة هذا النموذج قبل نهاية الشهر', 250, 360, 10, true),
        ],
      }),
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    brief(sign(['توقيع ولي الأمر', 450])).map((s) => [s.x, s.y, s.w, s.h]),
    [[345, 306, 180, 40]],
  );
  assert.deepEqual(
    brief(sign(['توقيع الطالب', 450], ['توقيع ولي الأمر', 150])).map((s) => [s.x, s.y]),
    [
      [45, 306],
      [330, 306],
    ],
  );
  // (Whoever is named in one or two words after it, a known signer or not: the supervisor's, the applicant's.)
  for (const caption of ['توقيع المشرف', 'توقيع مقدم الطلب', 'اسم وتوقيع المشرف'])
    assert.deepEqual(
      brief(sign([caption, 450])).map((s) => [s.y, s.h]),
      [[306, 40]],
      caption,
    );
  // (Not a caption going on in a sentence.)
  assert.deepEqual(sign(['توقيع الموظف المسؤول عن الطلب في المكتب', 300]), []);
});

test('an Arabic date written as blanks for its parts ("التاريخ: ____/____/________") takes them all, as a left-to-right one does; with only its separators ("التاريخ:   /   /"), the room on their side', () => {
  const date = (lang: 'ar' | 'en', caption: string, x: number) =>
    suggestFields(
      page({
        words: [
          ...paragraph(lang, 100),
          ...words(`${caption} ______________________`, x, 400, 11, lang === 'ar'),
          ...words(`${lang === 'ar' ? 'التاريخ' : 'Date'}: ____/____/________`, x, 430, 11, lang === 'ar'),
        ],
      }),
    )
      .filter((s) => s.type === 'date')
      .map((s) => Math.round(s.width));
  const [arabic] = date('ar', 'التوقيع:', 300);
  const [latin] = date('en', 'Signature:', 60);
  assert.ok(arabic !== undefined && latin !== undefined && arabic >= 0.9 * latin, `${arabic} pt against ${latin} pt`);
  // (Only its separators printed, the parts written between them: on its left, as on the right of "Date:   /   /".)
  const slashes = (lang: 'ar' | 'en') =>
    suggestFields(
      page({
        words: [
          ...paragraph(lang, 100),
          ...(lang === 'ar' ? words('التاريخ:   /   /', 470, 400, 10, true) : words('Date:   /   /', 60, 400)),
          ...(lang === 'ar' ? words(`التوقيع: ${'.'.repeat(40)}`, 300, 430, 10, true) : words(`Signature: ${'.'.repeat(40)}`, 60, 430)),
        ],
      }),
    ).filter((s) => s.type === 'date');
  const [ar] = slashes('ar');
  const [en] = slashes('en');
  assert.ok(ar !== undefined && en !== undefined && ar.x < 470 && Math.round(ar.width) === Math.round(en.width), JSON.stringify([ar, en]));
});

test('"تحريرا في" ("written on") before its blank dates an Arabic signing, as "التاريخ" does, beside the signature\'s caption', () => {
  const ar = (text: string, right: number) => words(text, right - [...text].length * 5.5, 400, 11, true);
  const row = (caption: string) =>
    types(
      suggestFields(
        page({
          words: [
            ...paragraph('ar', 100),
            ...ar('التوقيع:', 540),
            ...words('.'.repeat(30), 326, 400, 11),
            ...ar(caption, 250),
            ...words('.'.repeat(30), 30, 400, 11),
          ],
        }),
      ),
    );
  assert.deepEqual(row('التاريخ:'), ['date', 'signature']);
  assert.deepEqual(row('تحريرا في:'), ['date', 'signature']);
  assert.deepEqual(row('تحريرا في'), ['date', 'signature']);
});

test('cells open at the top that a caption heads: the room under the caption, an icon in its corner no writing', () => {
  const open = suggestFields(
    page({
      words: [...paragraph('de', 100), ...words('Ort, Datum', 45, 681, 8), ...words('Unterschrift', 256, 681, 8)],
      segments: [h(44, 237, 669), h(44, 237, 713), h(255, 555, 713)],
      verticals: [v(43, 672, 714), v(237, 672, 714), v(254, 672, 714), v(554, 685, 714)],
      images: [{ x0: 258, y0: 687, x1: 281, y1: 714 }],
    }),
  );
  assert.deepEqual(
    brief(open).map((s) => [s.type, s.x, s.y, s.w]),
    [
      ['date', 44, 685, 192],
      ['signature', 255, 685, 298],
    ],
  );
});

test('a caption under a run of underscores signs on the run: inside its table cell, and in a row ruled above and below it', () => {
  const cell = suggestFields(
    page({
      words: [...paragraph('en', 300), ...words('_'.repeat(37), 215, 148, 9), ...words('Assinatura do paciente', 212, 159, 9)],
      segments: [h(57, 538, 128.5), h(57, 538, 162)],
      verticals: [v(57, 128.5, 162), v(538, 128.5, 162)],
    }),
  );
  assert.deepEqual(
    brief(cell).map((s) => [s.type, s.x, s.w]),
    [['signature', 215, 167]],
  );
  const row = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('_'.repeat(41), 76, 747, 9), ...words('Assinatura e carimbo do(a) médico(a)', 99, 760, 9)],
      segments: [h(37, 563, 722.6), h(28, 567, 777)],
    }),
  );
  assert.deepEqual(
    brief(row).map((s) => [s.type, s.x, s.w]),
    [['signature', 76, 185]],
  );
});

test('a signature caption opening a line set apart, qualified by the rest of it, leaves the room under it; a title opening with "Signature" does not', () => {
  const mention = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature précédée de la mention « Lu et approuvé »', 73, 714, 9)] }));
  assert.deepEqual(
    brief(mention).map((s) => [s.type, s.x, s.y]),
    [['signature', 73, 720]],
  );
  const title = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature Sheet Application No A115568', 312, 43, 9)] }));
  assert.deepEqual(types(title), []);
});

test('beside a signing date on its row, a line captioned by who signs ("Der Vorstand") is where one signs; one captioned by another field is not', () => {
  const board = suggestFields(
    page({
      words: [
        ...paragraph('de', 300),
        ...words('_'.repeat(26), 57, 160),
        ...words('_'.repeat(48), 270, 160),
        ...words('Ort, Datum', 57, 172),
        ...words('Der Vorstand', 270, 172),
      ],
    }),
  );
  assert.deepEqual(types(board), ['date', 'signature']);
  const stamp = suggestFields(
    page({
      words: [
        ...paragraph('de', 300),
        ...words('_'.repeat(26), 57, 160),
        ...words('_'.repeat(48), 270, 160),
        ...words('Ort, Datum', 57, 172),
        ...words('Name, Vorname', 270, 172),
      ],
    }),
  );
  assert.ok(!stamp.some((s) => s.type === 'signature'), JSON.stringify(brief(stamp)));
});

test("a caption standing on a rule that runs on after it signs on the rule, even in a row ruled above and below; the next row's caption under a claimed row keeps its own room", () => {
  const second = suggestFields(
    page({
      words: [...paragraph('de', 300), ...words('Datum, Unterschrift Interviewte*r', 71, 662, 14), ...words('Datum, Unterschrift Interviewer*in', 71, 715, 14)],
      segments: [h(69, 526, 668), h(69, 526, 721)],
    }),
  );
  assert.deepEqual(
    brief(second).map((s) => [s.type, s.y + s.h, s.x > 250]),
    [
      ['signature', 668, true],
      ['signature', 721, true],
    ],
  );
  const rows = suggestFields(
    page({
      words: [
        ...paragraph('en', 300),
        ...words('Client Signature:', 96, 643),
        ...words('Date:', 420, 643),
        ...words('Consultant Signature:', 96, 691),
        ...words('Date:', 420, 691),
      ],
      segments: [h(90, 522, 672)],
    }),
  );
  const signatures = brief(rows).filter((s) => s.type === 'signature');
  assert.equal(signatures.length, 2, JSON.stringify(brief(rows)));
  // (The second row's room stops under the rule that closes the first.)
  assert.ok((signatures[1]?.y ?? 0) >= 672, JSON.stringify(signatures));
});

test('a date written as parts joined by slashes ("_____/_____/_____") is one line for the caption under it; "de" tells a Portuguese page as well as a Dutch one', () => {
  const date = suggestFields(
    page({
      words: [
        ...paragraph('it', 300),
        ...words('_____', 88, 486, 12),
        ...words('/', 118.3, 486, 12),
        ...words('_____', 121.3, 486, 12),
        ...words('/', 151.5, 486, 12),
        ...words('_____', 154.6, 486, 12),
        ...words('_'.repeat(28), 342, 486, 12),
        ...words('(Data)', 121, 505),
        ...words('(Assinatura do Sócio)', 380, 505),
      ],
    }),
  );
  assert.deepEqual(
    brief(date).map((s) => [s.type, s.x, s.w]),
    [
      ['signature', 342, 168],
      ['date', 88, 97],
    ],
  );
  assert.equal(guessLanguage('ficha de socio de a tuna nome de morada de data de nascimento e assinatura e'.split(' ')), 'pt');
});

test('a sign-in sheet with a row signed already: the empty rows under it are still places to sign', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Name', 60, 212),
        ...words('Signature', 240, 212),
        ...words('Date', 420, 212),
        ...words('Ann Smith', 60, 264),
        ...words('A. Smith', 240, 264),
        ...words('09/03/2025', 420, 264),
      ],
      segments: [200, 218, 245, 272, 299].map((y) => h(50, 540, y)),
      verticals: [50, 230, 410, 540].map((x) => v(x, 200, 299)),
    }),
  );
  assert.deepEqual(
    brief(found).filter((s) => s.type !== 'text'),
    [
      { type: 'signature', x: 231, y: 219, w: 178, h: 25 },
      { type: 'date', x: 411, y: 219, w: 128, h: 25 },
      { type: 'signature', x: 231, y: 273, w: 178, h: 25 },
      { type: 'date', x: 411, y: 273, w: 128, h: 25 },
    ],
  );
});

test('a sign-in sheet whose column headers are printed over the grid, outside its cells ("Signature/Date" over the drawn rows): each empty row of the column is a place to sign; over one empty row only, not that row', () => {
  const sheet = (rows: number[]) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words('Participant Name', 60, 212, 8),
            ...words('Signature/Date', 240, 212, 8),
            ...words('Emergency Contact', 420, 212, 8),
          ],
          segments: rows.map((y) => h(50, 540, y)),
          verticals: [50, 230, 410, 540].map((x) => v(x, rows[0] as number, rows.at(-1) as number)),
        }),
      ),
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(sheet([224, 241, 258, 275]), [
    { type: 'signature', x: 231, y: 225, w: 178, h: 15 },
    { type: 'signature', x: 231, y: 242, w: 178, h: 15 },
    { type: 'signature', x: 231, y: 259, w: 178, h: 15 },
  ]);
  assert.deepEqual(
    sheet([224, 241]).filter((s) => s.y >= 224),
    [],
  );
});

test("a sign-in column goes on past a row drawn across it (a timesheet's week sub-total): its rows under that row are places to sign too", () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Day', 60, 212),
        ...words('Signature', 240, 212),
        ...words('Hours', 420, 212),
        ...words('WEEK SUB-TOTAL', 60, 277),
      ],
      segments: [200, 218, 240, 262, 284, 306, 328].map((y) => h(50, 540, y)),
      verticals: [v(50, 200, 328), v(540, 200, 328), v(230, 200, 262), v(410, 200, 262), v(230, 284, 328), v(410, 284, 328)],
    }),
  );
  assert.deepEqual(
    brief(found)
      .filter((s) => s.type === 'signature')
      .map((s) => s.y),
    [219, 241, 285, 307],
    JSON.stringify(found),
  );
});

test('an attendance grid whose rows are headed by their captions ("Signature de l\'enseignant·e" before a day\'s hours): every empty cell along the row is a place to sign; a cell written in ends the row, and one empty cell after the caption is only that cell', () => {
  const grid = (more: Word[] = [], hours = 5) =>
    suggestFields(
      page({
        words: [
          ...paragraph('fr', 100),
          ...Array.from({ length: hours }, (_, i) => words(`H${i + 1}`, 195 + 60 * i, 212)).flat(),
          ...words("Nom de l'enseignant·e", 30, 236),
          ...words("Signature de l'enseignant·e", 30, 258),
          ...words("Signature de l'alternant·e", 30, 280),
          ...more,
        ],
        segments: [200, 220, 242, 264, 286].map((y) => h(25, 170 + 60 * hours, y)),
        verticals: [25, ...Array.from({ length: hours + 1 }, (_, i) => 170 + 60 * i)].map((x) => v(x, 200, 286)),
      }),
    ).filter((s) => s.type === 'signature');
  const rows = grid();
  assert.equal(rows.length, 10, JSON.stringify(brief(rows)));
  assert.deepEqual(
    brief(rows).filter((s) => s.y < 250),
    [0, 1, 2, 3, 4].map((i) => ({ type: 'signature', x: 171 + 60 * i, y: 243, w: 58, h: 20 })),
  );
  const filled = grid(words('absent', 355, 258));
  assert.deepEqual(
    brief(filled)
      .filter((s) => s.y < 250)
      .map((s) => s.x),
    [171, 231, 291],
  );
  assert.equal(grid([], 2).length, 2, 'a caption, its cell and one more: no grid');
});

test('a cell framing rows of captions, "Local, data:" over "Requerente (Assinatura):", with room beside each: the date beside its colon and the signature beside its own, a field each, not the room under the first across the cell', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('it', 100), ...words('Local,data:', 28, 687), ...words('Requerente (Assinatura):', 28, 725), ...words('RESULTADO', 440, 668)],
      segments: [h(25, 567, 658), h(25, 567, 736)],
      verticals: [v(25, 658, 736), v(432, 658, 736), v(567, 658, 736)],
    }),
  ).filter((s) => s.type !== 'text');
  assert.deepEqual(
    brief(found).map((s) => [s.type, s.x, s.y, s.w, s.h]),
    [
      ['date', 88, 671, 108, 20],
      ['signature', 153, 689, 178, 40],
    ],
  );
});

test('a caption under an underlined remark in its cell ("Enkel voor minderjarigen" underlined over "Handtekening ouder") signs in the empty cell beside it, as the one above does: the underline is no border of the cell', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Handtekening speler', 82, 720, 10.8),
        ...words('Enkel voor minderjarigen', 82, 748, 10),
        ...words('Handtekening ouder', 82, 761, 10.8),
      ],
      segments: [h(80, 485, 698), h(80, 485, 724), h(80, 485, 738), h(82, 202, 750.4), h(80, 485, 767)],
      verticals: [v(80, 698, 767), v(207, 698, 724), v(207, 738, 767), v(485, 698, 767)],
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    brief(found).map((s) => [s.x, s.y, s.w, s.h]),
    [
      [208, 699, 276, 24],
      [208, 739, 276, 27],
    ],
  );
});

test('a sign-in sheet ruled across only, its header set a little high in its row: each empty row under "Signature" is a place to sign; captions hanging from the rule over them are no header', () => {
  const sheet = (baseline: number) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...words('Name', 55, baseline, 9), ...words('Signature', 255, baseline, 9)],
        segments: [200, 220, 245, 270, 295, 320].map((y) => h(50, 450, y)),
      }),
    ).filter((s) => s.type === 'signature');
  // (Its letters 4 pt under the rule over it and 6 pt over the rule under it.)
  assert.deepEqual(
    brief(sheet(212)).map((s) => [s.x, s.y]),
    [
      [251, 221],
      [251, 246],
      [251, 271],
      [251, 296],
    ],
  );
  // (1 pt under the rule over it, 11 pt over the next: it names the line over it.)
  assert.ok(
    brief(sheet(209)).every((s) => s.y < 220),
    JSON.stringify(brief(sheet(209))),
  );
});

test('a sign-in sheet whose date column prints a date\'s blank parts in each row ("___ / ___ / _____" under "DATA"): each row\'s date cell is its signing date', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Lesson', 60, 212),
        ...words('Date', 330, 212),
        ...words('Signature', 430, 212),
        ...words('Traffic and citizenship', 70, 235),
        ...words('___ / ___ / _____', 318, 238, 8),
        ...words('Bicycles and mopeds', 70, 264),
        ...words('___ / ___ / _____', 318, 267, 8),
      ],
      segments: [200, 218, 247, 276].map((y) => h(25, 555, y)),
      verticals: [25, 315, 377, 555].map((x) => v(x, 200, 276)),
    }),
  );
  assert.deepEqual(
    brief(found).filter((s) => s.type !== 'text'),
    [
      { type: 'date', x: 316, y: 219, w: 60, h: 27 },
      { type: 'signature', x: 378, y: 219, w: 176, h: 27 },
      { type: 'date', x: 316, y: 248, w: 60, h: 27 },
      { type: 'signature', x: 378, y: 248, w: 176, h: 27 },
    ],
  );
});

test('a sign-in sheet printed with rows 15 pt high, as a spreadsheet prints them: every empty row is a place to sign; rows 11 pt high are not', () => {
  const sheet = (row: number) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...words('Name', 60, 214), ...words('Signature', 240, 214), ...words('Date', 420, 214)],
        segments: [200, ...[0, 1, 2, 3, 4, 5].map((i) => 220 + i * row)].map((y) => h(50, 540, y)),
        verticals: [50, 230, 410, 540].map((x) => v(x, 200, 220 + 5 * row)),
      }),
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    brief(sheet(15)).map((s) => [s.x, s.y, s.h]),
    [221, 236, 251, 266, 281].map((y) => [231, y, 13]),
  );
  assert.deepEqual(
    sheet(11).filter((s) => s.y >= 220),
    [],
  );
});

test('a sign-in sheet under a tall header row ("Name des Kindes (Vor- und Zuname)" on two lines beside "Unterschrift"), or a header over two rows of headers beside it, or an empty header cell beside it, or one row under the header: the column\'s rows are the places to sign, not the room left in the header cell nor the empty header', () => {
  // Rows 22 pt high under a header 34 pt high; with `split`, a rule cuts the headers left of "Unterschrift" in two rows.
  const sheet = (split: boolean) =>
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100),
          ...(split
            ? [...words('Teilnehmer', 53, 212, 9), ...words('Name', 53, 230, 9), ...words('Vorname', 203, 230, 9)]
            : [...words('Name des Kindes', 53, 212, 9), ...words('(Vor- und Zuname)', 53, 222, 9), ...words('Geburtsdatum', 203, 212, 9)]),
          ...words('Unterschrift', 323, 212, 9),
        ],
        segments: [...[200, 234, 256, 278, 300].map((y) => h(50, 470, y)), ...(split ? [h(50, 320, 216)] : [])],
        verticals: [v(50, 200, 300), v(200, split ? 216 : 200, 300), v(320, 200, 300), v(470, 200, 300)],
      }),
    ).filter((s) => s.type === 'signature');
  for (const split of [false, true])
    assert.deepEqual(
      brief(sheet(split)).map((s) => [s.x, s.y, s.w, s.h]),
      [235, 257, 279].map((y) => [321, y, 148, 20]),
      `split ${split}`,
    );
  // (One row under the header on this page, the table going on over the next: that row's cell, not the header's room.)
  const oneRow = suggestFields(
    page({
      words: [
        ...paragraph('es', 100),
        ...words('Sessão 1', 53, 212, 9),
        ...words('9:00 – 11:00', 53, 250, 9),
        ...words('ASSINATURA', 323, 212, 9),
        ...words('09:00', 53, 290, 9),
      ],
      segments: [200, 278, 340].map((y) => h(50, 470, y)),
      verticals: [50, 320, 470].map((x) => v(x, 200, 340)),
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    brief(oneRow).map((s) => [s.x, s.y, s.w, s.h]),
    [[321, 279, 148, 60]],
  );
  // (A column left without a header beside it: the empty header cell is no blank of "Unterschrift", its column is.)
  const unheaded = suggestFields(
    page({
      words: [...paragraph('de', 100), ...words('Name', 53, 212, 9), ...words('Unterschrift', 203, 212, 9)],
      segments: [200, 220, 242, 264].map((y) => h(50, 450, y)),
      verticals: [50, 200, 350, 450].map((x) => v(x, 200, 264)),
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    brief(unheaded).map((s) => [s.x, s.y]),
    [
      [201, 221],
      [201, 243],
    ],
  );
});

test('French "Émargement" heads a sign-in sheet\'s column, "Visa de l\'agent comptable" and Portuguese "Visto:" caption an approval\'s signature; an English "Visa number" asks for a number', () => {
  const sheet = suggestFields(
    page({
      words: [...paragraph('fr', 100), ...words('Nom Prénom', 53, 212, 9), ...words('Émargement', 233, 212, 9)],
      segments: [200, 220, 242, 264].map((y) => h(50, 380, y)),
      verticals: [50, 230, 380].map((x) => v(x, 200, 264)),
    }),
  ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    brief(sheet).map((s) => [s.x, s.y]),
    [
      [231, 221],
      [231, 243],
    ],
  );
  assert.deepEqual(
    placed('fr', { words: [...words("VISA DE L'AGENT COMPTABLE", 229, 552), ...words('Le présent contrat prend effet à sa signature.', 60, 640)] }),
    [['signature', 229, 558, 180, 40]],
  );
  assert.deepEqual(
    placed('en', { words: words('Visa number: ______________', 60, 300) }).filter((s) => s[0] === 'signature'),
    [],
  );
  // (Portuguese "Visto:", the officer's sign-off, before its line.)
  assert.deepEqual(placed('pt', { words: words('VISTO: ______________________________', 300, 600) }).filter((s) => s[0] === 'signature').length, 1);
});

test('a line over a place to sign in its column, captioned by one word ("BIC"), is a row of the form, not another signer’s; one captioned by a name is', () => {
  const form = (caption: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100),
          ...words('________________________________', 332, 765, 12),
          ...words(caption, 333, 775, 8),
          ...words('________________________________', 332, 815, 12),
          ...words('(Unterschrift)', 400, 825, 8),
        ],
      }),
    ).filter((s) => s.type === 'signature');
  assert.equal(form('BIC').length, 1, JSON.stringify(brief(form('BIC'))));
  assert.equal(form('Anna Muster, Kassiererin').length, 2, JSON.stringify(brief(form('Anna Muster, Kassiererin'))));
});

test('lines with a name typed under them sign for the party named in the block under the name, even on a page that does not speak of signing', () => {
  const block = (party: string) =>
    suggestFields(
      page({
        words: [
          ...plainParagraph('en', 100),
          ...words('Andrey Ricaliff Santiago', 90, 228),
          ...words('Lider Celulares', 391, 228),
          ...words(party === 'x' ? 'Rua Augusta 10' : 'Contratado', 94, 244, 8.5),
          ...words(party === 'x' ? 'Loja Central' : 'Contratante', 404, 244, 8.5),
          ...words('CPF: 147.259.434-79', 128, 259, 8),
          ...words('CNPJ: 43.674.088/0002-10', 376, 259, 8),
        ],
        segments: [h(52, 282, 209), h(312, 542, 209)],
      }),
    ).filter((s) => s.type === 'signature');
  assert.equal(block('parties').length, 2, JSON.stringify(brief(block('parties'))));
  // (Without a party named there, and no word of signing on the page, two names under lines are no places to sign.)
  assert.equal(block('x').length, 0);
});

test('a box under a signature caption much taller than a signature is signed in at its foot', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature du mandant', 50, 612), ...words('Signature du mandataire', 214, 612)],
      boxes: [
        { x0: 50, y0: 622, x1: 200, y1: 716 },
        { x0: 214, y0: 622, x1: 364, y1: 716 },
      ],
    }),
  );
  assert.deepEqual(brief(found), [
    { type: 'signature', x: 50, y: 676, w: 150, h: 40 },
    { type: 'signature', x: 214, y: 676, w: 150, h: 40 },
  ]);
});

test('a line a caption with its colon names from further back on its row ("Ort:      ____  Datum: ____") is not a blank beside the date to sign on', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('de', 100), ...words('Ort:', 71, 707.7, 11), ...words('Datum:', 329, 707.7, 11), ...words('Unterschrift:', 71, 731.7, 11)],
      segments: [h(184.3, 326, 708.9), h(361.8, 523.1, 708.9), h(184.3, 523.1, 732.9)],
    }),
  );
  assert.deepEqual(
    found.filter((s) => s.type !== 'text').map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height)]),
    [
      ['date', 362, 709],
      ['signature', 184, 733],
    ],
  );
});

test('a party named under a double or triple rule (a header’s border: "For Employee" under "ATTENDANCE MEMO") has no line to sign on; under a single line it has', () => {
  const form = (rules: ReturnType<typeof h>[]) =>
    suggestFields(
      page({ words: [...paragraph('en', 200), ...words('ATTENDANCE MEMO', 42, 86, 18), ...words('For Employee', 42, 106.2)], segments: rules }),
    ).filter((s) => s.type === 'signature');
  assert.equal(form([h(36, 559, 95.7), h(37.7, 289, 96.6)]).length, 0);
  // (Nor under a triple border, its rules two and a half points apart.)
  assert.equal(form([h(36, 559, 91.6), h(36, 559, 94.1), h(37.7, 289, 96.6)]).length, 0);
  assert.equal(form([h(37.7, 289, 96.6)]).length, 1);
});

test('a place to sign on a part of its line, shared with another caption, has no lines alike under it ("Nürnberg, den … Mitglied Unterschrift" over office-use rules)', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Nürnberg, den', 437, 472.4, 12),
        ...words('Unterschrift', 682, 472.4, 12),
        ...words('Antrag erhalten am', 437, 520, 8),
        ...words('Bemerkung', 641, 557, 8),
      ],
      segments: [h(435, 829, 460.2), h(435, 829, 509.9), h(435, 829, 547)],
      width: 842,
      height: 595,
    }),
  ).filter((s) => s.type === 'signature');
  assert.equal(found.length, 1, JSON.stringify(brief(found)));
});

test('no signature or date less than 8 pt high: a caption standing right over a row’s rule has no room there', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words(':Signature and fingerprint', 388, 552, 11), ...words(':Date', 532, 583.6, 11)],
      segments: [h(380, 592, 529.8), h(380, 592, 561.3), h(380, 592, 592.7)],
    }),
  );
  assert.ok(
    found.every((s) => s.height >= 8),
    JSON.stringify(brief(found)),
  );
});

test('a table side read in pieces side by side still closes its cells: the empty rows under "Administré par (signature)" are places to sign', () => {
  const rows = [459, 478, 497, 516];
  const found = suggestFields(
    page({
      words: [...paragraph('it', 100), ...words('Quantité', 285, 452, 8), ...words('Administré par (signature)', 400, 452, 8)],
      segments: [441, ...rows].map((y) => h(81, 551, y)),
      // The right side: a long rule, and a short piece of it a point to its left (as OCR reads a scanned rule).
      verticals: [v(256, 441, 516), v(346, 439, 516), v(551, 414, 516), v(550, 454, 474)],
    }),
  );
  const signatures = found.filter((s) => s.type === 'signature').map((s) => Math.round(s.y + s.height));
  assert.deepEqual(signatures, [477, 496, 515], JSON.stringify(brief(found)));
});

test('a caption in a tall cell under another row of the cell signs beside it, under that row, not over it (a party\'s cell: "NOMBRE: …" over "FIRMA")', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('INVESTIGADOR RESPONSABLE', 99, 422, 11),
        ...words('NOMBRE: Sebastián Aliaga Rojas', 99, 449, 11),
        ...words('FIRMA', 99, 476, 11),
        ...words('FECHA', 99, 503, 11),
        ...words('PARTICIPANTE', 339, 422, 11),
        ...words('NOMBRE:', 339, 449, 11),
        ...words('FIRMA', 339, 476, 11),
      ],
      segments: [h(91, 565, 410.5), h(91, 565, 505.5)],
      verticals: [v(91.5, 198, 506), v(331.5, 198, 506), v(565.5, 198, 506)],
    }),
  );
  const signature = found.find((s) => s.type === 'signature' && s.x < 331);
  assert.ok(signature, JSON.stringify(brief(found)));
  assert.ok(signature.x > 130 && signature.y >= 451 && signature.y + signature.height <= 482, JSON.stringify(brief(found)));
});

test('a "SIGNATURE" band centred in its cell titles the section under it: no room beside it; in the cell under it the room after "Signature of registrant:" ends at "Date:" and starts under the sentence above; the date has the 50 pt left after "Date:"', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('SIGNATURE', 175, 286),
        ...words('I certify that the above listed information is correct.', 40, 300),
        ...words('Signature of registrant:', 40, 320),
        ...words('Date:', 280, 320),
      ],
      segments: [h(36, 360, 272), h(36, 360, 290), h(36, 360, 330)],
      verticals: [v(36, 272, 330), v(360, 272, 330)],
    }),
  );
  const sigs = found.filter((f) => f.type === 'signature');
  assert.equal(sigs.length, 1, JSON.stringify(brief(found)));
  const s = sigs[0] as (typeof sigs)[number];
  assert.ok(s.y >= 300 && s.x > 150 && s.x + s.width < 280, `after the caption, under the sentence, before "Date:": ${JSON.stringify(brief(found))}`);
  const dates = found.filter((f) => f.type === 'date');
  assert.ok(dates.length === 1 && (dates[0]?.x ?? 0) > 305, JSON.stringify(brief(found)));
});

test('a German compound naming who signs ("Unterschrift Vereinsvorsitzender:") is part of its caption: its box beside it is where that person signs', () => {
  const boxes = [429, 444, 458, 473, 487].map((y, i, a) => ({ x0: 225, y0: y, x1: 370, y1: i < 4 ? (a[i + 1] as number) : 502 }));
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Datum:', 189, 441, 9),
        ...words('Unterschrift Spieler:', 130, 470, 9),
        ...words('Unterschrift Vereinsvorsitzender:', 70, 499, 9),
      ],
      boxes,
    }),
  );
  assert.deepEqual(
    brief(found).map((s) => [s.type, s.y]),
    [
      ['date', 429],
      ['signature', 458],
      ['signature', 487],
    ],
  );
});

test("a field over a line under a comb of character boxes (a BIC's) stops under the comb, as under a rule", () => {
  // The comb drawn as its boxes' sides only, 13 pt apart, its bottom 17 pt over the lines.
  const comb = Array.from({ length: 14 }, (_, i) => v(263 + 13 * i, 767, 788));
  const parts = {
    words: [...paragraph('de', 100), ...words('BIC:', 53, 785), ...words('Ort, Datum', 66, 816), ...words('Unterschrift Kontoinhaber', 400, 816)],
    segments: [h(51, 263, 805), h(338, 551, 805)],
  };
  const signature = (found: ReturnType<typeof suggestFields>) => brief(found).find((s) => s.type === 'signature');
  const under = signature(suggestFields(page({ ...parts, verticals: comb })));
  assert.ok(under && under.y >= 788 && under.y + under.h === 805, `under the comb: ${JSON.stringify(under)}`);
  // Without the comb the field has its whole height.
  const free = signature(suggestFields(page(parts)));
  assert.ok(free && free.y < 780, `no comb: ${JSON.stringify(free)}`);
  // Verticals of other heights side by side (the borders of a table's cells, each row's own) are no comb.
  const cells = Array.from({ length: 14 }, (_, i) => v(263 + 13 * i, i % 2 ? 760 : 767, 788));
  const table = signature(suggestFields(page({ ...parts, verticals: cells })));
  assert.ok(table && table.y < 780, `cells' borders: ${JSON.stringify(table)}`);
});

test('two runs stacked under a caption ending on its colon ("Anschrift des/der Verbraucher(s):") are its lines: the signature caption under them signs on the run under it; a run with a caption right under it is that caption\'s', () => {
  const run = (y: number) => words('_'.repeat(45), 31, y, 10);
  const address = placed('de', {
    words: [
      ...words('Anschrift des/der Verbraucher(s):', 31, 432, 10),
      ...run(456),
      ...run(483),
      ...words('Unterschrift des/der Verbraucher(s) (nur bei Mitteilung auf Papier)', 31, 507, 10),
      ...run(534),
      ...words('Datum', 31, 558, 10),
    ],
  });
  assert.deepEqual(address, [['signature', 31, 511, 225, 25]]);
  const deposit = placed('de', {
    words: [
      ...words('Kaution in folgender Höhe ausgezahlt (wenn nicht überwiesen):', 31, 555, 10),
      ...run(584),
      ...run(614),
      ...words('Ort, Datum, Unterschrift der anmietenden Person', 31, 626, 10),
    ],
  });
  assert.deepEqual(deposit, [['signature', 31, 587, 225, 29]]);
});

test('a caption in the remark after a caption of its kind ("Signature (Must be signed by hand)") is part of that remark: one place on the run, not two', () => {
  const runs = [...words('_'.repeat(51), 72, 259, 10), ...words('_'.repeat(21), 427, 259, 10)];
  const found = placed('en', { words: [...runs, ...words('Signature (Must be signed by hand)', 72, 272, 9), ...words('Date', 432, 272, 9)] });
  assert.deepEqual(found, [
    ['signature', 72, 221, 255, 40],
    ['date', 427, 241, 105, 20],
  ]);
});

test('a caption in a table row too short to write in, under an empty taller cell of its column ("Unterschrift" under the row left for it): that cell; a cell written in is passed over', () => {
  const grid = {
    segments: [h(37, 525, 714), h(37, 525, 739), h(37, 525, 791), h(37, 525, 811)],
    verticals: [v(37, 714, 811), v(278, 714, 811), v(525, 714, 811)],
  };
  const heads = [...words('Mitarbeiter', 42, 728, 9), ...words('Vorgesetzter', 283, 728, 9)];
  const captions = [...words('Unterschrift', 42, 804, 9), ...words('Ort, Datum', 283, 804, 9)];
  assert.deepEqual(placed('de', { ...grid, words: [...heads, ...captions] }), [
    ['signature', 38, 740, 239, 50],
    ['date', 279, 740, 245, 50],
  ]);
  // (A name written in the cell over "Unterschrift": its room is beside it in its own row, as before.)
  assert.deepEqual(placed('de', { ...grid, words: [...heads, ...words('Max Muster', 42, 760, 9), ...captions] }), [
    ['date', 279, 740, 245, 50],
    ['signature', 101, 792, 176, 18],
  ]);
});

test('a caption whose own run goes on over lines of runs as wide ("Titolo e breve sintesi del lavoro ……" over three more) holds them all, past a row with a blank of its own under them; a line under a caption\'s whole line is its line when the caption ends it ("Il Dirigente Scolastico (timbro e firma)")', () => {
  const dots = (n: number) => '…'.repeat(n);
  const summary = [
    ...words(`Titolo e breve sintesi del lavoro ${dots(46)}`, 57, 617, 12),
    ...words(dots(80), 57, 630, 12),
    ...words(dots(80), 57, 644, 12),
    ...words(dots(80), 57, 658, 12),
    ...words(`Durata totale del lavoro ${dots(10)}`, 57, 672, 12),
  ];
  const lines = buildLines(summary);
  assert.deepEqual(unasked(fillLines(lines), lines), []);
  const head = words('Il Dirigente Scolastico (timbro e firma)', 327, 689, 12);
  assert.deepEqual(placed('it', { words: [...summary, ...head, ...words(dots(24), 350, 717, 12)] }), [['signature', 350, 694, 144, 25]]);
});

test("form grids read row by row: a date beside its caption in a cell over twice its height stands on the cell's foot; `Date` over `Signature` in rows ruled apart are two places; `Fait le` takes the empty cell beside it or under it, and never reaches over its cell's top", () => {
  /** Rows of a caption cell (50 to 200) and an empty cell (200 to 530), `height` tall, from y 300. */
  const rows = (height: number, captions: string[], lang: Parameters<typeof paragraph>[0] = 'en') => {
    const segments = [h(50, 530, 300), ...captions.map((_, i) => h(50, 530, 300 + (i + 1) * height))];
    const verticals = captions.flatMap((_, i) => [50, 200, 530].map((x) => v(x, 300 + i * height, 300 + (i + 1) * height)));
    const captionWords = captions.flatMap((c, i) => words(c, 53, 300 + i * height + height / 2 + 3, 9));
    return placed(lang, { words: captionWords, segments, verticals });
  };
  // A 45 pt row: the signature fills the cell, the date stands on its foot at a date's height.
  assert.deepEqual(rows(45, ['Name:', 'Signature:', 'Date:']), [
    ['text', 201, 324, 328, 20],
    ['signature', 201, 346, 328, 43],
    ['date', 201, 414, 328, 20],
  ]);
  // `Date` over `Signature` in 18 pt rows: the rule between them makes them two rows, not one caption over its signer.
  assert.deepEqual(
    rows(18, ['Name:', 'Date', 'Signature']).filter(([type]) => type !== 'text'),
    [
      ['date', 201, 319, 328, 16],
      ['signature', 201, 337, 328, 16],
    ],
  );
  // `Fait le` in the caption cell: the date goes in the empty cell beside it, not after "le" in its own cell.
  assert.deepEqual(rows(30, ['Signature du responsable', 'Fait le']), [
    ['signature', 201, 301, 328, 28],
    ['date', 201, 331, 328, 28],
  ]);
  // `Fait le` heading a column over an empty row: the cell under it.
  const header = {
    segments: [h(50, 530, 300), h(50, 530, 318), h(50, 530, 348)],
    verticals: [50, 290, 530].map((x) => v(x, 300, 348)),
  };
  assert.deepEqual(placed('fr', { ...header, words: [...words('Fait le', 53, 312, 9), ...words('Signature', 293, 312, 9)] }), [
    ['date', 51, 319, 238, 28],
    ['signature', 291, 319, 238, 28],
  ]);
  // `Fait le:` at the top of a tall cell with room under it: its date after "le" stays under the cell's top rule.
  const tall = placed('fr', {
    words: [...words('Fait le:', 53, 312, 10), ...words('Signature:', 293, 312, 10)],
    segments: [h(50, 530, 300), h(50, 530, 355)],
    verticals: [50, 290, 530].map((x) => v(x, 300, 355)),
  });
  const date = tall.find(([type]) => type === 'date') as number[] & [string, number, number, number, number];
  assert.ok(date[2] >= 300, `the date starts at ${date[2]}, over the cell's top at 300`);
  assert.deepEqual(
    tall.filter(([type]) => type === 'signature'),
    [['signature', 291, 316, 238, 38]],
  );
});

test("a signature caption with its line right under it (`ASSINATURA` over a run 5 pt lower) signs on that line from the caption's descenders; a caption in a row ruled over it too does not take the row's bottom", () => {
  const close = placed('es', {
    words: [...words('ASSINATURA', 450, 430, 14), ...words('_'.repeat(70), 259, 439, 8), ...words('Profa. Dra. Maria Souza', 351, 456, 14)],
  });
  assert.deepEqual(close, [['signature', 259, 433, 280, 8]]);
  // Captions in rows ruled over and under them, the rows open at the right: the rule under each closes its row, no line to sign on.
  const rows = placed('en', {
    words: [...words('Name:', 520, 520, 11), ...words('Signature and fingerprint:', 440, 552, 11), ...words('Date:', 530, 583, 11)],
    segments: [529.8, 561.3, 592.7].flatMap((y) => [h(25, 380, y), h(380, 592, y)]),
    verticals: [v(380, 499, 530), v(380, 530, 561), v(380, 562, 592)],
  });
  assert.deepEqual(rows, [['text', 380, 522, 212, 8]]);
});

test("a name caption with the name typed after its colon (`Name (printed): Jean Dupont`) under a signature's line leaves the line to the signature captioned over it", () => {
  const block = (name: string) =>
    placed('en', {
      words: [...words('Signature of the applicant', 326, 325, 9), ...words('(or legal guardian)', 326, 336, 7.2), ...words(name, 326, 386, 9)],
      segments: [h(326, 476, 373)],
    }).filter(([type]) => type === 'signature');
  assert.deepEqual(block('Name (printed): Jean Dupont'), [['signature', 326, 337, 150, 36]]);
});

test("a row of captions over a row of lines: `Date:` beside a signature caption takes its own line as far under it as the signature's, not the room after its colon", () => {
  const row = placed('en', {
    words: [...words('Date:', 50, 325, 9), ...words('Participant Signature', 326, 325, 9), ...words('(if under 18)', 326, 336, 7.2)],
    segments: [h(50, 180, 370), h(326, 476, 370)],
  });
  assert.deepEqual(row, [
    ['signature', 326, 336, 150, 34],
    ['date', 50, 350, 130, 20],
  ]);
});

test('"Sign" for "signature", as the English of India, Africa and the Gulf writes it, with its "of" (`Sign. of Parent`), `Name & Sign`, `Sign & Date`; not alone closing a caption (`Student Sign`), where it is mostly the verb; a caption restated under itself in a second language has no place of its own', () => {
  // (On a page that does not otherwise speak of signing: two capitalised words under a line would be a name there.)
  const underLine = (caption: string) =>
    brief(suggestFields(page({ words: [...plainParagraph('en', 100), ...words(caption, 300, 512, 9)], segments: [h(300, 500, 500)] })))
      .map((s) => [s.type, s.x, s.y, s.w, s.h])
      .filter(([type]) => type === 'signature');
  for (const caption of ['Sign. of Parent', 'Name & Sign', 'Sign & Date']) assert.deepEqual(underLine(caption), [['signature', 300, 460, 200, 40]], caption);
  for (const caption of ['Student Sign', 'that you must sign', 'Please sign']) assert.deepEqual(underLine(caption), [], caption);
  // `توقيع المشرف المباشر` over `Supervisor Signature` under one line, the row's bottom rule under them: one place.
  const bilingual = placed('ar', {
    words: [...words('توقيع المشرف المباشر', 429, 462, 8, true), ...words('Supervisor Signature', 434, 477, 8)],
    segments: [h(371, 537, 454.2), h(373, 537, 485.8)],
  });
  assert.deepEqual(
    bilingual.filter(([type]) => type === 'signature'),
    [['signature', 371, 414, 166, 40]],
  );
});

test('`Fait le` over a form field: the field is its date, no second date after "le" on its line', () => {
  const got = suggestFields(
    page({
      words: [...paragraph('fr', 100), ...words('Fait le', 60, 500, 9), ...words('Signature', 300, 500, 9)],
      widgets: [{ kind: 'text', name: 'Text9', box: { x0: 60, y0: 524, x1: 250, y1: 540 } }],
      segments: [h(300, 520, 540)],
    }),
  );
  assert.deepEqual(
    brief(got).filter((s) => s.type === 'date'),
    [{ type: 'date', x: 60, y: 524, w: 190, h: 16 }],
  );
});

test('a sentence ending on a short word (`Ich stimme zu.`, `I agree to it.`) ends before the caption that follows it on its line', () => {
  for (const [lang, text] of [
    ['de', 'Ich stimme zu. Unterschrift'],
    ['en', 'I agree to it. Signature'],
  ] as const) {
    const got = placed(lang, { words: words(`${text} ${'_'.repeat(24)}`, 50, 400, 8) }).filter(([type]) => type === 'signature');
    assert.equal(got.length, 1, text);
  }
});

test("a caption's phrase does not run on into a remark in parentheses: `Firma (del genitore per i minori) ____` signs on its run, as `Firma (leggibile) ____` does", () => {
  for (const [lang, caption] of [
    ['it', 'Firma (del genitore per i minori)'],
    ['fr', 'Signature (du représentant légal pour les mineurs):'],
  ] as const) {
    const line = words(`${caption} ${'_'.repeat(24)}`, 50, 400, 9);
    const run = line.at(-1) as Word;
    assert.deepEqual(
      placed(lang, { words: line }).filter(([type]) => type === 'signature'),
      [['signature', Math.round(run.box.x0), 362, Math.round(run.box.x1 - run.box.x0), 40]],
      caption,
    );
  }
});

test('a signature caption over the handwritten mention it asks for (`Signature` over `Lu et approuvé`) signs in the room under both', () => {
  const block = placed('fr', { words: [...words('Signature du responsable légal', 50, 330, 9), ...words('Lu et approuvé', 50, 341.7, 7.65)] });
  assert.deepEqual(block, [['signature', 50, 347, 180, 40]]);
});

test('a party named alone under `Fait le ……` (as under `Fait à ……, le ……`) signs in the room under its name', () => {
  const block = placed('fr', { words: [...words('Fait le ……………………', 50, 300, 10), ...words("L'employeur", 300, 330, 10)] });
  assert.deepEqual(
    block.filter(([type]) => type === 'signature'),
    [['signature', 300, 336, 180, 40]],
  );
});

test("an affidavit's or a deed's closing dates its signing in blanks for the day, the month and the year (`Declared this ___ day of ___`, `Verified at … on this the ___ (day)`, `set my hand this ___`); a jurat's `Subscribed and sworn to before me this ___` dates the officer's, not a signer's", () => {
  const dated = (formula: string) =>
    placed('en', { words: [...words(formula, 50, 340, 10), ...words('Signature of Deponent', 300, 412, 9)], segments: [h(300, 500, 400)] }).filter(
      ([type]) => type === 'date',
    ).length;
  assert.equal(dated('Declared this ______ day of __________ 20____'), 1);
  assert.equal(dated('Verified at ________ on this the ______ (day) of ______ (month) ______ (year)'), 1);
  assert.equal(dated('IN WITNESS WHEREOF, I have set my hand this ____ day of ______, 20__.'), 1);
  assert.equal(dated('Subscribed and sworn to before me this ____ day of ________, 20__.'), 0);
  const suscrito = placed('es', {
    words: [...words('Suscrito en ______________, a los ____ días del mes de ________ de 20__', 57, 340, 10), ...words('Firma', 300, 412, 9)],
    segments: [h(300, 500, 400)],
  }).filter(([type]) => type === 'date');
  assert.equal(suscrito.length, 1);
});

test('a date formula whose blanks are rules drawn along its row (`Declared this on [rule] day of [rule] month of [rule] year`, underlined tabs) dates the signing across them', () => {
  const got = placed('en', {
    words: [
      ...words('Declared this on', 43, 480, 11),
      ...words('day of', 176, 480, 11),
      ...words('month of', 264, 480, 11),
      ...words('year', 352, 480, 11),
      ...words('Signature of Deponent', 43, 506, 11),
    ],
    segments: [h(122, 176, 480.8), h(210, 236, 480.8), h(238, 264, 480.8), h(309, 349, 480.8)],
  });
  assert.deepEqual(
    got.filter(([type]) => type === 'date'),
    [['date', 122, 462, 142, 20]],
  );
  // A place and its date the same way: `São Paulo, [rule] de [rule] de 20[rule]`, the date across all three.
  const pt = 'O abaixo assinado declara que leu e compreendeu as condições do presente contrato e que as aceita integralmente';
  const place = suggestFields(
    page({
      words: [
        ...[0, 1, 2].flatMap((i) => words(pt, 50, 100 + i * 14, 9)),
        ...words('São Paulo,', 50, 340, 10),
        ...words('de', 140, 340, 10),
        ...words('de 20', 230, 340, 10),
        ...words('Assinatura', 300, 412, 9),
      ],
      segments: [h(102, 138, 341), h(153, 228, 341), h(255, 290, 341), h(300, 500, 400)],
    }),
  );
  assert.deepEqual(
    brief(place).filter((s) => s.type === 'date'),
    [{ type: 'date', x: 102, y: 322, w: 188, h: 20 }],
  );
});

test('a caption whose colon ends its line has its blank in the run alone opening the next line, where the text wrapped it (`… Signature: ____ Date:` over `_______`)', () => {
  const got = placed('en', {
    words: [...words('Member Name: ____________________ Signature: ______________ Date:', 72, 541, 11), ...words('_____________', 72, 555, 11)],
  });
  const date = got.filter(([type]) => type === 'date');
  assert.equal(date.length, 1);
  const [, x, y, w] = date[0] as [string, number, number, number, number];
  assert.ok(x === 72 && w >= 70 && y > 541, JSON.stringify(date));
});

test('a caption ending on its colon has its blank in the run right after it set a little lower, in a larger size (`Signature :` in 9 pt, its run in 13 pt 9 pt under its baseline)', () => {
  const got = placed('en', {
    words: [
      ...words('CONTACT :', 324, 195, 10),
      ...words('_______________', 384, 202, 13),
      ...words('Signature :', 339, 225, 9),
      ...words('_____________', 397, 234, 13),
    ],
  }).filter(([type]) => type === 'signature');
  assert.equal(got.length, 1, JSON.stringify(got));
  const [, x, y, w, hgt] = got[0] as [string, number, number, number, number];
  // (On the run, from its start to its end, stopped under the run above.)
  assert.ok(x === 397 && w >= 80 && y >= 204 && y + hgt <= 240, JSON.stringify(got));
});

test("captions sharing one run: a short `Date` near the run's end takes the part back to 60 pt from the end (halfway at most to the caption before it), not only the stub after its own start", () => {
  const got = placed('en', {
    words: [...words('_'.repeat(38), 324, 677, 11), ...words('Signature of Participant', 324, 690, 11), ...words('Date', 509, 690, 11)],
  }).filter(([type]) => type !== 'text');
  assert.deepEqual(got, [
    ['signature', 324, 639, 148, 40],
    ['date', 484, 659, 50, 20],
  ]);
});

test("`Ort ……… Datum ………` on one row: the run after `Datum` is its blank, the one before it `Ort`'s", () => {
  // (The run after `Datum` 39 pt on, as a word processor's tab sets it.)
  const dots = '.'.repeat(25);
  const got = placed('de', {
    words: [...words('Ort', 57, 692, 12), ...words(`${dots} Datum`, 128, 692, 12), ...words(dots, 353, 692, 12), ...words('Unterschrift', 57, 740, 12)],
    segments: [h(150, 450, 741)],
  }).filter(([type]) => type === 'date');
  assert.deepEqual(
    got.map(([, x]) => x),
    [353],
  );
});

test('Dutch `opgemaakt te …, op ____` (and `getekend te … op`, `voor akkoord d.d. ____`) dates the signing in the blank after `op` or `d.d.`', () => {
  const nl = 'Hierbij verklaart het nieuwe lid kennis genomen te hebben van het clubreglement dat hij of zij bij de inschrijving heeft ontvangen';
  for (const [formula, segments, x] of [
    ['opgemaakt te Zottegem - Leeuwergem, op', [h(260, 373, 750.3)], 260],
    ['Getekend te ______________ op ______________', [], 203],
    // ("d.d.", de dato, after the agreement's mention: "Voor akkoord d.d. ____".)
    ['Voor akkoord d.d. …………………………………', [], 136],
    ['Voor akkoord dd …………………………………', [], 134],
  ] as const) {
    const got = suggestFields(
      page({
        words: [...[0, 1, 2].flatMap((i) => words(nl, 57, 100 + i * 14, 10)), ...words(formula, 57, 749, 10), ...words('Handtekening:', 57, 777, 10)],
        segments: [...segments],
      }),
    );
    assert.deepEqual(
      brief(got)
        .filter((s) => s.type === 'date')
        .map((s) => s.x),
      [x],
      formula,
    );
  }
});

test('`Signé à ____ le ____` and `Firmato a ____ il ____` date the signing after `le` / `il`, as `signed … on ____` does; not a birth date after `il` in a caption that only mentions a signature', () => {
  const dated = (lang: 'fr' | 'it', formula: string) =>
    placed(lang, { words: [...words(formula, 57, 340, 10), ...words('Firma', 300, 412, 9)], segments: [h(300, 500, 400)] }).filter(([type]) => type === 'date')
      .length;
  assert.equal(dated('fr', 'Signé à ______________ le ______________'), 1);
  assert.equal(dated('it', 'Firmato a ______________ il ______________'), 1);
  assert.equal(dated('it', 'Firma del genitore nato a ______________ il ______________'), 0);
});

test("a page's only date, bare (`Date: ____` closing a consent's statement), is the signing date with the place to sign further down the page; not when it stands far over it, nor one of two bare dates", () => {
  const page1 = (dateY: number, more: Word[] = []) =>
    placed('en', {
      words: [
        ...words('By signing my name, I acknowledge that I have carefully read and understand this Form.', 72, dateY - 14, 10),
        ...words('Date: _______________________________', 72, dateY, 10),
        ...words('Signature of Participant', 72, 432, 10),
        ...more,
      ],
      segments: [h(72, 231, 420)],
    }).filter(([type]) => type === 'date');
  // (Its field 98 pt over the signature's, farther than a bare date beside it stands.)
  assert.equal(page1(282).length, 1);
  assert.equal(page1(150).length, 0);
  assert.equal(page1(282, words('Date: ____________', 72, 200, 10)).length, 0);
});

test('French dates written in their parts after "le": `A ……, le …. /.… /…` opening its line, and `Le :   /   /` with the slashes printed and room for the date, in a frame painted behind its row (an image around the caption is no writing in the blank)', () => {
  const dates = (parts: Partial<PageModel>) => placed('fr', parts).filter(([type]) => type === 'date');
  const formula = dates({
    words: [...words('A ………………………………….. , le …. /.… /…..…', 71, 692, 11), ...words('Signature :', 71, 730, 11)],
  });
  assert.deepEqual(formula, [['date', 207, 674, 57, 20]]);
  const framed = {
    words: [...words('Signature :', 110, 757, 12), ...words('Le :', 414, 757, 12), ...words('/', 452, 757, 12), ...words('/', 476, 757, 12)],
    images: [{ x0: 405, y0: 736, x1: 551, y1: 777 }],
  };
  assert.deepEqual(dates(framed), [['date', 434, 739, 110, 20]]);
  // (A signature image over the blank alone, its caption outside it, fills it.)
  assert.deepEqual(dates({ ...framed, images: [{ x0: 438, y0: 738, x1: 548, y1: 770 }] }), []);
});

test('contract closings drawn with runs of underscores: a party over `____` / `Authorized Signature` / `____` / `Name and Title` signs on the first run; a name typed under a run, its role under it, signs on the whole run; numbered witnesses (`1.` before a drawn line) under `Testemunhas:`', () => {
  const sigs = (lang: Parameters<typeof paragraph>[0], ws: Word[], segments = [] as ReturnType<typeof h>[]) =>
    placed(lang, { words: ws, segments }).filter(([type]) => type === 'signature');
  // A party's heading over each column; the second run is the name's and title's, not a second signature.
  const block: Word[] = [...words('Receiving Party', 50, 333.7, 9), ...words('CLIENT', 310, 333.7, 9)];
  for (const x of [50, 310]) {
    block.push(...words('_'.repeat(45), x, 372, 9), ...words('Authorized Signature', x, 385.8, 9));
    block.push(...words('_'.repeat(45), x, 421.3, 9), ...words('Name and Title', x, 435.1, 9));
  }
  assert.deepEqual(sigs('en', block), [
    ['signature', 50, 336, 203, 38],
    ['signature', 310, 336, 203, 38],
  ]);
  // `____` / `Ana Gómez` / `LOCADOR`: the run, not a room over the name.
  const named = sigs('es', [
    ...words('E por estarem de acordo, as partes assinam o presente contrato.', 50, 300, 11),
    ...words('_'.repeat(39), 50, 373.2, 11),
    ...words('Ana Gómez', 50, 389.2, 11),
    ...words('LOCADOR', 50, 402.4, 11),
  ]);
  assert.deepEqual(named, [['signature', 50, 335, 215, 40]]);
  // `Testemunhas:` over `1. ____   2. ____`, each line drawn after its number.
  const witnesses = sigs(
    'es',
    [...words('Testemunhas:', 50, 400, 10), ...words('1.', 50, 438, 10), ...words('2.', 300, 438, 10)],
    [h(62, 250, 440), h(312, 500, 440)],
  );
  assert.deepEqual(witnesses, [
    ['signature', 312, 400, 188, 40],
    ['signature', 62, 402, 188, 38],
  ]);
});

test("the title of a sign-in sheet (`Feuille d'émargement`, `Signature sheet`) is no caption: the box under it is the register's header cell, not a place to sign", () => {
  const xs = [40, 211, 383, 554];
  // (The header row and three rows, each cell a box.)
  const boxes = [260, 279, 296, 313].flatMap((y0, r) =>
    [0, 1, 2].map((k) => ({ x0: xs[k] as number, y0, x1: xs[k + 1] as number, y1: r === 0 ? 279 : y0 + 17 })),
  );
  for (const [lang, title, heads] of [
    ['fr', "Feuille d'émargement", ['Nom', 'Prénom', 'Signature']],
    ['en', 'Signature sheet', ['Name', 'Organisation', 'Signature']],
  ] as const) {
    const got = placed(lang, {
      words: [...words(title, 40, 240, 12), ...heads.flatMap((hd, k) => words(hd, (xs[k] as number) + 3, 272, 8))],
      boxes,
    });
    assert.deepEqual(
      got.filter(([type]) => type === 'signature'),
      [
        ['signature', 384, 280, 169, 15],
        ['signature', 384, 297, 169, 15],
        ['signature', 384, 314, 169, 15],
      ],
      title,
    );
  }
});

test("a caption at the top of a form-grid cell leaves the room under it once that room is a line and a half of its size (a 10 pt caption over 13 pt of room, as a 9 pt one over 11 pt), whatever the page's scale", () => {
  const got = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature', 40, 610, 10), ...words('Date', 260, 610, 10)],
      segments: [h(30, 500, 600), h(30, 500, 627)],
      verticals: [v(30, 600, 627), v(250, 600, 627), v(500, 600, 627)],
    }),
  );
  assert.deepEqual(brief(got), [
    { type: 'signature', x: 31, y: 614, w: 218, h: 12 },
    { type: 'date', x: 251, y: 614, w: 248, h: 12 },
  ]);
});

test('a line with the name left to type under it (`(escreva aqui o nome do orientador)`) and who signs under that (`Membro titular`), on a page that says its signers sign, is signed; a caption in parentheses (`(Print Name)`) still names its line', () => {
  const block = (under: string[]) =>
    placed('it', {
      words: [
        ...words('Os professores abaixo assinados aprovaram o trabalho.', 85, 430, 12),
        ...words('_'.repeat(40), 196, 489, 12),
        ...under.flatMap((text, k) => words(text, 213, 503 + 14 * k, 12)),
      ],
    });
  assert.deepEqual(block(['(escreva aqui o nome do orientador)', 'Prof. (a) Orientador(a)']), [['signature', 196, 451, 240, 40]]);
  assert.deepEqual(block(['Maria Helena Souza', 'Membro titular']), [['signature', 196, 451, 240, 40]]);
  // (A name of four names and a particle between them is a name too.)
  assert.deepEqual(block(['Francisco Paulo de Freitas Neto', 'Membro titular']), [['signature', 196, 451, 240, 40]]);
  assert.deepEqual(
    block(['(Print Name)']).filter(([type]) => type === 'signature'),
    [],
  );
  // (A template's placeholder in brackets for a party's name, "[NOME CONTRATANTE]", alone under the line: that party signs on it;
  // one in brackets for another name, "[name of association]", names its line.)
  assert.deepEqual(block(['[NOME CONTRATANTE]']), [['signature', 196, 451, 240, 40]]);
  assert.deepEqual(
    block(['[name of association]']).filter(([type]) => type === 'signature'),
    [],
  );
});

test('a line drawn under a paragraph that an attestation clause opens (`IN WITNESS WHEREOF, I have hereunto set my hand …`), nothing written between, is signed; not a line under other running text', () => {
  const under = (clause: string) =>
    placed('en', {
      words: [...words(clause, 73, 392, 12), ...words('day of, 20 , in , Philippines.', 73, 411, 12), ...words('_'.repeat(24), 73, 448, 12)],
    }).filter(([type]) => type === 'signature');
  assert.deepEqual(under('IN WITNESS WHEREOF, I have hereunto set my hand this'), [['signature', 73, 413, 144, 37]]);
  assert.deepEqual(under('The applicant declares that the above is true and correct this'), []);
});

test("lines stacked alike over a caption of signatures in the plural (`Unterschriften (alle Antragsteller/innen)` under three rules) are one signer's each; not one rule alone over the plural heading", () => {
  const stacked = placed('de', {
    words: [...words('Strausberg, den', 71, 470, 12), ...words('Unterschriften (alle Antragsteller/innen)', 71, 601, 11)],
    segments: [h(74, 521, 500.5), h(74, 521, 533.5), h(74, 521, 567.5)],
  }).filter(([type]) => type === 'signature');
  assert.equal(stacked.length, 3, JSON.stringify(stacked));
  const one = placed('de', { words: [...words('Unterschriften', 71, 601, 11)], segments: [h(74, 521, 567.5)] }).filter(([type]) => type === 'signature');
  assert.deepEqual(one, []);
});

test("the least room a signature needs over or under its caption follows the caption's type (two and a half of its sizes, 24 pt at most): `Firma Interesado` in 9 pt over `C. C.` signs in 22 pt of room", () => {
  const sign = (gap: number) =>
    placed('es', {
      words: [
        ...words('implicaciones, lo suscribo', 85, 600, 9),
        ...words('Firma Interesado', 85, 609 + gap, 9),
        ...words('Huella:', 332, 609 + gap, 9),
        ...words('C. C.', 85, 619.8 + gap, 9),
        ...words('Teléfono Casa:', 85, 630.6 + gap, 9),
      ],
    }).filter(([type]) => type === 'signature');
  assert.deepEqual(sign(26), [['signature', 85, 604, 180, 22]]);
  assert.deepEqual(sign(22), []);
});

test("the room over an oath official's title needs a signature's height clear, or four of the title's sizes in smaller type: `NOTARY PUBLIC` in 9.6 pt signs in 38 pt of room, not in 36", () => {
  const over = (gap: number) =>
    placed('en', {
      words: [
        ...words('SUBSCRIBED AND SWORN to me before this 3rd day of March 2024 at Manila, Philippines, by the affiant.', 36, 620, 9.6),
        ...words('NOTARY PUBLIC', 376, 631.6 + gap, 9.6),
      ],
    }).filter(([type]) => type === 'signature');
  assert.deepEqual(over(38), [['signature', 376, 623, 180, 38]]);
  assert.deepEqual(over(36), []);
});

test('a signature caption whose party signs in the room under it (`Signed by the Employee:` beside `Witnessed by:`) has that one place, not a room after its colon too', () => {
  const got = placed('en', {
    words: [
      ...words('SIGNATURES', 30, 474, 11),
      ...words('Signed by the Employee:', 30, 504, 11),
      ...words('Witnessed by:', 303, 504, 11),
      ...words('Name:', 30, 549, 11),
      ...words('Name:', 303, 549, 11),
      ...words('Date:', 30, 564, 11),
      ...words('Designation:', 303, 564, 11),
    ],
  }).filter(([type]) => type === 'signature');
  assert.deepEqual(got, [
    ['signature', 30, 510, 180, 31],
    ['signature', 303, 510, 180, 31],
  ]);
});

test('who may sign, named in alternatives after slashes, one word saying which (`Parent/Guardian/School Doctor` under a line), is one party caption; a sentence naming parties (`minor and the parents or legal guardian.`) is none', () => {
  const under = (caption: string) =>
    placed('en', {
      words: [...words('Headmaster or the Senior Deputies to act as loco parentis.', 72, 380, 12), ...words(caption, 341, 452, 12)],
      segments: [h(342, 521, 433.9)],
    }).filter(([type]) => type === 'signature');
  assert.deepEqual(under('Parent/Guardian/School Doctor'), [['signature', 342, 394, 179, 40]]);
  assert.deepEqual(under('Parent/Guardian'), [['signature', 342, 394, 179, 40]]);
  assert.deepEqual(under('minor and the parents or legal guardian.'), []);
});

test('a caption going on over its second line in lower case (`Firma del genitore` / `o affidatario che esercita la potestà genitoriale`) signs on the run under both, drawn in double low lines', () => {
  const got = placed('it', {
    words: [
      ...words('Firma del genitore', 452, 574, 12),
      ...words('o affidatario che esercita la potestà genitoriale', 304, 588, 12),
      ...words('‗'.repeat(47), 263, 624, 11.5),
    ],
  }).filter(([type]) => type === 'signature');
  assert.deepEqual(got, [['signature', 263, 590, 270, 36]]);
});

test('a caption two points lower in its form-grid cell still leaves the room under it; a caption with its colon, or one with a line under it in the cell, keeps the room beside it', () => {
  const got = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        // 9 pt captions 4 pt under the cell's top, 14 pt of room under them.
        ...words('Signature', 36, 614, 9),
        ...words('Date', 256, 614, 9),
        // "Date:" in the middle of its row, and a caption on two lines.
        ...words('Date:', 36, 663, 9),
        ...words('Signature of', 256, 652, 9),
        ...words('applicant:', 256, 664, 9),
      ],
      segments: [h(30, 500, 603), h(30, 500, 630), h(30, 500, 680)],
      verticals: [v(30, 603, 680), v(250, 603, 680), v(500, 603, 680)],
    }),
  );
  assert.deepEqual(brief(got), [
    { type: 'signature', x: 31, y: 618, w: 218, h: 11 },
    { type: 'date', x: 251, y: 618, w: 248, h: 11 },
    { type: 'signature', x: 315, y: 631, w: 184, h: 48 },
    { type: 'date', x: 64, y: 647, w: 186, h: 20 },
  ]);
});

test('a declaration in the first person (`Declaro …`, `I hereby certify`) is signed by its declarant: a line over a name typed under it is where', () => {
  const got = (verb: string) =>
    suggestFields(
      page({
        words: [
          ...words(`${verb} para os devidos fins de direito, que o(a) Professor Tiago da Silva foi orientador do(a) discente João Silva.`, 85, 300, 12),
          ...words('Palmas / TO, 2 de dezembro de 2016', 373, 405, 12),
          ...words('Professor de Estágio Supervisionado', 230, 553, 12),
        ],
        segments: [h(198, 439, 540.7)],
      }),
    );
  assert.deepEqual(brief(got('Declaro')), [{ type: 'signature', x: 198, y: 501, w: 241, h: 40 }]);
  // (A page that only informs is not signed for it.)
  assert.deepEqual(brief(got('Informo')), []);
});

test('a remark in parentheses under a signature caption in its cell ("Signature :" over "(Pour les sociétés : nom, qualité" / "du signataire et cachet)") is the caption\'s: the room starts under it', () => {
  const cell = (under: ReturnType<typeof words>) =>
    placed('fr', {
      words: [...words('Fait à : .......... Le : ..........', 167, 725, 6), ...words('Signature :', 167, 734, 7), ...under],
      // (Three cells side by side over a row across them: a table drawn as one rectangle per cell.)
      boxes: [
        { x0: 29, y0: 693, x1: 163, y1: 769 },
        { x0: 163, y0: 693, x1: 298, y1: 769 },
        { x0: 298, y0: 693, x1: 432, y1: 769 },
        { x0: 29, y0: 769, x1: 432, y1: 794 },
      ],
    }).filter((s) => s[0] !== 'date');
  assert.deepEqual(cell([...words('(Pour les sociétés : nom, qualité', 167, 742, 6), ...words('du signataire et cachet)', 167, 749, 6)]), [
    ['signature', 164, 752, 133, 16],
  ]);
  // (A row that is no remark is written in the room: no place to sign under it.)
  assert.deepEqual(cell(words('Pour les sociétés seulement', 167, 742, 6)), []);
});

test('a cell whose border is drawn in pieces, open where a side rule meets it, is a cell; a caption with its translation over it in the cell has the room beside it', () => {
  const geo = {
    h: [h(45, 311.5, 654), h(314.5, 355.6, 654), h(358.6, 595, 654), h(42, 311.5, 682.5), h(317.5, 595, 682.5)],
    v: [v(40, 605, 653), v(356, 605, 653), v(597, 605, 653), v(40, 656, 681), v(313, 656, 681), v(597, 656, 681)],
  };
  const cell = { x0: 313, y0: 654, x1: 597, y1: 682.5 };
  assert.deepEqual(cellAt(geo, 350, 664), cell);
  const ws = [...paragraph('en', 100), ...words('Firma Autista', 319, 667, 10), ...words('Signature Driver', 319, 678, 8)];
  const label = findLabels(buildLines(ws), 9, []).find((l) => l.entry.tokens[0] === 'signature');
  assert.ok(label);
  assert.deepEqual(cellBlank(label, cell, { ...geo, boxes: [], free: [] }, page({ words: ws })), { x0: 388, y0: 655, x1: 596, y1: 681.5 });
});

test('a cell whose side rule stops a few points short of the border under it is a cell: "Firma y sello del receptor" signs in it', () => {
  const geo = { h: [h(60, 536, 661.3), h(60, 536, 699)], v: [v(60, 553, 699), v(419.2, 548.5, 694.2), v(536, 553, 699)] };
  assert.deepEqual(cellAt(geo, 150, 669), { x0: 60, y0: 661.3, x1: 419.2, y1: 699 });
  // (Ten points short, it stops short of the border: no cell.)
  assert.equal(cellAt({ ...geo, v: [v(60, 553, 699), v(419.2, 548.5, 689), v(536, 553, 699)] }, 150, 669), undefined);
  const got = suggestFields(
    page({
      words: [...paragraph('es', 100), ...words('Firma y sello del receptor de la presente Autorización', 68, 672, 8)],
      segments: geo.h,
      verticals: geo.v,
    }),
  ).filter((s) => s.type === 'signature');
  assert.equal(got.length, 1, JSON.stringify(brief(got)));
  assert.ok(
    (got[0] as Suggestion).y > 672 && (got[0] as Suggestion).x < 70 && (got[0] as Suggestion).x + (got[0] as Suggestion).width <= 420,
    JSON.stringify(brief(got)),
  );
});

test('a line to sign on with no caption under it has the row’s only other line, alike and with nothing written over or under it, as another signer’s (`Signature:` over the left of two parents’ lines)', () => {
  const got = (over: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 200),
          ...words('Signature:', 72, 356, 14),
          ...(over ? words(over, 320, 345, 8) : []),
          ...words('Current home address:', 44, 403, 14),
        ],
        segments: [h(72, 268, 371.6), h(307, 552, 371.6)],
      }),
    );
  assert.deepEqual(brief(got('')), [
    { type: 'signature', x: 307, y: 332, w: 245, h: 40 },
    { type: 'signature', x: 72, y: 361, w: 196, h: 11 },
  ]);
  // (A caption over the other line makes it that caption's.)
  assert.deepEqual(brief(got('DATE OF BIRTH')), [{ type: 'signature', x: 72, y: 361, w: 196, h: 11 }]);
});

test('a signature caption under the last blank of a column names the blanks stacked over it, each the last of a row after its caption', () => {
  // Minutes of a thesis defence: "Orientador: ____ ____" … "Membro da banca 2: ____ ____" over "(nome)  (assinatura)".
  const rows = ['Orientador:', 'Coorientador:', 'Membro da banca 1:', 'Membro da banca 2:'];
  const row = (caption: string, baseline: number) => [
    ...words(caption, 43, baseline, 12),
    ...words('_'.repeat(Math.floor((350 - 47 - caption.length * 6) / 6)), 47 + caption.length * 6, baseline, 12),
    ...words('_'.repeat(31), 364, baseline, 12),
  ];
  const under = [...words('(nome)', 202, 411, 12), ...words('(assinatura)', 418, 411, 12)];
  const model = page({ words: [...paragraph('es', 200), ...rows.flatMap((caption, i) => row(caption, 322 + 25 * i)), ...under] });
  // (The column's places; "Orientador:" names who signs, so its row's first blank is one too.)
  const signatures = suggestFields(model).filter((s) => s.type === 'signature' && s.x > 300);
  assert.deepEqual(
    signatures.map((s) => [Math.round(s.x), Math.round(s.x + s.width)]),
    rows.map(() => [364, 550]),
    JSON.stringify(brief(signatures)),
  );
  assert.deepEqual(
    signatures.map((s) => Math.round(s.y + s.height)).sort((a, b) => a - b),
    [324, 349, 374, 399],
    JSON.stringify(brief(signatures)),
  );
  // A run alone across its row over the captioned one (the end of a sentence to complete) is not one of them.
  const lone = page({
    words: [
      ...paragraph('de', 200),
      ...words('Kaution in folgender Höhe in bar ausgezahlt (wenn nicht überwiesen):', 71, 557, 11),
      ...words('_'.repeat(80), 71, 586, 11),
      ...words('_'.repeat(80), 71, 615, 11),
      ...words('Ort, Datum, Unterschrift der anmietenden Person', 71, 627, 9),
    ],
  });
  assert.equal(suggestFields(lone).filter((s) => s.type === 'signature').length, 1, JSON.stringify(brief(suggestFields(lone))));
});

test('a German lab sheet\'s "Testat" column (a signature attesting the work done) over empty rows: each row a place to sign', () => {
  const sheet = suggestFields(
    page({
      words: [...paragraph('de', 100), ...words('Versuch', 60, 212), ...words('Bemerkung', 240, 212), ...words('Testat', 420, 212)],
      segments: [h(50, 540, 200), h(50, 540, 218), h(50, 540, 247), h(50, 540, 276)],
      verticals: [v(50, 200, 276), v(230, 200, 276), v(410, 200, 276), v(540, 200, 276)],
    }),
  );
  assert.deepEqual(
    brief(sheet).filter((s) => s.type === 'signature'),
    [
      { type: 'signature', x: 411, y: 219, w: 128, h: 27 },
      { type: 'signature', x: 411, y: 248, w: 128, h: 27 },
    ],
  );
});

test('a line captioned under by the name and the title of whoever signs ("Name/Title", "Nome del Docente" over "Carica") is where one signs; not a name alone, nor under a caption asking for the signature', () => {
  const signs = (lang: Parameters<typeof paragraph>[0], rows: Array<[string, number, number]>, segments: Array<ReturnType<typeof h>>) =>
    suggestFields(page({ words: [...paragraph(lang, 100), ...rows.flatMap(([t, x, y]) => words(t, x, y, 10))], segments }))
      .filter((s) => s.type !== 'text')
      .map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height)]);
  // A bilateral agreement's block: the line over "Name/Title", then the date's.
  assert.deepEqual(
    signs(
      'en',
      [
        ['AGREED:', 50, 300],
        ['Name/Title', 50, 389],
        ['Date', 50, 435],
      ],
      [h(50, 194, 378), h(50, 194, 424)],
    ),
    [
      ['signature', 50, 378],
      ['date', 50, 424],
    ],
  );
  // Minutes signed by the members: the name and the office under each line.
  const member = (office: Array<[string, number, number]>) => signs('it', [['Nome del Docente', 128, 583], ...office], [h(87, 257, 572)]);
  assert.deepEqual(member([['Carica', 161, 596]]), [['signature', 87, 572]]);
  // (On a run of underscores alike.)
  const typed = signs(
    'it',
    [
      ['_'.repeat(34), 87, 570],
      ['Nome del Docente', 128, 583],
      ['Carica', 161, 596],
    ],
    [],
  );
  assert.deepEqual(
    typed.map(([type, x]) => [type, x]),
    [['signature', 87]],
  );
  // The name alone asks for the name; under "Authorized Signature" the name and title ask for them.
  assert.deepEqual(member([]), []);
  assert.deepEqual(
    signs(
      'en',
      [
        ['Authorized Signature', 331, 490],
        ['Printed Name and Title', 331, 555],
      ],
      [h(331, 552, 480), h(331, 552, 545)],
    ),
    [['signature', 331, 480]],
  );
});

test('a row of offices at a page\'s foot ("Lab-In-Charge   Head of the Department", "(INTERNAL EXAMINER)   (EXTERNAL EXAMINER)") signs in the room over each title; not at the top, nor a row of signers in French', () => {
  const signs = (rows: Array<[string, number, number]>, verticals: Array<ReturnType<typeof v>> = []) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 100),
          ...words('Certified that this is the bona fide record of work done by the student', 80, 520, 14),
          ...rows.flatMap(([t, x, y]) => words(t, x, y, 14)),
        ],
        verticals,
      }),
    )
      .filter((s) => s.type === 'signature')
      .map((s) => [Math.round(s.x), Math.round(s.y), Math.round(s.width), Math.round(s.height)]);
  // Each over its title, 40 pt tall, 180 wide or up to the page's border.
  assert.deepEqual(
    signs(
      [
        ['Lab-In-Charge', 67, 591],
        ['Head of the Department', 396, 591],
      ],
      [v(572, 60, 783)],
    ),
    [
      [67, 538, 180, 40],
      [396, 538, 176, 40],
    ],
  );
  assert.deepEqual(
    signs([
      ['(INTERNAL EXAMINER)', 91, 693],
      ['(EXTERNAL EXAMINER)', 342, 693],
    ]).map(([x]) => x),
    [91, 342],
  );
  // At the top of the page, a row of titles heads columns; one title alone is no row.
  assert.deepEqual(
    signs([
      ['Internal Examiner', 91, 60],
      ['External Examiner', 342, 60],
    ]),
    [],
  );
  assert.deepEqual(signs([['Internal Examiner', 91, 693]]), []);
  // "Le président   Le trésorier" sign under their titles (party rows), not over them.
  const french = suggestFields(
    page({ words: [...paragraph('fr', 100), ...words('Le président du club', 87, 617, 10), ...words('Le trésorier du club', 303, 617, 10)] }),
  );
  assert.ok(
    french.filter((s) => s.type === 'signature').every((s) => s.y > 617),
    JSON.stringify(brief(french)),
  );
});

test('a run shared by a signature and a date captioned under it ("Parent or Legal Guardian signature  Date"): the run alike under it, captioned "Spouse  Date" the same way, is another signer\'s, split the same way', () => {
  const rows = (second: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 300),
          ...words(`If Applicable: ${'_'.repeat(56)}`, 72, 610, 12),
          ...words('Parent or Legal Guardian signature', 172, 625, 10),
          ...words('Date', 394, 625, 10),
          ...words(`If Applicable: ${'_'.repeat(57)}`, 72, 647, 12),
          ...words(second, 173, 661, 10),
          ...words('Date', 394, 661, 10),
        ],
      }),
    )
      .filter((s) => s.type === 'signature')
      .map((s) => [Math.round(s.x), Math.round(s.y + s.height)]);
  const spouse = rows('Spouse');
  assert.equal(spouse.length, 2, JSON.stringify(spouse));
  assert.ok(Math.abs(Number(spouse[1]?.[1]) - 649) <= 3 && Math.abs(Number(spouse[1]?.[0]) - Number(spouse[0]?.[0])) <= 1, JSON.stringify(spouse));
  // (Captioned as asking for something else, "Printed Name  Date", it is not.)
  assert.equal(rows('Printed Name').length, 1);
});

test('in a frame around several rows of captions ("Name:" over "Signature" over "Date:"), the room beside each caption is a field\'s width, not all across the frame (a caption alone in its cell keeps the cell\'s room: "form grids" in detect-rules)', () => {
  const framed = (rows: Array<[string, number]>) =>
    brief(
      suggestFields(
        page({
          words: [...paragraph('en', 100), ...rows.flatMap(([text, y]) => words(text, 112 - 6 * text.length, y, 10.5))],
          segments: [h(36, 463, 236), h(36, 463, 344)],
          verticals: [v(36, 236, 344), v(462, 236, 344)],
        }),
      ).filter((s) => s.type !== 'text'),
    );
  assert.deepEqual(
    framed([
      ['Name:', 254],
      ['Signature', 286],
      ['Date:', 317],
    ]),
    [
      { type: 'signature', x: 110, y: 250, w: 178, h: 40 },
      { type: 'date', x: 113, y: 301, w: 108, h: 20 },
    ],
  );
});

test("a symbol font's mark in the empty cell beside a caption (a pointing hand read as a private-use character) is no writing: the cell is where one signs", () => {
  const signature = (mark: string) =>
    brief(
      suggestFields(
        page({
          words: [...paragraph('en', 100), ...words('Signature of the athlete:', 43, 331, 11), ...words(mark, 203, 331, 11)],
          segments: [h(40, 200, 317), h(200, 480, 317), h(40, 200, 351), h(200, 480, 351)],
          verticals: [v(40, 317, 351), v(200, 317, 351), v(480, 317, 351)],
        }),
      ).filter((s) => s.type === 'signature'),
    );
  assert.deepEqual(signature('\uF0E8'), [{ type: 'signature', x: 201, y: 318, w: 278, h: 32 }]);
  // (A word written there fills it.)
  assert.deepEqual(signature('Silva'), []);
});

test('an ellipsis counts as its three dots in a blank: "Date : …... / …... / …..." is a date written in its parts', () => {
  const got = brief(
    suggestFields(
      page({
        words: [...paragraph('fr', 100), ...words('Date : …... / …... / …...', 29, 684, 12), ...words('Signature des parents', 29, 699, 12)],
      }),
    ),
  ).filter((s) => s.type === 'date');
  assert.equal(got.length, 1, JSON.stringify(got));
  // (After the caption, across the parts.)
  assert.ok((got[0]?.x ?? 0) >= 60 && (got[0]?.w ?? 0) >= 60, JSON.stringify(got));
});

test("a column of lines alike, each with a name typed under it, under the place and date: each line is a signer's, down to the last (a board's three members)", () => {
  const board = () =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('es', 100),
            ...words('Coxim, ____ de ________________ de 2016.', 295, 405, 12),
            ...Array.from({ length: 3 }, (_, i) => [
              ...words('__________________________________________', 172, 522 + 83 * i, 12),
              ...words(['Profa. Ma. Juliana Wolf Pereira', 'Prof. Me. Angelo Darcy Molin Brun', 'Prof. Dr. Gedson Faria'][i] as string, 230, 543 + 83 * i, 12),
            ]).flat(),
          ],
        }),
      ).filter((s) => s.type === 'signature'),
    );
  assert.deepEqual(board(), [
    { type: 'signature', x: 172, y: 484, w: 252, h: 40 },
    { type: 'signature', x: 172, y: 567, w: 252, h: 40 },
    { type: 'signature', x: 172, y: 650, w: 252, h: 40 },
  ]);
});

test('a role printed at the foot of a signer\'s cell ("Presidente/a" under the room left under "(Nombre, apellidos y firma)") ends the room to sign', () => {
  const cells = brief(
    suggestFields(
      page({
        words: [
          ...paragraph('es', 100),
          ...words('(Nombre, apellidos y firma)', 71, 358.5, 6),
          ...words('Presidente/a', 71, 394.5, 8),
          ...words('(Nombre, apellidos y firma)', 300, 358.5, 6),
          ...words('Secretario/a', 300, 394.5, 8),
        ],
        segments: [h(68, 528, 348.7), h(68, 528, 398.6)],
        verticals: [v(68, 348, 399), v(297, 348, 399), v(528, 348, 399)],
      }),
    ).filter((s) => s.type === 'signature'),
  );
  assert.deepEqual(cells, [
    { type: 'signature', x: 69, y: 362, w: 227, h: 24 },
    { type: 'signature', x: 298, y: 362, w: 229, h: 24 },
  ]);
});

test('pieces of a word a text layer writes apart with no room between them ("ERZIEHUN" "GSBERE" "CHT" "IG" "TEN") are the word they spell: the caption under the line reads whole', () => {
  // (words() sets 5 pt a character at 10 pt: each piece starts 0.3 pt after the last one ends.)
  const pieces = (parts: string[], x: number) => parts.flatMap((p, i) => words(p, x + parts.slice(0, i).reduce((n, q) => n + 5 * q.length + 0.3, 0), 727, 10));
  const signature = () =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('de', 100),
            ...words('ORT, DATUM', 71, 727, 10),
            ...words('UNTERSCHRIFT DER/DES', 225, 727, 10),
            ...pieces(['ERZIEHUN', 'GSBERE', 'CHT', 'IG', 'TEN'], 338),
          ],
          segments: [h(66, 519, 647), h(66, 519, 703.5)],
        }),
      ).filter((s) => s.type === 'signature'),
    );
  assert.deepEqual(signature(), [{ type: 'signature', x: 223, y: 664, w: 296, h: 40 }]);
});

test('a date\'s caption ending on its colon between a line over it and a blank right under it ("Date:" under a name\'s line) asks for the blank under it', () => {
  const dates = brief(
    suggestFields(
      page({
        words: [
          ...paragraph('en', 100),
          ...words('_'.repeat(34), 85, 380, 9.7),
          ...words('Signature of the member', 85, 396, 8.3),
          ...words('_'.repeat(31), 85, 442, 9.7),
          ...words('Date:', 85, 461, 9.7),
          ...words('_'.repeat(36), 85, 475, 9.7),
        ],
      }),
    ),
  ).filter((s) => s.type === 'date');
  assert.equal(dates.length, 1, JSON.stringify(dates));
  assert.ok((dates[0]?.y ?? 0) >= 455, JSON.stringify(dates));
});

test('a merged cell whose side is drawn as the borders of the two cells beside it ("Firma" over one cell beside "Nombres" and "DNI N°" over two) is a cell: the place to sign under its header', () => {
  const table = (split: boolean) =>
    suggestFields(
      page({
        words: [
          ...paragraph('es', 100),
          ...words('Nombres y Apellidos del padre', 105, 447, 12),
          ...words('Firma', 400, 447, 12),
          ...words('DNI N°', 69, 521, 12),
        ],
        segments: [h(63, 531, 436), h(63, 531, 450), h(63, 297, 502), h(63, 531, 531)],
        verticals: [v(63, 436, 531), v(531, 436, 531), ...(split ? [v(297, 436, 450), v(297, 450, 502), v(297, 502, 531)] : [v(297, 436, 531)])],
      }),
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    brief(table(true)).map((s) => [s.x, s.y, s.w, s.h]),
    [[298, 451, 232, 79]],
  );
  // (The same as with the side drawn in one piece.)
  assert.deepEqual(brief(table(true)), brief(table(false)));
});

test('a sign-in sheet going on over the next page without its header: each empty cell of the column that signed on the page before, ruled the same, in a row written in, is a place to sign', () => {
  // Columns: time 57-117, talk 117-422, presenter 422-609, signature 609-757, on both pages.
  const columns = (y0: number, y1: number) => [v(57, y0, y1), v(117, y0, y1), v(422, y0, y1), v(609, y0, y1), v(757, y0, y1)];
  const rows = (ys: number[]) => ys.map((y) => h(57, 757, y));
  const first = page({
    width: 842,
    height: 595,
    words: [
      ...paragraph('en', 100),
      ...words('Time', 62, 320, 10),
      ...words('Full name of the presenter', 430, 320, 10),
      ...words('Signature', 650, 320, 10),
      ...words('09:00', 62, 380, 10),
      ...words('Opening session', 123, 380, 10),
    ],
    segments: rows([292, 348, 463, 536]),
    verticals: columns(292, 536),
  });
  const before = suggestAcross(first, undefined);
  assert.deepEqual(
    before.filter((s) => s.type === 'signature').map((s) => [Math.round(s.x), Math.round(s.y)]),
    [
      [610, 349],
      [610, 464],
    ],
  );
  const next = (written: boolean, edges = columns(277, 534)) =>
    suggestAcross(
      page({
        page: 2,
        width: 842,
        height: 595,
        words: written
          ? [
              ...words('09:20', 62, 290, 10),
              ...words('Composting urban waste', 123, 290, 10),
              ...words('09:40', 62, 380, 10),
              ...words('Malware review', 123, 380, 10),
            ]
          : [],
        segments: rows([277, 365, 437]),
        verticals: edges,
      }),
      before,
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(
    next(true).map((s) => [Math.round(s.x), Math.round(s.y), Math.round(s.x + s.width), Math.round(s.y + s.height)]),
    [
      [610, 278, 756, 364],
      [610, 366, 756, 436],
    ],
  );
  // (Rows with nothing written in them are no talks to sign for; a column ruled elsewhere is another table's.)
  assert.deepEqual(next(false), []);
  assert.deepEqual(next(true, [v(57, 277, 534), v(117, 277, 534), v(500, 277, 534), v(757, 277, 534)]), []);
});

test('a table of data (a header row "Name | Signature" over rows written in) asks for nothing in its headers; over empty rows, its columns are filled in; a value cell holding a caption with its colon keeps the header\'s room', () => {
  const table = (rows: string[][]) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...rows.flatMap((r, i) => r.flatMap((t, j) => (t ? words(t, 56 + j * 150, 417 + i * 25, 9) : [])))],
        segments: Array.from({ length: rows.length + 1 }, (_, i) => h(50, 350, 405 + i * 25)),
        verticals: [50, 200, 350].map((x) => v(x, 405, 405 + rows.length * 25)),
      }),
    ).map((s) => `${s.type} ${Math.round(s.y)}`);
  assert.deepEqual(
    table([
      ['Name', 'Signature'],
      ['John Smith', 'J. Smith'],
      ['Ann Lee', 'A. Lee'],
    ]),
    [],
  );
  assert.deepEqual(
    table([
      ['Name', 'Signature'],
      ['John Smith', ''],
      ['Ann Lee', ''],
    ]),
    ['signature 431', 'signature 456'],
  );
  assert.deepEqual(
    table([
      ['Name', 'Signature'],
      ['Address:', 'Fee paid:'],
    ]).filter((s) => s.startsWith('signature')),
    ['signature 406'],
  );
});

test('parties named at the foot of taller table cells ("The Employer" | "The Employee") sign in the room over their names; a party heading a row of data ("The Tenant" beside its requirements) does not', () => {
  const cells = (left: string, right: string) =>
    brief(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words('The parties have signed this agreement.', 50, 360, 10),
            ...words(left, 100, 462, 9),
            ...words(right, 350, 462, 9),
          ],
          segments: [h(50, 545, 400), h(50, 545, 470)],
          verticals: [v(50, 400, 470), v(297, 400, 470), v(545, 400, 470)],
        }),
      ),
    ).map((s) => [s.type, s.x, s.y, s.y + s.h]);
  assert.deepEqual(cells('The Employer', 'The Employee'), [
    ['signature', 51, 413, 453],
    ['signature', 298, 413, 453],
  ]);
  assert.deepEqual(cells('The Tenant', 'Income of three times the rent'), []);
});

test('a line beside a signature\'s line captioned by a datum or an office ("D.N.I.", "Qualifica", "Cargo", "Matrícula") asks for that, not for another signature', () => {
  const row = (language: 'es' | 'it' | 'pt', captions: string[], rules: ReturnType<typeof h>[]) =>
    brief(
      suggestFields(page({ words: [...paragraph(language, 340), ...captions.flatMap((c, i) => words(c, (rules[i]?.x0 ?? 0) + 20, 560))], segments: rules })),
    ).filter((s) => s.type === 'signature');
  const three = [h(60, 200, 545), h(225, 365, 545), h(390, 530, 545)];
  const two = [h(72, 250, 545), h(330, 510, 545)];
  assert.deepEqual(
    row('es', ['Firma', 'Aclaración', 'D.N.I.'], three).map((s) => s.x),
    [60],
  );
  assert.deepEqual(
    row('it', ['Firma', 'Qualifica'], two).map((s) => s.x),
    [72],
  );
  assert.deepEqual(
    row('pt', ['Assinatura', 'Matrícula'], two).map((s) => s.x),
    [72],
  );
  // (Another signer's caption beside it is another place.)
  assert.deepEqual(
    row('es', ['Firma del alumno', 'Firma del tutor'], two).map((s) => s.x),
    [72, 330],
  );
});

test('"Signature :" under "Nom :" in a small drawn cell (an approval table\'s "Établi par" cell) has the room beside it and under it to the cell\'s foot, not up over the name\'s row', () => {
  const cell = (bottom: number) =>
    brief(
      suggestFields(
        page({
          words: [...paragraph('fr', 340), ...words('Nom :', 60, 488, 8), ...words('Signature :', 60, 506, 8)],
          segments: [h(50, 215, 470), h(50, 215, bottom)],
          verticals: [v(50, 470, bottom), v(215, 470, bottom)],
        }),
      ),
    );
  for (const bottom of [530, 540]) {
    const found = cell(bottom);
    const signature = found.find((s) => s.type === 'signature');
    assert.ok(found.some((s) => s.type === 'text' && s.y < 490));
    assert.ok(signature && signature.x > 100 && signature.y >= 490 && signature.y + signature.h >= bottom - 2, `${bottom}: ${JSON.stringify(found)}`);
  }
});

test('a form\'s numbered items in table cells ("12. Signature" | "13. Date") ask for their cells: the number is the item\'s, not a section\'s', () => {
  const row = (a: string, b: string) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...words(a, 52, 610, 8), ...words(b, 352, 610, 8)],
        segments: [h(50, 545, 600), h(50, 545, 640)],
        verticals: [v(50, 600, 640), v(350, 600, 640), v(545, 600, 640)],
      }),
    );
  const cells = [
    { type: 'signature', x: 51, y: 614, w: 298, h: 25 },
    { type: 'date', x: 351, y: 614, w: 193, h: 25 },
  ];
  assert.deepEqual(brief(row('12. Signature', '13. Date')), cells);
  assert.deepEqual(brief(row('Signature', 'Date')), cells);
});

test('a date\'s format printed in its box ("DD/MM/YYYY") leaves it blank; boxes for a date\'s digits one by one (a comb) are its field as one', () => {
  const signature = [...paragraph('en', 100), ...words('Signature', 60, 640, 9), ...words('Date', 330, 640, 9)];
  const hinted = suggestFields(
    page({
      words: [...signature, ...words('DD/MM/YYYY', 372, 640, 7)],
      boxes: [
        { x0: 110, y0: 624, x1: 310, y1: 648 },
        { x0: 360, y0: 624, x1: 520, y1: 648 },
      ],
    }),
  );
  assert.deepEqual(brief(hinted), [
    { type: 'signature', x: 110, y: 624, w: 200, h: 24 },
    { type: 'date', x: 360, y: 624, w: 160, h: 24 },
  ]);
  // (A date written in it fills it.)
  const written = suggestFields(page({ words: [...signature, ...words('12/03/2024', 372, 640, 9)], boxes: [{ x0: 360, y0: 624, x1: 520, y1: 648 }] }));
  assert.deepEqual(
    written.filter((s) => s.type === 'date'),
    [],
  );
  const comb = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({ x0: 370 + i * 16, y0: 626, x1: 384 + i * 16, y1: 644 }));
  const combed = suggestFields(page({ words: signature, boxes: [{ x0: 110, y0: 620, x1: 310, y1: 650 }, ...comb] }));
  assert.deepEqual(brief(combed.filter((s) => s.type === 'date')), [{ type: 'date', x: 370, y: 626, w: 126, h: 18 }]);
});

test('a sign-in sheet headed "Participant | Signature | Date" is signed in its signature column only; "Sign" alone heads one too', () => {
  const sheet = (heads: string[]) => {
    const xs = [40, 200, 400, 555];
    const ys = [560, 584, 608, 632];
    return suggestFields(
      page({
        words: [...paragraph('en', 100), ...heads.flatMap((t, i) => words(t, (xs[i] as number) + 3, 576, 9))],
        segments: ys.map((y) => h(40, 555, y)),
        verticals: xs.map((x) => v(x, 560, 632)),
      }),
    );
  };
  const rows = [
    { type: 'signature', x: 201, y: 585, w: 198, h: 22 },
    { type: 'date', x: 401, y: 585, w: 153, h: 22 },
    { type: 'signature', x: 201, y: 609, w: 198, h: 22 },
    { type: 'date', x: 401, y: 609, w: 153, h: 22 },
  ];
  assert.deepEqual(brief(sheet(['Participant', 'Signature', 'Date'])), rows);
  assert.deepEqual(brief(sheet(['Print Name', 'Sign', 'Date']).filter((s) => s.type !== 'text')), rows);
});

test('parties named side by side in a table\'s header cells ("The Landlord | The Tenant", "Il Presidente | Il Segretario") sign in the cells under them; captions with their colons ("Account holder: | Bank:") ask for data', () => {
  const two = (a: string, b: string, language: 'en' | 'it') =>
    suggestFields(
      page({
        words: [...paragraph(language, 100), ...words(a, 45, 576, 9), ...words(b, 305, 576, 9)],
        segments: [h(40, 555, 560), h(40, 555, 584), h(40, 555, 650)],
        verticals: [v(40, 560, 650), v(300, 560, 650), v(555, 560, 650)],
      }),
    );
  const cells = [
    { type: 'signature', x: 41, y: 585, w: 258, h: 64 },
    { type: 'signature', x: 301, y: 585, w: 253, h: 64 },
  ];
  assert.deepEqual(brief(two('The Landlord', 'The Tenant', 'en')), cells);
  assert.deepEqual(brief(two('Il Presidente', 'Il Segretario', 'it')), cells);
  assert.deepEqual(
    two('Landlord:', 'Tenant:', 'en').filter((s) => s.type === 'signature'),
    [],
  );
});

test('parties named on two lines each in a row\'s cells ("Sócio" over "Efetivo", "Diretor" over "Tesoureiro"), each beside an empty cell: each signs in the empty cell beside it', () => {
  const row = (second: string) =>
    placed('pt', {
      words: [...words('Sócio', 59, 500, 9), ...words(second, 59, 511, 9), ...words('Diretor', 315, 500, 9), ...words('Tesoureiro', 315, 511, 9)],
      segments: [h(57, 567, 488), h(57, 567, 528)],
      verticals: [v(57, 488, 528), v(133, 488, 528), v(312, 488, 528), v(394, 488, 528), v(567, 488, 528)],
    }).filter((s) => s[0] === 'signature');
  assert.deepEqual(row('Efetivo'), [
    ['signature', 134, 489, 177, 38],
    ['signature', 395, 489, 171, 38],
  ]);
  // (Not when the second line asks for data with its colon: "Sócio" over "Nº:".)
  assert.deepEqual(
    row('Nº:').filter((s) => s[1] === 134),
    [],
  );
});

test('a caption at the top of a row\'s first cell with less than a field\'s height under it, beside an empty cell as wide ("Local e data | (empty)"): the date goes in that cell', () => {
  const row = (right: number) =>
    placed('pt', {
      words: words('Local e data', 60, 445, 10),
      segments: [h(57, 127, 434), h(127, right, 434), h(57, 127, 462), h(127, right, 462)],
      verticals: [v(57, 434, 462), v(127, 434, 462), v(right, 434, 462)],
    }).filter((s) => s[0] === 'date');
  assert.deepEqual(row(567), [['date', 128, 435, 438, 26]]);
  // (Beside an empty cell narrower than its own, no value cell: the room under the caption.)
  assert.deepEqual(row(170), [['date', 58, 449, 68, 12]]);
});

test('a column header going on under its caption in lower case ("Signature" over "of Adult or parent/guardian" over "on behalf of minor") heads the empty rows under it, each a place, with no cell beside it to tell it is a header', () => {
  const rows = [443, 462, 480, 498, 516];
  const found = placed('en', {
    words: [...words('Signature', 429, 414, 9), ...words('of Adult or parent/guardian', 401, 426, 9), ...words('on behalf of minor under 18', 399, 437, 9)],
    segments: [h(361, 542, 399), ...rows.map((y) => h(361, 542, y))],
    verticals: [v(361, 399, 516), v(542, 399, 516)],
  });
  assert.deepEqual(
    found.map(([type, , y]) => [type, y]),
    [
      ['signature', 444],
      ['signature', 463],
      ['signature', 481],
      ['signature', 499],
    ],
    JSON.stringify(found),
  );
  // (In a cell of its own, the caption's room starts under the rows it goes on over.)
  const cell = placed('en', {
    words: [...words('Signature', 120, 612, 9), ...words('of the applicant or guardian', 90, 623, 9)],
    segments: [h(50, 300, 600), h(50, 300, 680)],
    verticals: [v(50, 600, 680), v(300, 600, 680)],
  });
  assert.deepEqual(cell, [['signature', 51, 627, 248, 52]], JSON.stringify(cell));
});

test("a date's caption without its colon beside a party's name over its line (\"TITULAR   DATA\" over the holder's line alone) has its room under it, as beside a signature caption", () => {
  const found = brief(
    suggestFields(
      page({
        words: [...paragraph('pt', 100), ...words('TITULAR', 41, 463, 12), ...words('DATA', 368, 463, 12), ...words('Nome:', 41, 507, 12)],
        segments: [h(36, 327, 495.6)],
      }),
    ),
  );
  assert.deepEqual(
    found.filter((s) => s.type === 'signature').map((s) => [s.x, s.w]),
    [[36, 291]],
    'the holder signs on the line under the name',
  );
  const dates = found.filter((s) => s.type === 'date');
  assert.equal(dates.length, 1, JSON.stringify(found));
  assert.ok(Math.abs((dates[0]?.x ?? 0) - 368) <= 1 && (dates[0]?.y ?? 0) > 463 && (dates[0]?.y ?? 0) < 480, JSON.stringify(dates));
});
