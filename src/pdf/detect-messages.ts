/** What the server (detect.ts) and the field-detection child (detect-child.ts) say to each other. */
import type { Analysis, PageDone } from './detect/analysis.js';
import type { OcrLanguage } from './detect/ocr-languages.js';

export interface DetectJob {
  bytes: Uint8Array;
  /** Pages beyond this many are not analysed. */
  maxPages: number;
  ocr: boolean;
  /** Languages to try first on scanned pages (from the signers' locales). */
  languages: OcrLanguage[];
  /**
   * The analysis answers with what it has read after this many milliseconds: a page pdf.js is still
   * reading then is left out, a scanned page OCR is still reading stays unread. The parent kills the
   * job a little later.
   */
  deadlineMs: number;
  /**
   * A scanned page whose text pass (its image decoded) and OCR (rendering included) would take longer than this many milliseconds on an idle
   * machine (wall-clock time counted in full while the process gets a core for each OCR worker reading, in
   * part when it gets less) is cut short (default 2500; a machine busy with other work cuts it at four times
   * as long at the latest): it stays unread, its OCR is stopped, the next page is read, and the answer is partial. (Text pages take tens of milliseconds; only the analysis's deadline bounds them.)
   */
  pageMs?: number;
  /**
   * When the server asked for the document (`Date.now()`), given when no other document was being read or waiting: the
   * time until the child took it (its start, after a child replaced; the end of its warm-up's page) counts against the
   * first page with a time limit, up to a third of that limit, so that the first document after a child's start is no
   * slower than the others.
   */
  askedAt?: number;
}

/** Told as the analysis goes: the document's page count, then each page when read (again after OCR). */
export type DetectProgress = { type: 'opened'; pageCount: number; ocrStatus: Analysis['ocrStatus'] } | { type: 'page'; done: PageDone };

export type DetectReply = { ok: true; analysis: Analysis } | { ok: false; message: string };

/** The entry module the detection child runs; its one argument is where tesseract.js may cache language models. */
export const DETECT_ENTRY = 'pdf/detect-child';
