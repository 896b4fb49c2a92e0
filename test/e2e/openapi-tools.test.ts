// The OpenAPI document in the tools users feed it to: Redocly and Spectral lint it clean, the typed
// client of examples/openapi-fetch (openapi-typescript with its default options, openapi-fetch) is
// current, compiles with `tsc --strict` and runs a whole flow, and the shell blocks of
// docs/openapi.md run as written against a real server.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveProcess } from '../helpers/cli.js';
import { useTmpDir } from '../helpers/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const bin = (pkg: string, file: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
const REDOCLY = bin('@redocly/cli', 'bin/cli.js');
const SPECTRAL = bin('@stoplight/spectral-cli', 'dist/index.js');
const OPENAPI_TS = bin('openapi-typescript', 'bin/cli.js');
const TSC = bin('typescript', 'bin/tsc');
const QUIET = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1', NO_UPDATE_NOTIFIER: '1' };

async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; out: string; stdout: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...QUIET, ...options.env };
  // A run of its own, not a part of this one.
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, out, stdout };
}

test('Redocly lint (recommended): 0 errors, 0 warnings', { timeout: 120_000 }, async () => {
  const result = await run(process.execPath, [REDOCLY, 'lint', '--format=json', 'docs/openapi.json']);
  const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
  assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 }, JSON.stringify(report.problems.slice(0, 10), null, 2));
  assert.equal(result.code, 0);
});

test('Spectral (spectral:oas): 0 errors, 0 warnings', { timeout: 120_000 }, async (t) => {
  const dir = useTmpDir(t);
  const ruleset = path.join(dir, '.spectral.yaml');
  fs.writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
  const output = path.join(dir, 'spectral.json');
  const result = await run(process.execPath, [
    SPECTRAL,
    'lint',
    '--ruleset',
    ruleset,
    '--format',
    'json',
    '--output',
    output,
    '--fail-severity',
    'warn',
    'docs/openapi.json',
  ]);
  const problems = JSON.parse(fs.readFileSync(output, 'utf8')) as Array<{ code: string; message: string; path: string[] }>;
  assert.deepEqual(
    problems.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`),
    [],
  );
  assert.equal(result.code, 0, result.out.slice(-2000));
});

test('examples/openapi-fetch: types current with the document, tsc --strict clean, a whole flow run', { timeout: 180_000 }, async (t) => {
  const dir = useTmpDir(t);
  const generated = path.join(dir, 'paraph-api.d.ts');
  const generate = await run(process.execPath, [OPENAPI_TS, 'docs/openapi.json', '-o', generated]);
  assert.equal(generate.code, 0, generate.out);
  assert.equal(
    fs.readFileSync(path.join(ROOT, 'examples/openapi-fetch/paraph-api.d.ts'), 'utf8'),
    fs.readFileSync(generated, 'utf8'),
    'examples/openapi-fetch/paraph-api.d.ts is not what openapi-typescript writes from docs/openapi.json: regenerate it',
  );
  const compiled = await run(process.execPath, [TSC, '-p', 'examples/openapi-fetch']);
  assert.equal(compiled.code, 0, compiled.out);
  assert.equal(compiled.out.trim(), '');

  const flow = await run(process.execPath, ['--import', 'tsx', 'examples/openapi-fetch/signing-flow.ts']);
  assert.equal(flow.code, 0, flow.out.slice(-3000));
  assert.match(flow.out, /^signed PDF \d{4,} bytes$/m);
  assert.match(flow.out, /^evidence paraph\.evidence\/1\.2 client: signed$/m);
  assert.match(flow.out, /^webhooks .*signature_request\.completed/m);
  assert.match(flow.out, /^flow complete$/m);
});

/** The ```sh blocks of docs/openapi.md, without those marked `<!-- readme-test: skip (why) -->`. */
function shellBlocks(markdown: string): string[] {
  const lines = markdown.split('\n');
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const end = lines.indexOf('```', i + 1);
    if (!/^<!-- readme-test: skip \(.+\) -->$/.test(lines[i - 1] ?? '')) blocks.push(lines.slice(i + 1, end).join('\n'));
    i = end;
  }
  return blocks;
}

/** A project where paraph and the tools are installed: this checkout's node_modules, paraph linked. */
function project(t: TestContext): string {
  const dir = useTmpDir(t, 'paraph-openapi-doc-');
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"openapi-doc-check","private":true,"type":"module"}\n');
  fs.mkdirSync(path.join(dir, 'node_modules'));
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry !== '.bin' && entry !== '.package-lock.json') fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(dir, 'node_modules', entry));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules/.bin'), path.join(dir, 'node_modules/.bin'));
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules/paraph'));
  return dir;
}

test('docs/openapi.md: its commands fetch, generate and lint as written', { timeout: 180_000 }, async (t) => {
  const blocks = shellBlocks(fs.readFileSync(path.join(ROOT, 'docs/openapi.md'), 'utf8'));
  assert.equal(blocks.length, 4, 'fetch, generate, and the two linters');
  const serve = await serveProcess(t, ['--ephemeral']);
  const port = new URL(String(serve.ready.api_url)).port;
  const dir = project(t);
  const script = ['set -e', ...blocks.map((block) => block.replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`))].join('\n');
  const result = await run('bash', ['-c', script], { cwd: dir, env: { npm_config_offline: 'true', npm_config_yes: 'false' } });
  assert.equal(result.code, 0, result.out.slice(-3000));
  assert.deepEqual(
    JSON.parse(fs.readFileSync(path.join(dir, 'openapi.json'), 'utf8')),
    JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8')),
  );
  assert.match(fs.readFileSync(path.join(dir, 'paraph-api.d.ts'), 'utf8'), /"\/v1\/signature-requests\/\{id\}\/artifacts\/\{type\}"/);
  assert.match(result.out, /Your API description is valid/);
  assert.match(result.out, /No results with a severity of 'warn' or higher found!|No results with a severity of 'error' found!/);
});
