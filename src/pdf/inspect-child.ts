// The PDF inspection child process, started by inspect.ts: parsing untrusted PDFs
// here keeps runaway time or memory away from the server, and what the parser's
// heap grew to goes back to the system with the process.
import { Buffer } from 'node:buffer';
import { PDFDocument, ParseSpeeds } from '@cantoo/pdf-lib';
import type { PDFPage } from '@cantoo/pdf-lib';
import { serveCalls, workerArguments } from '../platform/worker-entry.js';
import { displayedBox } from './page-box.js';
import { INSPECT_ENTRY, type InspectRequest, type PdfInspection, type PdfPage } from './inspect-messages.js';

// The Encrypt entry of a trailer or cross-reference stream dictionary.
const ENCRYPT_ENTRY = /\/Encrypt(?:\s+\d+\s+\d+\s+R|\s*<<)/;
const WINDOW = 4096;

/**
 * What the upload is: its pages as displayed, or why it is refused. A PDF encrypted with an empty user
 * password (an owner password restricting printing or editing, as many forms have) opens without a
 * password: it is accepted, and answered with `decrypted`, a decrypted re-saved copy to store, sign
 * and seal instead of the upload. One that needs a password to open is refused.
 */
export async function inspectPdf(bytes: Uint8Array, copy = false): Promise<PdfInspection> {
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
  if (encrypted || doc.isEncrypted) {
    // Only encryption pdf-lib finds whole (its dictionary there) can be undone.
    const decrypted = doc.isEncrypted && !copy ? await decrypt(bytes) : undefined;
    if (!decrypted) return encryptedResult();
    const inspection = await inspectPdf(decrypted, true);
    return inspection.ok ? { ...inspection, decrypted } : inspection;
  }
  try {
    const pages = doc.getPages().map(geometry);
    if (pages.length === 0) return { ok: false, reason: 'no_pages', message: 'document has no pages' };
    return { ok: true, pageCount: pages.length, pages };
  } catch (err) {
    return failure(err);
  }
}

/**
 * The document decrypted with the empty user password and saved again (RC4 and AES, 40 to 256 bits,
 * as @cantoo/pdf-lib reads them), or undefined when that password does not open it. The copy keeps
 * every page, form field and annotation; the restrictions the owner password set go with the
 * encryption.
 */
async function decrypt(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  try {
    const { PDFDocument: Decrypting, PDFDict, PDFInvalidObject, PDFName, PDFStream } = await import('@cantoo/pdf-lib');
    const doc = await Decrypting.load(bytes, { password: '', updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    if (doc.isEncrypted) return undefined;
    // The cross-reference streams and encryption dictionaries of the file read are objects like any
    // other to the parser (a cross-reference stream, never encrypted, even fails to decrypt and is
    // kept as raw bytes): the copy gets its own cross-reference table and no encryption.
    for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
      if (object instanceof PDFInvalidObject) {
        const raw = Buffer.alloc(object.sizeInBytes());
        object.copyBytesInto(raw, 0);
        if (/\/Type\s*\/XRef\b/.test(raw.toString('latin1', 0, 4096))) doc.context.delete(ref);
        continue;
      }
      const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : undefined;
      if (!dict) continue;
      const xref = dict.get(PDFName.of('Type')) === PDFName.of('XRef');
      const security = dict.get(PDFName.of('Filter')) === PDFName.of('Standard') && dict.has(PDFName.of('O')) && dict.has(PDFName.of('U'));
      if (xref || security) doc.context.delete(ref);
    }
    return await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  } catch {
    return undefined;
  }
}

function encryptedResult(): PdfInspection {
  return {
    ok: false,
    reason: 'encrypted',
    message: 'document is encrypted with a password needed to open it; remove the password and upload it again',
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

// The page as displayed, in points.
function geometry(page: PDFPage): PdfPage {
  const { box, rotation } = displayedBox(page);
  const width = round(box.x1 - box.x0);
  const height = round(box.y1 - box.y0);
  return rotation === 90 || rotation === 270 ? { width: height, height: width, rotation } : { width, height, rotation };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

if (workerArguments(INSPECT_ENTRY)) {
  // pdf-lib reports recoverable damage on the console; the answer says enough.
  console.warn = () => {};
  console.log = () => {};
  // The server may send the next document while this one is read: documents are read one after
  // the other, in the order they came, and answered in that order.
  serveCalls<InspectRequest, PdfInspection>({ call: (request) => inspectPdf(request.bytes).catch(failure) });
}
