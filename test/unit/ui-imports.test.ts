// The browser pages' ES modules (signing-ui/, dashboard-ui/): no import circle among them, and each
// page's modules import only from their own folder (what both share, pdf.js, comes from /vendor/).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCircles } from '../../scripts/import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const UI_DIRS = ['signing-ui', 'dashboard-ui'];

/** Each module of the folder with the relative imports it makes (static, re-exports and import()), resolved. */
function uiGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const name of fs.readdirSync(path.join(ROOT, dir)).filter((n) => n.endsWith('.js')).sort()) {
    const text = fs.readFileSync(path.join(ROOT, dir, name), 'utf8');
    const deps = new Set<string>();
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
      deps.add(path.posix.normalize(path.posix.join(dir, (m[1] ?? m[2] ?? m[3])!)));
    }
    graph.set(path.posix.join(dir, name), [...deps]);
  }
  return graph;
}

for (const dir of UI_DIRS) {
  test(`${dir}: its modules import one another without a circle, and nothing outside the folder`, () => {
    const graph = uiGraph(dir);
    assert.ok(graph.size >= 10, `only ${graph.size} modules in ${dir}`);
    const edges = [...graph.values()].flat();
    assert.ok(edges.length > graph.size, 'the imports are read');
    for (const [file, deps] of graph) for (const dep of deps) assert.ok(graph.has(dep), `${file} imports ${dep}, which is not a module of ${dir}/`);
    assert.deepEqual(importCircles(graph), [], 'import circles');
  });
}
