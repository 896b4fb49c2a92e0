// Writes docs/cli.md from the commander definitions in src/cli/ (npm run docs:cli). The test
// test/unit/cli-reference.test.ts fails while the file differs from what this writes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliReference, REFERENCE_FILE } from '../src/cli/reference.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, REFERENCE_FILE);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, await cliReference());
process.stdout.write(`wrote ${REFERENCE_FILE}\n`);
