import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { isWoff, sfntFromWoff } from './woff.js';

/**
 * The fonts paraph draws with, all shipped by npm packages, so nothing has to be installed on the
 * machine. DejaVu (`dejavu-fonts-ttf`) for text values: Sans covers Latin (French included) and
 * Arabic. Typed signatures and initials use Aref Ruqaa (`@fontsource/aref-ruqaa`, SIL OFL 1.1), a
 * handwriting (Ruqaa) face with Latin and Arabic, the one the signing page previews them in; it comes
 * as one file per script, and a name that mixes scripts beyond them falls back to DejaVu Serif Italic.
 */
const require = createRequire(import.meta.url);
const DEJAVU_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const RUQAA_DIR = path.dirname(require.resolve('@fontsource/aref-ruqaa/files/aref-ruqaa-latin-400-normal.woff'));
const FILES = {
  sans: path.join(DEJAVU_DIR, 'DejaVuSans.ttf'),
  bold: path.join(DEJAVU_DIR, 'DejaVuSans-Bold.ttf'),
  mono: path.join(DEJAVU_DIR, 'DejaVuSansMono.ttf'),
  script: path.join(DEJAVU_DIR, 'DejaVuSerif-Italic.ttf'),
  handLatin: path.join(RUQAA_DIR, 'aref-ruqaa-latin-400-normal.woff'),
  handLatinExt: path.join(RUQAA_DIR, 'aref-ruqaa-latin-ext-400-normal.woff'),
  handArabic: path.join(RUQAA_DIR, 'aref-ruqaa-arabic-400-normal.woff'),
} as const;
export type FontName = keyof typeof FILES;

const cache = new Map<FontName, Buffer>();

/** A font's file as an sfnt (a WOFF unpacked), read once per process. */
export function bytesOf(name: FontName): Buffer {
  let bytes = cache.get(name);
  if (!bytes) {
    const file = fs.readFileSync(FILES[name]);
    // The handwriting face ships as WOFF: unpacked once here, not at every glyph a subset takes.
    bytes = isWoff(file) ? sfntFromWoff(file) : file;
    cache.set(name, bytes);
  }
  return bytes;
}

/** The face a typed mark is drawn in: the Ruqaa file of its script, or DejaVu when it mixes scripts. */
export function handFaceFor(text: string): FontName {
  const chars = Array.from(text).filter((c) => c.trim() !== '');
  const arabic = (c: string) => /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/u.test(c);
  const latin = (c: string) => c.codePointAt(0)! <= 0xff;
  const latinExt = (c: string) => /[\u0100-\u024F\u1E00-\u1EFF]/u.test(c);
  if (chars.every(arabic)) return 'handArabic';
  if (chars.every(latin)) return 'handLatin';
  if (chars.every(latinExt)) return 'handLatinExt';
  return chars.some(arabic) ? 'sans' : 'script';
}
