// What the API checks text against (src/pdf/font-coverage.ts reads each font's cmap itself) is what the artifact
// worker's font engine draws: the two agree on every code point of the planes paraph's users write in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fontkit from '@pdf-lib/fontkit';
import { charactersNotDrawn, faceCovers, undrawnTextProblem } from '../../src/pdf/font-coverage.js';
import { bytesOf, type FontName } from '../../src/pdf/font-files.js';

test('the cmap read by paraph agrees with fontkit on every code point of the BMP and the emoji blocks, for every face', () => {
  const faces: FontName[] = ['sans', 'script', 'handLatin', 'handLatinExt', 'handArabic'];
  for (const face of faces) {
    const font = fontkit.create(bytesOf(face)) as unknown as { hasGlyphForCodePoint(cp: number): boolean };
    let covered = 0;
    for (const [from, to] of [
      [0x0, 0xffff],
      [0x1f300, 0x1faff],
    ] as const) {
      for (let cp = from; cp <= to; cp++) {
        const expected = font.hasGlyphForCodePoint(cp);
        if (faceCovers(face, cp) !== expected) assert.fail(`${face} U+${cp.toString(16)}: paraph ${!expected}, fontkit ${expected}`);
        if (expected) covered += 1;
      }
    }
    assert.ok(covered > 0, `${face}: no code point covered`);
  }
});

test('typed marks: Latin and Arabic letters are drawn in the handwriting faces; other scripts in DejaVu, emoji nowhere', () => {
  assert.deepEqual(charactersNotDrawn('Ada Lovelace', 'mark'), []);
  assert.deepEqual(charactersNotDrawn('Zoë Ångström', 'mark'), []);
  assert.deepEqual(charactersNotDrawn('محمد علي', 'mark'), []);
  assert.deepEqual(charactersNotDrawn('Ελένη', 'mark'), []);
  assert.deepEqual(charactersNotDrawn('Ada 😀', 'mark'), ['😀']);
  assert.deepEqual(charactersNotDrawn('山田', 'mark'), ['山', '田']);
  assert.equal(undrawnTextProblem('signature.text', 'Ada', 'mark'), null);
  assert.match(
    undrawnTextProblem('fields[0].value', '東京', 'value') ?? '',
    /^fields\[0\]\.value holds characters the signed PDF's fonts cannot draw \(東 京\)/,
  );
});
