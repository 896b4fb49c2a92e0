#!/usr/bin/env node
import { unsupportedNodeMessage } from '../dist/node-support.js';

// Checked before the CLI loads: on an older Node, the SQLite binding would crash the process.
const unsupported = unsupportedNodeMessage(process.versions.node);
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}
const { main } = await import('../dist/cli/index.js');
await main();
