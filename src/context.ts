import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createBlobStore, type BlobStore } from './platform/blob-store.js';
import { createClock, type Clock } from './platform/clock.js';
import { loadOrCreateMasterKey } from './platform/crypto/master-key.js';
import { createMac, createSealer, type Sealer } from './platform/crypto/sealed.js';
import { contentFailure, databaseFile, prepareDataDir } from './platform/data-dir.js';
import { openDatabase, type Db } from './db/database.js';
import { withAfterCommit, type AfterCommit } from './platform/after-commit.js';
import { readSetting, writeSetting } from './db/settings.js';
import { brandNames, type BrandNames } from './domain/brand.js';
import type { Log } from './platform/log.js';
import type { Config } from './platform/config.js';
import { createFieldDetector, type FieldDetector } from './pdf/detect.js';
import { createPdfInspector, holdPdfInspector, type PdfInspector } from './pdf/inspect.js';
import { createArtifactProducer, holdArtifactProducer, type ArtifactProducer } from './pdf/produce-artifacts.js';
import { Slots } from './platform/slots.js';
import { createBackgroundWork, type BackgroundWork } from './platform/background-work.js';

/**
 * The supervised workers a context owns (src/platform/supervised-worker.ts). Each starts its child
 * process or thread on first use (a server warms the artifact worker once it listens); all end with
 * the context, but for the reader and the artifact worker of a context made with `shareWorkers`, which
 * are the process's (ProcessShared) and end a few seconds after the last context holding them closed.
 */
export interface Workers {
  /** Reads uploads: pages, geometry, encryption (a child process). */
  readonly inspector: PdfInspector;
  /** Stamps, seals and writes the evidence report of a completed request (a worker thread). */
  readonly artifacts: ArtifactProducer;
  /** Suggests fields from a document, OCR included (a child process). */
  readonly detector: FieldDetector;
  /** Test seam: detection runs on `detector` (other limits) from now on; the one it replaces is closed. */
  useDetector(detector: FieldDetector): void;
}

/** What every service function receives: the data directory's resources, built once per process. */
export interface Context {
  readonly dataDir: string;
  readonly db: Db;
  /** Runs work once the surrounding transaction commits (never on rollback), or at once outside one. */
  readonly afterCommit: AfterCommit;
  readonly blobs: BlobStore;
  readonly clock: Clock;
  readonly secrets: Sealer;
  /** Tags paraph's own mails so the catcher can tell them from mail other SMTP clients send. */
  readonly mailTag: (data: string) => string;
  readonly brand: BrandNames;
  readonly workers: Workers;
  /** What modules keep for this context (see platform/slots.ts): it lives and goes with the context. */
  readonly state: Slots;
  /** Work started in the background (artifacts, queued mail, warm-up): `close()` waits for it. */
  readonly background: BackgroundWork;
  readonly log: Log;
  /** Random per process: marks locks this process holds (an Idempotency-Key in progress). */
  readonly processId: string;
  /** Options the server applies (a CLI process uses the ones serve recorded). */
  readonly policy: {
    readonly allowLoopbackWebhooks: boolean;
    readonly webhookTimeoutMs: number;
    /** Seals carry an RFC 3161 timestamp (PAdES B-T). */
    readonly timestamps: boolean;
    /** An external timestamp authority instead of the built-in one, or null. */
    readonly tsaUrl: string | null;
  };
  /** Base of signing links: the running server's public URL (a CLI process reads the one serve recorded). */
  publicUrl(): string;
  /** Called by serve once it listens; recorded for CLI processes on the same directory. */
  setPublicUrl(url: string): void;
  /** Where paraph's own mail goes: the relay, else the running catcher (`smtp://host:port`), else null. */
  mailTarget(): string | null;
  /** Called by serve once its catcher listens. */
  setCatcherUrl(url: string): void;
  /** Waits for the background work (at most CLOSE_DEADLINE_MS), then stops the workers and closes the database. */
  close(): Promise<void>;
}

/** How long `close()` waits for background work in flight before it stops the workers under it. */
const CLOSE_DEADLINE_MS = 10_000;

export interface ContextOptions {
  dataDir: string;
  /** false: the data directory must exist already (every CLI command but serve). Default true. */
  createDataDir?: boolean;
  log: Log;
  /**
   * serve's options, which it records (one record, `serve_options`) for every process on the data
   * directory; undefined in CLI processes, which apply the record, option for option alike.
   */
  serve?: ServeOptions;
  /** Test seam: the real-time source under the sandbox clock. */
  realNow?: () => number;
  /**
   * Hold the process's PDF reader and artifact worker instead of starting its own (startParaph's
   * `shareWorkers`; default false).
   */
  shareWorkers?: boolean;
}

/** The options of `paraph serve` (src/platform/config.ts) that any process working on its data directory applies as serve does. */
const SERVE_OPTION_NAMES = ['brand', 'allowLoopbackWebhooks', 'webhookTimeoutMs', 'timestamps', 'tsaUrl', 'smtpRelay'] as const satisfies ReadonlyArray<
  keyof Config
>;
export type ServeOptions = Pick<Config, (typeof SERVE_OPTION_NAMES)[number]>;

/** What applies on a data directory no serve has recorded options for: serve's defaults. */
const SERVE_DEFAULTS: ServeOptions = {
  brand: 'paraph',
  allowLoopbackWebhooks: false,
  webhookTimeoutMs: 15_000,
  timestamps: true,
  tsaUrl: null,
  smtpRelay: null,
};

const SERVE_OPTIONS_KEY = 'serve_options';
const PUBLIC_URL_KEY = 'public_url';
const CATCHER_KEY = 'smtp_catcher_url';

export async function createContext(options: ContextOptions): Promise<Context> {
  const warn = (message: string) => options.log.warn(message);
  prepareDataDir(options.dataDir, warn, { create: options.createDataDir ?? true });
  let masterKey: Buffer;
  let db: Db | undefined;
  let afterCommit: AfterCommit;
  let blobs: BlobStore;
  try {
    // The database first: a paraph.db that is not paraph's stops the start before master.key and blobs/ are written.
    ({ db, afterCommit } = withAfterCommit(await openDatabase(databaseFile(options.dataDir)), (err) =>
      options.log.error({ err }, 'work after a commit failed'),
    ));
    masterKey = loadOrCreateMasterKey(options.dataDir, warn);
    blobs = createBlobStore(options.dataDir, createSealer(masterKey, 'blobs'));
  } catch (error) {
    db?.close();
    throw contentFailure(options.dataDir, error);
  }
  const workers = createWorkers(options.dataDir, options.shareWorkers ?? false);
  let publicUrl: string | undefined;
  const serve = serveOptions(db, options.serve);
  let catcherUrl: string | undefined;
  const background = createBackgroundWork();
  return {
    dataDir: options.dataDir,
    db,
    afterCommit,
    blobs,
    clock: createClock(db, options.realNow),
    secrets: createSealer(masterKey, 'secrets'),
    mailTag: createMac(masterKey, 'mail-tag'),
    brand: brandNames(serve.brand),
    workers,
    state: new Slots(),
    background,
    log: options.log,
    processId: randomUUID(),
    policy: Object.freeze({
      allowLoopbackWebhooks: serve.allowLoopbackWebhooks,
      webhookTimeoutMs: serve.webhookTimeoutMs,
      timestamps: serve.timestamps,
      tsaUrl: serve.tsaUrl,
    }),
    publicUrl() {
      publicUrl ??= readSetting(db, PUBLIC_URL_KEY) ?? 'http://127.0.0.1:4010';
      return publicUrl;
    },
    setPublicUrl(url) {
      publicUrl = url;
      writeSetting(db, PUBLIC_URL_KEY, url);
    },
    mailTarget() {
      if (serve.smtpRelay) return serve.smtpRelay;
      return catcherUrl ?? readSetting(db, CATCHER_KEY) ?? null;
    },
    setCatcherUrl(url) {
      catcherUrl = url;
      writeSetting(db, CATCHER_KEY, url);
    },
    async close() {
      if (!(await background.destroy(CLOSE_DEADLINE_MS))) {
        options.log.warn({ in_flight: background.size }, `background work still running after ${CLOSE_DEADLINE_MS / 1000} s: closing anyway`);
      }
      await Promise.all([workers.inspector.close(), workers.artifacts.close(), workers.detector.close()]);
      db.close();
    },
  };
}

function createWorkers(dataDir: string, shared: boolean): Workers {
  let detector = createFieldDetector({ cacheDir: path.join(dataDir, 'cache', 'ocr') });
  return {
    inspector: shared ? holdPdfInspector() : createPdfInspector(),
    artifacts: shared ? holdArtifactProducer() : createArtifactProducer(),
    get detector() {
      return detector;
    },
    useDetector(replacement) {
      void detector.close();
      detector = replacement;
    },
  };
}

/**
 * serve writes its options as one record; every other process reads that record whole (a CLI
 * command advancing the clock sends due webhooks with serve's time-out and loopback policy, mints
 * keys with its brand, seals as it does, mails through its relay). No option is copied one by one.
 */
function serveOptions(db: Db, given: ServeOptions | undefined): ServeOptions {
  if (given !== undefined) {
    const record = Object.fromEntries(SERVE_OPTION_NAMES.map((name) => [name, given[name]])) as unknown as ServeOptions;
    writeSetting(db, SERVE_OPTIONS_KEY, JSON.stringify(record));
    return Object.freeze(record);
  }
  const recorded = readSetting(db, SERVE_OPTIONS_KEY);
  if (recorded === undefined || recorded === null) return SERVE_DEFAULTS;
  return Object.freeze({ ...SERVE_DEFAULTS, ...(JSON.parse(recorded) as Partial<ServeOptions>) });
}
