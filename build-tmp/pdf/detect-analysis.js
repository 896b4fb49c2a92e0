/** The analysis made of the pages read, in page order. */
export function assemble(head, pages, timing, abandoned) {
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
    };
}
export function round(n) {
    return Math.round(n * 1000) / 1000;
}
//# sourceMappingURL=detect-analysis.js.map