import { createRequire } from 'node:module';
/** paraph's own version, from its package.json (one level above src/ and dist/). */
export const PARAPH_VERSION = createRequire(import.meta.url)('../package.json').version;
//# sourceMappingURL=version.js.map