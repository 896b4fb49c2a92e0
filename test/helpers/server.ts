import { after, before, type TestContext } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig, type ConfigFlags } from '../../src/platform/config.js';
import { pino } from 'pino';
import { createLog, type Log } from '../../src/platform/log.js';
import { startParaph, type RunningParaph } from '../../src/server.js';
import { createApiKey } from '../../src/features/keys/create-api-key.js';
import { watchAnswers } from './openapi-responses.js';

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

export interface UseServerOptions {
  /** The server's log; without one, error-level lines are kept and fail the test (see below). */
  log?: Log;
  /**
   * Error-level log lines the test provokes on purpose (a fault, a failing worker): those whose
   * `message: error message` matches are allowed. Any other error-level line the server logs before the test ends fails the test.
   */
  expectedErrors?: RegExp;
  /** Warm the artifact worker at start, as `paraph serve` does (default false: activation warms it). */
  warmUp?: boolean;
  /**
   * Share the test process's PDF reader and artifact worker with its other servers (default true: the
   * tests of a file start a server each, one after the other); false starts and ends the server's own.
   */
  shareWorkers?: boolean;
}

/** Pino's level number of `error`: lines at this level or above are unexpected in a test. */
const ERROR_LEVEL = 50;

/**
 * A log that keeps the error-level lines a server writes (and nothing else, so a test's output stays
 * quiet), for the check that fails a test on an unexpected one.
 */
function errorLineLog(): { log: Log; lines: Array<{ level: number; msg: string; err?: { message?: string } }> } {
  const lines: Array<{ level: number; msg: string; err?: { message?: string } }> = [];
  const log = pino({ level: 'error', base: null }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

/**
 * The real server on a free port with a fresh data directory; stopped when the test ends. The test
 * fails if the server logged an error-level line it did not expect (`options.expectedErrors`).
 */
export async function useServer(
  t: TestContext,
  flags: ConfigFlags = {},
  env: Record<string, string> = {},
  options: UseServerOptions = {},
): Promise<TestServer> {
  const { server, stop } = await startTestServer(flags, env, options);
  t.after(stop);
  return server;
}

/**
 * One server for the tests of a file that do not need one of their own (they read, or make what they
 * read): called at the top of the file, it starts the server before the file's first test and stops it
 * after the last; each test awaits the answer. An unexpected error-level line fails the file's run.
 */
export function useSharedServer(flags: ConfigFlags = {}, env: Record<string, string> = {}, options: UseServerOptions = {}): () => Promise<TestServer> {
  let started: Promise<{ server: TestServer; stop: () => Promise<void> }> | undefined;
  const start = () => (started ??= startTestServer(flags, env, options));
  before(async () => {
    await start();
  });
  after(async () => {
    if (started) await (await started).stop();
  });
  return async () => (await start()).server;
}

async function startTestServer(
  flags: ConfigFlags,
  env: Record<string, string>,
  options: UseServerOptions,
): Promise<{ server: TestServer; stop: () => Promise<void> }> {
  // A directory made here goes once the server has stopped (not before, as a t.after of its own would).
  const ownDir = flags.dataDir === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-test-')) : undefined;
  const dataDir = flags.dataDir ?? (ownDir as string);
  const config = resolveConfig({ port: '0', smtpPort: '0', rateLimit: 'off', logLevel: 'silent', ...flags, dataDir }, env, process.cwd());
  const kept = options.log ? undefined : errorLineLog();
  let running: RunningParaph;
  try {
    running = await startParaph(config, {
      log: options.log ?? kept?.log ?? createLog('silent'),
      warmUp: options.warmUp ?? false,
      shareWorkers: options.shareWorkers ?? true,
    });
  } catch (error) {
    if (ownDir) fs.rmSync(ownDir, { recursive: true, force: true });
    throw error;
  }
  // Every answer of the server is checked against the OpenAPI document it serves.
  const answers = await watchAnswers(running.url);
  const stop = async () => {
    answers.stop();
    const text = (line: { msg: string; err?: { message?: string } }) => `${line.msg}${line.err?.message ? `: ${line.err.message}` : ''}`;
    const unexpected = (kept?.lines ?? []).filter((line) => line.level >= ERROR_LEVEL && !options.expectedErrors?.test(text(line)));
    await running.close();
    if (ownDir) fs.rmSync(ownDir, { recursive: true, force: true });
    if (unexpected.length > 0) {
      const shown = unexpected.map((line) => `  ${text(line)}`).join('\n');
      throw new Error(`the server logged ${unexpected.length} unexpected error-level line(s):\n${shown}`);
    }
    if (answers.problems.length > 0) {
      throw new Error(`answers the OpenAPI document does not describe:\n${answers.problems.slice(0, 20).join('\n')}`);
    }
  };
  const first = running.firstKey;
  if (!first) throw new Error('expected a first key on an empty data directory');
  const call: TestServer['call'] = (method, route, init = {}) => {
    const key = init.key === undefined ? first.api_key : init.key;
    const headers: Record<string, string> = { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...init.headers };
    return fetch(`${running.url}${route}`, { method, headers, ...(init.body === undefined ? {} : { body: init.body }) });
  };
  const server: TestServer = {
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
  return { server, stop };
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
