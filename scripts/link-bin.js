// Run by `npm run prepare` (after `npm ci` in a clone): makes `npx paraph` in the checkout run this
// checkout's bin at once. Without the link, npx would install the checkout as a package in its own
// cache, building it again, and keep running that copy.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binDir = path.join(root, 'node_modules', '.bin');
if (fs.existsSync(path.join(root, 'node_modules'))) {
  fs.mkdirSync(binDir, { recursive: true });
  const link = path.join(binDir, 'paraph');
  const target = path.relative(binDir, path.join(root, 'bin', 'paraph.js'));
  let current = null;
  try {
    current = fs.readlinkSync(link);
  } catch {}
  if (current !== target) {
    fs.rmSync(link, { force: true });
    fs.symlinkSync(target, link);
  }
}
