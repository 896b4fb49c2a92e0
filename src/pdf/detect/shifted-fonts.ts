/**
 * Fonts whose text comes out shifted: a subset font without a Unicode map, its character codes the glyphs'
 * places in the Macintosh standard order, 29 below the letters' codes ("6LJQDWXUH" for "Signature", its
 * spaces U+0003, its full stops U+0011). pdf.js reads such a font's codes as they are; a reader sees the
 * words. Each font's text is read back 29 codes up when that makes words of it and its own codes make none.
 */

/** How far below the letters a shifted font's codes run. */
const SHIFT = 29;
/** The codes a shift moves back into printable text: U+0003 (a space) up to U+005D (a "z"). */
const FIRST = 0x03;
const LAST = 0x5d;

/** A text's letters and figures. */
const lettersOf = (text: string): string[] => [...text].filter((c) => /[\p{L}\p{N}]/u.test(c));

/** The share of a text's letters and figures that are small letters (a-z and accented): most of any language's text. */
function smallShare(text: string): number {
  const letters = lettersOf(text);
  if (letters.length === 0) return 0;
  return letters.filter((c) => /\p{Ll}/u.test(c)).length / letters.length;
}

/** A text read 29 codes up. */
export function unshift(text: string): string {
  return [...text].map((c) => (c.charCodeAt(0) >= FIRST && c.charCodeAt(0) <= LAST ? String.fromCharCode(c.charCodeAt(0) + SHIFT) : c)).join('');
}

/**
 * The fonts of a page whose text is shifted: at least 12 letters and figures, hardly a small letter among them
 * (a tenth at most) and, read 29 codes up, half of them small letters at least, with a space among them
 * (U+0003: text set in words, not a code or a number).
 */
export function shiftedFonts(items: ReadonlyArray<{ str: string; fontName: string }>): Set<string> {
  const byFont = new Map<string, string>();
  for (const item of items) byFont.set(item.fontName, (byFont.get(item.fontName) ?? '') + item.str);
  const out = new Set<string>();
  for (const [font, text] of byFont) {
    if (lettersOf(text).length < 12 || !text.includes(String.fromCharCode(FIRST))) continue;
    if (smallShare(text) <= 0.1 && smallShare(unshift(text)) >= 0.5) out.add(font);
  }
  return out;
}
