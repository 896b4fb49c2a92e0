// Builds dist/paraph.js: the CLI and server as ES modules, which bin/paraph.js loads. Node then reads,
// resolves and links a few dozen files at start-up instead of about 1,300 (typebox and kysely alone ship
// some 900 small modules): dist/paraph.js holds what every command needs, and each command's code is in
// chunks beside it (dist/paraph-*.js) that are loaded when the command line names that command
// (src/cli/index.ts): `serve` loads 36 files, `keys` 13 and a fifth of the bytes, so that `paraph keys
// create` does not load the server. Run by `npm run build` after tsc; the modules in dist/ stay, for the child
// processes and the worker (dist/pdf/*), which start from their own files (bundled in place below).
// Then the parts of pdf.js and tesseract.js paraph runs go into dist/vendor/ (src/platform/vendored.ts),
// and dist/THIRD-PARTY-NOTICES.md gets the licence of every package whose code is in dist/.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // A native binding, and the PDF reader and OCR engine, which load files of their own (and run only in
  // the detection child): those two are copied into dist/vendor/ below and loaded from there.
  external: ['better-sqlite3', 'pdfjs-dist', 'tesseract.js'],
  metafile: true,
  // CommonJS dependencies inside an ES module still call require() for Node's own modules.
  banner: { js: "import { createRequire as paraphCreateRequire } from 'node:module'; const require = paraphCreateRequire(import.meta.url);" },
  logLevel: 'warning',
};

/** The packages each bundle holds (from esbuild's metafiles), for the licence notices. */
const bundled = new Map();
function record(outfile, result) {
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (!match) continue;
    const dir = input.slice(0, match.index + match[0].length);
    if (!bundled.has(dir)) bundled.set(dir, new Set());
    bundled.get(dir).add(path.relative(root, outfile));
  }
}

const paraph = path.join(root, 'dist/paraph.js');
// (The chunks sit beside dist/paraph.js, so that a module that finds files from its own URL finds them from any of them.)
record(
  paraph,
  await build({
    ...common,
    entryPoints: { paraph: path.join(root, 'dist/cli/index.js') },
    outdir: path.join(root, 'dist'),
    splitting: true,
    chunkNames: 'paraph-[hash]',
  }),
);
// The artifact worker and the inspection child start once per server and again after a fault or a
// large document: each replaces its compiled module in place with one file holding its dependencies. So
// does the module of the detection child that reads a form with pdf-lib (which is not installed with paraph).
for (const entry of ['dist/pdf/artifact-worker.js', 'dist/pdf/inspect-child.js', 'dist/pdf/detect/signed-fields.js']) {
  const outfile = path.join(root, entry);
  record(outfile, await build({ ...common, entryPoints: [outfile], outfile, allowOverwrite: true }));
}

// pdf.js (src/platform/vendored.ts): the files paraph uses, in pdfjs-dist's own layout, so that the
// installed package does not need pdfjs-dist (41 MB, mostly source maps and builds paraph does not
// load). Node's legacy build and its worker, the browser's minified pair the signing page and the
// dashboard load (served under /vendor/), and the data pdf.js reads by path.
const pdfjsFrom = path.dirname(require.resolve('pdfjs-dist/package.json'));
const pdfjsTo = path.join(root, 'dist/vendor/pdfjs-dist');
for (const file of [
  'package.json',
  'LICENSE',
  'legacy/build/pdf.mjs',
  'legacy/build/pdf.worker.mjs',
  'legacy/build/pdf.min.mjs',
  'legacy/build/pdf.worker.min.mjs',
]) {
  fs.mkdirSync(path.dirname(path.join(pdfjsTo, file)), { recursive: true });
  fs.copyFileSync(path.join(pdfjsFrom, file), path.join(pdfjsTo, file));
}
for (const dir of ['standard_fonts', 'cmaps', 'iccs', 'wasm']) fs.cpSync(path.join(pdfjsFrom, dir), path.join(pdfjsTo, dir), { recursive: true });
bundled.set('node_modules/pdfjs-dist/', new Set(['dist/vendor/pdfjs-dist/ (copied files, with their own licence files)']));

// tesseract.js (src/platform/vendored.ts): its API and its Node worker script, each bundled into one
// CommonJS file, and the two builds of the engine the worker may load (scripts/vendor/tesseract-get-core.cjs),
// instead of tesseract.js-core's six builds in eighteen files (46 MB). node-fetch is left out: tesseract.js
// uses Node's own fetch.
const tesseractTo = path.join(root, 'dist/vendor/tesseract');
fs.mkdirSync(tesseractTo, { recursive: true });
const cjs = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['node-fetch'],
  metafile: true,
  absWorkingDir: root,
  logLevel: 'warning',
};
const tesseractApi = path.join(tesseractTo, 'tesseract.cjs');
record(tesseractApi, await build({ ...cjs, entryPoints: [require.resolve('tesseract.js')], outfile: tesseractApi }));
const tesseractWorker = path.join(tesseractTo, 'worker.cjs');
const getCore = {
  name: 'paraph-tesseract-core',
  setup(b) {
    b.onResolve({ filter: /^\.\/getCore$/ }, (args) =>
      args.importer.endsWith(path.join('worker-script', 'node', 'index.js')) ? { path: path.join(root, 'scripts/vendor/tesseract-get-core.cjs') } : undefined,
    );
    b.onResolve({ filter: /^\.\/tesseract-core[a-z-]*\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
const workerScript = path.join(path.dirname(require.resolve('tesseract.js')), 'worker-script/node/index.js');
record(tesseractWorker, await build({ ...cjs, entryPoints: [workerScript], outfile: tesseractWorker, plugins: [getCore] }));
const coreFrom = path.dirname(require.resolve('tesseract.js-core/package.json', { paths: [path.dirname(require.resolve('tesseract.js'))] }));
for (const file of ['tesseract-core-relaxedsimd.js', 'tesseract-core-relaxedsimd.wasm', 'tesseract-core.js', 'tesseract-core.wasm']) {
  fs.copyFileSync(path.join(coreFrom, file), path.join(tesseractTo, file));
}
bundled.set(path.relative(root, coreFrom) + '/', new Set(['dist/vendor/tesseract/ (two of its builds)']));
// CommonJS files in a package of ES modules.
fs.writeFileSync(path.join(tesseractTo, 'package.json'), '{ "type": "commonjs" }\n');

// The licence notices of every package whose code is in dist/: its name, version, licence and the
// licence file it ships.
const notices = [...bundled]
  .map(([dir, outputs]) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    const file = fs.readdirSync(path.join(root, dir)).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file ? fs.readFileSync(path.join(root, dir, file), 'utf8').trim() : `(no licence file; package.json says ${pkg.license})`;
    return {
      name: pkg.name,
      text: `## ${pkg.name} ${pkg.version} (${pkg.license ?? 'no licence field'})\n\nIn ${[...outputs].sort().join(', ')}.\n\n${text}\n`,
    };
  })
  .sort((a, b) => a.name.localeCompare(b.name));
fs.writeFileSync(
  path.join(root, 'dist/THIRD-PARTY-NOTICES.md'),
  `# Third-party software in dist/\n\nThe packages built into paraph's dist/ files, with their licences.\n\n${notices.map((n) => n.text).join('\n')}`,
);
