import { createBlobStore, type BlobStore } from './blobs/blob-store.js';
import { createClock, type Clock } from './clock.js';
import { loadOrCreateMasterKey } from './crypto/master-key.js';
import { createSealer, type Sealer } from './crypto/sealed.js';
import { databaseFile, prepareDataDir } from './data-dir.js';
import { openDatabase, type Db } from './db/database.js';
import { brandNames, type BrandNames } from './domain/brand.js';
import type { Log } from './log.js';
import { createPdfInspector, type PdfInspector } from './pdf/inspect.js';

/** What every service function receives: the data directory's resources, built once per process. */
export interface Context {
  readonly dataDir: string;
  readonly db: Db;
  readonly blobs: BlobStore;
  readonly clock: Clock;
  readonly secrets: Sealer;
  readonly brand: BrandNames;
  readonly pdf: PdfInspector;
  readonly log: Log;
  /** Options the server applies to requests (the CLI uses the defaults). */
  readonly policy: { readonly allowLoopbackWebhooks: boolean };
  close(): Promise<void>;
}

export interface ContextOptions {
  dataDir: string;
  log: Log;
  brand?: string;
  allowLoopbackWebhooks?: boolean;
  /** Test seam: the real-time source under the sandbox clock. */
  realNow?: () => number;
}

const BRAND_KEY = 'brand';

export async function createContext(options: ContextOptions): Promise<Context> {
  const warn = (message: string) => options.log.warn(message);
  prepareDataDir(options.dataDir, warn);
  const masterKey = loadOrCreateMasterKey(options.dataDir, warn);
  const db = await openDatabase(databaseFile(options.dataDir));
  const pdf = createPdfInspector();
  return {
    dataDir: options.dataDir,
    db,
    blobs: createBlobStore(options.dataDir, createSealer(masterKey, 'blobs')),
    clock: createClock(db, options.realNow),
    secrets: createSealer(masterKey, 'secrets'),
    brand: brandNames(resolveBrand(db, options.brand)),
    pdf,
    log: options.log,
    policy: Object.freeze({ allowLoopbackWebhooks: options.allowLoopbackWebhooks ?? false }),
    async close() {
      await pdf.close();
      db.close();
    },
  };
}

/** serve records its brand so CLI processes on the same directory mint keys with the same prefix. */
function resolveBrand(db: Db, requested: string | undefined): string {
  if (requested === undefined) {
    return db.first(db.q.selectFrom('settings').select('value').where('key', '=', BRAND_KEY))?.value ?? 'paraph';
  }
  db.transaction(() =>
    db.run(
      db.q
        .insertInto('settings')
        .values({ key: BRAND_KEY, value: requested })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: requested })),
    ),
  );
  return requested;
}
