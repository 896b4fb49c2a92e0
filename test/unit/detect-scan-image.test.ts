// A scanned page drawn for OCR from the image the text pass decoded (src/pdf/detect/scan-image.ts),
// against pdf.js rendering the same page: realistic scans and photos made from real PDFs of the
// development corpus (test/helpers/scans.ts), upright and turned; pages showing more than their image are
// left to pdf.js; a one-bit scan and a 400 dpi one made here. The tests on the corpus's scans are skipped
// without the corpus (env PARAPH_DETECTION_CORPUS).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PDFDocument,
  type PDFOperator,
  type PDFPage,
  type PDFRef,
  StandardFonts,
  TextRenderingMode,
  clip,
  closePath,
  concatTransformationMatrix,
  degrees,
  drawObject,
  endPath,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setTextRenderingMode,
} from '@cantoo/pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import '../../src/pdf/detect/ocr-canvas.js';
import { openPdf, scanPage } from '../../src/pdf/detect/page-scan.js';
import { binarise, renderGrey, type GreyPage } from '../../src/pdf/detect/ocr-image.js';
import type { Matrix } from '../../src/pdf/detect/page-graphics.js';
import { drawScan, keepImages, keepScan, type KeptScan } from '../../src/pdf/detect/scan-image.js';
import { detectionCorpus, makeScan, makeScanImage } from '../helpers/scans.js';
import { IN_CI, missingTool } from '../helpers/system-tools.js';

const skip = (!detectionCorpus() && 'the detection corpus is not there (set PARAPH_DETECTION_CORPUS)') || (!IN_CI && missingTool('pdftoppm'));

/** The page's image kept (after the text pass, as the detection child does) and drawn at `dpi`, and pdf.js's rendering of it. */
async function bothWays(bytes: Uint8Array, dpi: number): Promise<{ kept: KeptScan | undefined; mine?: GreyPage; pdfjs: GreyPage }> {
  const pdf = await openPdf(bytes);
  try {
    const page = await pdf.getPage(1);
    await scanPage(page);
    const kept = await keepScan(page);
    page.cleanup();
    const pdfjs = await renderGrey(pdf, page, dpi, 12_000_000);
    if (!kept) return { kept, pdfjs };
    const { width, height, scale } = pdfjs;
    const grey = drawScan(kept, page.getViewport({ scale }).transform as Matrix, width, height, createCanvas(1, 1).getContext('2d'));
    return { kept, pdfjs, ...(grey ? { mine: { grey, width, height, scale } } : {}) };
  } finally {
    await pdf.destroy();
  }
}

/** The page's image as the detection child keeps it after the text pass, or undefined. */
async function keptOf(bytes: Uint8Array): Promise<KeptScan | undefined> {
  const pdf = await openPdf(bytes);
  try {
    const page = await pdf.getPage(1);
    await scanPage(page);
    return await keepScan(page);
  } finally {
    await pdf.destroy();
  }
}

function assertAlike(mine: GreyPage, pdfjs: GreyPage, what: string): void {
  assert.deepEqual([mine.width, mine.height, mine.scale], [pdfjs.width, pdfjs.height, pdfjs.scale], `${what}: the same pixels`);
  let difference = 0;
  for (let i = 0; i < mine.grey.length; i++) difference += Math.abs((mine.grey[i] as number) - (pdfjs.grey[i] as number));
  // (The canvas's own sampling decides a pixel here and there a grey level apart.)
  assert.ok(difference / mine.grey.length < 0.2, `${what}: mean difference ${(difference / mine.grey.length).toFixed(3)} grey levels`);
  const ink = (page: GreyPage) => binarise(page).ink;
  const [a, b] = [ink(mine), ink(pdfjs)];
  const inked = b.reduce((n, v) => n + v, 0);
  const apart = a.reduce((n, v, i) => n + (v === b[i] ? 0 : 1), 0);
  assert.ok(inked > 1000, `${what}: the page has print`);
  assert.ok(apart / inked < 0.005, `${what}: ${apart} of ${inked} inked pixels differ once black and white`);
}

test('a scan and a photo of real pages are drawn from the kept image as pdf.js renders them, at both OCR resolutions', { skip, timeout: 120_000 }, async () => {
  for (const [file, page, kind] of [
    ['graham28-consent_form.pdf', 2, 'scan'],
    ['arkansas-sample_contract.pdf', 16, 'photo'],
  ] as const) {
    const bytes = await makeScan({ file, pages: [page], kind });
    for (const dpi of [175, 250]) {
      const { kept, mine, pdfjs } = await bothWays(bytes, dpi);
      assert.ok(kept && mine, `${file} ${kind}: its image is kept`);
      assertAlike(mine, pdfjs, `${file} ${kind} at ${dpi} dpi`);
    }
  }
});

interface Placing {
  /** The page turned by /Rotate. */
  rotation?: number;
  /** The image drawn a quarter turn round on a page as wide as it is high: by a matrix of whole numbers, or by pdf-lib's `rotate` (a cosine of 6e-17). */
  turned?: 'exactly' | 'by rotate';
  opacity?: number;
}

let scanned: ReturnType<typeof makeScanImage> | undefined;

/** A corpus page's scan alone on a page of its size, placed as `placing` says, with `extra` drawn over it. */
async function scanWith(extra: (doc: PDFDocument, page: PDFPage) => Promise<void>, placing: Placing = {}): Promise<Uint8Array> {
  scanned ??= makeScanImage({ file: 'graham28-consent_form.pdf', pages: [2] });
  const { jpeg, width, height } = await scanned;
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpeg);
  const opacity = placing.opacity === undefined ? {} : { opacity: placing.opacity };
  const page = placing.turned ? doc.addPage([height, width]) : doc.addPage([width, height]);
  if (placing.turned === 'by rotate') page.drawImage(image, { x: height, y: 0, width, height, rotate: degrees(90), ...opacity });
  else if (placing.turned === 'exactly') {
    const name = page.node.newXObject('Scan', image.ref);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(0, width, -height, 0, height, 0), drawObject(name), popGraphicsState());
  } else page.drawImage(image, { x: 0, y: 0, width, height, ...opacity });
  if (placing.rotation) page.setRotation(degrees(placing.rotation));
  await extra(doc, page);
  return doc.save();
}

const nothing = async () => {};

test('a black-and-white scan (one bit a pixel, as office scanners make them) and a fine one at 400 dpi (halved first) are drawn as pdf.js renders them', async () => {
  for (const [what, dpi, bits, resolutions] of [
    ['one bit a pixel, 200 dpi', 200, 1, [175, 250]],
    ['grey, 400 dpi, columns of single pixels', 400, 8, [175]],
  ] as const) {
    // A half-letter page of "print": rows of dark bars of uneven lengths, the way lines of text look (at
    // 400 dpi striped a pixel at a time: halving averages the stripes, sampling straight away would not).
    const [inchesAcross, inchesDown] = [5.5, 8.5];
    const width = Math.round(inchesAcross * dpi);
    const height = Math.round(inchesDown * dpi);
    const rowBytes = bits === 1 ? Math.ceil(width / 8) : width;
    const data = new Uint8Array(rowBytes * height).fill(0xff);
    for (let y = dpi >> 1; y < height - (dpi >> 1); y++) {
      if (y % 40 >= 14) continue;
      const end = width - (dpi >> 1) - ((y * 7919) % (2 * dpi));
      for (let x = dpi >> 1; x < end; x++) {
        if ((x >> 4) % 5 === 4) continue;
        if (bits === 1) data[y * rowBytes + (x >> 3)] = (data[y * rowBytes + (x >> 3)] as number) & ~(128 >> (x & 7));
        else data[y * rowBytes + x] = x & 1 ? 30 : 170;
      }
    }
    const doc = await PDFDocument.create();
    const image = doc.context.register(
      doc.context.flateStream(data, { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceGray', BitsPerComponent: bits }),
    );
    const [pageWidth, pageHeight] = [inchesAcross * 72, inchesDown * 72];
    const page = doc.addPage([pageWidth, pageHeight]);
    const name = page.node.newXObject('Scan', image);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(pageWidth, 0, 0, pageHeight, 0, 0), drawObject(name), popGraphicsState());
    const bytes = await doc.save();
    for (const at of resolutions) {
      const { kept, mine, pdfjs } = await bothWays(bytes, at);
      assert.ok(kept && mine, `${what}: its image is kept`);
      assertAlike(mine, pdfjs, `${what}, at ${at} dpi`);
    }
  }
});

test('a page turned by /Rotate, or its image drawn a quarter turn round, is drawn from the kept image as pdf.js renders it', {
  skip,
  timeout: 120_000,
}, async () => {
  for (const [what, bytes] of [
    ['the page turned 90°', await scanWith(nothing, { rotation: 90 })],
    ['the page turned 180°', await scanWith(nothing, { rotation: 180 })],
    ['the image drawn a quarter turn round', await scanWith(nothing, { turned: 'exactly' })],
  ] as const) {
    const { kept, mine, pdfjs } = await bothWays(bytes, 175);
    assert.ok(kept && mine, `${what}: its image is kept`);
    assertAlike(mine, pdfjs, what);
  }
  // Turned by a matrix a hair off a quarter turn, pdf.js draws it through the canvas's own transform: so does it here.
  const { kept, mine } = await bothWays(await scanWith(nothing, { turned: 'by rotate' }), 175);
  assert.ok(kept && !mine, 'a hair off a quarter turn: kept, but rendered by pdf.js');
});

test('a page showing more than its image (text, a line, a second image, a form field) is left to pdf.js; invisible text is not more', {
  skip,
  timeout: 120_000,
}, async () => {
  const cases: Array<[string, Uint8Array, boolean]> = [
    ['the scan alone', await scanWith(nothing), true],
    [
      'an OCR text layer drawn invisible over it',
      await scanWith(async (doc, page) => {
        const font = await doc.embedFont(StandardFonts.Helvetica);
        page.pushOperators(pushGraphicsState(), setTextRenderingMode(TextRenderingMode.Invisible));
        page.drawText('Signature of the participant', { x: 72, y: 100, size: 11, font });
        page.pushOperators(popGraphicsState());
      }),
      true,
    ],
    [
      'text one can see over it',
      await scanWith(async (doc, page) => {
        page.drawText('Page 2', { x: 72, y: 30, size: 9, font: await doc.embedFont(StandardFonts.Helvetica) });
      }),
      false,
    ],
    [
      'a line drawn over it',
      await scanWith(async (_doc, page) => void page.drawLine({ start: { x: 72, y: 90 }, end: { x: 300, y: 90 }, thickness: 1 })),
      false,
    ],
    [
      'a second image',
      await scanWith(async (doc, page) => {
        const png = await doc.embedPng(
          Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
        );
        page.drawImage(png, { x: 100, y: 100, width: 120, height: 30 });
      }),
      false,
    ],
    [
      'a form field',
      await scanWith(async (doc, page) => doc.getForm().createTextField('name').addToPage(page, { x: 72, y: 90, width: 200, height: 20 })),
      false,
    ],
    ['the image drawn half transparent', await scanWith(nothing, { opacity: 0.5 }), false],
  ];
  for (const [what, bytes, keptExpected] of cases) assert.equal((await keptOf(bytes)) !== undefined, keptExpected, what);
});

test('the image is stretched over the whole pixels nearest its corners, each pixel sampled between the nearest two each way, white around it', () => {
  const context = createCanvas(1, 1).getContext('2d');
  // A 4 × 2 image drawn over x 0–4 pt of an 8 × 2 pt page, at 36 dpi (2 pt a pixel): two image pixels a page pixel.
  const stripes: KeptScan = {
    grey: Uint8Array.from([0, 255, 0, 255, 0, 255, 0, 255]),
    width: 4,
    height: 2,
    transforms: [[4, 0, 0, 2, 0, 0]],
    interpolate: false,
  };
  assert.deepEqual([...(drawScan(stripes, [0.5, 0, 0, -0.5, 0, 1], 4, 1, context) ?? new Uint8Array())], [128, 128, 255, 255]);
  // Mirrored (its first column at the right), at 72 dpi: one image pixel a page pixel.
  const ramp: KeptScan = { ...stripes, grey: Uint8Array.from([0, 64, 128, 255, 0, 64, 128, 255]), transforms: [[-4, 0, 0, 2, 4, 0]] };
  const at72: Matrix = [1, 0, 0, -1, 0, 2];
  assert.deepEqual([...(drawScan(ramp, at72, 8, 2, context) ?? new Uint8Array()).subarray(0, 8)], [255, 128, 64, 0, 255, 255, 255, 255]);
  // Half a pixel to the right: moved to the nearest whole pixel, as pdf.js draws it.
  assert.deepEqual(
    [...(drawScan({ ...ramp, transforms: [[-4, 0, 0, 2, 4.5, 0]] }, at72, 8, 2, context) ?? new Uint8Array()).subarray(0, 8)],
    [255, 255, 128, 64, 0, 255, 255, 255],
  );
  // Turned by other than a quarter turn: left to pdf.js.
  assert.equal(drawScan({ ...ramp, transforms: [[3, 1, -1, 2, 1, 0]] }, at72, 8, 2, context), undefined);
});

/** A grey image of "print" (dark bars as lines of text, and a rule across at `ruleAt` of its height), as a flate stream of `dpi` over inches across × down. */
function printed(doc: PDFDocument, [across, down]: [number, number], dpi: number, ruleAt: number): PDFRef {
  const [width, height] = [Math.round(across * dpi), Math.round(down * dpi)];
  const data = new Uint8Array(width * height).fill(0xf0);
  for (let y = 0; y < height; y++) {
    const rule = Math.abs(y - Math.round(ruleAt * height)) < 2;
    for (let x = dpi >> 2; x < width - (dpi >> 2); x++) if (rule || (y % 30 < 9 && (x >> 3) % 6 !== 5)) data[y * width + x] = 40;
  }
  return doc.context.register(
    doc.context.flateStream(data, { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceGray', BitsPerComponent: 8 }),
  );
}

test("a scan clipped to a rectangle that leaves it whole (its frame, a form's box) is drawn from the kept image; a clip that cuts it is left to pdf.js", async () => {
  // A half-letter page, its scan drawn 0.4 pt wider than the page and clipped to the page (as exporters frame a picture).
  const page = async (clipping: (doc: PDFDocument) => PDFOperator[], form?: boolean): Promise<Uint8Array> => {
    const doc = await PDFDocument.create();
    const pdfPage = doc.addPage([396, 612]);
    const draw = [
      pushGraphicsState(),
      concatTransformationMatrix(396.4, 0, 0, 612.4, -0.2, -0.2),
      drawObject(pdfPage.node.newXObject('Scan', printed(doc, [5.5, 8.5], 150, 0.4))),
      popGraphicsState(),
    ];
    if (!form) pdfPage.pushOperators(pushGraphicsState(), ...clipping(doc), ...draw, popGraphicsState());
    else {
      // (The scan drawn by a form whose box is the page: a form clips what it draws to its box.)
      const inner = doc.context.formXObject([...clipping(doc), ...draw], { BBox: [0, 0, 396, 612], Resources: pdfPage.node.Resources() });
      pdfPage.pushOperators(pushGraphicsState(), drawObject(pdfPage.node.newXObject('Frame', doc.context.register(inner))), popGraphicsState());
    }
    return doc.save();
  };
  const clipTo =
    (...path: PDFOperator[]) =>
    () => [...path, clip(), endPath()];
  const cases: Array<[string, Uint8Array, boolean]> = [
    ['clipped to the page', await page(clipTo(rectangle(0, 0, 396, 612))), true],
    ['clipped to the page drawn corner by corner', await page(clipTo(moveTo(396, 612), lineTo(0, 612), lineTo(0, 0), lineTo(396, 0), closePath())), true],
    ['drawn by a form whose box is the page', await page(() => [], true), true],
    ['clipped to its upper half', await page(clipTo(rectangle(0, 306, 396, 306))), false],
    ['clipped to a triangle', await page(clipTo(moveTo(0, 0), lineTo(396, 0), lineTo(0, 612), closePath())), false],
    ["clipped to a bow tie through the page's corners", await page(clipTo(moveTo(0, 0), lineTo(396, 612), lineTo(396, 0), lineTo(0, 612), closePath())), false],
    // (A square turned 45° about the page's centre: its box holds the page, its corners cut the page's.)
    [
      'clipped to a square turned 45°',
      await page(() => {
        const k = Math.SQRT1_2;
        const turned = clipTo(concatTransformationMatrix(k, k, -k, k, 198, 306), rectangle(-306, -306, 612, 612))();
        return [...turned, concatTransformationMatrix(k, -k, k, k, -(k * 198 + k * 306), -(-k * 198 + k * 306))];
      }),
      false,
    ],
  ];
  for (const [what, bytes, keptExpected] of cases) {
    const { kept, mine, pdfjs } = await bothWays(bytes, 175);
    assert.equal(kept !== undefined, keptExpected, `${what}: ${keptExpected ? 'kept' : 'left to pdf.js'}`);
    if (keptExpected) {
      assert.ok(mine, `${what}: drawn from the kept image`);
      assertAlike(mine, pdfjs, what);
    }
  }
});

/** A half-letter page drawing two images (a page-wide scan, a band over its foot), with `extra` drawn over them. */
async function twoImages(extra: (doc: PDFDocument, page: PDFPage) => Promise<void>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([396, 612]);
  const images: Array<[string, PDFRef, Matrix]> = [
    ['Scan', printed(doc, [5.5, 8.5], 300, 0.4), [396, 0, 0, 612, 0, 0]],
    ['Band', printed(doc, [5, 1], 200, 0.5), [360, 0, 0, 72, 18, 40]],
  ];
  for (const [name, ref, m] of images) {
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...m), drawObject(page.node.newXObject(name, ref)), popGraphicsState());
  }
  await extra(doc, page);
  return doc.save();
}

test('a scan with a text layer keeps every image it draws, and its images alone are drawn as pdf.js draws them (its text, lines and form fields left out)', async () => {
  const over = async (doc: PDFDocument, page: PDFPage) => {
    page.drawText('Signature of the tenant', { x: 40, y: 130, size: 10, font: await doc.embedFont(StandardFonts.Helvetica) });
    page.drawLine({ start: { x: 40, y: 150 }, end: { x: 300, y: 150 }, thickness: 1 });
    doc.getForm().createTextField('name').addToPage(page, { x: 40, y: 500, width: 200, height: 20 });
  };
  const imagesOf = async (bytes: Uint8Array, alone: boolean) => {
    const pdf = await openPdf(bytes);
    try {
      const page = await pdf.getPage(1);
      await scanPage(page);
      const kept = await keepImages(page, alone);
      page.cleanup();
      return { kept, grey: kept && (await renderGrey(pdf, page, 175, 12_000_000, kept)) };
    } finally {
      await pdf.destroy();
    }
  };
  const bytes = await twoImages(over);
  assert.equal((await imagesOf(bytes, false)).kept, undefined, 'for OCR, a page showing more than one image is left to pdf.js');
  const { kept, grey } = await imagesOf(bytes, true);
  assert.deepEqual(
    kept?.map((k) => [k.width, k.height]),
    [
      [1650, 2550],
      [1000, 200],
    ],
    'both images, in the order drawn',
  );
  // The same two images alone on the page, rendered by pdf.js.
  const pdf = await openPdf(await twoImages(nothing));
  try {
    const pdfjs = await renderGrey(pdf, await pdf.getPage(1), 175, 12_000_000);
    assert.ok(grey, 'drawn from the kept images');
    assertAlike(grey, pdfjs, 'two images');
  } finally {
    await pdf.destroy();
  }
  // An image drawn half transparent over the other, or as a stencil mask, cannot be drawn from what is kept.
  const halfSeen = await twoImages(async (doc, page) => {
    const png = await doc.embedPng(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
    page.drawImage(png, { x: 100, y: 100, width: 120, height: 30, opacity: 0.5 });
  });
  assert.equal((await imagesOf(halfSeen, true)).kept, undefined, 'a half-transparent image over the scan');
});

test('an image that two pages draw is kept from the second page too (pdf.js holds it with the document)', async () => {
  const doc = await PDFDocument.create();
  const band = printed(doc, [5, 1], 200, 0.5);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) {
    const page = doc.addPage([396, 612]);
    const m = [396, 0, 0, 612, 0, 0] as const;
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(...m),
      drawObject(page.node.newXObject('Scan', printed(doc, [5.5, 8.5], 100, 0.2 * n))),
      popGraphicsState(),
    );
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(360, 0, 0, 72, 18, 40),
      drawObject(page.node.newXObject('Band', band)),
      popGraphicsState(),
    );
    page.drawText(`Page ${n}`, { x: 40, y: 130, size: 10, font });
  }
  const pdf = await openPdf(await doc.save());
  try {
    for (const n of [1, 2]) {
      const page = await pdf.getPage(n);
      await scanPage(page);
      // (Bounded: an image looked for where pdf.js does not hold it would never come.)
      const kept = await Promise.race([keepImages(page, true), new Promise<'waited'>((resolve) => setTimeout(resolve, 5_000, 'waited'))]);
      page.cleanup();
      assert.notEqual(kept, 'waited', `page ${n}: its images come`);
      assert.deepEqual(
        kept === 'waited' ? kept : kept?.map((k) => [k.width, k.height]),
        [
          [550, 850],
          [1000, 200],
        ],
        `page ${n}`,
      );
    }
  } finally {
    await pdf.destroy();
  }
});
