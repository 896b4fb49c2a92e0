import { bytesOf, handFaceFor, type FontName } from './font-files.js';

/**
 * Which characters the signed PDF's fonts can draw, read from each font's character map (`cmap`) alone, so that
 * the API checks text without loading the font engine the artifact worker draws with.
 */
const coverage = new Map<FontName, (codePoint: number) => boolean>();

/** Whether the face has a glyph for the code point. */
export function faceCovers(name: FontName, codePoint: number): boolean {
  let has = coverage.get(name);
  if (!has) {
    has = cmapOf(bytesOf(name));
    coverage.set(name, has);
  }
  return has(codePoint);
}

/**
 * The characters of a value (drawn in DejaVu Sans) or a typed mark (in its handwriting face) that the signed PDF's
 * font has no glyph for: drawn, each would be an empty box and missing from the text layer. Spaces and invisible
 * format characters draw nothing and are left out; so is printable ASCII, which every face holds (no font is read).
 */
export function charactersNotDrawn(text: string, use: 'value' | 'mark'): string[] {
  if (/^[\x20-\x7e\t\r\n]*$/.test(text)) return [];
  const face = use === 'value' ? 'sans' : handFaceFor(text);
  const missing = new Set<string>();
  for (const c of text) {
    if (/[\s\p{Cf}\p{Cc}]/u.test(c)) continue;
    if (!faceCovers(face, c.codePointAt(0) as number)) missing.add(c);
  }
  return [...missing];
}

/** The 400 message for text at `path` that the signed PDF could not draw; null when every character can be. */
export function undrawnTextProblem(path: string, text: string | undefined | null, use: 'value' | 'mark'): string | null {
  const missing = text ? charactersNotDrawn(text, use) : [];
  if (missing.length === 0) return null;
  const shown = missing.slice(0, 5).join(' ') + (missing.length > 5 ? ' …' : '');
  const scripts = `paraph draws Latin, Greek, Cyrillic, Arabic and Hebrew text${use === 'mark' ? ', and typed signatures in Latin or Arabic letters' : ''}`;
  return `${path} holds characters the signed PDF's fonts cannot draw (${shown}): they would be printed as empty boxes; ${scripts}`;
}

/** The 400 message for the first of `fields` whose `value` (at `root[i].value`) the signed PDF could not draw, or null. */
export function undrawnFieldValue(fields: readonly { value?: string | undefined }[], root: string): string | null {
  for (const [index, field] of fields.entries()) {
    const problem = undrawnTextProblem(`${root}[${index}].value`, field.value, 'value');
    if (problem !== null) return problem;
  }
  return null;
}

/** A font's character map (OpenType `cmap`): format 12 (every plane) where the font has one, else format 4. */
function cmapOf(font: Buffer): (codePoint: number) => boolean {
  const tables = font.readUInt16BE(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    if (font.toString('latin1', 12 + 16 * i, 16 + 16 * i) === 'cmap') cmap = font.readUInt32BE(12 + 16 * i + 8);
  }
  if (cmap < 0) return () => false;
  const subtables = Array.from({ length: font.readUInt16BE(cmap + 2) }, (_, j) => cmap + font.readUInt32BE(cmap + 4 + 8 * j + 4));
  const full = subtables.find((at) => font.readUInt16BE(at) === 12);
  if (full !== undefined) {
    const groups = font.readUInt32BE(full + 12);
    return (codePoint) => {
      let low = 0;
      let high = groups - 1;
      while (low <= high) {
        const mid = (low + high) >> 1;
        const at = full + 16 + 12 * mid;
        if (codePoint < font.readUInt32BE(at)) high = mid - 1;
        else if (codePoint > font.readUInt32BE(at + 4)) low = mid + 1;
        else return font.readUInt32BE(at + 8) + codePoint - font.readUInt32BE(at) !== 0;
      }
      return false;
    };
  }
  const basic = subtables.find((at) => font.readUInt16BE(at) === 4);
  if (basic === undefined) return () => false;
  const segments = font.readUInt16BE(basic + 6) / 2;
  const ends = basic + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  return (codePoint) => {
    if (codePoint > 0xffff) return false;
    for (let i = 0; i < segments; i++) {
      if (font.readUInt16BE(ends + 2 * i) < codePoint) continue;
      const start = font.readUInt16BE(starts + 2 * i);
      if (start > codePoint) return false;
      const delta = font.readUInt16BE(deltas + 2 * i);
      const rangeOffset = font.readUInt16BE(rangeOffsets + 2 * i);
      if (rangeOffset === 0) return ((codePoint + delta) & 0xffff) !== 0;
      const glyph = font.readUInt16BE(rangeOffsets + 2 * i + rangeOffset + 2 * (codePoint - start));
      return glyph !== 0 && ((glyph + delta) & 0xffff) !== 0;
    }
    return false;
  };
}
