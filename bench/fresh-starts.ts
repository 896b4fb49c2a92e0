/**
 * Fresh starts, as a new user makes them: `paraph serve` on an empty data directory, one request with
 * two signers taken to its three artifacts, then SIGTERM. Repeated N times (default 20) on the Node
 * running it; prints each run and a summary, and fails if any start aborts, exits non-zero or prints
 * a native fault. Run on a line with `scripts/with-node.sh 24 npm run bench:fresh` (after `npm ci`
 * on that line); arguments: runs (20), seconds to wait for the artifacts (60).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readyLine } from './serve-ready.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/paraph.js');
const CONTRACT = fs.readFileSync(path.join(ROOT, 'fixtures/contract.pdf'));
const FAULTS = /Assertion failed|Aborted|DataCloneError|artifact generation failed|Segmentation fault/;

interface Run {
  startMs: number;
  artifactsMs: number;
  code: number | null;
  signal: string | null;
  fault: string | null;
}

const count = Number(process.argv[2] ?? '20');
const artifactsTimeoutMs = Number(process.argv[3] ?? '60') * 1000;

async function freshStart(): Promise<Run> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-fresh-'));
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--smtp-port', '0', '--json', '--rate-limit', 'off'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
  try {
    const ready = await readyLine(child, () => stderr);
    const api = ready.api_url;
    while ((await fetch(api.replace(/\/v1$/, '/healthz')).catch(() => null))?.status !== 200) await new Promise((r) => setTimeout(r, 5));
    const startMs = performance.now() - started;

    const auth = { authorization: `Bearer ${ready.api_key}` };
    const form = new FormData();
    form.append('document', new Blob([CONTRACT], { type: 'application/pdf' }), 'contract.pdf');
    form.append(
      'request',
      JSON.stringify({
        client_reference: 'fresh-start',
        signers: [
          { reference: 'a', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 },
          { reference: 'b', name: 'Grace Hopper', email: 'grace@example.com', order: 1 },
        ],
        fields: ['a', 'b'].map((ref, i) => ({ signer_reference: ref, type: 'signature', page: 2, x: 72 + i * 230, y: 600, width: 180, height: 40 })),
      }),
    );
    const created = await fetch(`${api}/signature-requests`, { method: 'POST', headers: auth, body: form });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    const activated = (await (await fetch(`${api}/signature-requests/${id}/activate`, { method: 'POST', headers: auth })).json()) as {
      signers: Array<{ signing_url: string }>;
    };
    let lastSignature = 0;
    for (const { signing_url: link } of activated.signers) {
      const post = (action: string, body: unknown) =>
        fetch(`${link}/api/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await post('view', {});
      lastSignature = performance.now();
      const signed = await post('sign', { signature: { type: 'typed', text: 'Ada' } });
      if (signed.status !== 200) throw new Error(`sign answered ${signed.status}`);
    }
    for (;;) {
      const state = (await (await fetch(`${api}/signature-requests/${id}`, { headers: auth })).json()) as { artifacts: Record<string, boolean> };
      if (Object.values(state.artifacts).every(Boolean)) break;
      if (performance.now() - lastSignature > artifactsTimeoutMs) throw new Error(`no artifacts after ${artifactsTimeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const artifactsMs = performance.now() - lastSignature;
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    return { startMs, artifactsMs, code, signal, fault: FAULTS.exec(stderr)?.[0] ?? null };
  } catch (error) {
    // A failed run is reported and counted, and the next one starts.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const [code, signal] = await Promise.race([exited, new Promise<[null, null]>((r) => setTimeout(() => r([null, null]), 5000))]);
    const fault = FAULTS.exec(stderr)?.[0] ?? (error instanceof Error ? error.message.split('\n')[0] : String(error)) ?? 'failed';
    return { startMs: NaN, artifactsMs: NaN, code, signal, fault };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`paraph fresh starts on ${os.cpus().length} x ${cpu}, Node ${process.version}: ${count} runs`);
const runs: Run[] = [];
for (let i = 1; i <= count; i++) {
  const run = await freshStart();
  runs.push(run);
  const end = run.signal ? `signal ${run.signal}` : `exit ${run.code}`;
  const ms = (x: number) => (Number.isNaN(x) ? '-' : `${x.toFixed(0)} ms`);
  console.log(
    `${String(i).padStart(2)}  start -> /healthz ${ms(run.startMs)}  last signature -> 3 artifacts ${ms(run.artifactsMs)}  ${end}${run.fault ? `  FAULT: ${run.fault}` : ''}`,
  );
}
const sorted = (pick: (r: Run) => number) =>
  runs
    .map(pick)
    .filter((x) => !Number.isNaN(x))
    .sort((a, b) => a - b);
const median = (xs: number[]) => xs[Math.floor(xs.length / 2)];
const figure = (x: number | undefined) => (x === undefined ? 'n/a' : `${x.toFixed(0)} ms`);
const starts = sorted((r) => r.startMs);
const artifacts = sorted((r) => r.artifactsMs);
const bad = runs.filter((r) => r.code !== 0 || r.signal !== null || r.fault !== null);
console.log(
  `Node ${process.version}: ${count - bad.length}/${count} clean; start median ${figure(median(starts))} (max ${figure(starts.at(-1))}); ` +
    `artifacts median ${figure(median(artifacts))} (max ${figure(artifacts.at(-1))})`,
);
if (bad.length > 0) process.exitCode = 1;
