/**
 * What a field detection finds, page by page, and the whole analysis put together from those pages.
 * The detection child sends each page as soon as it is read (and again once OCR has read it), so that
 * when the child has to be stopped at the time limit the pages it had read still make an answer.
 * No side effects: imported by both the child and the server.
 */
import type { OcrLanguage } from './ocr-languages.js';
import type { Suggestion } from './suggest-fields.js';

export interface PageGeometry {
  page: number;
  width: number;
  height: number;
  rotation: number;
}

export interface PageDone {
  page: PageGeometry;
  suggestions: Suggestion[];
  /** `text`: a text layer (a scan with a text layer too); `scanned`: a page for OCR; `other`: neither. */
  kind: 'text' | 'scanned' | 'other';
  /** The language OCR read a scanned page in; absent while it is unread. */
  ocrLanguage?: OcrLanguage;
}

export interface Analysis {
  suggestions: Suggestion[];
  pages: PageGeometry[];
  stats: {
    pageCount: number;
    nativeTextPages: number;
    scannedPages: number;
    ocrPages: number;
    extractionMs: number;
    detectionMs: number;
    /** OCR time per OCRed page (rendering included), for the benchmark. */
    ocrMsPerPage: number[];
  };
  ocrStatus: 'enabled' | 'disabled';
  /** The OCR language each OCRed page was read in. */
  ocrLanguages: Array<{ page: number; language: OcrLanguage }>;
  /**
   * Work on a page was abandoned at the deadline and may still be running (pdf.js or a tesseract worker):
   * the answer is partial and the process is replaced after it.
   */
  abandoned: boolean;
  /**
   * A scanned page was cut short at its own time limit: left unread, its OCR workers stopped, nothing left
   * running; or a scan with a text layer was, its lines not looked for on its image past its limit, the page
   * keeping its text alone. The answer is partial; the process serves the next document.
   */
  cut: boolean;
  /**
   * The document's last scanned page was cut short: the OCR language its reading started in. Its workers were
   * stopped with it; the process starts them again in this language once it has answered, so that the same
   * document asked again (as a partial answer invites) does not spend its page's time starting them.
   */
  retryLanguage?: OcrLanguage;
}

/** The analysis made of the pages read, in page order. */
export function assemble(
  head: { pageCount: number; ocrStatus: Analysis['ocrStatus'] },
  pages: Iterable<PageDone>,
  timing: { extractionMs: number; detectionMs: number; ocrMsPerPage?: number[] },
  abandoned: boolean,
  cut = false,
  retryLanguage?: OcrLanguage,
): Analysis {
  const done = [...pages].sort((a, b) => a.page.page - b.page.page);
  return {
    suggestions: done.flatMap((p) => p.suggestions),
    pages: done.map((p) => p.page),
    stats: {
      pageCount: head.pageCount,
      nativeTextPages: done.filter((p) => p.kind === 'text').length,
      scannedPages: done.filter((p) => p.kind === 'scanned').length,
      ocrPages: done.filter((p) => p.ocrLanguage !== undefined).length,
      extractionMs: round(timing.extractionMs),
      detectionMs: round(timing.detectionMs),
      ocrMsPerPage: timing.ocrMsPerPage ?? [],
    },
    ocrStatus: head.ocrStatus,
    ocrLanguages: done.flatMap((p) => (p.ocrLanguage ? [{ page: p.page.page, language: p.ocrLanguage }] : [])),
    abandoned,
    cut,
    ...(retryLanguage ? { retryLanguage } : {}),
  };
}

export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
