// Two rules of the source tree: no source module over 400 lines (a reader holds a module in mind at
// once), and every module of the signing page and the dashboard, which the browser loads as written,
// starts with `// @ts-check` so that `npm run typecheck` (tsconfig.ui.json) checks it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 400;
const SOURCE_DIRS = ['src', 'signing-ui', 'dashboard-ui', 'bin', 'scripts', 'bench'];
const UI_DIRS = ['signing-ui', 'dashboard-ui'];

function modules(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return [];
  return fs
    .readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(?:ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f));
}

function lineCount(file: string): number {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

test(`no source module is over ${MAX_LINES} lines`, () => {
  const files = SOURCE_DIRS.flatMap(modules);
  assert.ok(files.length > 200, `modules found: ${files.length}`);
  const long = files.map((file) => ({ file, lines: lineCount(file) })).filter((f) => f.lines > MAX_LINES);
  assert.deepEqual(long, []);
});

test('every module of the signing page and the dashboard is type-checked', () => {
  const files = UI_DIRS.flatMap(modules);
  assert.ok(files.length > 20, `UI modules found: ${files.length}`);
  const unchecked = files.filter((file) => !fs.readFileSync(path.join(ROOT, file), 'utf8').startsWith('// @ts-check\n'));
  assert.deepEqual(unchecked, []);
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.ui.json'), 'utf8')) as { compilerOptions: Record<string, unknown>; include: string[] };
  assert.equal(config.compilerOptions.checkJs, true);
  assert.equal(config.compilerOptions.strict, true);
  for (const dir of UI_DIRS) assert.ok(config.include.includes(`${dir}/**/*.js`), `tsconfig.ui.json includes ${dir}`);
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  assert.match(scripts.typecheck ?? '', /tsc -p tsconfig\.ui\.json/);
});
