/** HTTP load as every bench applies it: autocannon, 10 connections, a short warm-up first. */
import autocannon from 'autocannon';

/** A short warm-up, then the measured run; any non-2xx, error or timeout fails. */
export async function cannon(label: string, options: { url: string; headers?: Record<string, string> }, seconds: number): Promise<autocannon.Result> {
  await autocannon({ ...options, connections: 10, duration: Math.max(1, Math.min(2, seconds / 5)) });
  const result = await autocannon({ ...options, connections: 10, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${label} answered ${result.non2xx} non-2xx, ${result.errors} errors and ${result.timeouts} timeouts`);
  }
  return result;
}
