/**
 * The words OCR reads, made like those of a text layer before the rules see them: a blank typed after a
 * caption is a word of its own, the rules that continue a row of text are its blanks, and specks are not
 * words. Pure; coordinates in points.
 */
import { isRtl } from './token-folding.js';
import { splitItem } from './page-scan.js';
import { area, common, type Segment, type Word } from './page-model.js';
import type { Unrotate } from './ocr-image.js';

/**
 * OCR reads a caption and the blank typed after it as one word ("Signature:___"): as in the text layer,
 * the blank is a word of its own (and goes with the rule it is, when one is seen there).
 */
export function blanksApart(words: Word[]): Word[] {
  return words.flatMap((w) => {
    if (!/[\p{L}\p{N}]/u.test(w.text) || !/_{2,}|\.{3,}|…/.test(w.text)) return [w];
    return splitItem(w.text, w.box.x0, w.baseline, w.box.x1 - w.box.x0, w.size, isRtl(w.text)).map((p) => ({
      ...p,
      box: { x0: p.box.x0, x1: p.box.x1, y0: w.box.y0, y1: w.box.y1 },
      confidence: w.confidence,
    }));
  });
}

/**
 * The rules that continue a row of text ("(month) ____ (day) ____", "Name: ____"), as the blanks the text
 * layer has there: OCR drops typed underscores, and the lines found in the pixels stand for them.
 */
export function blanksOnRows(words: Word[], segments: Segment[]): Word[] {
  const out: Word[] = [];
  for (const s of segments) {
    const beside = words.find((w) => {
      if (!/[\p{L}\p{N}]/u.test(w.text)) return false;
      if (s.y < w.baseline - 0.45 * w.size || s.y > w.baseline + 0.6 * w.size + 2) return false;
      const after = s.x0 - w.box.x1;
      const before = w.box.x0 - s.x1;
      return (after >= -0.5 * w.size && after <= 1.5 * w.size) || (before >= -0.5 * w.size && before <= 1.5 * w.size);
    });
    if (!beside) continue;
    // On the row's baseline, so that it reads as part of the row (on a tilted scan the rule may dip below it).
    const { size, baseline } = beside;
    out.push({
      text: '_'.repeat(Math.max(3, Math.round((s.x1 - s.x0) / (0.556 * size)))),
      box: { x0: s.x0, x1: s.x1, y0: baseline - 0.78 * size, y1: baseline + 0.22 * size },
      baseline,
      size,
      confidence: beside.confidence,
    });
  }
  return out;
}

/**
 * OCR reads specks, the grain of a photo and the edges of drawn lines as short "words": with no
 * confidence in them, or a mark of punctuation alone on the page, they are not text a reader sees, and
 * left in they would stand for text right above a line to sign on, or in a blank.
 */
const SPECK_CONFIDENCE = 0.2;
export function withoutSpecks(words: Word[]): Word[] {
  const alnum = (w: Word) => (w.text.match(/[\p{L}\p{N}]/gu) ?? []).length;
  return words.filter((w) => {
    if (w.confidence < SPECK_CONFIDENCE && alnum(w) < 3) return false;
    if (alnum(w) > 0) return true;
    // Punctuation beside a word (a colon read apart from its caption) is kept.
    return words.some(
      (o) =>
        o !== w &&
        alnum(o) > 0 &&
        Math.abs(o.baseline - w.baseline) <= 0.5 * Math.max(o.size, w.size) &&
        Math.max(o.box.x0 - w.box.x1, w.box.x0 - o.box.x1) <= Math.max(6, 0.5 * o.size),
    );
  });
}

/** OCR reads a drawn line as a word of dashes or tildes: the line is already known, the word goes. */
export function withoutRules(words: Word[], segments: Segment[]): Word[] {
  return words.filter((w) => {
    const text = w.text.replace(/\s/g, '');
    const ruleLike = !/[\p{L}\p{N}]/u.test(text) || w.confidence < 0.5;
    if (!ruleLike) return true;
    const width = w.box.x1 - w.box.x0;
    return !segments.some((s) => s.y >= w.box.y0 - 2 && s.y <= w.box.y1 + 3 && Math.min(s.x1, w.box.x1) - Math.max(s.x0, w.box.x0) >= 0.5 * width);
  });
}

/**
 * What OCR read on a scan with the words typed over it (its text layer: a stamp, a form's answers): the typed words
 * as typed, and OCR's words but those it read of them (where the page was rendered with them), half or more under one.
 */
export function withTyped(read: Word[], typed: readonly Word[]): Word[] {
  return [...read.filter((w) => !typed.some((t) => common(t.box, w.box) >= 0.5 * area(w.box))), ...typed];
}

/** A word read on the straightened page, placed on the page as scanned (its box turned back, kept level). */
export function wordBack(w: Word, unrotate: Unrotate): Word {
  const midX = (w.box.x0 + w.box.x1) / 2;
  const midY = (w.box.y0 + w.box.y1) / 2;
  const centre = unrotate(midX, midY);
  const dx = centre.x - midX;
  const dy = centre.y - midY;
  return { ...w, box: { x0: w.box.x0 + dx, x1: w.box.x1 + dx, y0: w.box.y0 + dy, y1: w.box.y1 + dy }, baseline: w.baseline + dy };
}
