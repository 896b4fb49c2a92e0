import { PDFArray, PDFDict, PDFName, PDFRef, type PDFDocument } from '@cantoo/pdf-lib';

/**
 * The original's form fields drawn into its pages, values kept, before the stamps and the seal: a
 * signed PDF is not a fillable form. pdf-lib draws each widget's appearance into its page and drops
 * the fields; a form it cannot flatten (a broken field tree, an appearance it cannot make) loses its
 * widgets and its AcroForm instead, so nothing stays live over the stamped values. A field whose
 * widgets sit on a page but which the form does not list (a signature field some tools leave outside
 * `/AcroForm`, or a document without one) is taken into the form first, and flattened with the others:
 * a signature the original carried never stays beside paraph's seal.
 */
export function flattenForm(doc: PDFDocument): void {
  const strays = strayFields(doc);
  if (!doc.catalog.has(PDFName.of('AcroForm')) && strays.length === 0) return;
  try {
    if (strays.length > 0) {
      const fields = doc.getForm().acroForm.Fields() ?? adoptFieldsArray(doc);
      for (const ref of strays) fields.push(ref);
    }
    doc.getForm().flatten();
  } catch {
    // Not flattened: the widgets go below, with their values.
  }
  dropWidgets(doc);
  doc.catalog.delete(PDFName.of('AcroForm'));
}

/** An empty `/Fields` array set on the form (created by pdf-lib when the document had none). */
function adoptFieldsArray(doc: PDFDocument): PDFArray {
  const fields = doc.context.obj([]);
  doc.getForm().acroForm.dict.set(PDFName.of('Fields'), fields);
  return fields;
}

/**
 * The top fields (followed up `/Parent`) of the widgets on the pages that the form's `/Fields` tree
 * does not reach, by reference: only fields (with `/FT` on them or a parent), never a bare annotation.
 */
function strayFields(doc: PDFDocument): PDFRef[] {
  const listed = new Set<PDFRef>();
  const acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const top = acroForm?.lookupMaybe(PDFName.of('Fields'), PDFArray);
  for (let i = 0; top && i < top.size(); i++) {
    const ref = top.get(i);
    if (ref instanceof PDFRef) listed.add(ref);
  }
  const strays: PDFRef[] = [];
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    for (let i = 0; annots && i < annots.size(); i++) {
      const annot = annots.get(i);
      if (!(annot instanceof PDFRef)) continue;
      const widget = doc.context.lookup(annot);
      if (!(widget instanceof PDFDict) || widget.get(PDFName.of('Subtype')) !== PDFName.of('Widget')) continue;
      if (!widget.has(PDFName.of('FT')) && !widget.has(PDFName.of('Parent'))) continue;
      // Up the field tree to its top, a few levels at most (a loop in a broken tree ends here too).
      let ref: PDFRef = annot;
      let dict: PDFDict = widget;
      for (let depth = 0; depth < 32; depth++) {
        const parent = dict.get(PDFName.of('Parent'));
        if (!(parent instanceof PDFRef)) break;
        const up = doc.context.lookup(parent);
        if (!(up instanceof PDFDict)) break;
        ref = parent;
        dict = up;
      }
      if (dict.has(PDFName.of('FT')) && !listed.has(ref) && !strays.includes(ref)) strays.push(ref);
    }
  }
  return strays;
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
