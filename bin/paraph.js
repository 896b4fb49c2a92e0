#!/usr/bin/env node
import module from 'node:module';
import v8 from 'node:v8';
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
// Uploads and downloads come and go as buffers outside V8's heap. By default V8 starts a full
// collection each time 64 MB more of them were allocated, which at a few hundred uploads a second
// is most of the CPU; counted with the heap instead, they are collected as the heap grows. V8 12
// (Node 22) does not know the flag (and would print an error), so only newer engines get it.
if (Number(process.versions.v8.split('.')[0]) >= 13) v8.setFlagsFromString('--external-memory-accounted-in-global-limit');
const { main } = await import('../dist/paraph.js');
await main();
