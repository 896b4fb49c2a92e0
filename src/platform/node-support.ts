// The Node.js lines paraph runs on. Kept free of imports: bin/paraph.js checks the running Node with
// it before loading anything else, because better-sqlite3 13 (Node-API 10) crashes the process on
// older lines instead of throwing.

/** Node 22 from 22.14 (the first 22.x with Node-API 10), and every line from 24 on. */
export const SUPPORTED_NODE = '^22.14.0 || >=24';

/** Why paraph cannot run on Node `version` (like `process.versions.node`), or undefined when it can. */
export function unsupportedNodeMessage(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if ((major === 22 && minor >= 14) || major >= 24) return undefined;
  return [
    `paraph needs Node.js 22.14 or newer on the 22 line, or Node.js 24 or newer; this is Node.js ${version}.`,
    'Supported lines: 22 (maintenance), 24 and 26 (LTS). Install one (for example `nvm install 24`) and run paraph again.',
  ].join('\n');
}
