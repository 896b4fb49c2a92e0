/**
 * pdf.js in the detection child: the legacy build paraph ships in dist/vendor/ (src/platform/vendored.ts),
 * loaded when the child starts. Its types are pdfjs-dist's.
 */
import path from 'node:path';
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDFJS_BUILD_DIR, PDFJS_MODULE_URL } from '../../platform/vendored.js';

export type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

const pdfjs = (await import(PDFJS_MODULE_URL)) as typeof PdfJs;
// pdf.js in Node parses in this thread ("fake worker"), loading its 2.3 MB worker module at the first document unless
// it is there already: loaded with the child, before it says it is ready, a process started ahead of a document
// (supervised-worker.ts, startAhead) has it when the document comes.
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(new URL(`file://${path.join(PDFJS_BUILD_DIR, 'pdf.worker.mjs')}`).href);
export const { AnnotationMode, OPS, Util, getDocument } = pdfjs;
