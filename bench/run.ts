/**
 * paraph's benchmarks: start-up time of the real binary and throughput of GET one request.
 * Run with `npm run bench`; figures depend on the machine, so print it with them.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import autocannon from 'autocannon';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/paraph.js');

interface Ready {
  api_url: string;
  api_key: string;
}

async function startServe(): Promise<{ ready: Ready; startupMs: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--smtp-port', '0', '--ephemeral', '--json', '--rate-limit', 'off'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      if (buffer.includes('\n')) resolve(JSON.parse(buffer.split('\n')[0] as string) as Ready);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const health = ready.api_url.replace(/\/v1$/, '/healthz');
  while ((await fetch(health).catch(() => null))?.status !== 200) await new Promise((r) => setTimeout(r, 5));
  const startupMs = performance.now() - started;
  return {
    ready,
    startupMs,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function benchStartup(runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const server = await startServe();
    times.push(server.startupMs);
    await server.stop();
  }
  return times.sort((a, b) => a - b);
}

async function benchGet(seconds: number): Promise<autocannon.Result> {
  const server = await startServe();
  try {
    const form = new FormData();
    form.append('document', new Blob([fs.readFileSync(path.join(ROOT, 'fixtures/contract.pdf'))], { type: 'application/pdf' }), 'contract.pdf');
    form.append(
      'request',
      JSON.stringify({
        client_reference: 'bench',
        signers: [{ reference: 'client', email: 'client@example.com', order: 1 }],
        fields: [{ signer_reference: 'client', type: 'text', name: 'company', value: 'ACME', page: 1, x: 72, y: 72, width: 180, height: 20 }],
      }),
    );
    const auth = { authorization: `Bearer ${server.ready.api_key}` };
    const created = await fetch(`${server.ready.api_url}/signature-requests`, { method: 'POST', headers: auth, body: form });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    return await autocannon({ url: `${server.ready.api_url}/signature-requests/${id}`, headers: auth, connections: 10, duration: seconds });
  } finally {
    await server.stop();
  }
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`paraph bench on ${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
const startup = await benchStartup(5);
console.log(`serve start -> /healthz 200: median ${startup[2]?.toFixed(0)} ms (min ${startup[0]?.toFixed(0)}, max ${startup[4]?.toFixed(0)}; 5 runs)`);
const get = await benchGet(10);
if (get.non2xx > 0 || get.errors > 0) throw new Error(`GET answered ${get.non2xx} non-2xx and ${get.errors} errors`);
console.log(
  `GET /v1/signature-requests/{id}: ${get.requests.average.toFixed(0)} req/s average, p50 ${get.latency.p50} ms, p99 ${get.latency.p99} ms (10 connections, 10 s)`,
);
