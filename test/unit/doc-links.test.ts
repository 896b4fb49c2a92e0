// Every relative link of the README and of docs/ points at a file of the repository (and so of the
// package, which ships README.md, docs/, examples/ and the fixture): none leads outside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGED = ['README.md', 'docs', 'examples', 'fixtures/contract.pdf', 'LICENSE'];

test('the links of the README and docs/ resolve inside what the package ships', () => {
  const pages = [
    'README.md',
    ...fs
      .readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const broken: string[] = [];
  let checked = 0;
  for (const page of pages) {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (!target || /^[a-z]+:/i.test(target)) continue;
      checked += 1;
      const resolved = path.relative(ROOT, path.resolve(ROOT, path.dirname(page), target));
      const shipped = PACKAGED.some((p) => resolved === p || resolved.startsWith(`${p}/`));
      if (!fs.existsSync(path.join(ROOT, resolved)) || !shipped) broken.push(`${page}: ${target}`);
    }
  }
  assert.ok(checked >= 30, `links checked: ${checked}`);
  assert.deepEqual(broken, []);
});
