import type { TestContext } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig, type ConfigFlags } from '../../src/platform/config.js';
import { createLog, type Log } from '../../src/platform/log.js';
import { startParaph, type RunningParaph } from '../../src/server.js';
import { createApiKey } from '../../src/features/keys/create-api-key.js';
import { checkAnswersAgainstOpenApi } from './openapi-responses.js';

export interface TestServer {
  running: RunningParaph;
  /** Base URL, e.g. http://127.0.0.1:PORT */
  url: string;
  apiKey: string;
  accountId: string;
  dataDir: string;
  /** fetch against the server with the first key (override `authorization` to test auth). */
  call(method: string, route: string, init?: { body?: RequestInit['body']; headers?: Record<string, string>; key?: string | null }): Promise<Response>;
  newKey(accountId?: string): { apiKey: string; accountId: string; keyId: string };
}

/** A temporary directory removed when the test ends. */
export function useTmpDir(t: TestContext, prefix = 'paraph-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The real server on a free port with a fresh data directory; stopped when the test ends. */
export async function useServer(
  t: TestContext,
  flags: ConfigFlags = {},
  env: Record<string, string> = {},
  options: { log?: Log } = {},
): Promise<TestServer> {
  const dataDir = flags.dataDir ?? useTmpDir(t);
  const config = resolveConfig({ port: '0', smtpPort: '0', rateLimit: 'off', logLevel: 'silent', ...flags, dataDir }, env, process.cwd());
  const running = await startParaph(config, { log: options.log ?? createLog('silent') });
  t.after(() => running.close());
  // Every answer of the test is checked against the server's OpenAPI document.
  await checkAnswersAgainstOpenApi(t, running.url);
  const first = running.firstKey;
  if (!first) throw new Error('expected a first key on an empty data directory');
  const call: TestServer['call'] = (method, route, init = {}) => {
    const key = init.key === undefined ? first.api_key : init.key;
    const headers: Record<string, string> = { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...init.headers };
    return fetch(`${running.url}${route}`, { method, headers, ...(init.body === undefined ? {} : { body: init.body }) });
  };
  return {
    running,
    url: running.url,
    apiKey: first.api_key,
    accountId: first.account_id,
    dataDir,
    call,
    newKey(accountId) {
      const created = createApiKey(running.ctx, { accountId });
      return { apiKey: created.api_key, accountId: created.account_id, keyId: created.key_id };
    },
  };
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
