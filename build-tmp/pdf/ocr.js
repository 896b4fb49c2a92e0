/**
 * Offline OCR with tesseract.js: one worker per language, started on first use and kept for the next
 * pages and the next documents. The language data comes from the @tesseract.js-data packages installed
 * with paraph (the `4.0.0_best_int` models); nothing is ever downloaded. tesseract.js keeps an unpacked
 * copy of each model in `cachePath`. Runs only inside the detection child process.
 */
import fs from 'node:fs';
import { createWorker, OEM } from 'tesseract.js';
import { languageDir } from './ocr-languages.js';
export class OcrEngine {
    #cachePath;
    #workers = new Map();
    constructor(cachePath) {
        this.#cachePath = cachePath;
    }
    /** Reads a page image (PNG bytes at `scale` pixels per point) and answers its words in points. */
    async read(png, scale, lang) {
        const worker = await this.#worker(lang);
        const { data } = await worker.recognize(png, {}, { text: false, blocks: true });
        const words = [];
        let sum = 0;
        for (const block of data.blocks ?? []) {
            for (const paragraph of block.paragraphs) {
                for (const line of paragraph.lines) {
                    const { baseline } = line;
                    for (const w of line.words) {
                        const text = w.text.trim();
                        if (!text)
                            continue;
                        const { x0, y0, x1, y1 } = w.bbox;
                        const mid = (x0 + x1) / 2;
                        const slope = baseline.x1 !== baseline.x0 ? (baseline.y1 - baseline.y0) / (baseline.x1 - baseline.x0) : 0;
                        const base = baseline.y0 + slope * (mid - baseline.x0);
                        const wordBase = base > y0 && base <= y1 + 2 ? base : y1;
                        words.push({
                            text,
                            box: { x0: x0 / scale, y0: y0 / scale, x1: x1 / scale, y1: y1 / scale },
                            baseline: wordBase / scale,
                            // The height above the baseline is about three quarters of the font size.
                            size: Math.max(4, (wordBase - y0) / scale / 0.74),
                            confidence: Math.max(0, Math.min(1, w.confidence / 100)),
                        });
                        sum += w.confidence / 100;
                    }
                }
            }
        }
        return { words, confidence: words.length ? sum / words.length : 0 };
    }
    async close() {
        const workers = [...this.#workers.values()];
        this.#workers.clear();
        await Promise.all(workers.map(async (w) => (await w.catch(() => undefined))?.terminate()));
    }
    #worker(lang) {
        let worker = this.#workers.get(lang);
        if (!worker) {
            const langPath = languageDir(lang);
            if (!langPath)
                return Promise.reject(new Error(`no OCR data for ${lang}: @tesseract.js-data/${lang} is not installed`));
            fs.mkdirSync(this.#cachePath, { recursive: true });
            worker = createWorker(lang, OEM.LSTM_ONLY, {
                langPath,
                cachePath: this.#cachePath,
                gzip: true,
                logger: () => { },
                errorHandler: () => { },
            }).then(async (w) => {
                // The bitmaps are rendered at a known resolution; saying so spares tesseract a guess and a warning.
                await w.setParameters({ user_defined_dpi: '200', preserve_interword_spaces: '0' });
                return w;
            });
            worker.catch(() => this.#workers.delete(lang));
            this.#workers.set(lang, worker);
        }
        return worker;
    }
}
//# sourceMappingURL=ocr.js.map