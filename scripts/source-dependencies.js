// The packages paraph's sources (and its test helpers) import, bundled for the processes that run the sources (the tests, and the
// child processes and worker threads the server starts from them): src/platform/source-imports.ts points
// each bare import named in the manifest written here at its bundle. A test process then reads, resolves
// and links about 400 files instead of about 1,950 (typebox, kysely and pdf-lib alone ship some 1,100
// small modules): 0.3 to 0.4 CPU-seconds less per process, for each of the ~120 test files and the
// children their servers start. dist/paraph.js does the same for users (scripts/bundle.js).
//
// Run by scripts/test.sh before the tests. One bundle with shared chunks (esbuild's splitting), so that a
// package imported through two specifiers (typebox and typebox/value) is one copy with one state. The
// packages scripts/bundle.js keeps external stay in node_modules here too. Nothing is rebuilt when the
// lockfile, this script and the list of imported packages are those of the last build.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'node_modules/.cache/paraph/source-dependencies');
const manifestFile = path.join(out, 'manifest.json');
// Native bindings, and the PDF reader and OCR engine, which load files of their own (as in scripts/bundle.js);
// and the browser driver of the tests, which loads its parts when it needs them.
const EXTERNAL = ['better-sqlite3', '@napi-rs/canvas', 'pdfjs-dist', 'tesseract.js', 'playwright-core'];
const external = (specifier) => EXTERNAL.some((name) => specifier === name || specifier.startsWith(`${name}/`));

// The sources, and the test helpers most test files load.
const sources = ['src', 'test/helpers'].flatMap((dir) =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join(root, dir, file)),
);

/** The bare specifiers of their runtime imports (`import type` statements left out). */
function importedPackages() {
  const found = new Set();
  const statement =
    /(?:^|[;\n])\s*(import|export)(\s+type\b)?[^;'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
  for (const file of sources) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(statement)) {
      if (match[2]) continue;
      const specifier = match[3] ?? match[4] ?? match[5];
      if (/^[./]/.test(specifier) || specifier.startsWith('node:') || external(specifier)) continue;
      found.add(specifier);
    }
  }
  return [...found].sort();
}

const packages = importedPackages();
// The lockfile's hash is also what src/platform/source-imports.ts compares the manifest with.
const lock = createHash('sha256')
  .update(fs.readFileSync(path.join(root, 'package-lock.json')))
  .digest('hex');
const stamp = createHash('sha256')
  .update(lock)
  .update(fs.readFileSync(fileURLToPath(import.meta.url)))
  .update(packages.join('\n'))
  .digest('hex');
let current = null;
try {
  current = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
} catch {}
if (current?.stamp !== stamp) {
  fs.rmSync(out, { recursive: true, force: true });
  const fileName = (specifier) => specifier.replace(/[^a-zA-Z0-9]+/g, '_');
  // Each entry re-exports its package's names as Node sees them: a CommonJS package's named exports are
  // found by loading it (esbuild's ES module output of a CommonJS entry would only have `default`).
  const entries = new Map();
  const usable = [];
  for (const specifier of packages) {
    let namespace;
    try {
      namespace = await import(specifier);
    } catch {
      continue; // not loadable as it stands (a package imported only for its types): left to node_modules
    }
    const names = Object.keys(namespace).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
    if ('default' in namespace) names.push('default');
    entries.set(specifier, `export { ${names.join(', ')} } from ${JSON.stringify(specifier)};\n`);
    usable.push(specifier);
  }
  await build({
    entryPoints: usable.map((specifier) => ({ in: `entry:${specifier}`, out: fileName(specifier) })),
    outdir: out,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: EXTERNAL,
    absWorkingDir: root,
    // Classes and functions keep their names (a bundle renames those that clash): tests read some.
    keepNames: true,
    // CommonJS dependencies inside an ES module still call require() for Node's own modules.
    banner: { js: "import { createRequire as paraphCreateRequire } from 'node:module'; const require = paraphCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    plugins: [
      {
        name: 'paraph-source-dependency-entries',
        setup(b) {
          b.onResolve({ filter: /^entry:/ }, (args) => ({ path: args.path.slice('entry:'.length), namespace: 'paraph-entry' }));
          b.onLoad({ filter: /.*/, namespace: 'paraph-entry' }, (args) => ({ contents: entries.get(args.path), resolveDir: root, loader: 'js' }));
        },
      },
    ],
  });
  const modules = Object.fromEntries(usable.map((specifier) => [specifier, `${fileName(specifier)}.js`]));
  fs.writeFileSync(manifestFile, `${JSON.stringify({ stamp, lock, modules }, null, 2)}\n`);
}
