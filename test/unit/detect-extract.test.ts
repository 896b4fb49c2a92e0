// What the detector reads from a PDF page (pdf.js in this process, no child): words a reader sees, and
// where images are drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts, TextRenderingMode, closePath, fill, lineTo, moveTo, rgb, setTextRenderingMode } from '@cantoo/pdf-lib';
import { openPdf, scanPage, textPageModel, type PageScan } from '../../src/pdf/detect/page-scan.js';
import { joinUpright } from '../../src/pdf/detect/page-graphics.js';
import { suggestFields } from '../../src/pdf/detect/suggest-fields.js';
import { shiftedFonts, unshift } from '../../src/pdf/detect/shifted-fonts.js';
import { pageKind, unreadable } from '../../src/pdf/detect/page-kinds.js';
import { withTyped } from '../../src/pdf/detect/ocr-words.js';

test('white text (an anchor hidden in a template) is not read; the blank after "Signed:" stays a blank', async () => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Signed:', { x: 72, y: 500, size: 11, font, color: rgb(0, 0, 0) });
  page.drawText('/sn1/', { x: 120, y: 500, size: 11, font, color: rgb(1, 1, 1) });
  page.drawText('Printed in white elsewhere but black here', { x: 72, y: 600, size: 11, font, color: rgb(0, 0, 0) });
  page.drawLine({ start: { x: 115, y: 497 }, end: { x: 320, y: 497 }, thickness: 0.8, color: rgb(0, 0, 0) });
  const pdf = await openPdf(await doc.save());
  try {
    const scan = await scanPage(await pdf.getPage(1));
    const texts = scan.words.map((w) => w.text);
    assert.ok(texts.includes('Signed:'), JSON.stringify(texts));
    assert.ok(!texts.some((t) => t.includes('sn1')), JSON.stringify(texts));
    assert.ok(texts.includes('black'), 'text painted in a colour is read');
    const found = suggestFields(textPageModel(1, scan));
    assert.deepEqual(
      found.map((s) => [s.type, s.reason]),
      [['signature', 'label_with_geometry']],
    );
  } finally {
    await pdf.destroy();
  }
});

test('images drawn on a page are located (a signature image over a line fills it)', async () => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  // A 1x1 PNG, drawn 120 x 30 over the line.
  const png = await doc.embedPng(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
  page.drawText('Signature:', { x: 72, y: 500, size: 11, font });
  page.drawLine({ start: { x: 140, y: 497 }, end: { x: 340, y: 497 }, thickness: 0.8 });
  page.drawImage(png, { x: 150, y: 495, width: 120, height: 30 });
  const pdf = await openPdf(await doc.save());
  try {
    const scan = await scanPage(await pdf.getPage(1));
    assert.equal(scan.images.length, 1);
    const img = scan.images[0] as { x0: number; y0: number; x1: number; y1: number };
    assert.deepEqual([img.x0, img.y0, img.x1, img.y1].map(Math.round), [150, 792 - 525, 270, 792 - 495]);
    const { images, ...withoutImages } = textPageModel(1, scan);
    assert.equal(suggestFields(withoutImages).length, 1, 'without the image: a place to sign');
    assert.deepEqual(suggestFields({ ...withoutImages, images }), [], 'signed already');
  } finally {
    await pdf.destroy();
  }
});

test('table borders drawn as thin filled outlines with bevelled ends are rules: the cells under "Signature" are places to sign', async () => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  // A border as some office suites draw it: a filled hexagon 0.6 pt thick, its ends cut at 45°.
  const border = (x0: number, y0: number, x1: number, y1: number) => {
    const t = 0.3;
    const pts: Array<[number, number]> =
      y0 === y1
        ? [
            [x0 - t, y0],
            [x0, y0 - t],
            [x1, y0 - t],
            [x1 + t, y0],
            [x1, y0 + t],
            [x0, y0 + t],
          ]
        : [
            [x0, y0 - t],
            [x0 + t, y0],
            [x0 + t, y1],
            [x0, y1 + t],
            [x0 - t, y1],
            [x0 - t, y0],
          ];
    const [first, ...rest] = pts as [[number, number], ...Array<[number, number]>];
    page.pushOperators(moveTo(...first), ...rest.map((p) => lineTo(...p)), closePath(), fill());
  };
  page.drawText('Name', { x: 80, y: 700, size: 11, font });
  page.drawText('Signature', { x: 300, y: 700, size: 11, font });
  for (const y of [715, 692, 662, 632]) border(70, y, 520, y);
  for (const x of [70, 290, 520]) border(x, 632, x, 715);
  const pdf = await openPdf(await doc.save());
  try {
    const scan = await scanPage(await pdf.getPage(1));
    assert.deepEqual(
      [...new Set(scan.segments.map((s) => Math.round(s.y)))].sort((a, b) => a - b),
      [792 - 715, 792 - 692, 792 - 662, 792 - 632],
    );
    assert.equal(scan.verticals.length, 3);
    const found = suggestFields(textPageModel(1, scan)).filter((s) => s.type === 'signature');
    assert.deepEqual(
      found.map((s) => [Math.round(s.x), Math.round(s.y + s.height)]).sort((a, b) => (a[1] as number) - (b[1] as number)),
      [
        [291, 792 - 663],
        [291, 792 - 633],
      ],
    );
  } finally {
    await pdf.destroy();
  }
});

test('a rule drawn with a slight slope (a line drawn by hand in an editor) is a line to sign on', async () => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  // Half a point higher at its right end than at its left, over 229 pt; "Firma alumna" under it.
  page.drawLine({ start: { x: 182, y: 61 }, end: { x: 411, y: 61.5 }, thickness: 1, color: rgb(0, 0, 0.8) });
  page.drawText('Firma alumna', { x: 267, y: 40, size: 10, font });
  const pdf = await openPdf(await doc.save());
  try {
    const scan = await scanPage(await pdf.getPage(1));
    assert.equal(scan.segments.length, 1, JSON.stringify(scan.segments));
    const found = suggestFields(textPageModel(1, scan));
    assert.deepEqual(
      found.map((s) => [s.type, s.reason, Math.round(s.x), Math.round(s.x + s.width)]),
      [['signature', 'label_with_geometry', 182, 411]],
    );
  } finally {
    await pdf.destroy();
  }
});

test('a signature drawn in ink (a polyline or curves, dark) over a line fills it; a light drawing, or a page of many, does not', async () => {
  // A hand's stroke: 40 short pieces up and down across 120 x 24 pt.
  const stroke = (dx: number) => `M ${dx} 12 ${Array.from({ length: 40 }, (_, k) => `L ${dx + 3 * (k + 1)} ${12 + 10 * Math.sin(k * 0.9)}`).join(' ')}`;
  const signed = async (options: { grey?: number; paths?: number; curves?: boolean }) => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Signature:', { x: 72, y: 500, size: 11, font });
    page.drawLine({ start: { x: 140, y: 497 }, end: { x: 340, y: 497 }, thickness: 0.8 });
    const ink = rgb(options.grey ?? 0.1, options.grey ?? 0.1, options.grey ?? 0.3);
    const loops = Array.from({ length: 10 }, (_, k) => `C ${12 * k + 4} -6 ${12 * k + 8} 30 ${12 * k + 12} ${k % 2 ? 2 : 22}`).join(' ');
    const path = options.curves ? `M 0 12 ${loops}` : stroke(0);
    page.drawSvgPath(path, { x: 160, y: 520, borderColor: ink, borderWidth: 1.2 });
    // Further paths of the same kind elsewhere on the page (an ornament drawn in many strokes).
    for (let k = 1; k < (options.paths ?? 1); k++)
      page.drawSvgPath(stroke(0), { x: 40 + (k % 4) * 130, y: 760 - Math.floor(k / 4) * 30, borderColor: ink, borderWidth: 1 });
    const pdf = await openPdf(await doc.save());
    try {
      return suggestFields(textPageModel(1, await scanPage(await pdf.getPage(1)))).filter((s) => s.type === 'signature').length;
    } finally {
      await pdf.destroy();
    }
  };
  assert.equal(await signed({}), 0, 'a polyline in dark ink: signed already');
  assert.equal(await signed({ curves: true }), 0, 'curves in dark ink: signed already');
  assert.equal(await signed({ grey: 0.8 }), 1, 'a light grey drawing is no writing: still a place to sign');
  assert.equal(await signed({ paths: 24 }), 1, 'a page of many such paths is a picture: still a place to sign');
});

test('a dark panel painted over a place to sign (a signature blacked out) fills it; a fill painted fully transparent, or a light one, does not', async () => {
  const signatures = async (panel?: { color: ReturnType<typeof rgb>; opacity: number }) => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Signature:', { x: 72, y: 500, size: 11, font });
    page.drawLine({ start: { x: 140, y: 497 }, end: { x: 340, y: 497 }, thickness: 0.8 });
    if (panel) page.drawRectangle({ x: 130, y: 490, width: 220, height: 45, color: panel.color, opacity: panel.opacity });
    const pdf = await openPdf(await doc.save());
    try {
      return suggestFields(textPageModel(1, await scanPage(await pdf.getPage(1)))).filter((s) => s.type === 'signature').length;
    } finally {
      await pdf.destroy();
    }
  };
  assert.equal(await signatures(), 1, 'the line to sign on');
  assert.equal(await signatures({ color: rgb(0, 0, 0), opacity: 1 }), 0, 'blacked out');
  assert.equal(await signatures({ color: rgb(0, 0, 0), opacity: 0 }), 1, 'painted fully transparent: nothing shows');
  assert.equal(await signatures({ color: rgb(0.9, 0.93, 1), opacity: 1 }), 1, 'a light shade behind the line');
});

test('white text on a shaded band (a table header in white on a colour) is read; white text on the paper is not', async () => {
  const sheet = async (band: ReturnType<typeof rgb> | undefined) => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    if (band) page.drawRectangle({ x: 70, y: 692, width: 450, height: 23, color: band });
    page.drawText('Name', { x: 80, y: 700, size: 11, font, color: rgb(1, 1, 1) });
    page.drawText('Signature', { x: 300, y: 700, size: 11, font, color: rgb(1, 1, 1) });
    for (const y of [715, 692, 662, 632]) page.drawLine({ start: { x: 70, y }, end: { x: 520, y }, thickness: 0.8 });
    for (const x of [70, 290, 520]) page.drawLine({ start: { x, y: 632 }, end: { x, y: 715 }, thickness: 0.8 });
    const pdf = await openPdf(await doc.save());
    try {
      const scan = await scanPage(await pdf.getPage(1));
      return { texts: scan.words.map((w) => w.text), signatures: suggestFields(textPageModel(1, scan)).filter((s) => s.type === 'signature').length };
    } finally {
      await pdf.destroy();
    }
  };
  const teal = await sheet(rgb(0.29, 0.56, 0.66));
  assert.deepEqual(teal.texts, ['Name', 'Signature']);
  assert.equal(teal.signatures, 2, "the header's column: a place to sign in each row");
  const pale = await sheet(rgb(0.95, 0.95, 0.95));
  assert.deepEqual(pale.texts, [], 'white on a pale grey is hardly seen: not read');
  const none = await sheet(undefined);
  assert.deepEqual(none.texts, [], 'white on the paper: not read');
  assert.equal(none.signatures, 0);
});

test("a row's sides drawn a line of text at a time (pieces end to end) close one cell: the run over a caption in it is its line", async () => {
  const row = async (pieces: boolean) => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Mitglied      Name: ___________________', { x: 36, y: 620, size: 10, font });
    page.drawText('_______________', { x: 180, y: 597, size: 10, font });
    page.drawText('_____________________________________', { x: 288, y: 597, size: 10, font });
    page.drawText('Datum', { x: 180, y: 586, size: 10, font });
    page.drawText('Unterschrift des Mitglieds', { x: 288, y: 586, size: 10, font });
    for (const y of [638, 582]) page.drawLine({ start: { x: 30, y }, end: { x: 565, y }, thickness: 0.5 });
    const cuts = pieces ? [638, 618, 606, 594, 582] : [638, 582];
    for (const x of [30, 565])
      for (let k = 1; k < cuts.length; k++)
        page.drawLine({ start: { x, y: cuts[k - 1] as number }, end: { x, y: cuts[k] as number }, thickness: 0.5, lineCap: 0 });
    const pdf = await openPdf(await doc.save());
    try {
      const found = suggestFields(textPageModel(1, await scanPage(await pdf.getPage(1))));
      return found.filter((s) => s.type !== 'text').map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height)]);
    } finally {
      await pdf.destroy();
    }
  };
  const whole = await row(false);
  assert.deepEqual(await row(true), whole, 'drawn in pieces as drawn whole');
  assert.ok(
    whole.some(([type, x]) => type === 'signature' && x === 288),
    JSON.stringify(whole),
  );
});

test("sides in pieces end to end are joined, except where a rule crosses where they meet (a grid row's own sides)", () => {
  const pieces = [
    { x: 30, y0: 100, y1: 120 },
    { x: 30, y0: 120, y1: 140 },
    { x: 30.2, y0: 140.5, y1: 160 },
    { x: 80, y0: 100, y1: 120 },
  ];
  assert.deepEqual(joinUpright(pieces, []), [
    { x: 30, y0: 100, y1: 160 },
    { x: 80, y0: 100, y1: 120 },
  ]);
  assert.deepEqual(joinUpright(pieces, [{ x0: 20, x1: 90, y: 140 }]), [
    { x: 30, y0: 100, y1: 140 },
    { x: 30.2, y0: 140.5, y1: 160 },
    { x: 80, y0: 100, y1: 120 },
  ]);
});

test('a font whose codes come out 29 below its letters (a subset font with no Unicode map) is read back up; fonts of capitals and figures are left as they are', () => {
  const items = [
    { str: '6LJQDWXUH\u0003RI\u0003WKH\u0003DSSOLFDQW', fontName: 'shifted' },
    { str: '7LWOH\u0003DQG\u0003QDPH\u0011', fontName: 'shifted' },
    { str: 'I/we hereby give permission to integrate these data.', fontName: 'body' },
    { str: 'IBAN DE89 3704 0044 0532 0130 00', fontName: 'capitals' },
    { str: 'SIGNATURE OF THE APPLICANT AND DATE', fontName: 'heading' },
  ];
  assert.deepEqual([...shiftedFonts(items)], ['shifted']);
  assert.equal(unshift('6LJQDWXUH\u0003RI\u0003WKH\u0003DSSOLFDQW'), 'Signature of the applicant');
  assert.equal(unshift('7LWOH\u0003DQG\u0003QDPH\u0011'), 'Title and name.');
});

test("a scan's answers typed over it leave it a scan for OCR; an invisible OCR layer makes it a scan with a text layer", async () => {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  const kind = async (count: number, invisible: boolean, leading = 14) => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawImage(await doc.embedPng(png), { x: 0, y: 0, width: 612, height: 792 });
    if (invisible) page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
    for (let i = 0; i < count; i++) page.drawText(`N/A ${i}`, { x: 72 + 60 * (i % 8), y: 700 - leading * Math.floor(i / 8), size: 10, font });
    const pdf = await openPdf(await doc.save());
    try {
      const scan = await scanPage(await pdf.getPage(1));
      return [scan.words.length, scan.hiddenText, pageKind(scan)];
    } finally {
      await pdf.destroy();
    }
  };
  assert.deepEqual(await kind(12, false), [24, false, 'scanned'], 'a form with its answers typed over the scan');
  assert.deepEqual(await kind(12, true), [24, true, 'backed'], 'the words OCR laid over the scan, invisible');
  assert.deepEqual(await kind(24, false, 150), [48, false, 'backed'], 'a page of text over a picture');
  // (Many words typed within a quarter of the page's height are answers too: a paragraph naming the parties over a scanned contract.)
  assert.deepEqual(await kind(24, false), [48, false, 'scanned'], 'a typed paragraph in a band of the scan');
  assert.deepEqual(await kind(2, false), [4, false, 'scanned'], 'a stamp');
  const word = (text: string, x0: number, y0: number) => ({ text, box: { x0, y0, x1: x0 + 30, y1: y0 + 10 }, baseline: y0 + 8, size: 10, confidence: 0.9 });
  const read = [word('Signature', 72, 500), word('N/4', 200, 400)];
  const typed = [{ ...word('N/A', 198, 401), confidence: 1 }];
  assert.deepEqual(
    withTyped(read, typed).map((w) => [w.text, w.confidence]),
    [
      ['Signature', 0.9],
      ['N/A', 1],
    ],
  );
});

test('a form drawn as white boxes on a coloured page: each white box is a box, and "Ort, Datum, Unterschrift" before one signs in it', async () => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  // (White drawn before the colour, under it, is no box.)
  page.drawRectangle({ x: 200, y: 100, width: 100, height: 40, color: rgb(1, 1, 1) });
  page.drawRectangle({ x: 0, y: 0, width: 595, height: 842, color: rgb(0.69, 0.88, 0.62) });
  page.drawText('Die Jahresgebühr beträgt 12 Euro. Der Antrag gilt mit der Unterschrift als gestellt und angenommen.', { x: 12, y: 400, size: 12, font });
  page.drawText('Ort, Datum, Unterschrift', { x: 12, y: 320, size: 14, font });
  page.drawRectangle({ x: 200, y: 317, width: 378, height: 22, color: rgb(1, 1, 1) });
  const pdf = await openPdf(await doc.save());
  try {
    const scan = await scanPage(await pdf.getPage(1));
    assert.deepEqual(
      scan.boxes.map((b) => [b.x0, b.y0, b.x1, b.y1].map(Math.round)),
      [[200, 842 - 339, 578, 842 - 317]],
    );
    const found = suggestFields(textPageModel(1, scan)).filter((s) => s.type === 'signature');
    assert.deepEqual(
      found.map((s) => [s.x, s.y, s.width, s.height].map(Math.round)),
      [[200, 503, 378, 22]],
    );
  } finally {
    await pdf.destroy();
  }
});

test('a text page in glyphs mapped to no letter (private-use codes, three words in ten or more) is read by OCR as a scan; a few such glyphs (check boxes) leave it text', () => {
  const word = (text: string, i: number) => ({
    text,
    box: { x0: 72 + 40 * (i % 10), y0: 100 + 14 * Math.floor(i / 10), x1: 100 + 40 * (i % 10), y1: 110 + 14 * Math.floor(i / 10) },
    baseline: 108,
    size: 10,
    confidence: 1,
  });
  const page = (glyphs: number, words = 40, imageCover = 0): PageScan =>
    ({
      words: Array.from({ length: words }, (_, i) => word(i < glyphs ? '\uf0bb\uf0b2\uf0b7' : `Word${i}`, i)),
      imageCover,
      filledCurves: 0,
      hiddenText: false,
    }) as unknown as PageScan;
  assert.equal(pageKind(page(12)), 'scanned');
  assert.equal(pageKind(page(4)), 'text', 'a few symbols: check boxes drawn in a symbol font');
  assert.equal(pageKind(page(8, 12)), 'text', 'too few words to say');
  assert.equal(pageKind(page(12, 40, 0.9)), 'backed', "over a scan, the text layer is OCR software's");
  assert.equal(unreadable('\uf0bb\uf0b2'), true);
  assert.equal(unreadable('Unterschrift'), false);
});
