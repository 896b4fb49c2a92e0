import { createHash } from 'node:crypto';
import { ANNOTATION_FLAGS, DEFAULT_BYTE_RANGE_PLACEHOLDER, findByteRange, SIG_FLAGS, SignPdfError, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { PDFArray, PDFDict, PDFHexString, PDFInvalidObject, PDFName, PDFNumber, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
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
  const { context } = doc;
  const page = doc.getPages()[0];
  if (!page) throw new SignPdfError('the document has no page to hold the seal', SignPdfError.TYPE_INPUT);
  // /ByteRange's last three numbers and /Contents are written by sealPdf once the bytes are saved.
  const byteRange = PDFArray.withContext(context);
  byteRange.push(PDFNumber.of(0));
  for (let i = 0; i < 3; i++) byteRange.push(PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER));
  const signature = context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: SUBFILTER_ETSI_CADES_DETACHED,
    ByteRange: byteRange,
    Contents: PDFHexString.of('\0'.repeat(room)),
    Reason: PDFString.of('Sealed on completion by the sandbox test certificate (TEST ONLY, no legal value)'),
    M: PDFString.fromDate(at),
    ContactInfo: PDFString.of(''),
    Name: PDFString.of(signerName),
    Location: PDFString.of('paraph sandbox'),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' }, App: { Name: 'paraph' } },
  });
  // Written as it is, never packed into an object stream: sealPdf finds its placeholders in the bytes.
  const bytes = new Uint8Array(signature.sizeInBytes());
  signature.copyBytesInto(bytes, 0);
  const signatureRef = context.register(PDFInvalidObject.of(bytes));
  // The invisible widget of the signature field, on the first page.
  const rect = [0, 0, 0, 0];
  const widget = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: rect,
      V: signatureRef,
      T: PDFString.of('Signature1'),
      F: ANNOTATION_FLAGS.PRINT,
      P: page.ref,
      AP: { N: context.register(context.formXObject([], { BBox: rect, Resources: {} })) },
    }),
  );
  const annotations = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray) ?? context.obj([]);
  annotations.push(widget);
  page.node.set(PDFName.of('Annots'), annotations);
  let form = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  if (!form) {
    form = context.obj({ Fields: [] });
    doc.catalog.set(PDFName.of('AcroForm'), context.register(form));
  }
  const flags = form.get(PDFName.of('SigFlags'));
  const before = flags instanceof PDFNumber ? flags.asNumber() : 0;
  form.set(PDFName.of('SigFlags'), PDFNumber.of(before | SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY));
  let fields = form.get(PDFName.of('Fields'));
  if (!(fields instanceof PDFArray)) {
    fields = context.obj([]);
    form.set(PDFName.of('Fields'), fields);
  }
  (fields as PDFArray).push(widget);
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
