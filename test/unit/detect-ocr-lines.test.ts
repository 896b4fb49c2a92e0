// Lines on scans and photos: dotted ones found in the pixels, the lines in OCR's way (dashes, dots, rules
// and sides ink crowds) taken out of what it reads, and the size of a caption OCR read right under a line;
// the ink OCR reads no words in (a handwritten signature), which fills the blank it is written in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rulesFromInk } from '../../src/pdf/detect/ocr-drawn-lines.js';
import { withoutMarks } from '../../src/pdf/detect/ocr-without-lines.js';
import { INK_CELL, inkGrid, inkIn } from '../../src/pdf/detect/ink-grid.js';
import { suggestFields } from '../../src/pdf/detect/suggest-fields.js';
import { page, paragraph, words } from '../helpers/detect-pages.js';

const SCALE = 2.43;

/** A blank ink page and a way to ink rectangles of it. */
function inkPage(width: number, height: number) {
  const ink = new Uint8Array(width * height);
  const put = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) ink.fill(1, y * width + x0, y * width + x1);
  };
  return { ink, put };
}

test('rules in pixels: a line of dots (an ellipsis typed to sign on, photographed: a dot lost, a speck over one) is one line; dots at no steady pitch are none', () => {
  const width = 800;
  const height = 140;
  const { ink, put } = inkPage(width, height);
  // Dots 4 px wide and 3 high every 9 px (about 3.7 pt), from x 40 to 400; the 20th lost, a speck glued over the 30th.
  for (let k = 0; k < 41; k++) {
    const x = 40 + k * 9;
    if (k === 20) continue;
    put(x, 40, x + 4, 43);
    if (k === 30) put(x + 1, 37, x + 3, 40);
  }
  // Full stops of running text: dots on one row at no steady pitch.
  let x = 40;
  for (let k = 0; k < 14; k++) {
    put(x, 100, x + 3, 103);
    x += [9, 23, 14, 31, 12][k % 5] as number;
  }
  const { segments, marks } = rulesFromInk(ink, width, height, SCALE);
  assert.deepEqual(
    segments.map((s) => [Math.round(s.x0 * SCALE), Math.round(s.x1 * SCALE), Math.round(s.y * SCALE)]),
    [[40, 404, 42]],
  );
  assert.ok(marks.length >= 38, `${marks.length} marks`);
});

test('OCR reads a page without the marks of its dotted lines; the words next to them keep their ink', () => {
  const width = 300;
  const height = 60;
  const { ink, put } = inkPage(width, height);
  for (let k = 0; k < 20; k++) put(20 + k * 9, 20, 24 + k * 9, 23);
  // A word's strokes under the line.
  put(30, 33, 33, 48);
  put(60, 33, 63, 48);
  const { marks } = rulesFromInk(ink, width, height, SCALE);
  const clean = withoutMarks(ink, width, marks);
  assert.equal(
    clean.slice(20 * width, 23 * width).reduce((a, b) => a + b, 0),
    0,
    'the dots are gone',
  );
  assert.equal(clean[40 * width + 31], 1, 'the word stays');
  assert.equal(ink[21 * width + 21], 1, 'the page itself is left as it was');
});

test('OCR reads a page without the rules and box sides ink crowds; a rule with room around it, one that continues a row of words, and a tall letter stay', () => {
  const width = 900;
  const height = 300;
  const { ink, put } = inkPage(width, height);
  const near = Math.round(2 * SCALE);
  // A box 300 px wide and 60 px (25 pt) tall, sides 3 px thick; a caption's strokes against its left side.
  put(100, 50, 400, 53);
  put(100, 107, 400, 110);
  put(100, 50, 103, 110);
  put(397, 50, 400, 110);
  put(90, 70, 98, 90);
  // A line with a caption printed 2 px under it: strokes 2 px wide every 6 px over 180 px.
  put(100, 150, 400, 152);
  for (let x = 110; x < 290; x += 6) put(x, 154, x + 2, 170);
  // A line with room all around it.
  put(500, 150, 800, 152);
  // "Name: ____" with a word right under the rule: the rule continues the row of "Name:".
  put(420, 230, 470, 248);
  put(475, 248, 800, 250);
  put(600, 252, 604, 268);
  // A stem 48 px (20 pt) tall: a heading's "I".
  put(850, 20, 854, 68);
  const { marks, rules } = rulesFromInk(ink, width, height, SCALE);
  const clean = withoutMarks(ink, width, marks, rules, near);
  const left = (x0: number, y0: number, x1: number, y1: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) n += clean[y * width + x] as number;
    return n;
  };
  assert.equal(left(100, 50, 103, 110), 0, "the box's side the caption crowds is gone");
  assert.equal(left(90, 70, 98, 90), 160, "the caption's strokes stay");
  assert.equal(left(100, 150, 400, 152), 0, 'the line over its caption is gone');
  assert.equal(left(110, 154, 290, 170), 30 * 2 * 16, 'the caption under it stays');
  assert.equal(left(500, 150, 800, 152), 600, 'the line with room around it stays');
  assert.equal(left(475, 248, 800, 250), 650, 'the blank of "Name:" stays');
  assert.equal(left(850, 20, 854, 68), 4 * 48, 'the stem stays');
});

test('on a scanned page, a caption OCR read half again as large because its box took in the dotted line over it is a caption of its size: it names the line', () => {
  const read = (top: number) =>
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100).map((w) => ({ ...w, confidence: 0.9 })),
          // Caption at 10 pt whose box reaches up to the line at 701 (OCR's size: 17.2).
          ...words('Ort, Datum, Unterschrift des gesetzlichen Vertreters', 57, 713, 10).map((w) => ({
            ...w,
            confidence: 0.85,
            size: (713 - top) / 0.74,
            box: { ...w.box, y0: top },
          })),
        ],
        segments: [{ x0: 58, x1: 416, y: 701 }],
        ocr: true,
      }),
    ).map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height)]);
  assert.deepEqual(read(705.6), [['signature', 58, 701]]);
  assert.deepEqual(read(700.3), read(705.6));
});

test("on a scanned page, a caption OCR read twice as tall as its letters are wide (its box took in a box's border) is a caption of the page's size, and so is the blank made beside it", () => {
  const read = (size: number) => {
    const caption = words('Signature:', 72, 475, 11).map((w) => ({ ...w, confidence: 0.79, size, box: { ...w.box, y0: 475 - 0.74 * size } }));
    const blank = { text: '_'.repeat(25), box: { x0: 124, x1: 453, y0: 475 - 0.78 * size, y1: 475 + 0.22 * size }, baseline: 475, size, confidence: 0.79 };
    return suggestFields(
      page({
        words: [...paragraph('en', 100).map((w) => ({ ...w, size: 11, confidence: 0.95 })), ...caption, blank],
        segments: [{ x0: 124, x1: 453, y: 476 }],
        ocr: true,
      }),
    ).map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height)]);
  };
  assert.deepEqual(read(11), [['signature', 124, 477]]);
  assert.deepEqual(read(23.4), read(11));
});

test('ink on a scan, cell by cell, back where the page was scanned: a handwritten signature over a line fills it; specks, the line itself and the words OCR read do not', () => {
  // 200 × 100 pt at SCALE pixels a point, the image turned back by 2 pt to the right where it lies on the page.
  const width = Math.round(200 * SCALE);
  const height = Math.round(100 * SCALE);
  const { ink, put } = inkPage(width, height);
  const px = (pt: number) => Math.round(pt * SCALE);
  put(px(40), px(30), px(46), px(36));
  const grid = inkGrid(ink, width, height, SCALE, { width: 200, height: 100 }, (x, y) => ({ x: x + 2, y }));
  const on = (x: number, y: number) => grid.on[Math.floor(y / INK_CELL) * grid.cols + Math.floor(x / INK_CELL)];
  assert.equal(on(44, 33), 1);
  assert.equal(on(20, 33), 0);
  assert.deepEqual(inkIn(grid, { x0: 30, y0: 20, x1: 60, y1: 50 }, []).ink > 0, true);
  // (Cells under a word read there are not counted.)
  assert.deepEqual(inkIn(grid, { x0: 30, y0: 20, x1: 60, y1: 50 }, [{ x0: 38, y0: 28, x1: 52, y1: 40 }]).ink, 0);

  // "Signature: ____" on a scanned page: a place to sign; with a scribble over the line, none; with specks, still one.
  const scan = (strokes: Array<[number, number, number, number]>) => {
    const w = Math.round(612 * SCALE);
    const h = Math.round(300 * SCALE);
    const paper = inkPage(w, h);
    for (const [x0, y0, x1, y1] of strokes) paper.put(px(x0), px(y0), px(x1), px(y1));
    return suggestFields(
      page({
        height: 300,
        words: [
          ...paragraph('en', 100).map((w2) => ({ ...w2, confidence: 0.95 })),
          ...words('Signature:', 72, 250, 11).map((w2) => ({ ...w2, confidence: 0.9 })),
        ],
        segments: [{ x0: 130, x1: 400, y: 251 }],
        ink: inkGrid(paper.ink, w, h, SCALE, { width: 612, height: 300 }, (x, y) => ({ x, y })),
        ocr: true,
      }),
    ).filter((s) => s.type === 'signature');
  };
  assert.equal(scan([]).length, 1);
  // (The line's own ink left in the grid, read a few points thick, a frame's side at the blank's end, and a streak along
  // its top (the edge of the text over it, tilted on a photo) are the blank's edges: still one.)
  assert.equal(
    scan([
      [130, 246, 400, 251],
      [399, 205, 401, 252],
      [130, 213, 400, 218],
    ]).length,
    1,
  );
  // (A signature's strokes: loops and a long tail across the line's middle.)
  const scribble: Array<[number, number, number, number]> = [
    [150, 225, 230, 228],
    [160, 230, 166, 246],
    [190, 222, 196, 244],
    [215, 232, 290, 235],
    [240, 226, 246, 244],
  ];
  assert.equal(scan(scribble).length, 0);
  assert.equal(
    scan([
      [200, 236, 202, 238],
      [300, 230, 302, 232],
    ]).length,
    1,
  );
});
