// What the detector reads from a PDF page (pdf.js in this process, no child): words a reader sees, and
// where images are drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
import { openPdf, scanPage, textPageModel } from '../../src/pdf/detect/page-scan.js';
import { suggestFields } from '../../src/pdf/detect/suggest-fields.js';

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
