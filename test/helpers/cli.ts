import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/paraph.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `paraph` binary (built dist/) to completion, in `cwd` (default: this process's). */
export async function paraph(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

export interface ServeProcess {
  child: ChildProcess;
  ready: Record<string, string | null>;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `paraph serve --json` as a child process; resolves with its ready line. */
export async function serveProcess(
  t: TestContext,
  args: string[],
  options: { bin?: string; cwd?: string; env?: Record<string, string> } = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [options.bin ?? BIN, 'serve', '--port', '0', '--smtp-port', '0', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const ready = await new Promise<Record<string, string | null>>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (d: Buffer) => {
      buffer += d.toString();
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n') && line) resolve(JSON.parse(line) as Record<string, string | null>);
    });
    void exited.then(([code]) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    ready,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      child.kill(signal);
      const [code] = await exited;
      return code;
    },
  };
}

/**
 * Calls the API of a `serve` child with a bearer key: `route` is under the API base (`/v1`), or under
 * the server root when it starts with `/_sandbox`. A FormData body goes as multipart, anything else as JSON.
 */
export function apiClient(apiUrl: string, key: string) {
  const origin = new URL(apiUrl).origin;
  return async (method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const base = route.startsWith('/_sandbox') ? origin : apiUrl;
    const response = await fetch(`${base}${route}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
}
