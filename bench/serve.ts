/**
 * `paraph serve` as the benches run it: started from the built binary on free ports, ready once
 * /healthz answers 200, and stopped with SIGTERM after its peak resident set (VmHWM) and that of any
 * live descendant process were read. Every reading is kept, with the scenario that ran the serve, so
 * the report can name the largest one.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { descendants, peakRssMb, stopGently, track, untilAnswers } from './proc.js';
import { readyLine, type Ready } from './serve-ready.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'bin/paraph.js');

/** The `--json` banner (src/cli/serve.ts); the key and secret are null after the first start of a data directory. */
export type Banner = Omit<Ready, 'api_key'> & {
  status: string;
  version: string;
  public_url: string;
  smtp_port: number;
  data_dir: string;
  account_id: string | null;
  api_key: string | null;
};

export interface RssReading {
  scenario: string;
  pid: number;
  /** VmHWM of serve itself (its worker threads included), MiB. */
  serveMb: number;
  /** Child processes of serve still alive when it was stopped (analysis, OCR), with their VmHWM. */
  children: Array<{ pid: number; name: string; mb: number }>;
  /** serveMb plus the children's. */
  totalMb: number;
}

export interface Serve {
  banner: Banner;
  /** `…/v1` */
  api: string;
  /** Base URL without `/v1`. */
  origin: string;
  /** The API key: from the banner on a first start, else the one passed in. Never printed. */
  key: string;
  pid: number;
  startupMs: number;
  /** Reads the RSS figures, then SIGTERM and waits for the exit. */
  stop(): Promise<RssReading>;
}

const readings: RssReading[] = [];

/** Every RSS reading taken so far, in order. */
export function rssReadings(): readonly RssReading[] {
  return readings;
}

/** Takes a reading of a live serve without stopping it (for scenarios that stop it themselves). */
export function readRss(scenario: string, pid: number): RssReading {
  const children = descendants(pid).map((c) => ({ ...c, mb: peakRssMb(c.pid) ?? 0 }));
  const serveMb = peakRssMb(pid) ?? 0;
  return { scenario, pid, serveMb, children, totalMb: serveMb + children.reduce((sum, c) => sum + c.mb, 0) };
}

export interface ServeOptions {
  /** Names the reading in the RSS report. */
  scenario: string;
  /** A data directory to use; default: `--ephemeral`. */
  dataDir?: string;
  /** The key for a data directory that was started before (the banner then has none). */
  apiKey?: string;
  /** More `serve` flags. */
  args?: string[];
}

export async function startServe(options: ServeOptions): Promise<Serve> {
  const started = performance.now();
  const args = [
    'serve',
    '--port',
    '0',
    '--smtp-port',
    '0',
    '--json',
    '--rate-limit',
    'off',
    ...(options.dataDir ? ['--data-dir', options.dataDir] : ['--ephemeral']),
    ...(options.args ?? []),
  ];
  const child: ChildProcessByStdio<null, Readable, Readable> = track(spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
  // Serve's log goes through (warnings matter); the tail is kept for the error when it dies early.
  let tail = '';
  child.stderr.on('data', (d: Buffer) => {
    process.stderr.write(d);
    tail = (tail + d.toString()).slice(-4000);
  });
  let banner: Banner;
  try {
    banner = (await readyLine(child, () => tail)) as unknown as Banner;
    await untilAnswers(banner.api_url.replace(/\/v1$/, '/healthz'), { child });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const key = banner.api_key ?? options.apiKey;
  if (!key) {
    child.kill('SIGKILL');
    throw new Error(`serve on ${options.dataDir} printed no API key (not a first start) and none was given`);
  }
  const pid = child.pid as number;
  let stopped: Promise<RssReading> | null = null;
  return {
    banner,
    api: banner.api_url,
    origin: banner.api_url.replace(/\/v1$/, ''),
    key,
    pid,
    startupMs: performance.now() - started,
    stop() {
      stopped ??= (async () => {
        const reading = readRss(options.scenario, pid);
        readings.push(reading);
        await stopGently(child);
        return reading;
      })();
      return stopped;
    },
  };
}

/** Runs `fn` on a fresh serve and always stops it. */
export async function withServe<T>(options: ServeOptions, fn: (serve: Serve) => Promise<T>): Promise<T> {
  const serve = await startServe(options);
  try {
    return await fn(serve);
  } finally {
    await serve.stop();
  }
}
