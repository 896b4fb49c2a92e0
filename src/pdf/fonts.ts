import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from '@cantoo/pdf-lib';
import { bytesOf, handFaceFor, type FontName } from './font-files.js';

export type { FontName } from './font-files.js';
export type Fonts = Record<FontName, PDFFont>;

/**
 * fontkit, parsing each font file once per process: pdf-lib parses the file again for every
 * document it is embedded in, and the parsed font keeps the tables and glyphs it decoded, which
 * shaping text needs again in the next document. Each document still gets its own subset.
 */
const parsed = new Map<Uint8Array, ReturnType<typeof fontkit.create>>();
const sharedFontkit: typeof fontkit = {
  ...fontkit,
  create(buffer, postscriptName) {
    let font = parsed.get(buffer);
    if (!font) {
      font = fontkit.create(buffer, postscriptName);
      keepCodePoints(font);
      writeSubsetsAsStreams(font);
      // Only the few files above come here (the same Buffer each time); a bound all the same.
      if (parsed.size >= 16) parsed.clear();
      parsed.set(buffer, font);
    }
    return font;
  },
};

/**
 * fontkit keeps one glyph object per glyph id, with the characters it was first asked for. Writing a
 * subset asks for the parts of composite glyphs by id alone (the alef inside an alef with hamza), so
 * on a shared font that part would stay without its character for the next documents: Arabic
 * shaping then skips it (no lam-alef ligature) and the text layer loses the letter. A glyph without
 * characters is made again when text asks for it with its character.
 */
function keepCodePoints(font: ReturnType<typeof fontkit.create>): void {
  const target = font as unknown as { getGlyph(id: number, characters?: number[]): { codePoints: number[] } | null; _glyphs?: Record<number, unknown> };
  const getGlyph = target.getGlyph.bind(target);
  target.getGlyph = (id, characters = []) => {
    const glyph = getGlyph(id, characters);
    if (glyph && glyph.codePoints.length === 0 && characters.length > 0 && target._glyphs) {
      delete target._glyphs[id];
      return getGlyph(id, characters);
    }
    return glyph;
  };
}

/**
 * @cantoo/pdf-lib writes a subset with `encode()` when the subset has one, as later fontkits do; in
 * @pdf-lib/fontkit, `encode` is the internal step that writes into a stream it is given, and the
 * subset is written by `encodeStream()`. pdf-lib is shown the subset without its `encode`.
 */
function writeSubsetsAsStreams(font: ReturnType<typeof fontkit.create>): void {
  const target = font as unknown as { createSubset(): object };
  const createSubset = target.createSubset.bind(target);
  target.createSubset = () =>
    new Proxy(createSubset(), {
      get(subset, key) {
        if (key === 'encode') return undefined;
        const value: unknown = Reflect.get(subset, key, subset);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(subset) : value;
      },
    });
}

/** Embeds the fonts (subset: only the glyphs used end up in the file). */
export async function embedFonts(
  doc: PDFDocument,
  names: readonly FontName[] = ['sans', 'bold', 'mono', 'script', 'handLatin', 'handLatinExt', 'handArabic'],
): Promise<Fonts> {
  doc.registerFontkit(sharedFontkit);
  const fonts: Partial<Fonts> = {};
  // Subset: only the glyphs drawn end up in the file, and a font never drawn adds nothing.
  for (const name of names) fonts[name] = await doc.embedFont(bytesOf(name), { subset: true });
  // Fonts not asked for fall back to Sans, which covers every script paraph draws.
  const sans = fonts.sans ?? (await doc.embedFont(bytesOf('sans'), { subset: true }));
  const script = fonts.script ?? sans;
  return {
    sans,
    bold: fonts.bold ?? sans,
    mono: fonts.mono ?? sans,
    script,
    handLatin: fonts.handLatin ?? script,
    handLatinExt: fonts.handLatinExt ?? script,
    handArabic: fonts.handArabic ?? sans,
  };
}

/** The handwriting font a typed mark is drawn in: the Ruqaa file of its script, or DejaVu when it mixes scripts. */
export function handFontFor(text: string, fonts: Fonts): PDFFont {
  return fonts[handFaceFor(text)];
}
