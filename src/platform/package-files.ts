import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where paraph's own files are. paraph runs from its compiled modules (dist/…), from the one-file
 * build `bin/paraph.js` loads (dist/paraph.js), or from its TypeScript sources (tests; platform/source-imports.ts):
 * the package folder is the nearest one above this module that holds package.json and signing-ui/.
 */
export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/** True when paraph runs from its sources: its child processes and workers then load .ts files (platform/source-imports.ts). */
export const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** A module of paraph's own as a file URL, e.g. `pdf/inspect-child`: dist/pdf/inspect-child.js, or src/pdf/inspect-child.ts. */
export function ownModuleUrl(name: string): URL {
  const file = FROM_SOURCE ? path.join(PACKAGE_ROOT, 'src', `${name}.ts`) : path.join(PACKAGE_ROOT, 'dist', `${name}.js`);
  return new URL(`file://${file}`);
}

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'signing-ui'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`paraph cannot find its package folder above ${from}`);
  }
}
