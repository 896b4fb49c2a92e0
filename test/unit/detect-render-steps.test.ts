// A scanned page rendered for OCR by pdf.js (src/pdf/detect/ocr-image.ts renderGrey) hands its thread back between
// pdf.js's drawing steps, each step drawn (the canvas would otherwise draw them all when its pixels are read), so
// that the page's time limit (time-limits.ts untilPage) is checked while a page of many images is drawn: a page
// made here drawing one large image forty times over, rendered at OCR's resolution. Without the steps drawn as
// they go, the thread was held for the last half of the rendering; without handing it back, for all of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState } from '@cantoo/pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import '../../src/pdf/detect/ocr-canvas.js';
import { openPdf } from '../../src/pdf/detect/page-scan.js';
import { renderGrey } from '../../src/pdf/detect/ocr-image.js';

/** A page (A4) drawing the same 1200 × 1700 px image `times` times over itself, each copy a little smaller. */
async function layeredPage(times: number): Promise<Uint8Array> {
  const canvas = createCanvas(1200, 1700);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, 1200, 1700);
  context.fillStyle = '#222';
  for (let y = 40; y < 1700; y += 28) context.fillRect(60, y, 400 + ((y * 37) % 700), 12);
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const image = await doc.embedPng(canvas.toBuffer('image/png'));
  const name = page.node.newXObject('Im', image.ref);
  for (let i = 0; i < times; i++) {
    const inset = i * 2;
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(595 - 2 * inset, 0, 0, 842 - 2 * inset, inset, inset),
      drawObject(name),
      popGraphicsState(),
    );
  }
  return doc.save();
}

test('a page of many images rendered for OCR gives the thread back while it is drawn (its time limit is checked meanwhile)', { timeout: 60_000 }, async () => {
  const pdf = await openPdf(await layeredPage(40));
  try {
    const page = await pdf.getPage(1);
    // (Once first, so that what is measured is the drawing, not the image's decoding or the code's first run.)
    await renderGrey(pdf, page, 175, 12_000_000);
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 2);
    const started = performance.now();
    const grey = await renderGrey(pdf, page, 175, 12_000_000);
    const ended = performance.now();
    clearInterval(timer);
    assert.equal(grey.width, Math.floor((595 * 175) / 72), 'rendered at OCR resolution');
    assert.ok(
      grey.grey.some((v) => v < 100),
      'the page has print',
    );
    const during = [started, ...ticks.filter((t) => t < ended), ended];
    const longest = Math.max(...during.slice(1).map((t, i) => t - (during[i] as number)));
    assert.ok(ended - started > 50, `drawing the page takes a while (${Math.round(ended - started)} ms)`);
    assert.ok(
      during.length >= 5 && longest < 0.35 * (ended - started),
      `the longest the thread was held: ${Math.round(longest)} of ${Math.round(ended - started)} ms (${during.length - 2} timer ticks)`,
    );
  } finally {
    await pdf.destroy();
  }
});
