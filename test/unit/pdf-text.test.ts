// Lines of text in paraph's PDFs: bidi order of numbers, Arabic shaping across documents, and typed
// marks drawn at the handwriting face's glyph positions. Read back with poppler.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PDFDocument, rgb } from '@cantoo/pdf-lib';
import { embedFonts } from '../../src/pdf/fonts.js';
import { drawLine, drawPositioned, positionedWidth, visualRuns } from '../../src/pdf/text.js';

function textOf(t: { after(fn: () => void): void }, bytes: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-text-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'out.pdf');
  fs.writeFileSync(file, bytes);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}

async function oneLine(text: string, names: Parameters<typeof embedFonts>[1] = ['sans']): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = await embedFonts(doc, names);
  drawLine(doc.addPage([400, 80]), text, 10, 30, { font: fonts.sans, size: 14, color: rgb(0, 0, 0) });
  return doc.save();
}

test('a date or time in Arabic text stays one number: its separators belong to it', () => {
  const runs = visualRuns('من 2026-11-25 01:42:00 إلى');
  assert.ok(
    runs.some((r) => r.text === '2026-11-25'),
    JSON.stringify(runs),
  );
  assert.ok(
    runs.some((r) => r.text === '01:42:00'),
    JSON.stringify(runs),
  );
  // A lone hyphen between words is still a neutral.
  assert.ok(!visualRuns('شركة - أكمي').some((r) => r.text.includes('-') && /\d/.test(r.text)));
});

test('Arabic drawn after another document with an alef with hamza keeps its alef and lam-alef', async (t) => {
  // The first document's subset writes the alef inside the composite alef with hamza.
  await oneLine('شركة أكمي');
  const text = textOf(t, await oneLine('رأس السلسلة'));
  assert.ok(text.includes('رأس السلسلة'), text);
});

test('a typed Arabic mark is drawn glyph by glyph at the handwriting face positions', async (t) => {
  const doc = await PDFDocument.create();
  const fonts = await embedFonts(doc, ['sans', 'handArabic']);
  const page = doc.addPage([300, 80]);
  drawPositioned(page, 'ليلى', 20, 30, { font: fonts.handArabic, size: 30, color: rgb(0, 0, 0.4) });
  const width = positionedWidth('ليلى', fonts.handArabic, 30);
  assert.ok(width > 20 && width < 200, `width ${width}`);
  const bytes = await doc.save({ useObjectStreams: false });
  // One show-text per glyph, moved by the layout's offsets: some moves are vertical (joins, dots).
  const content = Buffer.from(bytes).toString('latin1');
  const streams = [...content.matchAll(/stream\r?\n([\s\S]*?)endstream/g)].map((m) => {
    const raw = Buffer.from(m[1] ?? '', 'latin1');
    try {
      return zlib.inflateSync(raw).toString('latin1');
    } catch {
      return raw.toString('latin1');
    }
  });
  const ops = streams.find((s) => s.includes(' Td'));
  assert.ok(ops, 'a content stream with text moves');
  const moves = [...ops.matchAll(/(-?[\d.]+) (-?[\d.]+) Td/g)].map((m) => [Number(m[1]), Number(m[2])]);
  assert.ok(moves.length >= 4, `one move per glyph (${moves.length})`);
  assert.ok(
    moves.some(([, dy]) => Math.abs(dy ?? 0) > 0.5),
    `some glyphs are raised or lowered: ${JSON.stringify(moves)}`,
  );
  assert.equal((ops.match(/> Tj/g) ?? []).length, moves.length);
  assert.ok(textOf(t, bytes).includes('ليلى'), 'the text layer reads the name');
});
