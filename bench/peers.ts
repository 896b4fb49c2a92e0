/**
 * Peers paraph is compared with, installed on demand and never as project dependencies: maildev (an
 * SMTP catcher with a web UI) and Prism (an OpenAPI mock server). Each pinned version is installed
 * once with `npm install --no-save --prefix ~/.cache/paraph-bench-peers/<name>@<version>` (or under
 * PARAPH_BENCH_PEERS_DIR) and reused after; each run starts them as child processes on free ports.
 * A peer that cannot be installed or started is reported as unavailable, with why, and the caller uses
 * its fallback instead of failing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, stopGently, track, untilAnswers, untilListening } from './proc.js';

export const PEERS_DIR = process.env.PARAPH_BENCH_PEERS_DIR ?? path.join(os.homedir(), '.cache', 'paraph-bench-peers');

export type Peer<T> = ({ ok: true } & T) | { ok: false; reason: string };

/** The installed package's directory, installing it first if needed; null with a reason on failure. */
async function ensureInstalled(name: string, version: string): Promise<{ dir: string } | { reason: string }> {
  const prefix = path.join(PEERS_DIR, `${name}@${version}`);
  const pkgDir = path.join(prefix, 'node_modules', name);
  const installedVersion = () => {
    try {
      return (JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version?: string }).version;
    } catch {
      return undefined;
    }
  };
  if (installedVersion() === version) return { dir: pkgDir };
  if (process.env.PARAPH_BENCH_NO_INSTALL === '1') return { reason: `not installed under ${prefix} and PARAPH_BENCH_NO_INSTALL=1` };
  fs.mkdirSync(prefix, { recursive: true });
  const log = path.join(prefix, 'install.log');
  console.log(`peers: installing ${name}@${version} into ${prefix} (once; log in install.log)`);
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const out = fs.openSync(log, 'w');
    const child = track(
      spawn('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', prefix, `${name}@${version}`], {
        stdio: ['ignore', out, out],
        // Not the project's own npm settings: this is a separate tree.
        cwd: prefix,
      }),
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.once('error', () => resolve(-1));
    child.once('exit', (c) => {
      clearTimeout(timer);
      fs.closeSync(out);
      resolve(c);
    });
  });
  if (code !== 0 || installedVersion() !== version) {
    const last = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').slice(-3).join(' | ') : '';
    return { reason: `npm install ${name}@${version} failed (exit ${code})${last ? `: ${last}` : ''}` };
  }
  console.log(`peers: ${name}@${version} installed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { dir: pkgDir };
}

/** The JavaScript file a package's `bin` entry points to. */
function binScript(pkgDir: string, bin: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[bin];
  if (!rel) throw new Error(`${pkgDir} has no bin named ${bin}`);
  return path.join(pkgDir, rel);
}

export interface Running {
  name: string;
  pid: number;
  stop(): Promise<void>;
}

function spawnPeer(script: string, args: string[]): { child: ChildProcess; output: () => string } {
  const child = track(spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: os.tmpdir() }));
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

export interface Maildev extends Running {
  smtpPort: number;
  /** How many caught messages have `subjectTag` in their subject. */
  count(subjectTag: string): Promise<number>;
}

const MAILDEV_VERSIONS = ['3.0.0', '2.2.1'];

/** maildev 3.0.0, else 2.2.1 (in memory, web API on for counting, bound to 127.0.0.1). */
export async function startMaildev(): Promise<Peer<Maildev>> {
  const reasons: string[] = [];
  for (const version of MAILDEV_VERSIONS) {
    const installed = await ensureInstalled('maildev', version);
    if ('reason' in installed) {
      reasons.push(installed.reason);
      continue;
    }
    const smtpPort = await freePort();
    const webPort = await freePort();
    const { child, output } = spawnPeer(binScript(installed.dir, 'maildev'), [
      '-s',
      String(smtpPort),
      '-w',
      String(webPort),
      '--ip',
      '127.0.0.1',
      '--web-ip',
      '127.0.0.1',
      '--silent',
    ]);
    try {
      await untilListening(smtpPort, { child, timeoutMs: 30_000 });
      await untilListening(webPort, { child, timeoutMs: 30_000 });
    } catch (error) {
      await stopGently(child, 2000);
      reasons.push(`maildev@${version} did not start: ${(error as Error).message}${output() ? `: ${output().trim().slice(-300)}` : ''}`);
      continue;
    }
    const web = `http://127.0.0.1:${webPort}`;
    return {
      ok: true,
      name: `maildev ${version}`,
      pid: child.pid as number,
      smtpPort,
      async count(subjectTag) {
        // maildev 3: a paged summary with a total; maildev 2: every message at /email.
        const summary = await fetch(`${web}/api/email/summary?search=${encodeURIComponent(subjectTag)}&limit=1`).catch(() => null);
        if (summary?.status === 200) {
          const body = (await summary.json()) as { total: number; items: Array<{ subject?: string }> };
          return body.total;
        }
        await summary?.arrayBuffer();
        const all = (await (await fetch(`${web}/email`)).json()) as Array<{ subject?: string }>;
        return all.filter((m) => m.subject?.includes(subjectTag)).length;
      },
      stop: () => stopGently(child),
    };
  }
  return { ok: false, reason: reasons.join('; ') };
}

export interface Prism extends Running {
  url: string;
}

const PRISM_VERSION = '5.16.0';

/** Prism 5.16 mocking the OpenAPI document in `specFile`. */
export async function startPrism(specFile: string): Promise<Peer<Prism>> {
  const installed = await ensureInstalled('@stoplight/prism-cli', PRISM_VERSION);
  if ('reason' in installed) return { ok: false, reason: installed.reason };
  const port = await freePort();
  const { child, output } = spawnPeer(binScript(installed.dir, 'prism'), ['mock', specFile, '-h', '127.0.0.1', '-p', String(port)]);
  const url = `http://127.0.0.1:${port}`;
  try {
    // paraph's document has /healthz (200), so the mock answers it once the routes are loaded.
    await untilListening(port, { child, timeoutMs: 60_000 });
    await untilAnswers(`${url}/healthz`, { child, timeoutMs: 30_000 });
  } catch (error) {
    await stopGently(child, 2000);
    return { ok: false, reason: `Prism ${PRISM_VERSION} did not start: ${(error as Error).message}${output() ? `: ${output().trim().slice(-300)}` : ''}` };
  }
  return { ok: true, name: `Prism ${PRISM_VERSION}`, pid: child.pid as number, url, stop: () => stopGently(child) };
}
