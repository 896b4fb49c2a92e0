import type { Env } from '../platform/config.js';

/**
 * Calls `stop` once the process that started this one is gone, when that process is npm (`npx paraph
 * …`, an npm script: npm passes signals to its shell, not to paraph) or asked for it with
 * PARAPH_STOP_WITH_PARENT=1 (the programmatic sandbox). Answers a function that ends the watch.
 */
export function stopWithParent(env: Env, stop: () => void): () => void {
  if (env.npm_command === undefined && env.PARAPH_STOP_WITH_PARENT !== '1') return () => {};
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 500).unref();
  return () => clearInterval(timer);
}
