// paraph's layering, checked on the real import graph of src/: runtime → features → model → context → pdf →
// platform → db → contract → domain. A module that imports a layer above its own or an import circle
// fails here, naming the modules (the 400-line limit is test/unit/source-shape.test.ts).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCircles, importGraph, layerOf, LAYERS, upwardImports } from '../../scripts/import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const graph = importGraph(ROOT);

test('the graph is read from the real sources: every module has a layer, and the layers are all there', () => {
  assert.ok(graph.size > 200, `only ${graph.size} modules found under src/`);
  const seen = new Set([...graph.keys()].map(layerOf));
  assert.deepEqual([...seen].sort(), [...LAYERS].sort());
  // Imports are resolved: the request guard imports the request queries.
  assert.ok(graph.get('src/model/request-guard.ts')?.includes('src/model/request-queries.ts'));
  for (const deps of graph.values()) for (const dep of deps) assert.ok(graph.has(dep), `${dep} is imported but is not a module under src/`);
});

test('no module imports a layer above its own', () => {
  const up = upwardImports(graph).map(([from, to]) => `${from} (${layerOf(from)}) imports ${to} (${layerOf(to)})`);
  assert.deepEqual(up, []);
});

test('nothing below the HTTP layer imports it', () => {
  const found = [...graph].flatMap(([file, deps]) =>
    file.startsWith('src/http/') ? [] : deps.filter((dep) => dep.startsWith('src/http/')).map((dep) => `${file} -> ${dep}`),
  );
  // The CLI and the programmatic API start the server, which builds the HTTP app; nothing else may.
  assert.deepEqual(found.filter((edge) => !/^src\/(server|cli\/|programmatic\/)/.test(edge)), []);
});

test('the runtime (routes, CLI, SMTP catcher, scheduler) never touches the database: it calls use cases', () => {
  const found = [...graph].flatMap(([file, deps]) =>
    layerOf(file) === 'runtime' ? deps.filter((dep) => dep.startsWith('src/db/')).map((dep) => `${file} -> ${dep}`) : [],
  );
  assert.deepEqual(found, []);
});

test('the domain imports nothing of paraph but itself', () => {
  const found = [...graph].flatMap(([file, deps]) =>
    file.startsWith('src/domain/') ? deps.filter((dep) => !dep.startsWith('src/domain/')).map((dep) => `${file} -> ${dep}`) : [],
  );
  assert.deepEqual(found, []);
});

test('no import circle', () => {
  assert.deepEqual(importCircles(graph), []);
});

test('the rule catches what it should: a made-up upward import and a made-up circle are found', () => {
  const fake = new Map(graph);
  fake.set('src/domain/limits.ts', [...(graph.get('src/domain/limits.ts') ?? []), 'src/model/request-queries.ts']);
  assert.ok(upwardImports(fake).some(([from, to]) => from === 'src/domain/limits.ts' && to === 'src/model/request-queries.ts'));
  fake.set('src/model/request-queries.ts', [...(graph.get('src/model/request-queries.ts') ?? []), 'src/domain/limits.ts']);
  assert.ok(importCircles(fake).some((circle) => circle.includes('src/domain/limits.ts')));
});
