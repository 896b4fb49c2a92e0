// Field detection on hand-built pages: layouts that look like a place to sign and are not one (a data
// caption naming a party, a rule that divides the page, a line another caption names, a typed address).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suggestFields, type Word } from '../../src/pdf/detect/suggest-fields.js';
import { buildLines, findLabels } from '../../src/pdf/detect/lines-and-labels.js';
import { suggestion } from '../../src/pdf/detect/suggestion-output.js';
import { brief, h, page, paragraph, types, v, words } from '../helpers/detect-pages.js';

const signatures = (found: ReturnType<typeof suggestFields>) => found.filter((s) => s.type === 'signature');

test('a signature less than 40 pt wide is no place to sign (the stub of a rule between two cells); 40 pt and more is one', () => {
  const model = page({ words: words('Signature', 72, 160) });
  const label = findLabels(buildLines(model.words))[0];
  assert.ok(label, 'the caption is read');
  assert.equal(suggestion(model, label, 'signature', { x0: 72, y0: 120, x1: 86, y1: 160 }, 'label_with_geometry', 0.9), undefined);
  assert.ok(suggestion(model, label, 'signature', { x0: 72, y0: 120, x1: 112, y1: 160 }, 'label_with_geometry', 0.9));
  assert.ok(suggestion(model, label, 'date', { x0: 72, y0: 140, x1: 86, y1: 160 }, 'label_with_geometry', 0.9), 'a date keeps its narrower floor');
});

test('a party named where a caption begun on the line over it ends ("Address of / Employer: ____") is what the caption asks about, not who signs', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('Occupation:', 58, 434),
        ...words('_'.repeat(33), 109, 434),
        ...words('Employer:', 276, 434),
        ...words('_'.repeat(46), 322, 434),
        ...words('Address of', 58, 457),
        ...words('Employer:', 58, 469),
        ...words('_'.repeat(90), 101, 469),
      ],
    }),
  );
  assert.deepEqual(signatures(found), [], JSON.stringify(brief(found)));
  // The same caption on a line of its own is a party's line to sign.
  const alone = suggestFields(page({ words: [...paragraph('en', 100), ...words('Employer:', 58, 469), ...words('_'.repeat(40), 101, 469)] }));
  assert.equal(signatures(alone).length, 1, JSON.stringify(brief(alone)));
});

test('under a signing date, a rule across most of the page, or drawn twice, divides the page ("cut here"): no place to sign on it', () => {
  const slip = (segments: Array<{ x0: number; x1: number; y: number }>) =>
    suggestFields(
      page({
        width: 612,
        height: 792,
        words: [
          ...paragraph('en', 100),
          ...words('_'.repeat(46), 112, 306),
          ...words('SIGNATURE', 344, 306),
          ...words('_'.repeat(32), 194, 349),
          ...words('DATE', 356, 349),
        ],
        segments,
      }),
    );
  const across = slip([h(34, 564, 385)]);
  assert.deepEqual(
    signatures(across).map((s) => Math.round(s.x)),
    [112],
    JSON.stringify(brief(across)),
  );
  const twice = slip([h(180, 480, 385), h(180, 480, 388)]);
  assert.deepEqual(
    signatures(twice).map((s) => Math.round(s.x)),
    [112],
    JSON.stringify(brief(twice)),
  );
  // A line of its own under the date, nothing written between, is where one signs.
  const line = slip([h(180, 400, 385)]);
  assert.deepEqual(
    signatures(line).map((s) => Math.round(s.x)),
    [112, 180],
    JSON.stringify(brief(line)),
  );
});

test('on a signing date\'s row, a line whose caption over it asks for something else is that caption\'s ("CLIENT FULL LEGAL NAME      DATE"); one naming who signs is a place to sign', () => {
  // Each word its own text item, as the document that showed it sets them.
  const at = (list: Array<[string, number]>, y: number) => list.flatMap(([text, x]) => words(text, x, y, 8));
  const rows = (caption: Array<[string, number]>) =>
    suggestFields(
      page({
        width: 612,
        height: 792,
        words: [
          ...paragraph('en', 100),
          ...at([...caption, ['DATE', 337]], 268),
          ...at(
            [
              ['CLIENT', 85],
              ['SIGNATURE', 117],
              ['DATE', 337],
              ['OF', 361],
              ['BIRTH', 375],
            ],
            338,
          ),
        ],
        segments: [h(79, 310, 304), h(331, 533, 304), h(79, 310, 374), h(331, 533, 374)],
      }),
    );
  const bottoms = (found: ReturnType<typeof suggestFields>) => signatures(found).map((s) => Math.round(s.y + s.height));
  const named = rows([
    ['CLIENT', 85],
    ['FULL', 116],
    ['LEGAL', 140],
    ['NAME', 168],
    ['(Print)', 193],
  ]);
  assert.deepEqual(bottoms(named), [374], JSON.stringify(brief(named)));
  const witness = rows([
    ['COACH', 85],
    ['/', 116],
    ['WITNESS', 120],
  ]);
  assert.deepEqual(bottoms(witness), [304, 374], JSON.stringify(brief(witness)));
});

test('a line with a datum\'s caption under it ("Mailing Address") has no name typed under it: no place to sign, where a name under it makes one', () => {
  const form = (under: string) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...words('The signature of the member is asked for on the last page.', 50, 180), ...words(under, 48, 267, 9)],
        segments: [h(45, 358, 256)],
      }),
    );
  const address = form('Mailing Address');
  assert.deepEqual(signatures(address), [], JSON.stringify(brief(address)));
  const name = form('Maria Lopez');
  assert.equal(signatures(name).length, 1, JSON.stringify(brief(name)));
});

test('a caption under the role named under a line ("____" / "Padre/Madre/Tutor" / "(Nombre y Firma)") names that line: no second place under it', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('_'.repeat(31), 194, 723), ...words('Padre/Madre/Tutor', 248, 739), ...words('(Nombre y Firma)', 251, 756)],
    }),
  );
  assert.deepEqual(
    signatures(found).map((s) => [Math.round(s.x), Math.round(s.y + s.height)]),
    [[194, 725]],
    JSON.stringify(brief(found)),
  );
});

test("two parties' names side by side, one with its address typed under it, head the parties' addresses: no room to sign under them", () => {
  const heads = (right: string[]) =>
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100),
          ...words('Vollmachtgeber/Mandant:', 71, 218),
          ...words('Bevollmächtigte(r):', 333, 218),
          ...right.flatMap((text, i) => words(text, 333, 255 + 16 * i, 12)),
        ],
      }),
    );
  const addressed = heads(['Geller Steuerberatungs-', 'gesellschaft mbH', 'Heinrich-Heine-Platz 9', '10179 Berlin']);
  assert.deepEqual(signatures(addressed), [], JSON.stringify(brief(addressed)));
  const blank = heads([]);
  assert.equal(signatures(blank).length, 2, JSON.stringify(brief(blank)));
});

test('"DATE D’ENTREE: ___/___/___" is the date one starts work, no signing date: an elided "d’" is no piece of a split word ("date" + "d" is not "dated")', () => {
  const form = (caption: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 100),
          ...words(caption, 82, 621),
          ...words('_____ / _____ / _____', 177, 621),
          ...words('Signature of the employee', 300, 700),
        ],
        segments: [h(300, 480, 688)],
      }),
    ).filter((s) => s.type === 'date');
  assert.deepEqual(form('DATE D’ENTREE:'), []);
  assert.deepEqual(form('DATE D’ ENTREE:'), []);
  assert.equal(form('DATED:').length, 1, 'a signing date captioned "Dated:" is one');
});

test('a party named left of two lines ("Die Sorgeberechtigten:"), each captioned "Unterschrift" under it, heads the block: one place on each line, none under the captions', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Die Sorgeberechtigten:', 71, 456),
        ...words('_'.repeat(18), 156, 483),
        ...words('_'.repeat(19), 283, 483),
        ...words('Unterschrift', 156, 497),
        ...words('Unterschrift', 283, 497),
        ...words('Anmerkung:', 71, 527),
      ],
      segments: [h(69, 526, 515)],
    }),
  );
  const places = signatures(found).map((s) => [Math.round(s.x), s.y + s.height <= 486]);
  assert.deepEqual(
    places.sort((a, b) => (a[0] as number) - (b[0] as number)),
    [
      [156, true],
      [283, true],
    ],
    JSON.stringify(brief(found)),
  );
});

test('"Relationship to Patient" under a line beside the signature\'s asks for a relationship: no co-signer there, drawn alike or not', () => {
  for (const segments of [
    [h(36, 243, 657), h(261, 487, 657), h(505, 572, 657)],
    [h(36, 243, 657), h(261, 468, 657), h(505, 572, 657)],
  ]) {
    const found = suggestFields(
      page({
        width: 612,
        height: 792,
        words: [...paragraph('en', 100), ...words('Signature', 130, 669), ...words('Relationship to Patient', 329, 669), ...words('Date', 534, 669)],
        segments,
      }),
    );
    assert.deepEqual(
      signatures(found).map((s) => Math.round(s.x)),
      [36],
      JSON.stringify(brief(found)),
    );
  }
});

test('"signed" after what it says is signed ("* Le règlement signé", "* Il modulo firmato") is words of a list, no caption: no place on the line under it', () => {
  for (const item of ['* Le règlement signé', '* Il modulo firmato']) {
    const found = suggestFields(
      page({
        words: [...paragraph('en', 100), ...words('Joindre :', 72, 419), ...words('* La photocopie de la carte', 144, 419), ...words(item, 144, 451)],
        segments: [h(78, 518, 491)],
      }),
    );
    assert.deepEqual(signatures(found), [], `${item}: ${JSON.stringify(brief(found))}`);
  }
  const caption = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signed:', 72, 451)], segments: [h(78, 518, 491)] }));
  assert.equal(signatures(caption).length, 1, JSON.stringify(brief(caption)));
});

test("a rule across the page with the next section right under it (a footnote's rule, the cut line between two copies, a footer's rule) is no line to sign on for the caption over it; a caption or a typed name under it makes it a line to sign on", () => {
  const form = (under: Word[]) =>
    suggestFields(
      page({
        width: 596,
        height: 842,
        words: [...paragraph('en', 100), ...words('Made at __________________ on __________', 60, 360), ...words('Signature:', 60, 380), ...under],
        segments: [h(35, 567, 419)],
      }),
    );
  // (Right under it, or a page's footer less than two of its lines under it.)
  for (const baseline of [432, 445]) {
    const cut = form(words('Organiser: Basketball club, 5 Main Street', 36, baseline));
    assert.ok(
      signatures(cut).every((s) => s.width < 300),
      `no place along the rule: ${JSON.stringify(brief(cut))}`,
    );
  }
  // With nothing under it the rule is the line to sign on, and so it is with the next signer's caption or
  // the signer's typed name under it.
  for (const under of [[], words('Witness Signature:', 60, 432), words('John Smith', 60, 432)]) {
    const row = form(under);
    assert.ok(
      signatures(row).some((s) => s.width > 500 && Math.abs(s.y + s.height - 419) < 3),
      `the rule is the line: ${JSON.stringify(brief(row))}`,
    );
  }
});

test('"x 0.124 = ____" multiplies: no cross marking a place to sign when a number follows it; "X ____" is one', () => {
  const row = (mark: string) =>
    suggestFields(
      page({ words: [...paragraph('en', 100), ...words('5a Taxable social security wages', 60, 385), ...words(`${mark} ____________________`, 314, 385)] }),
    );
  for (const mark of ['x 0.124 =', 'x 12', 'X 1,5 %']) assert.deepEqual(signatures(row(mark)), [], `${mark}: ${JSON.stringify(brief(row(mark)))}`);
  assert.equal(signatures(row('X')).length, 1, JSON.stringify(brief(row('X'))));
});

test('a line captioned with an identity document\'s number beside the signature\'s ("FIRMA" … "DNI") asks for the number: no co-signer there; "Testigo" signs', () => {
  const row = (right: string) =>
    suggestFields(
      page({
        words: [...paragraph('it', 100), ...words('FIRMA', 85, 628), ...words(right, 333, 628)],
        segments: [h(85, 227, 615), h(333, 475, 615)],
      }),
    );
  for (const right of ['DNI', 'Passport No', 'CPF'])
    assert.deepEqual(
      signatures(row(right)).map((s) => Math.round(s.x)),
      [85],
      `${right}: ${JSON.stringify(brief(row(right)))}`,
    );
  assert.deepEqual(
    signatures(row('Testigo'))
      .map((s) => Math.round(s.x))
      .sort(),
    [333, 85],
    JSON.stringify(brief(row('Testigo'))),
  );
});

test('"Date of Admission ____", "Date received ____" and "Date of" ending its line over "Leaving" name other dates than the signing date; "Date ____" beside a signature is one', () => {
  const form = (left: Word[]) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...left, ...words('Signature', 330, 260), ...words('_'.repeat(30), 390, 260)],
      }),
    );
  const dates = (found: ReturnType<typeof suggestFields>) => found.filter((s) => s.type === 'date');
  for (const left of [
    words('Date of Admission ____________________', 58, 260),
    [...words('Date of ____________________', 58, 260), ...words('Leaving', 58, 272)],
    words('Date received: ____________________', 58, 260),
  ])
    assert.deepEqual(dates(form(left)), [], JSON.stringify(brief(form(left))));
  assert.equal(dates(form(words('Date ____________________', 58, 260))).length, 1);
});

test('a medical certificate\'s date asked for in a form\'s row ("Data certificato medico") is no signing date; "Data" beside "Firma" on its rule is one', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('it', 100),
        ...words('E- mail', 57, 332, 9),
        ...words('Data certificato medico', 57, 352, 9),
        ...words('Data', 57, 423, 9),
        ...words('Firma', 213, 423, 9),
      ],
      segments: [h(51, 556, 312.6), h(51, 556, 333.2), h(51, 556, 353.7), h(51, 552, 425.5)],
    }),
  );
  assert.deepEqual(
    brief(found)
      .filter((s) => s.type !== 'text')
      .map((s) => [s.type, s.y + s.h > 420]),
    [
      ['signature', true],
      ['date', true],
    ],
  );
});

test('an event\'s date ("FECHA DEL EVENTO: ____", "Date of the event: ____") is no signing date; "Fecha: ____" is one', () => {
  const dates = (caption: string, lang: 'es' | 'en') =>
    suggestFields(
      page({
        words: [
          ...paragraph(lang, 100),
          ...words(`${caption} ___________________________`, 36, 528, 10),
          ...words(lang === 'es' ? 'Firma: ______________________' : 'Signature: ______________________', 36, 560, 10),
        ],
      }),
    ).filter((s) => s.type === 'date');
  assert.deepEqual(dates('FECHA DEL EVENTO:', 'es'), []);
  assert.deepEqual(dates('Date of the event:', 'en'), []);
  assert.equal(dates('Fecha:', 'es').length, 1);
});

test('"Date:" and a rule across the page three lines under it: no date on the section\'s rule; "Witnessed by:" is where a witness signs', () => {
  const found = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature: ______________________', 58, 520, 12), ...words('Date:', 58, 551, 12)],
      segments: [h(31, 565, 600)],
    }),
  );
  assert.deepEqual(
    found.filter((s) => s.type === 'date' && s.width > 300),
    [],
    JSON.stringify(brief(found)),
  );
  // Right under the caption, a line is the date's.
  const under = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature: ______________________', 58, 520, 12), ...words('Date:', 58, 551, 12)],
      segments: [h(31, 565, 580)],
    }),
  );
  assert.ok(
    under.some((s) => s.type === 'date' && Math.round(s.y + s.height) === 580),
    JSON.stringify(brief(under)),
  );
  const witness = suggestFields(page({ words: [...paragraph('en', 100), ...words('Witnessed by: ______________________', 58, 520)] }));
  assert.equal(signatures(witness).length, 1, JSON.stringify(brief(witness)));
});

test('a log\'s "Date" column beside a "Time" or "Start Time" column says when something was done, not when one signed: its rows get no date; its signature column still signs', () => {
  const log = (second: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('fr', 100),
          ...words('Date', 60, 212),
          ...words(second, 160, 212),
          ...words('Quantité', 260, 212),
          ...words('Administré par (signature)', 360, 212),
        ],
        segments: [200, 218, 245, 272].map((y) => h(50, 540, y)),
        verticals: [50, 150, 250, 350, 540].map((x) => v(x, 200, 272)),
      }),
    );
  const timed = log('Heure');
  assert.deepEqual(
    timed.filter((s) => s.type === 'date'),
    [],
    JSON.stringify(brief(timed)),
  );
  assert.equal(signatures(timed).length, 2, JSON.stringify(brief(timed)));
  // The time word need not open its header: "Start Time" beside a timesheet's "Date".
  const started = log('Start Time');
  assert.deepEqual(
    started.filter((s) => s.type === 'date'),
    [],
    JSON.stringify(brief(started)),
  );
  // Beside another column ("Produit"), the date column is the signers' dates, row by row.
  const dated = log('Produit');
  assert.equal(dated.filter((s) => s.type === 'date').length, 2, JSON.stringify(brief(dated)));
});

test("\"Today's Date: ____\" heading a form's personal details is the day it is filled in, no signing date; under a line beside the signature's, it is one", () => {
  const dates = (found: ReturnType<typeof suggestFields>) => found.filter((s) => s.type === 'date');
  const heading = suggestFields(
    page({
      words: [
        ...words('PERSONAL', 36, 120, 12),
        ...words("Today's Date: _____________", 428, 120, 12),
        ...paragraph('en', 160),
        ...words('Signature: ______________________', 58, 600, 12),
      ],
    }),
  );
  assert.deepEqual(dates(heading), [], JSON.stringify(brief(heading)));
  const beside = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Signature:', 53, 600, 11), ...words('Patient', 104, 615, 11), ...words("Today's Date", 410, 615, 11)],
      segments: [h(103, 369, 604), h(408, 542, 604)],
    }),
  );
  assert.equal(dates(beside).length, 1, JSON.stringify(brief(beside)));
});

test('a signature caption without a colon gets no room guessed beside it ("Participant consent and signature" heading its paragraph); with its colon it does', () => {
  const heading = (caption: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 100),
          ...words(caption, 65, 377, 10),
          ...words('I have read this Consent form. I have had the opportunity to ask questions.', 65, 400, 10),
        ],
      }),
    );
  assert.deepEqual(types(heading('Participant consent and signature')), [], JSON.stringify(brief(heading('Participant consent and signature'))));
  assert.deepEqual(types(heading('Participant signature:')), ['signature'], JSON.stringify(brief(heading('Participant signature:'))));
});

test('a rule drawn under words from the first one\'s edge to the last one\'s is their underline, no line to sign on: "Signature :" over an underlined "Organisateur" signs in the room under it', () => {
  const organiser = words('Organisateur : CLAPIERS BASKET-BALL', 35, 430, 12);
  const underline = h(35, (organiser[0] as Word).box.x1, 432);
  const found = suggestFields(
    page({
      words: [...paragraph('fr', 100), ...words('Fait à ………………………… le ………………………………', 35, 364, 12), ...words('Signature :', 35, 378, 12), ...organiser],
      segments: [h(35, 567, 419), underline],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(signature && Math.abs(signature.x - 35) <= 2 && signature.y >= 380 && signature.y + signature.height <= 419, JSON.stringify(brief(found)));
  // (So is the caption's own underline: "Signature :" underlined still signs in the room under it.)
  const caption = words('Signature :', 35, 378, 12);
  const own = suggestFields(
    page({
      words: [
        ...paragraph('fr', 100),
        ...words('Fait à ………………………… le ………………………………', 35, 364, 12),
        ...caption,
        ...words('Organisateur : CLAPIERS', 35, 440, 12),
      ],
      segments: [h(35, (caption[caption.length - 1] as Word).box.x1, 380.5), h(35, 567, 425)],
    }),
  );
  const under = own.find((s) => s.type === 'signature');
  assert.ok(under && Math.abs(under.x - 35) <= 2 && under.y >= 380 && under.y + under.height <= 425, JSON.stringify(brief(own)));
});

test('a party\'s caption with its German gender ending after a slash ("(Vollmachtgeber/in - Principal)") under a line names who signs on it', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Berlin,', 71, 648, 13),
        ...words('________________________________', 71, 711, 14),
        ...words('(Vollmachtgeber/in - Principal)', 71, 732, 10),
      ],
    }),
  );
  const signature = found.find((s) => s.type === 'signature');
  assert.ok(
    signature && Math.abs(signature.x - 71) <= 2 && signature.y + signature.height >= 705 && signature.y + signature.height <= 716,
    JSON.stringify(brief(found)),
  );
});

test('a heading under a rule across the text with its paragraph right under it ("ACKNOWLEDGMENT & SIGNATURE" over "By signing below…") heads a section: no place to sign on the rule; a caption under a shorter line signs on it', () => {
  const terms = [
    ...words('This Waiver constitutes the entire agreement between Client and Company regarding the subject', 67, 300, 10),
    ...words('and supersedes all prior oral or written agreements, and may only be changed in writing.', 67, 315, 10),
  ];
  const paragraphUnder = [
    ...words('By signing below, I confirm that I have read this entire Waiver and understand it', 67, 375, 10),
    ...words('and that I am at least 18 years of age and sign it of my own free will.', 67, 390, 10),
  ];
  const heading = suggestFields(
    page({ words: [...paragraph('en', 100), ...terms, ...words('ACKNOWLEDGMENT & SIGNATURE', 67, 359, 10), ...paragraphUnder], segments: [h(67, 545, 335)] }),
  );
  assert.deepEqual(signatures(heading), []);
  // A line of its own, shorter than the text under its caption, is one to sign on, whatever follows the caption.
  const explained = [
    ...words('Signature of Client', 67, 359, 10),
    ...words('Printed name of the Client and the date on which this waiver is signed', 67, 375, 10),
  ];
  const line = suggestFields(page({ words: [...paragraph('en', 100), ...terms, ...explained], segments: [h(67, 300, 345)] }));
  assert.deepEqual(brief(signatures(line)), [{ type: 'signature', x: 67, y: 315, w: 233, h: 30 }]);
});

test('a party with its blank among a form\'s rows of data ("Occupation: ____" / "Employer: ____" / "Daytime Phone Number: ____") asks for its details: no place to sign; over a signature\'s row, or last, it signs', () => {
  const u = (n: number) => '_'.repeat(n);
  const stack = (over: string, party: string, under?: string) =>
    signatures(
      suggestFields(
        page({
          words: [
            ...paragraph('en', 100),
            ...words(`${over}: ${u(50)}`, 72, 400, 10),
            ...words(`${party}: ${u(50)}`, 72, 418, 10),
            ...(under ? words(`${under}: ${u(40)}`, 72, 436, 10) : []),
          ],
        }),
      ),
    ).length;
  assert.equal(stack('Occupation', 'Employer', 'Daytime Phone Number'), 0);
  assert.equal(stack('Name', 'Employer', 'Signature'), 2);
  assert.equal(stack('Name', 'Employer'), 1);
});

test('a closing ("In fede") over a line to sign along its row, captioned "(firma)" at its far end, leaves the room under it to that line; alone, it signs under it', () => {
  const closing = words('In fede', 42, 596, 10);
  const withLine = suggestFields(page({ words: [...paragraph('it', 100), ...closing, ...words('(firma)', 490, 623, 8)], segments: [h(283, 524, 614)] }));
  assert.deepEqual(brief(signatures(withLine)), [{ type: 'signature', x: 283, y: 574, w: 241, h: 40 }]);
  const alone = suggestFields(page({ words: [...paragraph('it', 100), ...closing] }));
  assert.deepEqual(brief(signatures(alone)), [{ type: 'signature', x: 42, y: 602, w: 180, h: 40 }]);
});

test('a closing over a signature in ink OCR read as marks, then the line it is signed on and the printed name: no room between the closing and the marks', () => {
  const ink = (conf: number) => words('5 [LIZ 7', 220, 630, 9).map((w) => ({ ...w, confidence: conf }));
  const at = (conf: number) =>
    signatures(
      suggestFields(
        page({
          ocr: true,
          words: [...paragraph('es', 100), ...words('Atentamente:', 73, 546, 11), ...ink(conf), ...words('Warner Alexis Morales Velasquez', 216, 674, 11)],
          segments: [h(206, 399, 650)],
        }),
      ),
    );
  assert.deepEqual(
    brief(at(0.3)).filter((s) => s.y < 620),
    [],
    'the marks are the signature, not the name under the room',
  );
  // (Read as print, the same words would be the name the closing's room ends at.)
  assert.deepEqual(
    brief(at(1)).filter((s) => s.y < 620),
    [{ type: 'signature', x: 220, y: 581, w: 180, h: 40 }],
  );
});

test('"Getekend te (plaats)", "Aldus getekend te ____", "Signed at ____": where the document is signed, not a signature; "Signed in the presence of:" is a witness\'s caption', () => {
  const named = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Getekend te (plaats):', 46, 504, 10)],
      widgets: [{ kind: 'text', name: 'Getekend te (plaats)', box: { x0: 178, y0: 487, x1: 516, y1: 509 } }],
    }),
  );
  assert.deepEqual(types(named), ['text']);
  const place = suggestFields(
    page({
      words: [...paragraph('en', 100), ...words('Aldus getekend te', 71, 550, 10), ...words(', op', 262, 550, 10)],
      widgets: [{ kind: 'text', name: 'plaats_2', box: { x0: 163, y0: 539, x1: 260, y1: 553 } }],
    }),
  );
  assert.deepEqual(signatures(place), []);
  assert.deepEqual(
    signatures(suggestFields(page({ words: [...paragraph('en', 100), ...words('Signed at ______________ on ______________', 60, 600, 10)] }))),
    [],
  );
  const witness = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signed in the presence of: ____________________', 60, 600, 10)] }));
  assert.equal(signatures(witness).length, 1);
});

test("a completed electronic signature's stamp (`Firmado electrónicamente por:`, `Electronically signed by:`, `Signé électroniquement par :`) is no caption; `Signed by:` still is", () => {
  const at = (lang: Parameters<typeof paragraph>[0], text: string) =>
    signatures(suggestFields(page({ words: [...paragraph(lang, 100), ...words(text, 353, 521, 8)] })));
  assert.deepEqual(at('es', 'Firmado electrónicamente por:'), []);
  assert.deepEqual(at('en', 'Electronically signed by:'), []);
  assert.deepEqual(at('fr', 'Signé électroniquement par :'), []);
  assert.equal(at('en', 'Signed by:').length, 1);
});

test('an `X` ticked in a checklist grid is no mark to sign by: the empty cell beside it is no place to sign', () => {
  // Rows of a grid: a question, then "Bueno" / "Regular" / "Mala" cells, one of them ticked with an X.
  const rows = ['¿El personal está debidamente capacitado?', 'Manipulación de las aves al momento de la carga', 'Carga de las jaulas al camión'];
  const got = suggestFields(
    page({
      words: [
        ...paragraph('es', 100),
        ...words('Bueno', 350, 292, 9),
        ...words('Regular', 410, 292, 9),
        ...words('Mala', 470, 292, 9),
        ...rows.flatMap((q, i) => [...words(q, 40, 312 + 20 * i, 9), ...words('X', 360, 312 + 20 * i, 9)]),
      ],
      segments: [0, 1, 2, 3, 4].map((i) => h(30, 560, 280 + 20 * i)),
      verticals: [30, 340, 400, 460, 520, 560].map((x) => v(x, 280, 360)),
    }),
  );
  assert.deepEqual(
    got.filter((s) => s.type === 'signature'),
    [],
  );
});

test('a caption numbered as a section of the form (`7. Unterschrift` over the section’s rule) is a heading: no place in its row', () => {
  const got = (heading: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100),
          ...words(heading, 43, 583, 9),
          ...words('Ort, Datum:', 43, 600, 8),
          ...words('Unterschrift Erziehungsberechtigte/r:', 308, 600, 8),
        ],
        segments: [h(43, 554, 587.5)],
        boxes: [{ x0: 43, y0: 467, x1: 553, y1: 564 }],
      }),
    ).filter((s) => s.type === 'signature' && s.y < 587);
  assert.deepEqual(got('7. Unterschrift'), []);
  assert.deepEqual(got('III. Unterschrift'), []);
});

test('a party on the line under a caption asking for a datum (`Telefon gesetzlicher` / `Vertreter:`) is what the datum is about: no place to sign on its line', () => {
  const got = (first: string) =>
    suggestFields(page({ words: [...paragraph('de', 100), ...words(first, 66, 300, 10), ...words('Vertreter:', 66, 313, 10)], segments: [h(206, 517, 318)] }));
  assert.deepEqual(brief(got('Telefon gesetzlicher')), []);
  // (Under a signature's caption the party still signs there.)
  assert.deepEqual(brief(got('Unterschrift gesetzlicher')), [{ type: 'signature', x: 206, y: 278, w: 311, h: 40 }]);
});

test('a section’s title joining `Signature` to a word that asks for nothing (`DISCLAIMER AND SIGNATURE`) is a heading: no place in its band', () => {
  const got = (title: string) =>
    suggestFields(
      page({
        words: [...paragraph('en', 100), ...words(title, 70, 594, 9)],
        segments: [h(64, 668, 583), h(64, 668, 599)],
        verticals: [v(64, 583, 599), v(668, 583, 599)],
      }),
    );
  assert.deepEqual(brief(got('DISCLAIMER AND SIGNATURE')), []);
  assert.deepEqual(brief(got('Certification and Signature')), []);
  // (A caption asking for two things is none: "Date and Signature" has its room.)
  assert.deepEqual(brief(got('Date and Signature')), [{ type: 'signature', x: 156, y: 584, w: 439, h: 14 }]);
});

test('`Signed:` with a name typed after it, before its blank, is a typed signature: no place to sign there (`Signed: S. van Heerden ____`)', () => {
  const got = (row: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 200),
          ...words('[Receiving Party]', 306, 380, 10),
          ...words(row, 306, 406, 10),
          ...words('Name: Storm van Heerden', 306, 436, 10),
        ],
      }),
    );
  assert.deepEqual(brief(got('Signed: S. van Heerden ____________________')), []);
  assert.deepEqual(brief(got('Signed: ____________________')), [{ type: 'signature', x: 341, y: 379, w: 105, h: 29 }]);
});

test('a German address caption written with its sharp s ("Straße, Hausnummer") under a blank asks for a datum: no name typed under a line to sign', () => {
  const form = (street: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100),
          ...words('Hiermit ermächtige ich den Verein, den Beitrag einzuziehen; die Unterschrift folgt unten.', 57, 300, 9),
          ...words('__ __ __ __ __ __ __ __ __ __ __ __ __', 340, 490, 10),
          ...words(street, 340, 502, 9),
        ],
      }),
    ).filter((s) => s.type === 'signature');
  assert.deepEqual(form('Straße, Hausnummer'), []);
  assert.deepEqual(form('Strasse, Hausnummer'), []);
});

test('a heading\'s word ("SIGNATURES" over a section) takes no line far along its row, a tab away: a stub of a rule there is no place to sign; a line right after it still is', () => {
  const found = (x0: number) =>
    signatures(suggestFields(page({ words: [...paragraph('en', 100), ...words('SIGNATURES', 30, 471)], segments: [h(x0, x0 + 41, 481)] })));
  assert.deepEqual(found(252), []);
  assert.equal(found(95).length, 1);
});

test('a section\'s title joining "Signature" to words that ask for nothing ("Witness Statement & Signature" between two rules across the page) is a heading: the rule under it is no line to sign on', () => {
  const found = (title: string) =>
    signatures(suggestFields(page({ words: [...paragraph('en', 100), ...words(title, 24, 491)], segments: [h(23, 585, 479), h(23, 585, 495)] })));
  assert.deepEqual(found('Witness Statement & Signature'), []);
  assert.deepEqual(found('Certification and Signature'), []);
});

test('a signature caption going on under itself to a colon and its blank ("Signature of Participant or" over "Guardian: ____") signs on that blank only, not in the room after its first line', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('_'.repeat(60), 72, 420),
        ...words('Printed Name of Participant or Guardian:', 72, 432),
        ...words('Signature of Participant or', 72, 470),
        ...words('Guardian:', 72, 483),
        ...words('_'.repeat(40), 116, 483),
        ...words('Date: ______________', 72, 514),
      ],
    }),
  );
  const sig = signatures(found);
  assert.equal(sig.length, 1, JSON.stringify(brief(found)));
  assert.ok((sig[0] as { y: number }).y > 470 - 11, `the place is the blank after "Guardian:", ${JSON.stringify(brief(found))}`);
});

test('a numbered caption ending its line with its colon over a caption of its kind signed on its line right under it ("3. Signature of the Member:" over "Signature: ____") heads it: no room beside it', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('en', 100),
        ...words('[ ] By post to the address above', 72, 262),
        ...words('3. Signature of the Member:', 72, 311, 12),
        ...words('Signature:', 72, 336, 12),
      ],
      segments: [h(134, 399, 335)],
    }),
  );
  const sig = signatures(found);
  assert.equal(sig.length, 1, JSON.stringify(brief(found)));
  assert.ok((sig[0] as { x: number }).x >= 130, `the place is the line after "Signature:", ${JSON.stringify(brief(found))}`);
});

test('a party named with its colon and blank opening a stack of rows asking data ("Bank: ____" over "IBAN: ____" and "BIC: ____") asks for the bank’s name: no place to sign; alone under the text, it is the party’s line', () => {
  const rows = (extra: boolean) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 100),
          ...words('Bank:', 72, 445),
          ...words('_'.repeat(70), 101, 445),
          ...(extra ? [...words('IBAN:', 72, 468), ...words('_'.repeat(70), 101, 468), ...words('BIC:', 72, 491), ...words('_'.repeat(30), 101, 491)] : []),
        ],
      }),
    );
  const stacked = rows(true);
  assert.deepEqual(signatures(stacked), [], JSON.stringify(brief(stacked)));
  const alone = rows(false);
  assert.equal(signatures(alone).length, 1, JSON.stringify(brief(alone)));
});

test('a date of birth abbreviated on a crowded row ("DATA NASC.", "Fecha Nac.", "Date de naiss.") is no signing date; the same row\'s bare "DATA" is', () => {
  const dates = (caption: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('pt', 100),
          ...words('CIDADE', 64, 333, 8),
          ...words(caption, 256, 333, 8),
          ...words('PROFISSÃO', 352, 333, 8),
          ...words('Assinatura:', 64, 420, 10),
          ...words('_'.repeat(40), 120, 420, 10),
        ],
        segments: [h(60, 500, 322), h(60, 500, 350)],
        verticals: [v(60, 322, 350), v(250, 322, 350), v(346, 322, 350), v(500, 322, 350)],
      }),
    ).filter((s) => s.type === 'date');
  for (const birth of ['DATA NASC.', 'Fecha Nac.', 'Date de naiss.']) assert.deepEqual(brief(dates(birth)), [], birth);
  assert.equal(dates('DATA').length, 1, 'a bare date in the row is dated');
});

test('a journey’s dates ("Fecha de salida", "Fecha de regreso", "Date of return", "Data di partenza") are no signing dates', () => {
  for (const caption of ['b) Fecha de regreso', 'a) Fecha de salida', 'Date of return', 'Data di partenza', 'Date de retour']) {
    const found = suggestFields(
      page({
        words: [...paragraph('es', 100), ...words(caption, 68, 593, 9), ...words('Firma:', 68, 700), ...words('_'.repeat(40), 110, 700)],
        // (Its blank, the empty cell after it.)
        segments: [h(60, 540, 580), h(60, 540, 600)],
        verticals: [v(60, 580, 600), v(300, 580, 600), v(540, 580, 600)],
      }),
    );
    assert.deepEqual(
      brief(found).filter((s) => s.type === 'date'),
      [],
      caption,
    );
  }
});

test('the day one first reports ("Date of Reporting: ……") is no signing date', () => {
  const found = (caption: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('en', 100),
          ...words(caption, 64, 364, 11),
          ...words('…'.repeat(60), 172, 364, 11),
          ...words('Signature of Parent: ____________________', 64, 460, 11),
        ],
      }),
    ).filter((s) => s.type === 'date');
  assert.deepEqual(brief(found('Date of Reporting:')), []);
  assert.equal(found('Date:').length, 1, 'a plain date there is dated');
  // (Nor an office's decision on the request, its own date: "Date of decision:".)
  assert.deepEqual(brief(found('Date of decision:')), []);
});

test('a date of birth in the Maghreb’s wording ("تاريخ الازدياد :" before its cell) is no signing date; "التاريخ :" there is', () => {
  const dates = (caption: string) =>
    suggestFields(
      page({
        words: [...paragraph('ar', 100), ...words(caption, 460, 330, 10, true), ...words('الإمضاء:', 460, 420, 10, true)],
        // (Each caption in its cell at the right, its blank the empty cell left of it.)
        segments: [h(80, 540, 315), h(80, 540, 338), h(80, 540, 405), h(80, 540, 428)],
        verticals: [v(80, 315, 338), v(440, 315, 338), v(540, 315, 338), v(80, 405, 428), v(440, 405, 428), v(540, 405, 428)],
      }),
    ).filter((s) => s.type === 'date');
  assert.deepEqual(brief(dates('تاريخ الازدياد :')), []);
  assert.equal(dates('التاريخ :').length, 1, 'a plain date is dated');
});

test('a prescription’s date ("Date de la prescription :" over its cell) is no signing date; the request’s date there is', () => {
  const dates = (caption: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph('fr', 100),
          ...words(caption, 395, 272, 8),
          ...words('Médicament :', 81, 275, 8),
          ...words('Signature :', 81, 320),
          ...words('_'.repeat(40), 140, 320),
        ],
        segments: [h(77, 550, 259), h(77, 550, 300)],
        verticals: [v(77, 259, 300), v(390, 259, 300), v(550, 259, 300)],
      }),
    ).filter((s) => s.type === 'date');
  assert.deepEqual(brief(dates('Date de la prescription :')), []);
  assert.equal(dates('Date de la demande :').length, 1, 'the request’s date in the cell is dated');
});

test('a text caption filled in after its colon with a role\'s name ("Title: Manager", "Position: Director") asks for nothing; a signature caption naming its signer after its colon ("Firma: EL TUTOR LEGAL") still signs', () => {
  const fields = (text: string, lang: 'en' | 'es' = 'en') =>
    suggestFields(page({ words: [...paragraph(lang, 100), ...words(text, 50, 500, 10)] })).map((s) => s.type);
  assert.deepEqual(fields('Title: Manager'), []);
  assert.deepEqual(fields('Position: Director'), []);
  assert.deepEqual(fields('Title:'), ['text']);
  assert.deepEqual(fields('Firma: EL TUTOR LEGAL', 'es'), ['signature']);
});

test('a signature caption with a conformed signature typed after it ("Signature: /s/ J. Smith") is signed: no place; "Signature: ____" still is one', () => {
  const fields = (text: string) => suggestFields(page({ words: [...paragraph('en', 100), ...words(text, 50, 500, 10)] })).map((s) => s.type);
  assert.deepEqual(fields('Signature: /s/ J. Smith'), []);
  assert.deepEqual(fields('Signature /s/ Jane Roe'), []);
  assert.deepEqual(fields('Signature: ______________________'), ['signature']);
});

test('a signature said to be left out of the printed copy or made electronically ("(Firma autografa sostituita a mezzo stampa …)", a name over "(assinado eletronicamente)") is no place to sign', () => {
  const found = (language: 'it' | 'pt', lines: Word[]) => signatures(suggestFields(page({ words: [...paragraph(language, 340), ...lines] })));
  assert.deepEqual(found('it', words('(Firma autografa sostituita a mezzo stampa ai sensi del decreto)', 300, 512, 7)), []);
  assert.deepEqual(found('it', [...words('Mario Rossi', 350, 498), ...words('(firma omessa ai sensi di legge)', 330, 512, 7)]), []);
  assert.deepEqual(found('pt', [...words('Maria Souza', 350, 498), ...words('assinado eletronicamente', 350, 512, 8)]), []);
  // (A remark under the name that says nothing of how it is signed leaves the room over it.)
  assert.equal(found('pt', [...words('Maria Souza', 350, 498), ...words('Diretora Executiva', 350, 512, 8)]).length, 1);
});

test('who signs named with an article before a comma and a blank ("O Requerente, ____", "Le représentant légal, ____") is no place before a signing date, as "Lisboa, ____" is', () => {
  const dates = (language: 'pt' | 'fr', text: string) =>
    suggestFields(
      page({
        words: [
          ...paragraph(language, 340),
          ...words(`${text} ______________________________`, 72, 520),
          ...words(language === 'pt' ? 'Assinatura' : 'Signature', 330, 580),
        ],
        segments: [h(330, 520, 568)],
      }),
    ).filter((s) => s.type === 'date');
  assert.deepEqual(dates('pt', 'O Requerente,'), []);
  assert.deepEqual(dates('fr', 'Le représentant légal,'), []);
  assert.equal(dates('pt', 'Lisboa,').length, 1);
  assert.equal(dates('fr', 'La Rochelle,').length, 1);
});

test('a table of contents\' entry naming the signatures ("Signature des parties ........ 12") is no place to sign; a caption over a dot leader without a page number is', () => {
  const found = (entries: string[]) => suggestFields(page({ words: [...paragraph('fr', 340), ...entries.flatMap((e, i) => words(e, 72, 450 + 15 * i))] }));
  assert.deepEqual(
    found([
      'Conditions générales ........................................ 3',
      'Signature des parties ........................................ 12',
      'Annexes ........................................ 13',
    ]),
    [],
  );
  assert.deepEqual(types(found(['Signature ........................................'])), ['signature']);
});

test('a handwritten mention\'s blank on the row of a signature caption with its own blank ("Mention « lu et approuvé » ____  le : ____  Signature : ____") is where the mention is written, not a place to sign; the blank after its "le :" is the date', () => {
  const row = (text: string) => brief(suggestFields(page({ words: [...paragraph('fr', 100), ...words(text, 19, 420, 8)] }))).map((s) => [s.type, s.x]);
  assert.deepEqual(row('Mention « lu et approuvé» _____________________________ le : _______________ Signature : _______________________'), [
    ['signature', 367],
    ['date', 257],
  ]);
  // (Without a signature caption on its row, the mention's blank is where one signs.)
  assert.deepEqual(row('Mention « lu et approuvé» _____________________________'), [['signature', 114]]);
});

test('a signature caption asking for the printed name too, before two blanks ("Participant Signature and Printed Name ____ ____"): the first is the place to sign, the second the name\'s', () => {
  const row = (caption: string) => {
    const lead = words(caption, 72, 713, 10);
    const end = Math.max(...lead.map((w) => w.box.x1));
    const blanks = [...words('_______________________', end + 2, 713, 10), ...words('_______________________', end + 135, 713, 10)];
    return signatures(suggestFields(page({ words: [...paragraph('en', 100), ...lead, ...blanks] }))).length;
  };
  assert.equal(row('Participant Signature and Printed Name'), 1);
  // (Signers' blanks one after the other stay each a place to sign.)
  assert.equal(row('Participant Signature'), 2);
});
