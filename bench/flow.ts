/**
 * The full flow through the real binary: create (two signers, one signature field each) → activate →
 * each signer views and signs through the signing page's JSON API → completed with its three
 * artifacts. Timed whole, and from sending the last `sign` to the three `artifacts` flags being true in
 * GET status (polled every 5 ms): warm (on a serve that already made artifacts) and on a fresh serve
 * (the first completion after start), both on a new data directory and on a restarted one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { activate, allArtifacts, create, createBody, signerAction, status, twoSignerPayload, viewAndSign, type Client } from './client.js';
import { mib } from './pdfs.js';
import { sleep } from './proc.js';
import { startServe, withServe } from './serve.js';
import { fmt, median } from './stats.js';

export interface FlowTimes {
  totalMs: number;
  /** From sending the last signer's `sign` to its 200. */
  lastSignAnswerMs: number;
  /** From sending the last signer's `sign` to the three artifacts flags being true. */
  lastSignToArtifactsMs: number;
}

const POLL_MS = 5;
const ARTIFACTS_TIMEOUT_MS = 120_000;

let flowCount = 0;

/** One full flow; `page` is where the signature fields go. */
export async function runFlow(client: Client, make: ReturnType<typeof createBody>, page: number): Promise<FlowTimes> {
  const started = performance.now();
  flowCount += 1;
  const id = await create(client, make(twoSignerPayload(`bench-flow-${process.pid}-${Date.now()}-${flowCount}`, page)));
  const links = await activate(client, id);
  const first = links.get('a');
  const last = links.get('b');
  if (!first || !last) throw new Error('activate answered without both signers');
  await viewAndSign(first, 'Ada Lovelace');
  await signerAction(last, 'view');
  const lastSign = performance.now();
  await signerAction(last, 'sign', { signature: { type: 'typed', text: 'Grace Hopper' } });
  const lastSignAnswerMs = performance.now() - lastSign;
  for (;;) {
    const now = await status(client, id);
    if (allArtifacts(now)) {
      if (now.status !== 'completed') throw new Error(`artifacts on a request that is ${now.status}`);
      break;
    }
    if (performance.now() - lastSign > ARTIFACTS_TIMEOUT_MS) throw new Error(`no artifacts ${ARTIFACTS_TIMEOUT_MS / 1000} s after the last signature`);
    await sleep(POLL_MS);
  }
  const done = performance.now();
  return { totalMs: done - started, lastSignAnswerMs, lastSignToArtifactsMs: done - lastSign };
}

export interface FlowResult {
  /** The first flow of the warm serve (its first completion), not counted below. */
  firstOnServe: FlowTimes;
  flows: FlowTimes[];
  totalMedianMs: number;
  lastSignToArtifactsWarmMedianMs: number;
  lastSignAnswerMedianMs: number;
  /** `concurrentFlows` flows with `inFlight` at once. */
  concurrent: { flows: number; inFlight: number; elapsedMs: number; flowsPerS: number };
  large: { bytes: number; lastSignToArtifactsMs: number[]; medianMs: number };
}

export async function benchFlow(
  contract: Uint8Array,
  large: Uint8Array,
  options: { flows: number; concurrentFlows: number; inFlight: number; largeRuns: number },
): Promise<FlowResult> {
  return withServe({ scenario: 'full flow (warm serve; 2-page and 8 MiB PDFs)' }, async (serve) => {
    const make = createBody(contract, 'contract.pdf');
    const firstOnServe = await runFlow(serve, make, 2);
    const flows: FlowTimes[] = [];
    for (let i = 0; i < options.flows; i += 1) flows.push(await runFlow(serve, make, 2));
    const totalMedianMs = median(flows.map((f) => f.totalMs));
    const warm = median(flows.map((f) => f.lastSignToArtifactsMs));
    const answer = median(flows.map((f) => f.lastSignAnswerMs));
    console.log(
      `full flow (create, activate, 2 x view + sign, artifacts), 2-page contract: ${fmt(totalMedianMs)} ms median of ${options.flows} on a warm serve ` +
        `(first on that serve ${fmt(firstOnServe.totalMs)} ms)`,
    );
    console.log(
      `last signature -> 3 artifacts, warm: ${fmt(warm)} ms median of ${options.flows} (${flows.map((f) => fmt(f.lastSignToArtifactsMs)).join(', ')} ms); ` +
        `the last sign answered in ${fmt(answer, 1)} ms median`,
    );

    let remaining = options.concurrentFlows;
    const begin = performance.now();
    await Promise.all(
      Array.from({ length: options.inFlight }, async () => {
        while (remaining > 0) {
          remaining -= 1;
          await runFlow(serve, make, 2);
        }
      }),
    );
    const elapsedMs = performance.now() - begin;
    const concurrent = { flows: options.concurrentFlows, inFlight: options.inFlight, elapsedMs, flowsPerS: (options.concurrentFlows / elapsedMs) * 1000 };
    console.log(`full flows, ${options.inFlight} at once: ${fmt(concurrent.flowsPerS, 2)} flows/s (${options.concurrentFlows} flows in ${fmt(elapsedMs)} ms)`);

    const makeLarge = createBody(large, 'large.pdf');
    const largeTimes: number[] = [];
    for (let i = 0; i < options.largeRuns; i += 1) largeTimes.push((await runFlow(serve, makeLarge, 1)).lastSignToArtifactsMs);
    const largeResult = { bytes: large.length, lastSignToArtifactsMs: largeTimes, medianMs: median(largeTimes) };
    console.log(
      `last signature -> 3 artifacts, warm, ${fmt(mib(large.length), 2)} MiB PDF: ${fmt(largeResult.medianMs)} ms median of ${options.largeRuns} (${largeTimes.map((x) => fmt(x)).join(', ')} ms)`,
    );
    return { firstOnServe, flows, totalMedianMs, lastSignToArtifactsWarmMedianMs: warm, lastSignAnswerMedianMs: answer, concurrent, large: largeResult };
  });
}

export interface FreshResult {
  /** `serve --ephemeral`: a new data directory, so the signing certificate is made at that start. */
  newDataDir: number[];
  newDataDirMedianMs: number;
  /** `serve --data-dir` on a directory that already has its account and certificate. */
  restarted: number[];
  restartedMedianMs: number;
}

/** The first completion after a start: `runs` fresh serves of each kind, alternating. */
export async function benchFreshArtifacts(contract: Uint8Array, runs: number): Promise<FreshResult> {
  const make = createBody(contract, 'contract.pdf');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-bench-restart-'));
  try {
    // First start of the directory: account, key and certificate; then stopped.
    const first = await startServe({ scenario: 'fresh serve (restarted data dir): first start', dataDir: dir });
    const key = first.key;
    const deadline = performance.now() + 60_000;
    while (!fs.existsSync(path.join(dir, 'signing-certificate.json')) && performance.now() < deadline) await sleep(20);
    await first.stop();
    const newDataDir: number[] = [];
    const restarted: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      newDataDir.push(await withServe({ scenario: 'fresh serve (new data dir)' }, async (serve) => (await runFlow(serve, make, 2)).lastSignToArtifactsMs));
      restarted.push(
        await withServe(
          { scenario: 'fresh serve (restarted data dir)', dataDir: dir, apiKey: key },
          async (serve) => (await runFlow(serve, make, 2)).lastSignToArtifactsMs,
        ),
      );
    }
    const result = { newDataDir, newDataDirMedianMs: median(newDataDir), restarted, restartedMedianMs: median(restarted) };
    console.log(
      `last signature -> 3 artifacts, first completion of a fresh serve: new data dir (--ephemeral) ${fmt(result.newDataDirMedianMs)} ms median of ${runs} ` +
        `(${newDataDir.map((x) => fmt(x)).join(', ')} ms); restarted data dir ${fmt(result.restartedMedianMs)} ms (${restarted.map((x) => fmt(x)).join(', ')} ms)`,
    );
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
