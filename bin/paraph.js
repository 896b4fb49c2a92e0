#!/usr/bin/env node
import module from 'node:module';
import { unsupportedNodeMessage } from '../dist/node-support.js';

// Checked before the CLI loads: on an older Node, the SQLite binding would crash the process.
const unsupported = unsupportedNodeMessage(process.versions.node);
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}
// Node keeps the compiled code of paraph and its dependencies on disk (in the system's temporary
// directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so every start after the first is faster.
module.enableCompileCache?.();
const { main } = await import('../dist/paraph.js');
await main();
