/**
 * The detection child's warm-up. A process started ahead of documents (detect.ts: the one that follows a
 * replaced child, the successor started while a child reads a document it is replaced after, or the first one
 * when a request is made without fields) reads a small
 * document of its own while none waits: the first real document then does not pay for compiling what reading
 * it takes (pdf.js's parser and JPEG decoder, the text pass, the render of a scan's lines, the rules). A
 * document that comes meanwhile stops the warm-up at its next page and waits for that page alone.
 */
import type { DetectJob } from '../detect-messages.js';

/** What the warm-up is read with: `afterPage` runs after each page read, and throws to stop the reading. */
export type WarmRead = (bytes: Uint8Array, job: Omit<DetectJob, 'bytes'>, afterPage: () => void) => Promise<unknown>;

const JOB: Omit<DetectJob, 'bytes'> = { maxPages: 2, ocr: true, languages: [], deadlineMs: 10_000 };

/** Reads the warm-up document with `read` until it is read or `stop` says a document came; never fails. */
export async function warmUp(read: WarmRead, stop: () => boolean): Promise<void> {
  const stopped = new Error('a document came');
  try {
    const bytes = await warmUpDocument();
    if (stop()) return;
    await read(bytes, JOB, () => {
      if (stop()) throw stopped;
    });
  } catch {
    // Stopped, or something the warm-up needs is missing: the first document loads it, as without a warm-up.
  }
}

/**
 * Two A4 pages: text with a signature line, a date blank and a box; and a scan with a text layer (a JPEG
 * with ruled lines under 48 typed words, in rows down the page), whose lines are found in its image. Without the canvas (no OCR)
 * the second page is left out: nothing would render it. Written here, object by object (pdf-lib is not
 * installed with paraph).
 */
export async function warmUpDocument(): Promise<Uint8Array> {
  const jpeg = await scanImage();
  const font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  const text = 'BT /F1 10 Tf 72 142 Td (Signature) Tj ET 0.7 w 130 140 m 300 140 l S BT /F1 10 Tf 320 142 Td (Date: ______________) Tj ET 72 202 200 40 re S';
  const rows = Array.from({ length: 4 }, (_, row) => Array.from({ length: 12 }, (_, i) => `word${row * 12 + i}`).join(' '));
  // (Rows down the page: typed words within a band of it would be a form's answers, a scan OCR reads: page-kinds.ts.)
  const typed = `q 595.28 0 0 841.89 0 0 cm /Im1 Do Q BT /F1 9 Tf 40 780 Td ${rows.map((r) => `(${r}) Tj 0 -200 Td`).join(' ')} ET`;
  const page = (resources: string, contents: number) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595.28 841.89] /Resources ${resources} /Contents ${contents} 0 R >>`;
  const objects: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [3 0 R${jpeg ? ' 6 0 R' : ''}] /Count ${jpeg ? 2 : 1} >>`,
    page('<< /Font << /F1 4 0 R >> >>', 5),
    font,
    streamOf('', Buffer.from(text, 'latin1')),
  ];
  if (jpeg) {
    objects.push(
      page('<< /Font << /F1 4 0 R >> /XObject << /Im1 7 0 R >> >>', 8),
      streamOf(
        `/Type /XObject /Subtype /Image /Width ${SCAN.width} /Height ${SCAN.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode`,
        jpeg,
      ),
      streamOf('', Buffer.from(typed, 'latin1')),
    );
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  for (const [i, body] of objects.entries()) {
    offsets.push(length);
    const part = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
    parts.push(part);
    length += part.length;
  }
  const xref = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}

/** A stream object with `entries` in its dictionary. */
function streamOf(entries: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${entries} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
}

/** The scan's image, in pixels. */
const SCAN = { width: 620, height: 877 };

/** A page-sized light JPEG with three ruled lines, or undefined without the canvas. */
async function scanImage(): Promise<Buffer | undefined> {
  let canvasModule: typeof import('@napi-rs/canvas');
  try {
    canvasModule = await import('@napi-rs/canvas');
  } catch {
    return undefined;
  }
  const canvas = canvasModule.createCanvas(SCAN.width, SCAN.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#f4f4f4';
  context.fillRect(0, 0, SCAN.width, SCAN.height);
  context.fillStyle = '#202020';
  for (const y of [560, 640, 720]) context.fillRect(60, y, 240, 2);
  return canvas.toBuffer('image/jpeg');
}
