// The test processes load the packages the sources import from their bundle (scripts/source-dependencies.js,
// built by scripts/test.sh; src/platform/source-imports.ts points the imports at it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import { Value } from 'typebox/value';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(ROOT, 'node_modules/.cache/paraph/source-dependencies');
const built = fs.existsSync(path.join(BUNDLE, 'manifest.json'));

test('the packages the sources import resolve to their bundle, the external ones to node_modules', {
  skip: !built && 'no bundle: run through scripts/test.sh',
}, () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(BUNDLE, 'manifest.json'), 'utf8')) as { modules: Record<string, string> };
  for (const name of ['typebox', 'typebox/value', 'kysely', 'fastify', '@cantoo/pdf-lib', 'pino']) {
    assert.ok(manifest.modules[name], `${name} is bundled`);
    assert.equal(fileURLToPath(import.meta.resolve(name)), path.join(BUNDLE, manifest.modules[name] as string), name);
  }
  for (const name of ['better-sqlite3', 'playwright-core']) {
    assert.equal(manifest.modules[name], undefined, `${name} is not bundled`);
    assert.match(fileURLToPath(import.meta.resolve(name)), /\/node_modules\//, name);
  }
});

test('a package bundled under two names is one copy: typebox/value checks typebox types', () => {
  const schema = Type.Object({ name: Type.String({ minLength: 1 }) });
  assert.equal(Value.Check(schema, { name: 'Ada' }), true);
  assert.equal(Value.Check(schema, { name: '' }), false);
});

test('a CommonJS package keeps its named exports and its default', async () => {
  const pino = await import('pino');
  assert.equal(typeof pino.pino, 'function');
  assert.equal(typeof pino.default, 'function');
  assert.equal(typeof pino.stdSerializers.err, 'function');
});
