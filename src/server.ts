import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { publicBaseUrl, type Config } from './platform/config.js';
import { createContext, type Context } from './context.js';
import { contentFailure, makeEphemeralDataDir, prepareDataDir, removeDataDir } from './platform/data-dir.js';
import { lockDataDir, type DataDirLock } from './platform/data-dir-lock.js';
import { buildApp } from './http/app.js';
import { createLog, type Log } from './platform/log.js';
import { ensureFirstApiKey } from './features/keys/ensure-first-api-key.js';
import { startScheduler } from './scheduler.js';
import { startDispatcher } from './dispatcher.js';
import { startCatcher } from './smtp/catcher.js';
import { pendingMailIds, sendQueuedMail } from './features/mail/outbox.js';
import { warmArtifactGeneration } from './features/artifacts/generate-artifacts.js';
import { dashboardUrl, recordServerUrl } from './features/dashboard/dashboard-url.js';
import type { CreatedApiKey } from './features/keys/create-api-key.js';

export interface RunningParaph {
  /** Base URL of the HTTP server, e.g. `http://127.0.0.1:4010` (the API is under `/v1`). */
  readonly url: string;
  /** Base of signing links (`--public-url`, or `url`). */
  readonly publicUrl: string;
  /** Port of the built-in SMTP catcher. */
  readonly smtpPort: number;
  readonly dataDir: string;
  /** The account and key made on the first start of an empty data directory, else null. */
  readonly firstKey: CreatedApiKey | null;
  /** The operator dashboard, its token in the fragment: `http://HOST:PORT/_dashboard/#token=…`. */
  readonly dashboardUrl: string;
  readonly ctx: Context;
  close(): Promise<void>;
}

export interface StartOptions {
  log?: Log;
  /** Test seam: the real-time source under the sandbox clock. */
  realNow?: () => number;
  /**
   * Whether the artifact worker is warmed once the ports answer (default true). Test servers that
   * never complete a request skip it (about 1 s of CPU each); activation warms the worker anyway.
   */
  warmUp?: boolean;
  /**
   * Servers started in one process share its PDF reader and artifact worker, started once and kept a few
   * seconds after the last of them closed (default false: each server starts and ends its own). A test
   * process that starts a server for each test saves each one's start and first job (about 1 to 2 s of CPU).
   */
  shareWorkers?: boolean;
}

/** Starts everything `paraph serve` runs, in this process; `close()` stops it and releases the data directory. */
export async function startParaph(config: Config, options: StartOptions = {}): Promise<RunningParaph> {
  const dataDir = config.dataDir ?? makeEphemeralDataDir();
  const log = options.log ?? createLog(config.logLevel);
  let ctx: Context | undefined;
  let lock: DataDirLock | undefined;
  // The outermost directory this start made (mkdir -p), removed again when the start fails: a
  // mistyped option must not leave a data directory behind that the next start then takes as used.
  let made: string | null = null;
  try {
    if (config.dataDir !== null) {
      made = firstMissing(dataDir);
      // Made and checked first (the context warns about its mode, once).
      prepareDataDir(dataDir, () => {}, { create: true });
    }
    // One serve per data directory, a throwaway one included (its path is in the banner, and a
    // second serve on it would share the database): a second one stops here, naming the first.
    lock = lockDataDir(dataDir);
    ctx = await createContext({
      dataDir,
      log,
      serve: config,
      ...(options.realNow ? { realNow: options.realNow } : {}),
      shareWorkers: options.shareWorkers ?? false,
    });
    const catcher = await startCatcher(ctx, { host: config.host, port: config.smtpPort, maxMessages: config.smtpMaxMessages });
    ctx.setCatcherUrl(`smtp://${loopbackFor(config.host)}:${catcher.port}`);
    const scheduler = startScheduler(ctx);
    const dispatcher = startDispatcher(ctx);
    // Whatever stops the start from here (an app that cannot be built, a busy port) stops the jobs
    // too: they would otherwise keep running on the database closed below.
    let app: Awaited<ReturnType<typeof buildApp>> | undefined;
    let firstKey: ReturnType<typeof ensureFirstApiKey>;
    let url: string;
    let base: string;
    let dashboard: string;
    try {
      app = await buildApp({ ctx, rateLimit: config.rateLimit, requestTimeoutMs: config.requestTimeoutMs });
      await app.listen({ host: config.host, port: config.port });
      // Only once both ports are bound: a start that fails on a busy port must leave the data
      // directory without an account, so that the next start creates the key and shows it.
      firstKey = ensureFirstApiKey(ctx);
      const address = app.server.address() as AddressInfo;
      url = publicBaseUrl({ ...config, publicUrl: null }, { host: address.address, port: address.port });
      base = publicBaseUrl(config, { host: address.address, port: address.port });
      ctx.setPublicUrl(base);
      recordServerUrl(ctx, url);
      lock?.setUrl(url);
      dashboard = dashboardUrl(ctx, url);
    } catch (error) {
      // (A write that fails on a full disk or a read-only database too: the ports close, nothing is left running.)
      await app?.close();
      await scheduler.stop();
      await dispatcher.stop();
      await catcher.close();
      throw error;
    }
    // Once the ports answer: the artifact worker loads and runs once in its own thread, and the signing
    // certificates are read (or made) meanwhile, so the first completion finds them ready. Started
    // earlier, that work took CPU from the start itself (start to /healthz 460 -> 335 ms on two cores).
    if (options.warmUp !== false) warmArtifactGeneration(ctx);
    const server = app;
    // Mail queued by a process that stopped before sending it goes now.
    void ctx.background.add(sendQueuedMail(ctx, pendingMailIds(ctx)));
    const context = ctx;
    let closed: Promise<void> | undefined;
    return {
      url,
      publicUrl: base,
      smtpPort: catcher.port,
      dataDir,
      firstKey,
      dashboardUrl: dashboard,
      ctx: context,
      close: () =>
        (closed ??= (async () => {
          try {
            await server.close();
            await scheduler.stop();
            await dispatcher.stop();
            await catcher.close();
            await context.close();
          } finally {
            // Even when a step above failed: the lock and a throwaway directory never outlive the server.
            lock?.release();
            if (config.dataDir === null) removeDataDir(dataDir);
          }
        })()),
    };
  } catch (error) {
    await ctx?.close();
    // Only a start that holds the lock removes what it made: otherwise the directory is another serve's.
    if (made !== null && lock !== undefined) removeMade(dataDir, made);
    lock?.release();
    if (config.dataDir === null) removeDataDir(dataDir);
    // A file system's or SQLite's failure (a full disk, a read-only database) says so, naming the directory;
    // a port or host that cannot be listened on is the caller's to say (an option's mistake).
    const syscall = (error as NodeJS.ErrnoException | undefined)?.syscall;
    throw syscall === 'listen' || syscall === 'bind' || syscall === 'getaddrinfo' ? error : contentFailure(dataDir, error);
  }
}

/** The outermost level of `dir` that does not exist yet (what `mkdir -p` makes), or null. */
function firstMissing(dir: string): string | null {
  let missing: string | null = null;
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) {
    missing = at;
    if (path.dirname(at) === at) break;
  }
  return missing;
}

/**
 * Removes the data directory, then the parents this start made for it, each only while empty: another
 * process may have put something of its own beside the data directory meanwhile.
 */
function removeMade(dataDir: string, made: string): void {
  removeDataDir(dataDir);
  for (let at = path.dirname(dataDir); at.startsWith(made); at = path.dirname(at)) {
    try {
      fs.rmdirSync(at);
    } catch {
      return;
    }
    if (at === made) return;
  }
}

/** The address a local client reaches a server bound to `host` on. */
function loopbackFor(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
