import { resolveDataDir } from '../config.js';
import { createContext } from '../context.js';
import { createLog } from '../log.js';
/** The context a CLI command works with: the same data directory a running server may be using. */
export async function withContext(flags, env, fn) {
    const ctx = await createContext({ dataDir: resolveDataDir(flags, env, process.cwd()), log: createLog('warn') });
    try {
        return await fn(ctx);
    }
    finally {
        await ctx.close();
    }
}
//# sourceMappingURL=data-dir-context.js.map