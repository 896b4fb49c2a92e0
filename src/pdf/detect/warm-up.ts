/**
 * The detection child's warm-up. A process started ahead of documents (detect.ts: the one that follows a
 * replaced child, or the successor started while a child reads a document it is replaced after) reads a small
 * document of its own while none waits: the first real document then does not pay for compiling what reading
 * it takes (pdf.js's parser and JPEG decoder, the text pass, the render of a scan's lines, the rules). A
 * document that comes meanwhile stops the warm-up at its next page and waits for that page alone.
 */
import { createRequire } from 'node:module';
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
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
 * with ruled lines under 48 typed words), whose lines are found in its image. Without the canvas (no OCR)
 * the second page is left out: nothing would render it.
 */
export async function warmUpDocument(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const text = doc.addPage([595.28, 841.89]);
  text.drawText('Signature', { x: 72, y: 700, size: 10, font });
  text.drawLine({ start: { x: 130, y: 698 }, end: { x: 300, y: 698 }, thickness: 0.7, color: rgb(0, 0, 0) });
  text.drawText('Date: ______________', { x: 320, y: 700, size: 10, font });
  text.drawRectangle({ x: 72, y: 600, width: 200, height: 40, borderWidth: 0.7, borderColor: rgb(0, 0, 0) });
  const jpeg = await scanImage();
  if (jpeg) {
    const scan = doc.addPage([595.28, 841.89]);
    scan.drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: 595.28, height: 841.89 });
    const words = Array.from({ length: 48 }, (_, i) => `word${i}`);
    for (let row = 0; row < 4; row++) scan.drawText(words.slice(row * 12, row * 12 + 12).join(' '), { x: 40, y: 780 - row * 14, size: 9, font });
  }
  return doc.save();
}

/** A page-sized grey JPEG with three ruled lines, or undefined without the canvas. */
async function scanImage(): Promise<Uint8Array | undefined> {
  let canvasModule: typeof import('@napi-rs/canvas');
  try {
    createRequire(import.meta.url).resolve('@napi-rs/canvas');
    canvasModule = await import('@napi-rs/canvas');
  } catch {
    return undefined;
  }
  const canvas = canvasModule.createCanvas(620, 877);
  const context = canvas.getContext('2d');
  context.fillStyle = '#f4f4f4';
  context.fillRect(0, 0, 620, 877);
  context.fillStyle = '#202020';
  for (const y of [560, 640, 720]) context.fillRect(60, y, 240, 2);
  return canvas.toBuffer('image/jpeg');
}
