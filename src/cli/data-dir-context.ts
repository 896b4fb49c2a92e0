import fs from 'node:fs';
import { dataDirSource, resolveDataDir, type Env } from '../platform/config.js';
import { createContext, type Context } from '../context.js';
import { databaseFile, DataDirError, prepareDataDir } from '../platform/data-dir.js';
import { createLog } from '../platform/log.js';

/**
 * The context a CLI command works with: the data directory a running server may be using. It must
 * exist and hold paraph's database: only `paraph serve` creates one.
 */
export async function withContext<T>(flags: { dataDir?: string | undefined }, env: Env, fn: (ctx: Context) => Promise<T> | T): Promise<T> {
  const ctx = await namingDataDirSource(flags, env, () => {
    const dataDir = resolveDataDir(flags, env, process.cwd());
    requireDatabase(dataDir);
    return createContext({ dataDir, createDataDir: false, log: createLog('warn') });
  });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

/**
 * A directory without paraph's database is not a data directory, whatever else it holds: opening it
 * would write a master key, a database and a blobs folder into it (an empty folder, a project's, the
 * wrong one), and a key made there would live in a database no server uses. The directory's own
 * problems (missing, not a directory, not writable) are said first, as createContext says them.
 */
function requireDatabase(dataDir: string): void {
  prepareDataDir(dataDir, () => {}, { create: false });
  try {
    fs.lstatSync(databaseFile(dataDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return; // createContext says what is wrong with it.
    throw new DataDirError(
      dataDir,
      'holds no paraph database (paraph.db): it is not a data directory yet',
      'Only `paraph serve` makes one. Name the one `paraph serve` uses with --data-dir DIR ' +
        '(or PARAPH_DATA_DIR), or run `paraph serve` on this directory first',
    );
  }
}

/** Runs `open`; a data directory failure then names how the directory was chosen (option, env, default). */
export async function namingDataDirSource<T>(flags: { dataDir?: string | undefined }, env: Env, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw error instanceof DataDirError ? error.from(dataDirSource(flags, env)) : error;
  }
}
