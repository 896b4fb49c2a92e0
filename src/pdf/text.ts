import { beginText, endText, moveText, PDFHexString, setFillingColor, setFontAndSize, showText, type Color, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';

/**
 * Lines of mixed Latin and Arabic text. fontkit shapes Arabic (joining forms) and lays a run of one
 * script out in its direction, but a line that mixes scripts needs its runs put in visual order. This
 * is the part of the Unicode bidi algorithm (UAX #9) that one-line values need: paragraph direction
 * from the first strong character, a separator between two digits being part of the number (W4),
 * numbers taking the direction of the strong text before them (W2/W7), neutrals between two runs
 * of one direction taking it (N1) and the others the paragraph's
 * (N2), embedding levels, then runs reversed from the highest level down (L2). No explicit embeddings.
 */

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;
const LTR = /[\p{L}\p{M}]/u;
const NUMBER = /[0-9\u0660-\u0669\u06f0-\u06f9]/u;
const SEPARATOR = /^[-+.,:/]$/u;

type Kind = 'rtl' | 'ltr' | 'num' | 'neutral';

function kindOf(char: string): Kind {
  if (NUMBER.test(char)) return 'num';
  if (RTL.test(char)) return 'rtl';
  return LTR.test(char) ? 'ltr' : 'neutral';
}

export function hasRtl(text: string): boolean {
  return RTL.test(text);
}

/** The paragraph direction: that of the first strong character (left to right when none). */
export function directionOf(text: string): 'ltr' | 'rtl' {
  for (const char of text) {
    const kind = kindOf(char);
    if (kind === 'rtl' || kind === 'ltr') return kind;
  }
  return 'ltr';
}

interface Run {
  text: string;
  /** Laid out right to left (an odd embedding level). */
  rtl: boolean;
}

/** The line's runs in the order they appear from left to right, each in logical order. */
export function visualRuns(text: string): Run[] {
  const base = directionOf(text);
  const chars = Array.from(text);
  // W4: one separator between two digits belongs to the number (2026-11-25, 01:42:00, 3.5, 1,000).
  const kinds = chars.map((char, i) =>
    SEPARATOR.test(char) && kindOf(chars[i - 1] ?? '') === 'num' && kindOf(chars[i + 1] ?? '') === 'num' ? 'num' : kindOf(char),
  );
  // W2/W7: a number follows the strong text before it (the paragraph's direction at the start).
  let previous: 'ltr' | 'rtl' = base;
  const placement = kinds.map((kind) => {
    if (kind === 'ltr' || kind === 'rtl') previous = kind;
    return kind === 'num' ? previous : kind;
  });
  // N1/N2: a neutral between two runs of one direction takes it, otherwise the paragraph's.
  const after: Array<'ltr' | 'rtl'> = [];
  let next: 'ltr' | 'rtl' = base;
  for (let i = placement.length - 1; i >= 0; i -= 1) {
    after[i] = next;
    const p = placement[i];
    if (p !== 'neutral' && p !== undefined) next = p;
  }
  let before: 'ltr' | 'rtl' = base;
  const resolved = placement.map((p, i) => {
    if (p !== 'neutral') {
      before = p;
      return p;
    }
    return before === after[i] ? before : base;
  });
  const levels = resolved.map((direction, i) => {
    const number = kinds[i] === 'num';
    if (base === 'ltr') return direction === 'rtl' ? (number ? 2 : 1) : 0;
    return direction === 'rtl' && !number ? 1 : 2;
  });
  const runs: Array<{ text: string; level: number }> = [];
  chars.forEach((char, i) => {
    const level = levels[i] ?? 0;
    const last = runs[runs.length - 1];
    if (last && last.level === level) last.text += char;
    else runs.push({ text: char, level });
  });
  // L2: from the highest level down to 1, reverse every stretch of runs at that level or higher.
  const highest = Math.max(0, ...runs.map((r) => r.level));
  for (let level = highest; level >= 1; level -= 1) {
    for (let i = 0; i < runs.length; ) {
      if ((runs[i]?.level ?? 0) < level) {
        i += 1;
        continue;
      }
      let j = i;
      while (j < runs.length && (runs[j]?.level ?? 0) >= level) j += 1;
      runs.splice(i, j - i, ...runs.slice(i, j).reverse());
      i = j;
    }
  }
  return runs.map((run) => {
    const rtl = run.level % 2 === 1;
    if (!rtl) return { text: run.text, rtl };
    // L4: brackets in right-to-left text are mirrored. fontkit reverses runs of a right-to-left
    // script itself; a run of neutrals only is reversed here.
    const mirrored = Array.from(run.text, (char) => MIRRORED[char] ?? char);
    return { text: hasRtl(run.text) ? mirrored.join('') : mirrored.reverse().join(''), rtl };
  });
}

const MIRRORED: Readonly<Record<string, string>> = Object.fromEntries(
  ['()', '<>', '[]', '{}', '\u00ab\u00bb', '\u2039\u203a'].flatMap((pair) => [
    [pair[0] as string, pair[1] as string],
    [pair[1] as string, pair[0] as string],
  ]),
);

export function textWidth(text: string, font: PDFFont, size: number): number {
  return visualRuns(text).reduce((sum, run) => sum + runWidth(run.text, font, size), 0);
}

/**
 * Widths of text runs already measured, by font, size and text. Measuring shapes the text with the
 * font's OpenType tables (most of the time of an evidence report, whose labels and notices are the
 * same in every report); the fonts are paraph's own, so a font's name says which file it is.
 */
const measured = new Map<string, number>();
const MEASURED_LIMIT = 20_000;

function runWidth(text: string, font: PDFFont, size: number): number {
  const key = `${font.name}\u0000${size}\u0000${text}`;
  let width = measured.get(key);
  if (width === undefined) {
    width = font.widthOfTextAtSize(text, size);
    if (measured.size >= MEASURED_LIMIT) measured.clear();
    measured.set(key, width);
  }
  return width;
}

export interface LineStyle {
  font: PDFFont;
  size: number;
  color: Color;
}

/** Draws one line with its left edge at x and its baseline at y (in the current coordinate system). */
export function drawLine(page: PDFPage, text: string, x: number, y: number, style: LineStyle): void {
  let cursor = x;
  for (const run of visualRuns(text)) {
    if (run.text.trim() !== '') page.drawText(run.text, { x: cursor, y, size: style.size, font: style.font, color: style.color });
    cursor += runWidth(run.text, style.font, style.size);
  }
}

/** Greedy word wrap to `width`; a word longer than the width is cut. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n|\u2028|\u2029/u)) {
    let line = '';
    for (const word of paragraph.split(/\s+/u).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (textWidth(next, font, size) <= width || !line) {
        line = next;
      } else {
        lines.push(line);
        line = word;
      }
      // A word too wide for a line of its own is cut where the line is full, as many times as it takes.
      if (textWidth(line, font, size) > width) {
        const chars = Array.from(line);
        let start = 0;
        for (let end = fittingEnd(chars, start, font, size, width); end < chars.length; end = fittingEnd(chars, start, font, size, width)) {
          lines.push(chars.slice(start, end).join(''));
          start = end;
        }
        line = chars.slice(start).join('');
      }
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Where the piece of a long word that starts at `start` ends: the longest run that fits the line (at least one
 * character), or the word's end when the rest fits. Found a character at a time, then checked as a whole (shaping
 * and kerning), so cutting a word costs what its length does, not its length again for every line it fills.
 */
function fittingEnd(chars: readonly string[], start: number, font: PDFFont, size: number, width: number): number {
  let end = start;
  let sum = 0;
  while (end < chars.length) {
    const next = sum + textWidth(chars[end] as string, font, size);
    if (next > width) break;
    sum = next;
    end += 1;
  }
  const fits = (to: number) => textWidth(chars.slice(start, to).join(''), font, size) <= width;
  end = Math.max(start + 1, end);
  while (end > start + 1 && !fits(end)) end -= 1;
  while (end < chars.length && fits(end + 1)) end += 1;
  return end;
}

interface LaidOut {
  glyphs: unknown[];
  positions: Array<{ xAdvance: number; xOffset: number; yOffset: number }>;
}

/** The font's shaping of one run: fontkit's glyph positions, which pdf-lib's drawText does not apply. */
function layoutOf(font: PDFFont, text: string): { run: LaidOut; scale: number } {
  const embedder = (
    font as unknown as { embedder: { font: { unitsPerEm: number; layout(text: string, features?: unknown): LaidOut }; fontFeatures?: unknown } }
  ).embedder;
  return { run: embedder.font.layout(text, embedder.fontFeatures), scale: 1 / embedder.font.unitsPerEm };
}

/** The width of one run of one script as `drawPositioned` draws it. */
export function positionedWidth(text: string, font: PDFFont, size: number): number {
  const { run, scale } = layoutOf(font, text);
  return run.positions.reduce((sum, p) => sum + p.xAdvance, 0) * scale * size;
}

/**
 * Draws one run of one script glyph by glyph where the font's layout puts each: a cursive face
 * (Aref Ruqaa) joins its letters by raising and lowering them and places the dots of Arabic letters
 * as marks, which drawing the run as one string would leave on the baseline or lose.
 */
export function drawPositioned(page: PDFPage, text: string, x: number, y: number, style: LineStyle): void {
  const { run, scale } = layoutOf(style.font, text);
  // encodeText shapes the same text the same way: one 4-digit glyph code per glyph, in layout order.
  const codes = style.font.encodeText(text).asString();
  if (codes.length !== run.positions.length * 4) {
    drawLine(page, text, x, y, style);
    return;
  }
  const key = page.node.newFontDictionary(style.font.name, style.font.ref);
  const unit = scale * style.size;
  const operators = [beginText(), setFillingColor(style.color), setFontAndSize(key, style.size)];
  let cursor = 0;
  let placed = { x: 0, y: 0 };
  run.positions.forEach((p, i) => {
    const at = { x: x + (cursor + p.xOffset) * unit, y: y + p.yOffset * unit };
    operators.push(moveText(at.x - placed.x, at.y - placed.y), showText(PDFHexString.of(codes.slice(i * 4, i * 4 + 4))));
    placed = at;
    cursor += p.xAdvance;
  });
  operators.push(endText());
  page.pushOperators(...operators);
}
