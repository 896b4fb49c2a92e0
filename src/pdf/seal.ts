import { createHash } from 'node:crypto';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { findByteRange, SignPdfError, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { PDFDocument } from 'pdf-lib';
import { cadesDetachedSignature, cadesTimestampedSignature, type CmsSigner, type SignatureTimestamper } from './cms.js';

/**
 * Room for the CMS in /Contents: a 2048-bit signature and one certificate take about 1.5 KB, the
 * built-in authority's token as much again. An external authority's token may carry a chain of
 * certificates: twice the room then.
 */
export const SIGNATURE_BYTES = 8192;
export const SIGNATURE_BYTES_EXTERNAL_TSA = 16384;

/**
 * Adds the signature field and dictionary (SubFilter ETSI.CAdES.detached, time in /M) for one
 * invisible seal. Save the document once after this, then `sealPdf` the bytes: any rewrite after the
 * signature would break it.
 */
export function addSealPlaceholder(doc: PDFDocument, at: Date, signerName: string, room: number = SIGNATURE_BYTES): void {
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: 'Sealed on completion by the sandbox test certificate (TEST ONLY, no legal value)',
    contactInfo: '',
    name: signerName,
    location: 'paraph sandbox',
    signingTime: at,
    signatureLength: room,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'paraph',
  });
}

/**
 * Fills the placeholder: /ByteRange over the whole file but /Contents, then the CMS into /Contents
 * (PAdES B-T when `stamp` timestamps the signature value, B-B without). The bytes @signpdf's SignPdf
 * makes, written into `bytes` itself (which the caller gives up): SignPdf copies the whole document
 * four times, 32 MiB more for a 7.9 MiB one. Answers the signed file, `bytes` without a trailing newline.
 */
export async function sealPdf(bytes: Uint8Array, signer: CmsSigner, stamp?: SignatureTimestamper): Promise<Buffer> {
  const pdf = withoutTrailingNewLine(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const { byteRangePlaceholder, byteRangePlaceholderPosition } = findByteRange(pdf);
  if (!byteRangePlaceholder || byteRangePlaceholderPosition === undefined) {
    throw new SignPdfError('No ByteRangeStrings found within PDF buffer.', SignPdfError.TYPE_PARSE);
  }
  const byteRangeEnd = byteRangePlaceholderPosition + byteRangePlaceholder.length;
  const placeholderPos = pdf.indexOf('<', pdf.indexOf('/Contents ', byteRangeEnd));
  const placeholderEnd = pdf.indexOf('>', placeholderPos);
  const placeholderLength = placeholderEnd - 1 - placeholderPos;
  const byteRange = [0, placeholderPos, placeholderEnd + 1, pdf.length - (placeholderEnd + 1)] as const;
  const actualByteRange = `/ByteRange [${byteRange.join(' ')}]`;
  // Padded with spaces to the placeholder's length (a longer one throws, as in SignPdf).
  pdf.write(actualByteRange + ' '.repeat(byteRangePlaceholder.length - actualByteRange.length), byteRangePlaceholderPosition, 'latin1');
  const digest = createHash('sha256').update(pdf.subarray(0, byteRange[1])).update(pdf.subarray(byteRange[2])).digest();
  const raw = await (stamp ? cadesTimestampedSignature(digest, signer, stamp) : cadesDetachedSignature(digest, signer));
  if (raw.length * 2 > placeholderLength) {
    throw new SignPdfError(`Signature exceeds placeholder length: ${raw.length * 2} > ${placeholderLength}`, SignPdfError.TYPE_INPUT);
  }
  // Hex, padded with zeroes to the placeholder's length, between its brackets.
  pdf.write(raw.toString('hex').padEnd(placeholderLength, '0'), placeholderPos + 1, 'latin1');
  return pdf;
}

/** As @signpdf takes a PDF: without a trailing newline, and ending with an EOF line. */
function withoutTrailingNewLine(pdf: Buffer): Buffer {
  let output = pdf;
  if (output.at(-1) === 0x0a) output = output.subarray(0, -1);
  if (output.at(-1) === 0x0d) output = output.subarray(0, -1);
  const lastLine = output.toString('latin1', output.length - 6);
  if (lastLine !== '\n%%EOF' && lastLine !== '\r%%EOF') throw new SignPdfError('A PDF file must end with an EOF line.', SignPdfError.TYPE_PARSE);
  return output;
}
