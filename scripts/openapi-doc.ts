// Writes docs/openapi.json, the document `GET /v1/openapi.json` serves (npm run docs:openapi), from a
// throwaway server. test/integration/openapi.test.ts fails while the file differs from what is served.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from '../src/platform/config.js';
import { createLog } from '../src/platform/log.js';
import { startParaph } from '../src/server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = resolveConfig({ port: '0', smtpPort: '0', ephemeral: true, logLevel: 'silent' }, {}, root);
const running = await startParaph(config, { log: createLog('silent') });
try {
  const document = await (await fetch(`${running.url}/v1/openapi.json`)).json();
  fs.writeFileSync(path.join(root, 'docs/openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write('wrote docs/openapi.json\n');
} finally {
  await running.close();
}
