// The node:test example of examples/ runs as a user runs it (`node --test examples/node-test/*.test.mjs`), with
// paraph imported by its package name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('examples/node-test passes', { timeout: 120_000 }, async () => {
  // A run of its own, not a part of this one: node:test marks its children with NODE_TEST_CONTEXT.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ['--test', '--test-reporter=spec', 'examples/node-test/*.test.mjs'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 0, out.slice(-4000));
  const passed = Number(/ℹ pass (\d+)/.exec(out)?.[1] ?? 0);
  assert.ok(passed >= 3, `the example's tests ran (${passed} passed):\n${out.slice(-2000)}`);
});
