/**
 * Signature fields signed already (the field holds its signature dictionary as its value): no place to sign.
 * pdf.js gives no signature field's value, so the document's form is read with pdf-lib, once (the detection
 * child loads this module only for a document with a signature field).
 */
import { PDFDocument, PDFName, PDFSignature, ParseSpeeds } from '@cantoo/pdf-lib';
import type { Widget } from './page-model.js';

/** A filter of a page's widgets that drops the signature fields signed already in the document `bytes` (read once). */
export function unsignedWidgets(bytes: Uint8Array): (widgets: Widget[]) => Promise<Widget[]> {
  const signed = signedFieldNames(bytes);
  return async (widgets) => {
    const names = await signed;
    return names.size === 0 ? widgets : widgets.filter((w) => w.kind !== 'signature' || !names.has(w.name));
  };
}

/** The full names of the signature fields with a value; none when pdf-lib cannot read the form. */
export async function signedFieldNames(bytes: Uint8Array): Promise<Set<string>> {
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    const fields = doc.getForm().getFields();
    return new Set(fields.filter((f) => f instanceof PDFSignature && f.acroField.dict.has(PDFName.of('V'))).map((f) => f.getName()));
  } catch {
    return new Set();
  }
}
