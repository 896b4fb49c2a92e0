// Every line: which Node versions paraph accepts, read from the running line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUPPORTED_NODE, unsupportedNodeMessage } from '../../src/platform/node-support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('Node 22.14 and later on the 22 line, and 24 and later, are supported', () => {
  for (const version of ['22.14.0', '22.23.3', '24.0.0', '24.21.0', '25.2.1', '26.10.0', '28.0.0']) {
    assert.equal(unsupportedNodeMessage(version), undefined, version);
  }
});

test('older lines get a message naming the running version and the supported lines', () => {
  for (const version of ['18.20.8', '20.19.0', '20.20.2', '22.13.1', '22.0.0', '23.11.1']) {
    const message = unsupportedNodeMessage(version);
    assert.ok(message, version);
    assert.match(message, new RegExp(`this is Node\\.js ${version.replace(/\./g, '\\.')}\\.`));
    assert.match(message, /paraph needs Node\.js 22\.14 or newer on the 22 line, or Node\.js 24 or newer/);
    assert.match(message, /22 \(maintenance\), 24 and 26 \(LTS\)/);
  }
});

test('package.json engines says the same range as the start-up check', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  assert.equal(pkg.engines.node, SUPPORTED_NODE);
});

test('this test run itself is on a supported line', () => {
  assert.equal(unsupportedNodeMessage(process.versions.node), undefined, `running on ${process.version}`);
});
