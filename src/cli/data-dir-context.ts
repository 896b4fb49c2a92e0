import { dataDirSource, resolveDataDir, type Env } from '../platform/config.js';
import { createContext, type Context } from '../context.js';
import { DataDirError } from '../platform/data-dir.js';
import { createLog } from '../platform/log.js';

/**
 * The context a CLI command works with: the data directory a running server may be using. It must
 * exist: only `paraph serve` creates one.
 */
export async function withContext<T>(flags: { dataDir?: string | undefined }, env: Env, fn: (ctx: Context) => Promise<T> | T): Promise<T> {
  const ctx = await namingDataDirSource(flags, env, () =>
    createContext({ dataDir: resolveDataDir(flags, env, process.cwd()), createDataDir: false, log: createLog('warn') }),
  );
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
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
