// Builds dist/paraph.js: the CLI and server in one ES module, which bin/paraph.js loads. Node then
// reads, resolves and links one file at start-up instead of about 1,300 (typebox and kysely alone ship
// some 900 small modules). Run by `npm run build` after tsc; the modules in dist/ stay, for the child
// processes and the worker (dist/pdf/*), which start from their own files (bundled in place below).
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // A native binding, and the PDF reader and OCR engine, which load files of their own (and run only in the detection child).
  external: ['better-sqlite3', 'pdfjs-dist', 'tesseract.js'],
  // CommonJS dependencies inside an ES module still call require() for Node's own modules.
  banner: { js: "import { createRequire as paraphCreateRequire } from 'node:module'; const require = paraphCreateRequire(import.meta.url);" },
  logLevel: 'warning',
};

await build({ ...common, entryPoints: [path.join(root, 'dist/cli/index.js')], outfile: path.join(root, 'dist/paraph.js') });
// The artifact worker and the inspection child start once per server and again after a fault or a
// large document: each replaces its compiled module in place with one file holding its dependencies.
for (const entry of ['dist/pdf/artifact-worker.js', 'dist/pdf/inspect-child.js']) {
  await build({ ...common, entryPoints: [path.join(root, entry)], outfile: path.join(root, entry), allowOverwrite: true });
}
