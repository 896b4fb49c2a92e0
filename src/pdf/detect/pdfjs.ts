/**
 * pdf.js in the detection child: the legacy build paraph ships in dist/vendor/ (src/platform/vendored.ts),
 * loaded when the child starts. Its types are pdfjs-dist's.
 */
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDFJS_MODULE_URL } from '../../platform/vendored.js';

export type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

const pdfjs = (await import(PDFJS_MODULE_URL)) as typeof PdfJs;
export const { AnnotationMode, OPS, Util, getDocument } = pdfjs;
