/** PDFs the benches upload or seal, built at run time: a 1-page text PDF or one of a chosen size. */
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

/** The API's upload limit (README: at most 8388608 bytes). */
export const MAX_UPLOAD_BYTES = 8 * 2 ** 20;

/** A PNG of random pixels: incompressible, so a few of them make a PDF of a chosen size. */
export function noisePng(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) randomBytes(width * 3).copy(raw, y * (width * 3 + 1) + 1);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1-page text PDF, or 3 A4 pages each carrying a photo-like image, about `targetBytes` in all. */
export async function benchPdf(targetBytes: number | null): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = targetBytes === null ? 1 : 3;
  for (let i = 0; i < pages; i += 1) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Bench document, page ${i + 1} of ${pages}`, { x: 50, y: 790, size: 14, font });
    if (targetBytes !== null) {
      const side = Math.floor(Math.sqrt(targetBytes / pages / 3));
      page.drawImage(await doc.embedPng(noisePng(side, side)), { x: 50, y: 200, width: 495, height: 495 });
    }
  }
  return doc.save();
}

/** A PDF of about `targetBytes` that stays under the upload limit. */
export async function sizedPdf(targetBytes: number): Promise<Uint8Array> {
  const pdf = await benchPdf(targetBytes);
  if (pdf.length > MAX_UPLOAD_BYTES) throw new Error(`the bench PDF is ${pdf.length} bytes, over the 8 MiB limit`);
  return pdf;
}

export const mib = (bytes: number) => bytes / 2 ** 20;
