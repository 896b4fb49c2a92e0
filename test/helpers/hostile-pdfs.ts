// Hand-built hostile PDFs: files a careless reader would spend unbounded time or memory on, or that try to
// run code in it. Each is small on the wire (well under the 8 MiB upload limit).
import { Buffer } from 'node:buffer';
import zlib from 'node:zlib';
import { rawPdf, stream, type PdfObject } from './pdfs.js';

const page = (extra: string, contents = '4 0 R') => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} ${extra} >>`;
const catalog = '<< /Type /Catalog /Pages 2 0 R >>';
const onePage = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
const helvetica = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/**
 * A zlib stream that inflates to `megabytes` MiB of `byte`: one compressed MiB, flushed so it can be
 * repeated, then an empty final block and the checksum. About 1 KB per MiB.
 */
export function zlibBomb(megabytes: number, byte = 0x20): Buffer {
  const chunk = zlib.deflateRawSync(Buffer.alloc(1 << 20, byte), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const n = BigInt(megabytes) * (1n << 20n);
  const v = BigInt(byte);
  const a = (1n + n * v) % 65521n;
  const b = (n + (v * n * (n + 1n)) / 2n) % 65521n;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array<Buffer>(megabytes).fill(chunk), Buffer.from([1, 0, 0, 0xff, 0xff]), adler]);
}

/** An embedded font program that inflates to `megabytes` MiB. */
export function fontBomb(megabytes: number): Uint8Array {
  return rawPdf([
    catalog,
    onePage,
    page('/Resources << /Font << /F1 5 0 R >> >>'),
    stream('', 'BT /F1 12 Tf 72 720 Td (Hello) Tj ET'),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Bomb /FontDescriptor 6 0 R >>',
    '<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile3 7 0 R >>',
    stream('/Subtype /Type1C /Filter /FlateDecode', zlibBomb(megabytes)),
  ]);
}

/** A page content stream that inflates to `megabytes` MiB of spaces before its one line of text. */
export function contentBomb(megabytes: number): Uint8Array {
  return rawPdf([catalog, onePage, page(`/Resources << /Font << /F1 5 0 R >> >>`), stream('/Filter /FlateDecode', zlibBomb(megabytes)), helvetica]);
}

/** A 40000×40000 greyscale image (1.6 GB decoded) covering the page. */
export function hugeImage(): Uint8Array {
  return rawPdf([
    catalog,
    onePage,
    page('/Resources << /XObject << /Im0 5 0 R >> >>'),
    stream('', 'q 612 0 0 792 0 0 cm /Im0 Do Q'),
    stream('/Type /XObject /Subtype /Image /Width 40000 /Height 40000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', zlibBomb(1526, 0x80)),
  ]);
}

/** Arrays nested `depth` deep, in the page dictionary and in the content stream. */
export function deepNesting(depth = 100_000): Uint8Array {
  const nested = '['.repeat(depth) + ']'.repeat(depth);
  return rawPdf([
    catalog,
    onePage,
    page(`/Resources << /Font << /F1 5 0 R >> >> /Deep ${nested}`),
    stream('', `BT /F1 12 Tf 72 720 Td ${nested} TJ ET`),
    helvetica,
  ]);
}

/** Dictionaries nested `depth` deep in the content stream only (the file itself reads normally). */
export function deepContent(depth = 100_000): Uint8Array {
  const nested = '<< /A '.repeat(depth) + '1' + ' >>'.repeat(depth);
  return rawPdf([
    catalog,
    onePage,
    page('/Resources << /Font << /F1 5 0 R >> >>'),
    stream('', `/Span ${nested} BDC BT /F1 12 Tf 72 720 Td (Signature: ____) Tj ET EMC`),
    helvetica,
  ]);
}

/** Cross-reference sections whose /Prev point at themselves and at each other. */
export function xrefLoop(): Uint8Array {
  // The trailer's /Prev names the offset of its own xref table, and a second (broken) one after %%EOF
  // points back to the first.
  const objects = [catalog, onePage, page('/Resources << /Font << /F1 5 0 R >> >>'), stream('', 'BT /F1 12 Tf 72 720 Td (Date: ______) Tj ET'), helvetica];
  const plain = rawPdf(objects);
  const xrefAt = Buffer.from(plain).lastIndexOf('xref\n0 ');
  return rawPdf(objects, {
    trailer: `/Prev ${xrefAt} `,
    tail: (at) => `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 6 /Root 1 0 R /Prev ${at} >>\nstartxref\n${at}\n%%EOF\n`,
  });
}

/** A page tree with `count` pages, in a balanced tree of 100 kids per node. */
export function pageTree(count = 50_000): Uint8Array {
  // 1 catalog, 2 root Pages, 3 the shared content, 4 the font; then intermediate nodes; then pages.
  const objects: PdfObject[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', stream('', 'BT /F1 12 Tf 72 720 Td (Page) Tj ET'), helvetica];
  const fanout = 100;
  const middles = Math.ceil(count / fanout);
  const firstMiddle = objects.length + 1;
  const firstPage = firstMiddle + middles;
  for (let m = 0; m < middles; m++) {
    const kids: string[] = [];
    for (let p = m * fanout; p < Math.min(count, (m + 1) * fanout); p++) kids.push(`${firstPage + p} 0 R`);
    objects.push(`<< /Type /Pages /Parent 2 0 R /Kids [${kids.join(' ')}] /Count ${kids.length} >>`);
  }
  for (let p = 0; p < count; p++) {
    const parent = firstMiddle + Math.floor(p / fanout);
    objects.push(`<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>`);
  }
  const middleRefs = Array.from({ length: middles }, (_, m) => `${firstMiddle + m} 0 R`);
  objects[1] = `<< /Type /Pages /Kids [${middleRefs.join(' ')}] /Count ${count} >>`;
  return rawPdf(objects);
}

/** A page tree whose second node lists the root among its kids. */
export function pageTreeCycle(): Uint8Array {
  return rawPdf([
    catalog,
    '<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>',
    page('/Resources << >>'),
    stream('', ''),
    helvetica,
    '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>',
  ]);
}

/** Form XObjects that draw themselves, and each other. */
export function formCycle(): Uint8Array {
  return rawPdf([
    catalog,
    onePage,
    page('/Resources << /XObject << /Fa 5 0 R /Fb 6 0 R >> /Font << /F1 7 0 R >> >>'),
    stream('', 'BT /F1 12 Tf 72 720 Td (Signature: ________) Tj ET /Fa Do /Fb Do'),
    stream('/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Fa 5 0 R /Fb 6 0 R >> >>', '0 0 m 10 0 l S /Fa Do /Fb Do'),
    stream('/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Fa 5 0 R >> >>', '/Fa Do'),
    helvetica,
  ]);
}

/**
 * Form XObjects each drawing the next one twice, `levels` deep: 2^levels drawings of the last one, with
 * no cycle for a reader to notice (an operator-list "billion laughs"). With `textPagesFirst`, that many
 * ordinary pages carrying "Signature: ____" come before it.
 */
export function formFanout(levels = 40, textPagesFirst = 0): Uint8Array {
  // 1 catalog, 2 pages, 3 font, 4 the ordinary pages' content, 5 the fan-out page, 6 its content, then
  // the forms, then the ordinary pages.
  const firstForm = 7;
  const firstText = firstForm + levels;
  const kids = [...Array.from({ length: textPagesFirst }, (_, i) => `${firstText + i} 0 R`), '5 0 R'];
  const objects: PdfObject[] = [
    catalog,
    `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${kids.length} >>`,
    helvetica,
    stream('', 'BT /F1 12 Tf 72 720 Td (Signature: ________________) Tj ET'),
    page(`/Resources << /XObject << /X ${firstForm} 0 R >> /Font << /F1 3 0 R >> >>`, '6 0 R'),
    stream('', 'BT /F1 12 Tf 72 720 Td (Date: ________________) Tj ET /X Do'),
  ];
  for (let level = 0; level < levels; level++) {
    const self = firstForm + level;
    const body = level === levels - 1 ? '0 0 m 100 0 l S' : '/X Do /X Do';
    objects.push(stream(`/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X ${self + 1} 0 R >> >>`, body));
  }
  for (let i = 0; i < textPagesFirst; i++) objects.push(page('/Resources << /Font << /F1 3 0 R >> >>'));
  return rawPdf(objects);
}

/**
 * The CVE-2024-4367 pattern: a font whose /FontMatrix carries JavaScript in a string, which pdf.js
 * before 4.2.67 pasted into generated glyph-drawing code when eval was allowed. The payload writes
 * `marker`; the page is covered by an image under its text so the detector renders it (glyphs drawn).
 */
export function fontMatrixInjection(marker: string): Uint8Array {
  const js = `1\\); globalThis.process.getBuiltinModule\\('fs'\\).writeFileSync\\(${JSON.stringify(marker).replace(/"/g, "'")}, 'x'\\); //`;
  const words = Array.from({ length: 12 }, (_, i) => `(Word${i}) Tj`).join(' ');
  return rawPdf([
    catalog,
    onePage,
    page('/Resources << /Font << /F1 5 0 R >> /XObject << /Im0 7 0 R >> >>'),
    stream('', `q 612 0 0 792 0 0 cm /Im0 Do Q BT /F1 12 Tf 72 720 Td ${words} ET`),
    `<< /Type /Font /Subtype /Type1 /BaseFont /Injected /FirstChar 32 /LastChar 126 /FontMatrix [0.001 0 0 0.001 0 (${js})] /FontDescriptor 6 0 R >>`,
    '<< /Type /FontDescriptor /FontName /Injected /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile3 8 0 R >>',
    stream('/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8', Buffer.from([200, 200, 200, 200])),
    stream('/Subtype /Type1C', Buffer.from('not a font program')),
  ]);
}

/** A trailer whose /Root names the page instead of the catalog: pdf-lib finds the catalog, pdf.js gives up. */
export function rootNotCatalog(): Uint8Array {
  const objects = [catalog, onePage, page('/Resources << /Font << /F1 5 0 R >> >>'), stream('', 'BT /F1 12 Tf 72 720 Td (Signature: ______) Tj ET'), helvetica];
  return Buffer.from(Buffer.from(rawPdf(objects)).toString('latin1').replace('/Root 1 0 R', '/Root 3 0 R'), 'latin1');
}

/** One page carrying `count` text-field widgets (about 100 bytes each), all in the form. */
export function annotationFlood(count = 60_000): Uint8Array {
  // 1 catalog, 2 pages, 3 the page, 4 its content, 5 the font, then the widgets.
  const refs = Array.from({ length: count }, (_, i) => `${6 + i} 0 R`).join(' ');
  const objects: PdfObject[] = [
    `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${refs}] >> >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots [${refs}] >>`,
    stream('', 'BT /F1 12 Tf 72 720 Td (Signature: ________________) Tj ET'),
    helvetica,
  ];
  for (let i = 0; i < count; i++) {
    const x = 20 + (i % 57) * 10;
    const y = 20 + (Math.floor(i / 57) % 75) * 10;
    objects.push(`<< /Type /Annot /Subtype /Widget /FT /Tx /T (field${i}) /P 3 0 R /Rect [${x} ${y} ${x + 9} ${y + 9}] >>`);
  }
  return rawPdf(objects);
}
