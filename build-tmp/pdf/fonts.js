import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
/**
 * The fonts paraph draws with: DejaVu, shipped by the `dejavu-fonts-ttf` npm package, so nothing has
 * to be installed on the machine. DejaVu Sans covers Latin (French included) and Arabic; the serif
 * italic, used for typed Latin signatures, has no Arabic and falls back to Sans.
 */
const FILES = {
    sans: 'DejaVuSans.ttf',
    bold: 'DejaVuSans-Bold.ttf',
    mono: 'DejaVuSansMono.ttf',
    script: 'DejaVuSerif-Italic.ttf',
};
const FONT_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const cache = new Map();
function bytesOf(name) {
    let bytes = cache.get(name);
    if (!bytes) {
        bytes = fs.readFileSync(path.join(FONT_DIR, FILES[name]));
        cache.set(name, bytes);
    }
    return bytes;
}
/**
 * fontkit, parsing each font file once per process: pdf-lib parses the file again for every
 * document it is embedded in, and the parsed font keeps the tables and glyphs it decoded, which
 * shaping text needs again in the next document. Each document still gets its own subset.
 */
const parsed = new Map();
const sharedFontkit = {
    ...fontkit,
    create(buffer, postscriptName) {
        let font = parsed.get(buffer);
        if (!font) {
            font = fontkit.create(buffer, postscriptName);
            // Only the few files above come here (the same Buffer each time); a bound all the same.
            if (parsed.size >= 16)
                parsed.clear();
            parsed.set(buffer, font);
        }
        return font;
    },
};
/** Embeds the fonts (subset: only the glyphs used end up in the file). */
export async function embedFonts(doc, names = ['sans', 'bold', 'mono', 'script']) {
    doc.registerFontkit(sharedFontkit);
    const fonts = {};
    for (const name of names)
        fonts[name] = await doc.embedFont(bytesOf(name), { subset: true });
    // Fonts not asked for fall back to Sans, which covers every script paraph draws.
    const sans = fonts.sans ?? (await doc.embedFont(bytesOf('sans'), { subset: true }));
    return { sans, bold: fonts.bold ?? sans, mono: fonts.mono ?? sans, script: fonts.script ?? sans };
}
//# sourceMappingURL=fonts.js.map