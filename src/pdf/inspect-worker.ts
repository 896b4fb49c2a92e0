// Runs inside a worker_threads Worker started by inspect.ts: parsing untrusted
// PDFs here keeps runaway time or memory away from the server's own thread.
import { Buffer } from 'node:buffer';
import { parentPort } from 'node:worker_threads';
import { PDFArray, PDFDocument, PDFName, PDFNumber, ParseSpeeds } from 'pdf-lib';
import type { PDFObject, PDFPage } from 'pdf-lib';
import type { PdfInspection, PdfPage } from './inspect.js';

export interface WorkerRequest { id: number; bytes: Uint8Array }
export type WorkerReply = { type: 'ready' } | { type: 'result'; id: number; result: PdfInspection };

// What readers assume when a page has no usable MediaBox (US Letter).
const DEFAULT_BOX: Box = { x0: 0, y0: 0, x1: 612, y1: 792 };
// The Encrypt entry of a trailer or cross-reference stream dictionary.
const ENCRYPT_ENTRY = /\/Encrypt(?:\s+\d+\s+\d+\s+R|\s*<<)/;
const WINDOW = 4096;

interface Box { x0: number; y0: number; x1: number; y1: number }

export async function inspectPdf(bytes: Uint8Array): Promise<PdfInspection> {
  const encrypted = declaresEncryption(bytes);
  let doc: PDFDocument;
  try {
    // Encryption is checked below instead, so that it is reported even when
    // the rest of the file is damaged.
    doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      parseSpeed: ParseSpeeds.Fastest,
    });
  } catch (err) {
    return encrypted ? encryptedResult() : failure(err);
  }
  if (encrypted || doc.isEncrypted) return encryptedResult();
  try {
    const pages = doc.getPages().map(geometry);
    if (pages.length === 0) return { ok: false, reason: 'no_pages', message: 'document has no pages' };
    return { ok: true, pageCount: pages.length, pages };
  } catch (err) {
    return failure(err);
  }
}

function encryptedResult(): PdfInspection {
  return {
    ok: false,
    reason: 'encrypted',
    message: 'document is encrypted (password-protected); remove the protection and upload it again',
  };
}

function failure(err: unknown): PdfInspection {
  // Deep nesting (or a cyclic page tree) overflows the parser's recursion.
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return { ok: false, reason: 'too_complex', message: 'document is too complex to inspect (structure nested too deeply)' };
  }
  return { ok: false, reason: 'unreadable', message: 'document is damaged or malformed and cannot be read as a PDF' };
}

// pdf-lib only sees the trailer it manages to parse; scan the raw trailers and
// cross-reference stream dictionaries too, without decoding the whole file.
function declaresEncryption(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (start: number, end: number) => buf.toString('latin1', Math.max(0, start), Math.min(buf.length, end));
  for (let at = buf.indexOf('trailer'); at !== -1; at = buf.indexOf('trailer', at + 7)) {
    if (ENCRYPT_ENTRY.test(text(at, at + WINDOW).split('startxref')[0] ?? '')) return true;
  }
  for (let at = buf.indexOf('/XRef'); at !== -1; at = buf.indexOf('/XRef', at + 5)) {
    const before = text(at - WINDOW, at);
    const after = text(at, at + WINDOW);
    const dict = before.slice(before.lastIndexOf('obj') + 1) + (after.split('stream')[0] ?? '');
    if (ENCRYPT_ENTRY.test(dict)) return true;
  }
  return false;
}

// The page as displayed: CropBox clipped to the MediaBox, then /Rotate.
function geometry(page: PDFPage): PdfPage {
  const media = readBox(page, 'MediaBox') ?? DEFAULT_BOX;
  const crop = readBox(page, 'CropBox');
  const box = crop ? intersect(crop, media) ?? media : media;
  const rotation = readRotation(page);
  const width = round(box.x1 - box.x0);
  const height = round(box.y1 - box.y0);
  return rotation === 90 || rotation === 270 ? { width: height, height: width, rotation } : { width, height, rotation };
}

// Inheritable attributes are looked up by hand: pdf-lib's accessors throw on a
// wrongly typed value, where readers fall back to the default.
function inherited(page: PDFPage, key: string): PDFObject | undefined {
  return page.doc.context.lookup(page.node.getInheritableAttribute(PDFName.of(key)));
}

function readBox(page: PDFPage, key: string): Box | undefined {
  const array = inherited(page, key);
  if (!(array instanceof PDFArray) || array.size() !== 4) return undefined;
  const n: number[] = [];
  for (let i = 0; i < 4; i++) {
    const value = array.lookup(i);
    if (!(value instanceof PDFNumber) || !Number.isFinite(value.asNumber())) return undefined;
    n.push(value.asNumber());
  }
  const [a = 0, b = 0, c = 0, d = 0] = n;
  const box = { x0: Math.min(a, c), y0: Math.min(b, d), x1: Math.max(a, c), y1: Math.max(b, d) };
  return box.x1 > box.x0 && box.y1 > box.y0 ? box : undefined;
}

function intersect(a: Box, b: Box): Box | undefined {
  const box = { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
  return box.x1 > box.x0 && box.y1 > box.y0 ? box : undefined;
}

function readRotation(page: PDFPage): PdfPage['rotation'] {
  const value = inherited(page, 'Rotate');
  const angle = value instanceof PDFNumber ? value.asNumber() : 0;
  // Readers ignore angles that are not a multiple of 90.
  if (!Number.isInteger(angle) || angle % 90 !== 0) return 0;
  return (((angle % 360) + 360) % 360) as PdfPage['rotation'];
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

const port = parentPort;
if (port) {
  // pdf-lib reports recoverable damage on the console; the answer says enough.
  console.warn = () => {};
  console.log = () => {};
  port.on('message', (req: WorkerRequest) => {
    void inspectPdf(req.bytes)
      .catch(failure)
      .then((result) => port.postMessage({ type: 'result', id: req.id, result } satisfies WorkerReply));
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}
