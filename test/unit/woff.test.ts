// WOFF 1.0 to sfnt (src/pdf/woff.ts): the handwriting font unpacked once gives fontkit the same font
// (tables, glyphs, metrics, shaping) as the WOFF file it came from, and bad files are refused.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import fontkit from '@pdf-lib/fontkit';
import { isWoff, sfntFromWoff } from '../../src/pdf/woff.js';

const require = createRequire(import.meta.url);
const FILES = ['latin', 'latin-ext', 'arabic'].map((script) => require.resolve(`@fontsource/aref-ruqaa/files/aref-ruqaa-${script}-400-normal.woff`));

test('each Aref Ruqaa WOFF file and its sfnt are the same font to fontkit', () => {
  for (const file of FILES) {
    const woff = fs.readFileSync(file);
    assert.ok(isWoff(woff), file);
    const sfnt = sfntFromWoff(woff);
    assert.ok(!isWoff(sfnt));
    assert.equal(sfnt.readUInt32BE(0), woff.readUInt32BE(4), 'the sfnt version is the WOFF flavor');
    const a = fontkit.create(woff) as unknown as {
      constructor: { name: string };
      characterSet: number[];
      numGlyphs: number;
      unitsPerEm: number;
      postscriptName: string;
      layout(text: string): { glyphs: Array<{ id: number }>; advanceWidth: number };
    };
    const b = fontkit.create(sfnt) as unknown as typeof a;
    assert.equal(a.constructor.name, 'WOFFFont');
    assert.equal(b.constructor.name, 'TTFFont');
    assert.equal(b.numGlyphs, a.numGlyphs);
    assert.equal(b.unitsPerEm, a.unitsPerEm);
    assert.equal(b.postscriptName, a.postscriptName);
    // A name in the file's script; the latin-ext file holds only a few marks and signs: those, then.
    const sample = file.includes('arabic')
      ? 'ليلى حداد'
      : file.includes('latin-ext')
        ? String.fromCodePoint(...a.characterSet.filter((c) => c > 32 && c < 0xfff0))
        : 'Jeanne Dupré';
    const la = a.layout(sample);
    const lb = b.layout(sample);
    assert.deepEqual(
      lb.glyphs.map((g) => g.id),
      la.glyphs.map((g) => g.id),
      `${sample}: the same glyphs after shaping`,
    );
    assert.equal(lb.advanceWidth, la.advanceWidth);
    assert.ok(
      la.glyphs.every((g) => g.id !== 0),
      `${sample}: no missing glyph`,
    );
  }
});

test('a file that is not WOFF, or whose tables run past its end, is refused', () => {
  assert.throws(() => sfntFromWoff(Buffer.from('not a font at all, not even close to 44 bytes long....')), /not a WOFF font/);
  const woff = fs.readFileSync(FILES[0]!);
  assert.throws(() => sfntFromWoff(woff.subarray(0, woff.length - 100)), /past the end/);
});
