import { Value } from 'typebox/value';
import type { Context } from '../../context.js';
import { currentSigners } from '../../model/request-queries.js';
import { ParaphError } from '../../domain/errors.js';
import { DetectionResult, type DetectionPage } from '../../contract/detection.js';
import { assemble } from '../../pdf/detect/analysis.js';
import { missingOcrParts } from '../../pdf/detect/ocr-languages.js';
import type { Analysis, FieldDetector, OcrLanguage } from '../../pdf/detect.js';
import type { Principal } from '../../domain/principal.js';
import { assertMove, loadRequest } from '../../model/request-guard.js';
import { documentContent, requestDocument } from '../../model/documents.js';

const LOCALE_LANGUAGE: Readonly<Record<string, OcrLanguage>> = { en: 'eng', fr: 'fra', ar: 'ara' };

/** The context's field detector: one analysis child process per server, started on first use, closed with the context. */
export function fieldDetectorFor(ctx: Context): FieldDetector {
  return ctx.workers.detector;
}

/** Test seam: analyse with `detector` (other limits) instead of the default one. */
export function useFieldDetector(ctx: Context, detector: FieldDetector): void {
  ctx.workers.useDetector(detector);
}

/**
 * POST /detect-fields: where the document's fields probably go. Only while the request is prepared;
 * reads the document and changes nothing, so the request stays prepared and nothing is recorded.
 */
export async function detectFields(ctx: Context, input: { principal: Principal; id: string }): Promise<DetectionResult> {
  const row = loadRequest(ctx, input.principal.accountId, input.id);
  assertMove(row, 'detect_fields');
  const document = requestDocument(ctx.db, row);
  const bytes = await documentContent(ctx, row, document);
  // The signers' languages say which OCR language to try first on scanned pages.
  const languages = [
    ...new Set(
      currentSigners(ctx.db, row.id)
        .map((s) => LOCALE_LANGUAGE[s.locale ?? ''])
        .filter((l) => l !== undefined),
    ),
  ];
  const detector = fieldDetectorFor(ctx);
  const outcome = await detector.detect(bytes, { languages });
  const stored = JSON.parse(document.pages_json) as Array<Omit<DetectionPage, 'page'>>;
  let analysis: Analysis;
  if (outcome.ok) {
    analysis = outcome.analysis;
    if (outcome.partial) {
      ctx.log.warn({ signature_request_id: row.id, pages: analysis.pages.length }, 'field detection reached its time limit: answering with the pages read');
    }
  } else if (outcome.reason === 'unreadable') {
    // Accepted at upload, but the detector's reader cannot open it: no page could be read, which is no
    // reason to retry.
    ctx.log.warn({ signature_request_id: row.id }, `field detection read no page: ${outcome.message}`);
    analysis = assemble({ pageCount: stored.length, ocrStatus: detector.ocrStatus }, [], { extractionMs: 0, detectionMs: 0 }, false);
  } else {
    ctx.log.warn({ signature_request_id: row.id, reason: outcome.reason }, `field detection failed: ${outcome.message}`);
    throw new ParaphError('temporarily_unavailable', `field detection could not finish: ${outcome.message}; try again later`);
  }
  // The request may have been activated while the document was being read.
  assertMove(loadRequest(ctx, input.principal.accountId, input.id), 'detect_fields');

  // The geometry fields are checked against (PUT /fields) is the one recorded at upload.
  const pages: DetectionPage[] = analysis.pages.map((p) => {
    const known = stored[p.page - 1];
    return known ? { page: p.page, width: known.width, height: known.height, rotation: known.rotation } : p;
  });
  // A page the analysis could not read is not listed (nor are pages past the limits).
  const byNumber = new Map(pages.map((p) => [p.page, p]));
  const suggestions = analysis.suggestions
    .map((s) => {
      const page = byNumber.get(s.page);
      if (!page) return undefined;
      const x = Math.max(0, Math.min(s.x, page.width - 1));
      const y = Math.max(0, Math.min(s.y, page.height - 1));
      const width = round(Math.min(s.width, page.width - x));
      const height = round(Math.min(s.height, page.height - y));
      return width > 0 && height > 0 ? { ...s, x, y, width, height } : undefined;
    })
    .filter((s) => s !== undefined)
    .map((s, i) => ({ id: `sug_${i + 1}`, ...s }));
  const result: DetectionResult = {
    suggestions,
    pages,
    stats: {
      pageCount: analysis.stats.pageCount,
      totalSuggestions: suggestions.length,
      nativeTextPages: analysis.stats.nativeTextPages,
      ocrPages: analysis.stats.ocrPages,
      scannedPages: analysis.stats.scannedPages,
      extractionMs: analysis.stats.extractionMs,
      detectionMs: analysis.stats.detectionMs,
    },
    ocrStatus: analysis.ocrStatus,
    ...(analysis.ocrStatus === 'disabled' ? { ocrMessage: missingOcrParts() ?? 'OCR is turned off for this server: scanned pages are not read' } : {}),
  };
  // What comes back from the child was computed from an untrusted document: check it before answering.
  if (!Value.Check(DetectionResult, result)) {
    const first = [...Value.Errors(DetectionResult, result)][0];
    ctx.log.error({ signature_request_id: row.id, path: first?.instancePath }, `field detection produced an invalid result: ${first?.message}`);
    throw new ParaphError('internal_error', 'field detection produced an invalid result');
  }
  return result;
}

function round(n: number): number {
  return Math.floor(n * 100) / 100;
}
