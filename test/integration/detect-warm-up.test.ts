// The detection child's warm-up (src/pdf/detect/warm-up.ts): the small document a child started ahead of
// documents reads while none waits goes through what real documents take (a text page's rules, and a scan
// with a text layer whose lines are found in its image), and stops at the next page once a document comes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyse } from '../../src/pdf/detect-child.js';
import { OcrEngine } from '../../src/pdf/detect/ocr-engine.js';
import { availableLanguages } from '../../src/pdf/detect/ocr-languages.js';
import type { PageModel } from '../../src/pdf/detect/page-model.js';
import { warmUp, type WarmRead } from '../../src/pdf/detect/warm-up.js';
import { useTmpDir } from '../helpers/server.js';

test('the warm-up reads a text page with its signature and date, and a scan with a text layer whose lines come from its image', async (t) => {
  const ocr = new OcrEngine(useTmpDir(t));
  t.after(() => ocr.close());
  const told: Array<{ page: number; segments: number }> = [];
  const analyses: Array<Awaited<ReturnType<typeof analyse>>> = [];
  const read: WarmRead = async (bytes, job, afterPage) => {
    const analysis = await analyse(bytes, job, ocr, {
      opened() {},
      page(done, model: PageModel) {
        told.push({ page: done.page.page, segments: model.segments.length });
        afterPage();
      },
    });
    analyses.push(analysis);
  };
  await warmUp(read, () => false);
  const [analysis] = analyses;
  assert.ok(analysis, 'read');
  assert.deepEqual(
    analysis.suggestions
      .filter((s) => s.page === 1)
      .map((s) => s.type)
      .sort(),
    ['date', 'signature'],
    JSON.stringify(analysis.suggestions),
  );
  assert.equal(ocr.loaded, false, 'no OCR worker started: no page of it is a scan OCR reads');
  if (availableLanguages().length === 0) return;
  assert.equal(analysis.stats.pageCount, 2);
  // The scan is told twice: with its text, then with the three lines of its image.
  const scan = told.filter((p) => p.page === 2);
  assert.deepEqual(
    scan.map((p) => p.segments),
    [0, 3],
  );
});

test('a document that comes during the warm-up stops it at the next page, and the warm-up does not fail for it', async () => {
  let pages = 0;
  let comes = false;
  const read: WarmRead = async (bytes, job, afterPage) => {
    await analyse(bytes, job, undefined, {
      opened() {},
      page() {
        pages += 1;
        comes = true;
        afterPage();
      },
    });
  };
  await warmUp(read, () => comes);
  assert.equal(pages, 1, 'the second page was not read');
  pages = 0;
  await warmUp(read, () => true);
  assert.equal(pages, 0, 'a document there before the warm-up is read: the warm-up does not start');
});
