import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PACKAGE_ROOT } from './package-files.js';

/**
 * pdf.js and the OCR engine as paraph runs them. `npm run build` (scripts/bundle.js) copies the files
 * paraph uses into `dist/vendor/`, so the installed package does not depend on pdfjs-dist (41 MB) or
 * tesseract.js (46 MB with its six WebAssembly builds); both are devDependencies. A checkout that has
 * not been built yet (tests run from the sources) uses those packages instead.
 */
const VENDOR_DIR = path.join(PACKAGE_ROOT, 'dist', 'vendor');
const require = createRequire(import.meta.url);

/**
 * pdfjs-dist's folder: `dist/vendor/pdfjs-dist/` holds, in the package's own layout, its licence, the
 * legacy build (`legacy/build/pdf.mjs` and its worker for Node, `pdf.min.mjs` and `pdf.worker.min.mjs`
 * for the browser), the standard fonts, CMaps, ICC profiles and image decoders (`wasm/`).
 */
export const PDFJS_ROOT = vendoredOr('pdfjs-dist', () => path.dirname(require.resolve('pdfjs-dist/package.json')));

/** pdf.js's legacy build folder: `pdf.mjs` (Node) and `pdf.min.mjs`, `pdf.worker.min.mjs` (the browser). */
export const PDFJS_BUILD_DIR = path.join(PDFJS_ROOT, 'legacy', 'build');

/** The URL to import pdf.js from in Node (the legacy build). */
export const PDFJS_MODULE_URL = new URL(`file://${path.join(PDFJS_BUILD_DIR, 'pdf.mjs')}`).href;

/**
 * tesseract.js as paraph runs it: `dist/vendor/tesseract/tesseract.cjs` (its API, bundled) and the
 * worker script it starts (`worker.cjs`, with the engine's WebAssembly next to it); or, before a
 * build, the tesseract.js package (its own worker script).
 */
export const TESSERACT = ((): { moduleUrl: string; workerPath?: string } => {
  const dir = path.join(VENDOR_DIR, 'tesseract');
  if (fs.existsSync(path.join(dir, 'tesseract.cjs'))) {
    return { moduleUrl: new URL(`file://${path.join(dir, 'tesseract.cjs')}`).href, workerPath: path.join(dir, 'worker.cjs') };
  }
  return { moduleUrl: 'tesseract.js' };
})();

function vendoredOr(name: string, fallback: () => string): string {
  const dir = path.join(VENDOR_DIR, name);
  return fs.existsSync(path.join(dir, 'package.json')) ? dir : fallback();
}
