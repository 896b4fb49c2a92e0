// A page with /UserUnit (its unit larger than 1/72 inch) is read in its own units, the units fields are
// given in: the same suggestions and page size as the page without it, never boxes squashed at its edge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { PDFDocument, PDFName, PDFNumber } from '@cantoo/pdf-lib';
import { analyse } from '../../src/pdf/detect-child.js';

const fixture = (name: string) => new Uint8Array(fs.readFileSync(new URL(`../../fixtures/detection/${name}`, import.meta.url)));

async function withUserUnit(bytes: Uint8Array, unit: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes);
  for (const page of pdf.getPages()) page.node.set(PDFName.of('UserUnit'), PDFNumber.of(unit));
  return pdf.save();
}

test('a page with /UserUnit 2 gives the suggestions and page size of the same page without it', async () => {
  for (const name of ['en-buyer-seller.pdf', 'en-underscores.pdf']) {
    const job = { maxPages: 5, ocr: false, languages: ['eng' as const], deadlineMs: 30_000 };
    const plain = await analyse(fixture(name), job, undefined);
    const scaled = await analyse(await withUserUnit(fixture(name), 2), job, undefined);
    assert.ok(plain.suggestions.length > 0, `${name} has places to sign`);
    assert.deepEqual(scaled.pages, plain.pages, name);
    assert.deepEqual(scaled.suggestions, plain.suggestions, name);
  }
});
