/**
 * paraph's benchmarks: start-up time of the real binary and throughput of GET one request, each side by
 * side with a bare fastify + better-sqlite3 server (bench/floor-server.ts, the floor) in the same run;
 * sealing (time and peak memory) of a 1-page and an ~8 MiB PDF.
 * Run with `npm run bench`; figures depend on the machine, so print it with them. The figures also go
 * to bench/results.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fs from 'node:fs';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { readyLine, type Ready } from './serve-ready.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/paraph.js');

async function startServe(): Promise<{ ready: Ready; startupMs: number; pid: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--smtp-port', '0', '--ephemeral', '--json', '--rate-limit', 'off'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await readyLine(child);
  await untilHealthy(ready.api_url.replace(/\/v1$/, '/healthz'));
  return { ready, startupMs: performance.now() - started, pid: child.pid as number, stop: () => stopGently(child) };
}

async function untilHealthy(url: string): Promise<void> {
  while ((await fetch(url).catch(() => null))?.status !== 200) await new Promise((r) => setTimeout(r, 5));
}

function stopGently(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The floor: a bare fastify + better-sqlite3 server, run by plain node (types stripped, no loader). */
async function startFloor(): Promise<{ url: string; id: string; startupMs: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', path.join(ROOT, 'bench/floor-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = (await readyLine(child)) as unknown as { url: string; id: string };
  await untilHealthy(`${ready.url}/healthz`);
  return { ...ready, startupMs: performance.now() - started, stop: () => stopGently(child) };
}

/** Start-up of paraph and of the floor, alternating, `runs` times each: sorted times. */
async function benchStartup(runs: number): Promise<{ paraph: number[]; floor: number[] }> {
  const paraph: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const server = await startServe();
    paraph.push(server.startupMs);
    await server.stop();
    const bare = await startFloor();
    floor.push(bare.startupMs);
    await bare.stop();
  }
  return { paraph: paraph.sort((a, b) => a - b), floor: floor.sort((a, b) => a - b) };
}

async function benchFloorGet(seconds: number): Promise<autocannon.Result> {
  const floor = await startFloor();
  try {
    return await autocannon({ url: `${floor.url}/rows/${floor.id}`, connections: 10, duration: seconds });
  } finally {
    await floor.stop();
  }
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

// --- Sealing -------------------------------------------------------------------------------------

/** A PNG of random pixels: incompressible, so a few of them make a PDF of a chosen size. */
function noisePng(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) randomBytes(width * 3).copy(raw, y * (width * 3 + 1) + 1);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A 1-page text PDF, or pages each carrying a photo-like image up to about `targetBytes` (under 8 MiB). */
async function benchPdf(targetBytes: number | null): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = targetBytes === null ? 1 : 3;
  for (let i = 0; i < pages; i += 1) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Bench document, page ${i + 1} of ${pages}`, { x: 50, y: 790, size: 14, font });
    if (targetBytes !== null) {
      const side = Math.floor(Math.sqrt(targetBytes / pages / 3));
      page.drawImage(await doc.embedPng(noisePng(side, side)), { x: 50, y: 200, width: 495, height: 495 });
    }
  }
  return doc.save();
}

interface SealRun {
  bytes: number;
  sealMs: number[];
  produceMs: number[];
  baselineRssMb: number;
  peakRssMb: number;
}

/**
 * In a fresh process (so its peak RSS is this case's alone), with the compiled code: seal only (load,
 * placeholder, save, CMS signature) and the whole artifact production (stamp, seal, evidence report).
 */
async function sealChild(pdfFile: string, runs: number): Promise<void> {
  const dist = (file: string) => import(pathToFileURL(path.join(ROOT, 'dist', file)).href);
  const { loadOrCreateSigningIdentity } = await dist('pdf/certificate.js');
  const { createSealer } = await dist('crypto/sealed.js');
  const { addSealPlaceholder, sealPdf } = await dist('pdf/seal.js');
  const { produce } = await dist('pdf/artifact-worker.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-bench-'));
  const identity = await loadOrCreateSigningIdentity(dir, createSealer(randomBytes(32), 'secrets'), new Date());
  fs.rmSync(dir, { recursive: true, force: true });
  const original = fs.readFileSync(pdfFile);
  const signer = { certificateDer: identity.certificateDer, privateKey: identity.privateKeyDer };
  const baselineRssMb = process.memoryUsage().rss / 2 ** 20;
  const sealMs: number[] = [];
  const produceMs: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    let started = performance.now();
    const doc = await PDFDocument.load(original, { updateMetadata: false });
    addSealPlaceholder(doc, new Date(), 'bench');
    await sealPdf(await doc.save({ useObjectStreams: false }), signer);
    sealMs.push(performance.now() - started);
    started = performance.now();
    await produce({
      original,
      fields: [{ type: 'signature', page: 1, x: 50, y: 720, width: 200, height: 50, value: null, mark: { method: 'typed', text: 'Ada Lovelace' } }],
      sealAt: Date.now(),
      signer: { certificateDer: identity.certificateDer, privateKeyDer: identity.privateKeyDer, name: 'bench' },
      report: {
        evidenceRef: 'EVD-BENCH', generatedAt: new Date().toISOString(), requestId: 'bench', clientReference: 'bench', documentName: 'bench.pdf',
        status: 'completed', sequentialSigning: false, createdAt: new Date().toISOString(), completedAt: new Date().toISOString(), retentionExpiresAt: null,
        originalSha256: '0'.repeat(64), certificate: { subject: identity.subject, sha256: identity.sha256, serialNumber: identity.serialNumber, notBefore: identity.notBefore, notAfter: identity.notAfter },
        signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', signingOrder: null, status: 'signed', signedAt: new Date().toISOString(), verification: '', verifiedAt: null }],
        events: Array.from({ length: 6 }, (_, n) => ({ id: n + 1, type: 'event', actorType: 'system', actorEmail: '', createdAt: new Date().toISOString() })),
        chain: { head: '0'.repeat(64), count: 6 },
      },
    });
    produceMs.push(performance.now() - started);
  }
  const result: SealRun = { bytes: original.length, sealMs, produceMs, baselineRssMb, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function benchSealing(label: string, pdf: Uint8Array, runs: number): Promise<void> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-bench-')), `${label}.pdf`);
  fs.writeFileSync(file, pdf);
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, PARAPH_BENCH_SEAL: file, PARAPH_BENCH_RUNS: String(runs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (code !== 0) throw new Error(`sealing bench for ${label} exited with ${code}`);
  const run = JSON.parse(out) as SealRun;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const warm = (xs: number[]) => median(xs.slice(1));
  console.log(
    `seal ${label} (${(run.bytes / 2 ** 20).toFixed(2)} MiB): seal only ${warm(run.sealMs).toFixed(0)} ms warm (first ${run.sealMs[0]?.toFixed(0)} ms); ` +
      `stamp + seal + evidence report ${warm(run.produceMs).toFixed(0)} ms warm (first ${run.produceMs[0]?.toFixed(0)} ms); ` +
      `peak RSS ${run.peakRssMb.toFixed(0)} MiB (${run.baselineRssMb.toFixed(0)} MiB before the first run; ${runs} runs)`,
  );
}

/** Through the real binary: from the last signer's answer to the three artifacts being available. */
async function benchCompletion(label: string, pdf: Uint8Array): Promise<void> {
  const server = await startServe();
  try {
    const auth = { authorization: `Bearer ${server.ready.api_key}` };
    const form = new FormData();
    form.append('document', new Blob([pdf], { type: 'application/pdf' }), `${label}.pdf`);
    form.append('request', JSON.stringify({
      client_reference: `bench-${label}`,
      signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'client@example.com', order: 1 }],
      fields: [{ signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 720, width: 200, height: 50 }],
    }));
    const created = await fetch(`${server.ready.api_url}/signature-requests`, { method: 'POST', headers: auth, body: form });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    const activated = (await (await fetch(`${server.ready.api_url}/signature-requests/${id}/activate`, { method: 'POST', headers: auth })).json()) as { signers: Array<{ signing_url: string }> };
    const link = activated.signers[0]?.signing_url as string;
    const post = (action: string, body: unknown = {}) => fetch(`${link}/api/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('view');
    const started = performance.now();
    const signed = await post('sign', { signature: { type: 'typed', text: 'Ada Lovelace' } });
    const answeredMs = performance.now() - started;
    if (signed.status !== 200) throw new Error(`sign answered ${signed.status}`);
    for (;;) {
      const status = (await (await fetch(`${server.ready.api_url}/signature-requests/${id}`, { headers: auth })).json()) as { artifacts: { evidence_json: boolean } };
      if (status.artifacts.evidence_json) break;
      if (performance.now() - started > 120_000) throw new Error('no artifacts after 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    const readyMs = performance.now() - started;
    const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
    console.log(
      `completion ${label}: signer answered in ${answeredMs.toFixed(0)} ms; artifacts available after ${readyMs.toFixed(0)} ms (first job of a fresh serve)` +
        (hwm ? `; serve peak RSS ${(Number(hwm) / 1024).toFixed(0)} MiB` : ''),
    );
  } finally {
    await server.stop();
  }
}

if (process.env.PARAPH_BENCH_SEAL) {
  await sealChild(process.env.PARAPH_BENCH_SEAL, Number(process.env.PARAPH_BENCH_RUNS ?? '5'));
} else {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const machine = `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`;
  console.log(`paraph bench on ${machine}, Node ${process.version}`);
  const startup = await benchStartup(5);
  const median = (xs: number[]) => xs[Math.floor(xs.length / 2)] ?? NaN;
  const startRatio = median(startup.paraph) / median(startup.floor);
  console.log(
    `serve start -> /healthz 200: median ${median(startup.paraph).toFixed(0)} ms (min ${startup.paraph[0]?.toFixed(0)}, max ${startup.paraph.at(-1)?.toFixed(0)}; 5 runs); ` +
      `floor ${median(startup.floor).toFixed(0)} ms; ${startRatio.toFixed(2)}x the floor`,
  );
  const get = await benchGet(10);
  if (get.non2xx > 0 || get.errors > 0) throw new Error(`GET answered ${get.non2xx} non-2xx and ${get.errors} errors`);
  const floorGet = await benchFloorGet(10);
  if (floorGet.non2xx > 0 || floorGet.errors > 0) throw new Error(`the floor answered ${floorGet.non2xx} non-2xx and ${floorGet.errors} errors`);
  const getRatio = get.requests.average / floorGet.requests.average;
  console.log(
    `GET /v1/signature-requests/{id}: ${get.requests.average.toFixed(0)} req/s average, p50 ${get.latency.p50} ms, p99 ${get.latency.p99} ms (10 connections, 10 s); ` +
      `floor ${floorGet.requests.average.toFixed(0)} req/s (p99 ${floorGet.latency.p99} ms); ${getRatio.toFixed(2)}x the floor`,
  );
  const results = {
    machine,
    node: process.version,
    at: new Date().toISOString(),
    startup: { paraphMedianMs: Math.round(median(startup.paraph)), floorMedianMs: Math.round(median(startup.floor)), ratio: Number(startRatio.toFixed(2)) },
    get: {
      paraphReqPerS: Math.round(get.requests.average),
      paraphP99Ms: get.latency.p99,
      floorReqPerS: Math.round(floorGet.requests.average),
      ratio: Number(getRatio.toFixed(3)),
    },
  };
  fs.writeFileSync(path.join(ROOT, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const onePage = await benchPdf(null);
  const large = await benchPdf(7.9 * 2 ** 20);
  if (large.length > 8 * 2 ** 20) throw new Error(`the large bench PDF is ${large.length} bytes, over the 8 MiB limit`);
  await benchSealing('1-page', onePage, 7);
  await benchSealing('large', large, 5);
  await benchCompletion('1-page', onePage);
  await benchCompletion('large', large);
}
if (!process.env.PARAPH_BENCH_SEAL) await (await import('./detect.js')).benchDetection();
