// paraph's layering, checked on the real import graph of src/: runtime → features → model → context → pdf →
// platform → db → contract → domain. A module that imports a layer above its own, an import circle, or a
// circle between folders (src/features/<feature>, src/<folder>, and each module of signing-ui/ and
// dashboard-ui/) fails here, naming them (the 400-line limit is test/unit/source-shape.test.ts).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { browserGraph, folderCircles, importCircles, importGraph, layerOf, LAYERS, upwardImports } from '../../scripts/import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const graph = importGraph(ROOT);
const browser = browserGraph(ROOT);

test('the graph is read from the real sources: every module has a layer, and the layers are all there', () => {
  assert.ok(graph.size > 200, `only ${graph.size} modules found under src/`);
  const seen = new Set([...graph.keys()].map(layerOf));
  assert.deepEqual([...seen].sort(), [...LAYERS].sort());
  // Imports are resolved: the request guard imports the request queries.
  assert.ok(graph.get('src/model/request-guard.ts')?.includes('src/model/request-queries.ts'));
  for (const deps of graph.values()) for (const dep of deps) assert.ok(graph.has(dep), `${dep} is imported but is not a module under src/`);
  // The browser folders' modules, with their imports resolved too.
  assert.ok(browser.get('signing-ui/app.js')?.includes('signing-ui/api.js'));
  assert.ok(browser.get('dashboard-ui/pdf-preview.js')?.includes('dashboard-ui/api.js'));
  for (const deps of browser.values()) for (const dep of deps) assert.ok(browser.has(dep), `${dep} is imported but is not a module of the browser folders`);
  // Each page imports only from its own folder (what both share, pdf.js, is served from /vendor/).
  for (const [file, deps] of browser) for (const dep of deps) assert.equal(dep.split('/')[0], file.split('/')[0], `${file} imports ${dep}, outside its folder`);
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
  assert.deepEqual(
    found.filter((edge) => !/^src\/(server|cli\/|programmatic\/)/.test(edge)),
    [],
  );
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

test('no circle between the folders of src/: feature folders import the model below them, never each other in a ring', () => {
  assert.deepEqual(folderCircles(graph), []);
});

test('no import circle between the modules of signing-ui/ and dashboard-ui/', () => {
  assert.deepEqual(folderCircles(browser), []);
});

test('the rule catches what it should: a made-up upward import and a made-up circle are found', () => {
  const fake = new Map(graph);
  fake.set('src/domain/limits.ts', [...(graph.get('src/domain/limits.ts') ?? []), 'src/model/request-queries.ts']);
  assert.ok(upwardImports(fake).some(([from, to]) => from === 'src/domain/limits.ts' && to === 'src/model/request-queries.ts'));
  fake.set('src/model/request-queries.ts', [...(graph.get('src/model/request-queries.ts') ?? []), 'src/domain/limits.ts']);
  assert.ok(importCircles(fake).some((circle) => circle.includes('src/domain/limits.ts')));
  // Two feature folders that import each other, through modules that do not form a module circle.
  const mail = new Map(graph);
  assert.ok(graph.get('src/features/requests/activate-signature-request.ts')?.includes('src/features/mail/outbox.ts'));
  mail.set('src/features/mail/compose.ts', [...(graph.get('src/features/mail/compose.ts') ?? []), 'src/features/requests/request-views.ts']);
  assert.deepEqual(importCircles(mail), []);
  assert.ok(folderCircles(mail).some((circle) => circle.includes('src/features/mail') && circle.includes('src/features/requests')));
  // In the browser folders each module is a unit of its own.
  const ui = new Map(browser);
  ui.set('dashboard-ui/api.js', [...(browser.get('dashboard-ui/api.js') ?? []), 'dashboard-ui/app.js']);
  assert.ok(folderCircles(ui).some((circle) => circle.includes('dashboard-ui/api.js') && circle.includes('dashboard-ui/app.js')));
});
