// In-memory PDFs for tests.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { PDFDocument, PDFName, PDFNumber, StandardFonts, degrees, rgb } from '@cantoo/pdf-lib';

export interface PageSpec {
  width: number;
  height: number;
  /** Written verbatim as /Rotate, so -90 or 450 stay as they are. */
  rotate?: number;
  cropBox?: { x: number; y: number; width: number; height: number };
  /** /UserUnit: the page's unit in 1/72 inch (fields are given in the page's own units). */
  userUnit?: number;
}

export async function makePdf(pages: PageSpec[] = [{ width: 595.28, height: 841.89 }], options: { text?: string } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  pages.forEach((spec, i) => {
    const page = doc.addPage([spec.width, spec.height]);
    if (spec.rotate !== undefined) page.setRotation(degrees(spec.rotate));
    if (spec.cropBox) page.setCropBox(spec.cropBox.x, spec.cropBox.y, spec.cropBox.width, spec.cropBox.height);
    if (spec.userUnit !== undefined) page.node.set(PDFName.of('UserUnit'), PDFNumber.of(spec.userUnit));
    const text = `${options.text ?? 'Test document'} (page ${i + 1} of ${pages.length})`;
    page.drawText(text, { x: 36, y: spec.height - 48, size: 12, font });
  });
  return doc.save({ useObjectStreams: false });
}

/** The first `n` bytes, as a copy (a negative `n` drops that many from the end). */
export function truncate(bytes: Uint8Array, n: number): Uint8Array {
  return Uint8Array.from(bytes.subarray(0, n));
}

// pdf-lib cannot encrypt, so this builds a real standard-security-handler file
// (RC4 40-bit, revision 2). With the empty user password (the default) readers
// open it without a prompt but still treat it as encrypted; with a user password
// they ask for it.
const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const padded = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);
const md5 = (...parts: Uint8Array[]) => createHash('md5').update(Buffer.concat(parts)).digest();

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

export function makeEncryptedPdf(options: { userPassword?: string } = {}): Uint8Array {
  const user = padded(options.userPassword ?? '');
  const id = md5(Buffer.from('paraph encrypted fixture'));
  const permissions = -4;
  const owner = rc4(md5(padded('owner-secret')).subarray(0, 5), user);
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const fileKey = md5(user, owner, p, id).subarray(0, 5);
  const check = rc4(fileKey, PAD);
  const objectKey = (num: number) => md5(fileKey, Buffer.from([num & 255, (num >> 8) & 255, num >> 16, 0, 0])).subarray(0, 10);
  const content = rc4(objectKey(4), Buffer.from('BT /F1 18 Tf 72 720 Td (Secret document) Tj ET'));

  const hex = (b: Uint8Array) => `<${Buffer.from(b).toString('hex')}>`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream('', content),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Filter /Standard /V 1 /R 2 /O ${hex(owner)} /U ${hex(check)} /P ${permissions} >>`,
  ];
  return rawPdf(objects, { version: '1.4', trailer: `/Encrypt 6 0 R /ID [${hex(id)} ${hex(id)}] ` });
}

/** An object's body: PDF syntax as text, or bytes (a stream with binary data). */
export type PdfObject = string | Buffer;

/**
 * A PDF of `objects` (object n is objects[n - 1]) with a classic cross-reference table; `trailer` adds
 * entries to the trailer dictionary, `tail` writes bytes after %%EOF (given where the xref table is).
 */
export function rawPdf(objects: PdfObject[], options: { version?: string; trailer?: string; tail?: (xrefAt: number) => string } = {}): Uint8Array {
  const chunks: Buffer[] = [Buffer.from(`%PDF-${options.version ?? '1.7'}\n%\xe2\xe3\xcf\xd3\n`, 'latin1')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const bytes = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(o) ? o : Buffer.from(o, 'latin1'), Buffer.from('\nendobj\n')]);
    chunks.push(bytes);
    length += bytes.length;
  });
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  const trailer = `<< /Size ${objects.length + 1} /Root 1 0 R ${options.trailer ?? ''}>>`;
  const tail = options.tail?.(length) ?? '';
  chunks.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n${trailer}\nstartxref\n${length}\n%%EOF\n${tail}`, 'latin1'));
  return new Uint8Array(Buffer.concat(chunks));
}

/** A stream object: `dict` entries besides /Length, then the bytes. */
export function stream(dict: string, bytes: PdfObject): Buffer {
  const data = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'latin1');
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
}

/** A line of text on a page: its left edge and its baseline from the page's top, in points. */
export interface TextLine {
  text: string;
  x: number;
  baseline: number;
  size: number;
}

/**
 * A one-page Letter PDF of `lines` and level `rules` (from the page's top), its text written either as
 * text (`as: 'text'`) or drawn as the letters' outlines with no text layer (`as: 'outlines'`), as some
 * "print to PDF" drivers and design tools save pages: the same page, seen by a reader, both ways.
 */
export async function linesPdf(lines: TextLine[], rules: Array<{ x0: number; x1: number; y: number }>, as: 'text' | 'outlines'): Promise<Uint8Array> {
  const { default: fontkit } = await import('@pdf-lib/fontkit');
  const { readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const fontFile = createRequire(import.meta.url).resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf');
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const bytes = readFileSync(fontFile);
  const page = doc.addPage([612, 792]);
  const embedded = await doc.embedFont(bytes);
  const glyphs = fontkit.create(bytes) as unknown as {
    unitsPerEm: number;
    layout(text: string): {
      glyphs: Array<{ path: { scale(x: number, y: number): { translate(x: number, y: number): { toSVG(): string } } } }>;
      positions: Array<{ xAdvance: number }>;
    };
  };
  for (const line of lines) {
    if (as === 'text') {
      page.drawText(line.text, { x: line.x, y: 792 - line.baseline, size: line.size, font: embedded });
      continue;
    }
    const run = glyphs.layout(line.text);
    const k = line.size / glyphs.unitsPerEm;
    let pen = 0;
    run.glyphs.forEach((glyph, i) => {
      const d = glyph.path
        .scale(k, -k)
        .translate(pen * k, 0)
        .toSVG();
      if (d) page.drawSvgPath(d, { x: line.x, y: 792 - line.baseline, color: rgb(0, 0, 0) });
      pen += run.positions[i]?.xAdvance ?? 0;
    });
  }
  for (const r of rules) page.drawLine({ start: { x: r.x0, y: 792 - r.y }, end: { x: r.x1, y: 792 - r.y }, thickness: 1 });
  return doc.save({ useObjectStreams: false });
}
