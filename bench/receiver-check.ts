/**
 * How long `paraph webhooks check` takes against a receiver that answers at once (target: ≤ 3 s):
 * `paraph serve` from dist/ on a throwaway data directory, the example receiver of
 * examples/webhook-receiver on loopback, then the check run RUNS times through the real binary.
 * Prints the wall time of each run (process start to exit) and the check's own `duration_ms`.
 *
 *   npm run build && node --import tsx bench/receiver-check.ts      (PARAPH_BENCH_CHECK_RUNS=5)
 */
import os from 'node:os';
import { paraph } from '../test/helpers/cli.js';
import { startExampleReceiver, type Cleanup } from '../test/helpers/webhook-receivers.js';
import { startSandbox } from '../src/programmatic/index.js';

const TARGET_MS = 3000;
const RUNS = Number(process.env.PARAPH_BENCH_CHECK_RUNS ?? 5);

const cleanups: Array<() => unknown> = [];
const cleanup: Cleanup = { after: (fn) => cleanups.push(fn) };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

try {
  const sandbox = await startSandbox();
  cleanup.after(() => sandbox.stop());
  const receiver = await startExampleReceiver(cleanup, sandbox.webhookSecret);
  const walls: number[] = [];
  const inside: number[] = [];
  let shape = '';
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const result = await paraph(['webhooks', 'check', '--url', receiver.url, '--json', '--data-dir', sandbox.dataDir], { PARAPH_API_KEY: sandbox.apiKey });
    walls.push(Math.round(performance.now() - started));
    if (result.code !== 0) throw new Error(`the check failed (exit ${result.code}): ${result.stderr}`);
    const report = JSON.parse(result.stdout) as { duration_ms: number; case_count: number; cases: Array<{ deliveries: unknown[] }> };
    inside.push(report.duration_ms);
    shape = `${report.case_count} cases, ${report.cases.reduce((n, c) => n + c.deliveries.length, 0)} deliveries`;
  }
  console.log(`${os.cpus().length}-core ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.versions.node}`);
  console.log(`paraph webhooks check, ${RUNS} runs against examples/webhook-receiver (${shape}):`);
  console.log(`  whole command (process start to exit): median ${median(walls)} ms, max ${Math.max(...walls)} ms   [${walls.join(', ')}]`);
  console.log(`  the deliveries (report duration_ms):   median ${median(inside)} ms, max ${Math.max(...inside)} ms   [${inside.join(', ')}]`);
  const verdict = Math.max(...walls) <= TARGET_MS ? 'met' : 'NOT met';
  console.log(`  target ≤ ${TARGET_MS} ms for the whole command: ${verdict}`);
  if (verdict !== 'met') process.exitCode = 1;
} finally {
  for (const fn of cleanups.reverse()) await fn();
}
