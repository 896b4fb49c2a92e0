// The pure parts of OCR's work sharing and language choice: where a page is cut for the two workers
// (halves of equal ink, between lines, through a frame but never through a short caption), and when a
// reading shows a page to be in the other script; and a reading asked for workers stopped since reads nothing.
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OcrEngine, splitRows } from '../../src/pdf/detect/ocr-engine.js';
import { otherScriptLikely } from '../../src/pdf/detect/ocr-script.js';
import type { InkPage } from '../../src/pdf/detect/ocr-image.js';
import type { Word } from '../../src/pdf/detect/suggest-fields.js';

function page(width: number, height: number): InkPage {
  return { ink: new Uint8Array(width * height), width, height, scale: 1 };
}
function fill(p: InkPage, x0: number, x1: number, y0: number, y1: number): void {
  for (let y = y0; y < y1; y++) p.ink.fill(1, y * p.width + x0, y * p.width + x1);
}

test('a framed page is cut in halves of equal ink between two lines, the frame crossing the cut', () => {
  const p = page(400, 1000);
  // A frame down both sides on every row: no row is without ink.
  fill(p, 2, 5, 0, 1000);
  fill(p, 395, 398, 0, 1000);
  // Dense lines of text in the top third, a few in the rest: half of the ink is high on the page.
  const lines: Array<[number, number]> = [];
  for (let y = 40; y < 340; y += 30) lines.push([y, y + 14]);
  for (let y = 500; y < 900; y += 100) lines.push([y, y + 14]);
  for (const [a, b] of lines) fill(p, 20, 380, a, b);
  const parts = splitRows(p, 2);
  assert.equal(parts.length, 2);
  const cut = (parts[0] as { bottom: number }).bottom;
  assert.equal((parts[1] as { top: number }).top, cut);
  assert.ok(cut < 500, `cut at ${cut}: the ink is high on the page`);
  assert.ok(!lines.some(([a, b]) => cut >= a && cut < b), `cut at ${cut} goes through a line of text`);
});

test('a short caption holding little ink per row is not cut through', () => {
  const p = page(1000, 600);
  // One short word (little ink per row) in the middle, a block of text above and below.
  fill(p, 100, 900, 100, 280);
  fill(p, 493, 507, 290, 310);
  fill(p, 100, 900, 320, 500);
  const [first] = splitRows(p, 2);
  const cut = (first as { bottom: number }).bottom;
  assert.ok(cut < 290 || cut >= 310, `cut at ${cut} goes through the caption`);
});

const word = (text: string, confidence: number): Word => ({ text, confidence, box: { x0: 0, y0: 0, x1: 10, y1: 10 }, baseline: 10, size: 10 });

test('a page is read again in the other script only when it reads poorly and hardly a word of it surely', () => {
  // A noisy form in the right script: many short low-confidence "words" (rules, specks), most real words sure.
  const form = [...Array.from({ length: 60 }, () => word('_', 0.1)), ...Array.from({ length: 40 }, (_, i) => word(`word${i}`, i < 25 ? 0.92 : 0.6))];
  const mean = (ws: Word[]) => ws.reduce((n, w) => n + w.confidence, 0) / ws.length;
  assert.ok(!otherScriptLikely({ words: form, confidence: mean(form) }));
  // A page in the other script: low confidence throughout.
  const other = Array.from({ length: 50 }, (_, i) => word(`xyz${i}`, i % 10 === 0 ? 0.86 : 0.3));
  assert.ok(otherScriptLikely({ words: other, confidence: mean(other) }));
  // A page that reads well is never read again.
  assert.ok(!otherScriptLikely({ words: [word('Signature', 0.95)], confidence: 0.95 }));
  // Nothing read with letters: the other script is worth a try.
  assert.ok(otherScriptLikely({ words: [word('|', 0.2)], confidence: 0.2 }));
});

test("a page's reading asked for OCR workers stopped since (a page cut short) starts no worker and reads nothing, nor on the workers of the next page", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-ocr-'));
  const ocr = new OcrEngine(dir);
  try {
    const p = page(200, 100);
    fill(p, 10, 190, 40, 60);
    const generation = ocr.generation;
    // The page is cut: its workers are stopped; the next page's may start.
    await ocr.close();
    assert.notEqual(ocr.generation, generation);
    await assert.rejects(ocr.readPage(p, 'eng', generation), /the OCR workers were stopped/);
    assert.equal(ocr.loaded, false, 'no worker was started for it');
  } finally {
    await ocr.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
