#!/usr/bin/env node
import module from 'node:module';
import os from 'node:os';
import v8 from 'node:v8';
import { onVirtualFileSystem } from '../dist/platform/virtual-file-systems.js';
import { unsupportedNodeMessage } from '../dist/platform/node-support.js';

// Checked before the CLI loads: on an older Node, the SQLite binding would crash the process.
const unsupported = unsupportedNodeMessage(process.versions.node);
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}
// A working directory deleted under the shell: paraph's dependencies read it as they load, and would
// end with a stack trace.
try {
  process.cwd();
} catch {
  process.stderr.write('paraph: the current directory no longer exists (deleted or moved): cd to an existing directory and run paraph again\n');
  process.exit(1);
}
// Node keeps the compiled code of paraph and its dependencies on disk (in the system's temporary
// directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so every start after the first is faster.
// Not where the temporary directory is one of the kernel's views (TMPDIR=/proc), on which Node's cache never returns.
if (!onVirtualFileSystem(os.tmpdir())) module.enableCompileCache?.();
// A long-running server favours a small heap: V8 collects sooner instead of growing (peak RSS through
// `npm run bench` 302 -> 254 MiB, and a little less CPU per create, with GET unchanged). Set before
// anything is loaded, so the artifact worker and every heap of the process run with it.
if (process.argv[2] === 'serve') v8.setFlagsFromString('--optimize-for-size');
const { main } = await import('../dist/paraph.js');
await main();
