import { resolveDataDir, type Env } from '../config.js';
import { createContext, type Context } from '../context.js';
import { createLog } from '../log.js';

/** The context a CLI command works with: the same data directory a running server may be using. */
export async function withContext<T>(
  flags: { dataDir?: string | undefined },
  env: Env,
  fn: (ctx: Context) => Promise<T> | T,
): Promise<T> {
  const ctx = await createContext({ dataDir: resolveDataDir(flags, env, process.cwd()), log: createLog('warn') });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
