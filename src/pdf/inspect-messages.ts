/** What the server and the PDF inspection child (inspect-child.ts) say to each other. */

export interface PdfPage {
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
}

export type PdfInspection =
  /**
   * `decrypted`: the upload was encrypted with an empty user password (it opens without one); this is
   * its decrypted re-saved copy, the document to keep instead of the upload.
   */
  | { ok: true; pageCount: number; pages: PdfPage[]; decrypted?: Uint8Array }
  | { ok: false; reason: 'not_pdf' | 'incomplete' | 'encrypted' | 'unreadable' | 'no_pages' | 'too_complex'; message: string };

/** One document to read; the answer is its PdfInspection. */
export interface InspectRequest {
  bytes: Uint8Array;
}

/** The entry module the inspection child runs. */
export const INSPECT_ENTRY = 'pdf/inspect-child';
