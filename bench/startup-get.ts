/**
 * Start-up of the real binary and throughput of GET one request, each side by side in the same run
 * with a bare fastify + better-sqlite3 server (bench/floor-server.ts, the floor), and GET one request
 * against Prism 5.16 mocking paraph's own `/v1/openapi.json` (Prism answers an example built from
 * the schema: no storage, no auth check beyond the header's presence).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createBody, create } from './client.js';
import { cannon } from './load.js';
import { startPrism } from './peers.js';
import { stopGently, track, untilAnswers } from './proc.js';
import { readyLine } from './serve-ready.js';
import { ROOT, startServe } from './serve.js';
import { fmt, median, sorted } from './stats.js';

/** The floor: a bare fastify + better-sqlite3 server, run by plain node (types stripped, no loader). */
async function startFloor(): Promise<{ url: string; id: string; startupMs: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = track(
    spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', path.join(ROOT, 'bench/floor-server.ts')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const ready = (await readyLine(child)) as unknown as { url: string; id: string };
  await untilAnswers(`${ready.url}/healthz`, { child });
  return { ...ready, startupMs: performance.now() - started, stop: () => stopGently(child) };
}

export interface StartupResult {
  paraphMs: number[];
  floorMs: number[];
  paraphMedianMs: number;
  floorMedianMs: number;
  ratio: number;
}

/** Start-up (spawn to /healthz 200) of paraph and of the floor, alternating, `runs` times each. */
export async function benchStartup(runs: number): Promise<StartupResult> {
  const paraph: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const server = await startServe({ scenario: 'start-up' });
    paraph.push(server.startupMs);
    await server.stop();
    const bare = await startFloor();
    floor.push(bare.startupMs);
    await bare.stop();
  }
  const result = {
    paraphMs: sorted(paraph),
    floorMs: sorted(floor),
    paraphMedianMs: median(paraph),
    floorMedianMs: median(floor),
    ratio: median(paraph) / median(floor),
  };
  console.log(
    `serve start -> /healthz 200: median ${fmt(result.paraphMedianMs)} ms (min ${fmt(result.paraphMs[0] ?? NaN)}, max ${fmt(result.paraphMs.at(-1) ?? NaN)}; ${runs} runs); ` +
      `floor ${fmt(result.floorMedianMs)} ms; ${result.ratio.toFixed(2)}x the floor`,
  );
  return result;
}

export interface Throughput {
  reqPerS: number;
  p50Ms: number;
  p99Ms: number;
}

const throughput = (r: autocannon.Result): Throughput => ({ reqPerS: r.requests.average, p50Ms: r.latency.p50, p99Ms: r.latency.p99 });

export interface GetResult {
  paraph: Throughput;
  floor: Throughput;
  floorRatio: number;
  prism: Throughput | null;
  prismRatio: number | null;
  prismNote: string;
}

/** GET one request: paraph, then the floor, then Prism on paraph's OpenAPI document, `seconds` each. */
export async function benchGet(seconds: number, contract: Uint8Array): Promise<GetResult> {
  const server = await startServe({ scenario: 'GET one request' });
  let paraph: autocannon.Result;
  let id: string;
  const specFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-bench-openapi-')), 'openapi.json');
  try {
    // One signer and one text field: the floor's stored row is about the size of this request's status.
    id = await create(
      server,
      createBody(
        contract,
        'contract.pdf',
      )({
        client_reference: 'bench',
        signers: [{ reference: 'client', email: 'client@example.com', order: 1 }],
        fields: [{ signer_reference: 'client', type: 'text', name: 'company', value: 'ACME', page: 1, x: 72, y: 72, width: 180, height: 20 }],
      }),
    );
    paraph = await cannon('paraph GET', { url: `${server.api}/signature-requests/${id}`, headers: { authorization: `Bearer ${server.key}` } }, seconds);
    const spec = await fetch(`${server.api}/openapi.json`);
    if (spec.status !== 200) throw new Error(`GET /v1/openapi.json answered ${spec.status}`);
    fs.writeFileSync(specFile, Buffer.from(await spec.arrayBuffer()));
  } finally {
    await server.stop();
  }
  const floorServer = await startFloor();
  let floor: autocannon.Result;
  try {
    floor = await cannon('the floor', { url: `${floorServer.url}/rows/${floorServer.id}` }, seconds);
  } finally {
    await floorServer.stop();
  }
  const result: GetResult = {
    paraph: throughput(paraph),
    floor: throughput(floor),
    floorRatio: paraph.requests.average / floor.requests.average,
    prism: null,
    prismRatio: null,
    prismNote: '',
  };
  console.log(
    `GET /v1/signature-requests/{id}: ${fmt(result.paraph.reqPerS)} req/s average, p50 ${result.paraph.p50Ms} ms, p99 ${result.paraph.p99Ms} ms (10 connections, ${seconds} s); ` +
      `floor ${fmt(result.floor.reqPerS)} req/s (p99 ${result.floor.p99Ms} ms); ${result.floorRatio.toFixed(2)}x the floor`,
  );

  const prism = await startPrism(specFile);
  if (!prism.ok) {
    result.prismNote = `Prism unavailable: ${prism.reason}`;
    console.log(`GET vs Prism: ${result.prismNote}; that ratio is skipped`);
  } else {
    try {
      // Same path and header as paraph's; Prism checks the bearer header is there and answers the schema's example.
      const mocked = await cannon(
        'Prism GET',
        { url: `${prism.url}/v1/signature-requests/${id}`, headers: { authorization: 'Bearer paraph_test_prism' } },
        seconds,
      );
      result.prism = throughput(mocked);
      result.prismRatio = paraph.requests.average / mocked.requests.average;
      result.prismNote = prism.name;
      console.log(
        `GET /v1/signature-requests/{id} on ${prism.name} (mocking paraph's openapi.json): ${fmt(result.prism.reqPerS)} req/s, p50 ${result.prism.p50Ms} ms, p99 ${result.prism.p99Ms} ms; ` +
          `paraph is ${result.prismRatio.toFixed(2)}x Prism`,
      );
    } catch (error) {
      result.prismNote = `Prism failed: ${(error as Error).message}`;
      console.log(`GET vs Prism: ${result.prismNote}; that ratio is skipped`);
    } finally {
      await prism.stop();
    }
  }
  fs.rmSync(path.dirname(specFile), { recursive: true, force: true });
  return result;
}
