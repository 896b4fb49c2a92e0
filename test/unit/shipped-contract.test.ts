// paraph ships copies of the API description and of the sandbox contract in docs/ (the README links
// them): each must say what the original beside the checkout says (../shared), but for the lines that
// name where the copy sits. Without ../shared (a packed install) the test skips; in CI it fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IN_CI } from '../helpers/system-tools.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = path.join(ROOT, '..', 'shared');

/** Each copy, its original, and how the copy's own lines differ (a line of its own at the top, a link instead of a path). */
const COPIES = [
  { copy: 'docs/api-description.md', original: 'spec/signature-request-api.md', ownFirstLine: true },
  { copy: 'docs/sandbox-contract.md', original: 'docs/sandbox-contract.md', ownFirstLine: false },
];

/** A line naming the API description by its path beside the checkout, or by the copy's link: the same line for this test. */
const whereTheDescriptionIs = (line: string) =>
  line.replace('`../shared/spec/signature-request-api.md` is the API description this', '[The API description](api-description.md) is what this');

for (const { copy, original, ownFirstLine } of COPIES) {
  const originalPath = path.join(SHARED, original);
  const present = fs.existsSync(originalPath);
  test(`${copy} says what ../shared/${original} says`, { skip: !present && !IN_CI ? `../shared/${original} is not beside this checkout` : false }, () => {
    assert.ok(present, `../shared/${original} is missing (CI runs beside ../shared)`);
    const theirs = fs.readFileSync(originalPath, 'utf8').split('\n').map(whereTheDescriptionIs);
    const ours = fs.readFileSync(path.join(ROOT, copy), 'utf8').split('\n');
    if (ownFirstLine) {
      assert.match(ours[0] ?? '', /^<!-- paraph's copy of the API description/);
      ours.shift();
    }
    const differing = theirs.flatMap((line, i) => (line === ours[i] ? [] : [`line ${i + 1}:\n  original: ${line}\n  copy:     ${ours[i] ?? '(none)'}`]));
    assert.equal(ours.length, theirs.length, `${copy} has ${ours.length} lines, the original ${theirs.length}`);
    assert.deepEqual(differing, []);
  });
}
