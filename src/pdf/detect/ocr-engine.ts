/**
 * Offline OCR with tesseract.js: up to two workers per language (one per core, at most two), started on
 * first use and kept for the next pages and the next documents, so that the parts of a page are read
 * at once. The language data comes from the @tesseract.js-data packages installed with paraph (the
 * `4.0.0_best_int` models, optional dependencies); nothing is ever downloaded. tesseract.js keeps an unpacked copy of each model
 * in `cachePath`. Runs only inside the detection child process.
 */
import fs from 'node:fs';
import os from 'node:os';
// The OCR engine is loaded when the first scan is read: tesseract.js as paraph ships it (src/platform/vendored.ts).
import type { Worker as TesseractWorker } from 'tesseract.js';
import { TESSERACT } from '../../platform/vendored.js';
import type { Word } from './suggest-fields.js';
import { toPbm, type InkPage } from './ocr-image.js';
import { languageDir, type OcrLanguage } from './ocr-languages.js';

export interface OcrResult {
  words: Word[];
  /** Mean word confidence, 0 to 1. */
  confidence: number;
}

interface TesseractWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}
interface TesseractLine {
  words: TesseractWord[];
  baseline: { x0: number; y0: number; x1: number; y1: number };
}
interface Slot {
  worker: Promise<TesseractWorker>;
  /** Set once the worker has started. */
  started?: TesseractWorker;
  dpi?: string;
}

/** Workers per language: one per core, at most two. */
export const POOL = Math.max(1, Math.min(2, os.availableParallelism()));

export class OcrEngine {
  readonly #cachePath: string;
  readonly #pools = new Map<OcrLanguage, Array<Slot | undefined>>();
  /** Parts being read, counted per generation of workers (a part stopped with its worker never ends). */
  #reading = 0;
  #generation = 0;

  constructor(cachePath: string) {
    this.#cachePath = cachePath;
  }

  /**
   * Reads a black-and-white page in `lang`, cut into as many parts as there are workers, holding about
   * as much text each (between lines, so that no line of text is cut), the parts read at once; words in
   * points. (Cut in more, smaller parts, a photo's form reads worse: tesseract finds fewer of its lines.)
   * `generation`: the workers the reading is for (`generation` when it was asked); once they are stopped, nothing more is read.
   */
  async readPage(page: InkPage, lang: OcrLanguage, generation = this.#generation): Promise<OcrResult> {
    const cuts = splitRows(page, POOL);
    const parts: OcrResult[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(POOL, cuts.length) }, async (_, slot) => {
        for (let i = next++; i < cuts.length; i = next++) {
          const part = cuts[i] as { top: number; bottom: number };
          parts[i] = await this.read(toPbm(page, part), page.scale, lang, slot, part.top, generation);
        }
      }),
    );
    const words = parts.flatMap((p) => p.words);
    const sum = parts.reduce((n, p) => n + p.confidence * p.words.length, 0);
    return { words, confidence: words.length ? sum / words.length : 0 };
  }

  /**
   * Reads an image (PBM or PNG bytes at `scale` pixels per point, `top` pixels below the page's top)
   * with the worker `slot` of `lang`, and answers its words in points of the page.
   */
  async read(image: Buffer, scale: number, lang: OcrLanguage, slot = 0, top = 0, generation = this.#generation): Promise<OcrResult> {
    // Workers stopped since (close(): a page cut short) are asked nothing more, it would fail outside this call; nor
    // are the ones started after them, which read the next page.
    const live = () => {
      if (generation !== this.#generation) throw new Error('the OCR workers were stopped');
    };
    live();
    const s = this.#slot(lang, slot);
    const worker = await s.worker;
    live();
    const dpi = String(Math.round(scale * 72));
    if (s.dpi !== dpi) {
      // Said rather than guessed: tesseract sizes its analysis by it, and warns when it must guess.
      await worker.setParameters({ user_defined_dpi: dpi });
      live();
      s.dpi = dpi;
    }
    this.#reading++;
    const { data } = await worker.recognize(image, {}, { text: false, blocks: true }).finally(() => {
      if (generation === this.#generation) this.#reading--;
    });
    const words: Word[] = [];
    let sum = 0;
    for (const block of data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines as TesseractLine[]) {
          const { baseline } = line;
          for (const w of line.words) {
            const text = w.text.trim();
            if (!text) continue;
            const { x0, x1 } = w.bbox;
            const y0 = w.bbox.y0 + top;
            const y1 = w.bbox.y1 + top;
            const mid = (x0 + x1) / 2;
            const slope = baseline.x1 !== baseline.x0 ? (baseline.y1 - baseline.y0) / (baseline.x1 - baseline.x0) : 0;
            const base = baseline.y0 + top + slope * (mid - baseline.x0);
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

  /** The workers' generation: a new one after each close(). */
  get generation(): number {
    return this.#generation;
  }

  /** How many workers are reading a part of a page right now (each can keep a core busy). */
  get reading(): number {
    return this.#reading;
  }

  /** Starts the workers of `lang` (if they are not running) without waiting for them. */
  start(lang: OcrLanguage): void {
    for (let i = 0; i < POOL; i++) this.#slot(lang, i).worker.catch(() => {});
  }

  /** Starts the workers of `lang` (if they are not running) and waits until they are ready or failed. */
  async ready(lang: OcrLanguage): Promise<void> {
    await Promise.all(Array.from({ length: POOL }, (_, i) => this.#slot(lang, i).worker.catch(() => {})));
  }

  /** Whether any worker is loaded. */
  get loaded(): boolean {
    return this.#pools.size > 0;
  }

  /**
   * Stops every worker (their memory goes with them); the next page starts new ones. Resolves once the
   * started ones have stopped: one still starting is stopped when it has, without waiting for it (a
   * start takes 0.4 s, which an answer would otherwise wait).
   */
  async close(): Promise<void> {
    const slots = [...this.#pools.values()].flat().filter((s) => s !== undefined);
    this.#pools.clear();
    this.#generation++;
    this.#reading = 0;
    const stopping: Array<Promise<unknown>> = [];
    for (const s of slots) {
      if (s.started) stopping.push(s.started.terminate());
      else s.worker.then((w) => w.terminate()).catch(() => {});
    }
    await Promise.all(stopping);
  }

  #slot(lang: OcrLanguage, index: number): Slot {
    let pool = this.#pools.get(lang);
    if (!pool) {
      pool = [];
      this.#pools.set(lang, pool);
    }
    let slot = pool[index];
    if (!slot) {
      const langPath = languageDir(lang);
      // The first worker of a language unpacks its model into the cache; the others start once it is
      // there (two writing the same file at once could read each other's half-written copy).
      const first = index > 0 ? pool[0]?.worker.catch(() => undefined) : undefined;
      const start = async (): Promise<TesseractWorker> => {
        if (!langPath) throw new Error(`no OCR data for ${lang}: @tesseract.js-data/${lang} is not installed`);
        await first;
        fs.mkdirSync(this.#cachePath, { recursive: true });
        // A CommonJS module either way: its exports are the import's default.
        const { createWorker, OEM } = ((await import(TESSERACT.moduleUrl)) as { default: typeof import('tesseract.js') }).default;
        const options = { langPath, cachePath: this.#cachePath, gzip: true, logger: () => {}, errorHandler: () => {} };
        const w = await createWorker(lang, OEM.LSTM_ONLY, TESSERACT.workerPath ? { ...options, workerPath: TESSERACT.workerPath } : options);
        // Pages are black on white once binarised: looking for light-on-dark text only costs time.
        await w.setParameters({ preserve_interword_spaces: '0', tessedit_do_invert: '0' });
        return w;
      };
      const worker = start();
      const made: Slot = { worker };
      worker.then((w) => (made.started = w)).catch(() => {});
      // A worker that failed to start is not kept: the next page tries again.
      worker.catch(() => {
        const list = this.#pools.get(lang);
        if (list?.[index] === made) list[index] = undefined;
      });
      pool[index] = made;
      slot = made;
    }
    return slot;
  }
}

/**
 * Up to `parts` row ranges covering the page, holding about as much ink each (tesseract's time goes with
 * the text it reads, not with the height), cut between lines of text: at the emptiest row near the even
 * share of ink (a drawn frame or specks may cross it; a line of text, even one short word, does not).
 */
export function splitRows(page: InkPage, parts: number): Array<{ top: number; bottom: number }> {
  const { ink, width, height } = page;
  const counts = new Uint32Array(height);
  let total = 0;
  for (let y = 0; y < height; y++) {
    let n = 0;
    const row = y * width;
    for (let x = 0; x < width; x++) n += ink[row + x] as number;
    counts[y] = n;
    total += n;
  }
  const reach = Math.round(height / (2 * parts));
  const cuts = [0];
  let y = 0;
  let sum = 0;
  for (let k = 1; k < parts; k++) {
    const goal = (total * k) / parts;
    while (y < height && sum + (counts[y] as number) < goal) sum += counts[y++] as number;
    const cut = emptiestRow(counts, Math.max((cuts.at(-1) as number) + 1, y - reach), Math.min(height - 1, y + reach), y);
    if (cut !== undefined) cuts.push(cut);
  }
  cuts.push(height);
  return cuts.slice(1).map((bottom, i) => ({ top: cuts[i] as number, bottom }));
}

/** The row of `from`..`to` with the least ink, the one nearest `at` of those; undefined for an empty range. */
function emptiestRow(counts: Uint32Array, from: number, to: number, at: number): number | undefined {
  let best: number | undefined;
  for (let r = from; r <= to; r++) {
    if (best === undefined) {
      best = r;
      continue;
    }
    const c = counts[r] as number;
    const b = counts[best] as number;
    if (c < b || (c === b && Math.abs(r - at) < Math.abs(best - at))) best = r;
  }
  return best;
}
