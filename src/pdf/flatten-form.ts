import { PDFName, type PDFDocument } from '@cantoo/pdf-lib';

/**
 * The original's form fields drawn into its pages, values kept, before the stamps and the seal: a
 * signed PDF is not a fillable form. pdf-lib draws each widget's appearance into its page and drops
 * the fields; a form it cannot flatten (a broken field tree, an appearance it cannot make) loses its
 * widgets and its AcroForm instead, so nothing stays live over the stamped values.
 */
export function flattenForm(doc: PDFDocument): void {
  if (!doc.catalog.has(PDFName.of('AcroForm'))) return;
  try {
    doc.getForm().flatten();
  } catch {
    // Not flattened: the widgets go below, with their values.
  }
  dropWidgets(doc);
  doc.catalog.delete(PDFName.of('AcroForm'));
}

/** Removes every widget annotation left on the pages (other annotations, links and notes, stay). */
function dropWidgets(doc: PDFDocument): void {
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    if (!annots) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const annot = doc.context.lookup(annots.get(i));
      const subtype = annot && 'get' in annot ? (annot as { get(n: PDFName): unknown }).get(PDFName.of('Subtype')) : undefined;
      if (subtype === PDFName.of('Widget')) annots.remove(i);
    }
  }
}
