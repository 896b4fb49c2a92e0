import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './package-files.js';

/** paraph's own version, from its package.json. */
export const PARAPH_VERSION: string = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
