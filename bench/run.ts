/**
 * paraph's benchmarks, side by side in one run with floors and peers, through the real binary
 * (`paraph serve` from dist/, so `npm run bench` builds first). Figures depend on the machine, so the
 * machine and the Node version are printed with them; every figure also goes to bench/results.json.
 *
 *   start-up            serve spawn -> /healthz 200 vs a bare fastify + better-sqlite3 server (the floor)
 *   GET one request     autocannon, 10 connections, vs the floor and vs Prism 5.16 mocking paraph's
 *                       own /v1/openapi.json (bench/startup-get.ts)
 *   create              ~200 KB PDF, 4 in flight: requests/s, p50, p99; ~8 MiB PDF: alone and 4 in
 *                       flight (bench/create.ts)
 *   full flow           create -> activate -> 2 signers view + sign -> completed with artifacts; last
 *                       signature -> artifacts warm, with an ~8 MiB PDF, and on fresh serves (new and
 *                       restarted data directory) (bench/flow.ts)
 *   SMTP                catcher vs maildev and vs a bare smtp-server, nodemailer pool of 5 (bench/smtp.ts)
 *   100,000 stored      list (first page, deep page) and get latency vs a data dir of 40 requests
 *                       (bench/stored-100k.ts; seeded once and cached)
 *   sealing, detection  time and memory of sealing; field detection (bench/sealing.ts, bench/detect.ts)
 *   detection quality   precision/recall of field detection on the synthetic fixtures and, apart, on real
 *                       documents and on real fillable forms with AcroForm widgets (bench/detect-quality.ts)
 *   OCR                 detect-fields on scans made from the real corpus, cold and warm, per page, and
 *                       the analysis process's memory after (bench/ocr.ts; skipped without the corpus)
 *   peak RSS            VmHWM of every serve (plus its live child processes) before it stops
 *
 * Peers (maildev, Prism) are installed on first use under ~/.cache/paraph-bench-peers (bench/peers.ts);
 * a peer that cannot be installed or started is reported and its fallback used.
 *
 * Knobs (environment):
 *   PARAPH_BENCH_QUICK=1              a fast smoke run of every scenario (short durations, few runs)
 *   PARAPH_BENCH_ONLY=a,b             only these scenarios: startup, get, create, flow, fresh, smtp,
 *                                     stored, seal, detect, quality, ocr (a partial run still writes the results file)
 *   PARAPH_BENCH_RESULTS=FILE         where the JSON goes (default bench/results.json)
 *   PARAPH_BENCH_STARTUP_RUNS=5       start-ups of each (quick: 2)
 *   PARAPH_BENCH_GET_SECONDS=10       each GET run: paraph, floor, Prism (quick: 2)
 *   PARAPH_BENCH_CREATE_SECONDS=10    the 200 KB create run (quick: 2)
 *   PARAPH_BENCH_LARGE_RUNS=5         8 MiB creates one at a time (quick: 1)
 *   PARAPH_BENCH_LARGE_COUNT=12       8 MiB creates 4 in flight (quick: 4)
 *   PARAPH_BENCH_FLOWS=10             timed full flows on the warm serve (quick: 2)
 *   PARAPH_BENCH_CONCURRENT_FLOWS=12  flows run 4 at a time for flows/s (quick: 4)
 *   PARAPH_BENCH_LARGE_FLOWS=3        warm flows with the 8 MiB PDF (quick: 1)
 *   PARAPH_BENCH_FRESH_SERVES=4       fresh serves of each kind for the first completion (quick: 1)
 *   PARAPH_BENCH_SMTP_MAILS=2000      mails per SMTP run (quick: 200)
 *   PARAPH_BENCH_STORED=100000        requests stored for the list/get comparison
 *   PARAPH_BENCH_STORED_SECONDS=4     each list/get run (quick: 1)
 *   PARAPH_BENCH_SEAL_RUNS=7/5        sealing runs of the 1-page / the 8 MiB PDF (one figure for both; quick: 2)
 *   PARAPH_BENCH_OCR_RUNS=3           warm detect-fields calls per scan
 *   PARAPH_BENCH_TIMINGS=1            print how long each scenario took
 *   PARAPH_BENCH_PEERS_DIR=DIR        peers and seeded data cache (default ~/.cache/paraph-bench-peers)
 *   PARAPH_BENCH_NO_INSTALL=1         never install a peer: use one already installed or the fallback
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchCreate, type CreateResult } from './create.js';
import { benchDetection } from './detect.js';
import { benchDetectionQuality, detectionQualityRows, type QualityResult } from './detect-quality.js';
import { benchOcr, type OcrResult } from './ocr.js';
import { benchFlow, benchFreshArtifacts, type FlowResult, type FreshResult } from './flow.js';
import { benchPdf, sizedPdf } from './pdfs.js';
import { failedRow, peakRss, printTable, ratioRow, valueRow, type Row } from './report.js';
import { benchSealing, type SealingResult } from './sealing.js';
import { ROOT, rssReadings } from './serve.js';
import { benchSmtp, type SmtpResult } from './smtp.js';
import { fmt, round } from './stats.js';
import { benchGet, benchStartup, type GetResult, type StartupResult } from './startup-get.js';
import { benchStored, type StoredResult } from './stored-100k.js';

const QUICK = process.env.PARAPH_BENCH_QUICK === '1';
const knob = (name: string, full: number, quick: number) => {
  const value = Number(process.env[name] ?? (QUICK ? quick : full));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const config = {
  quick: QUICK,
  startupRuns: knob('PARAPH_BENCH_STARTUP_RUNS', 5, 2),
  getSeconds: knob('PARAPH_BENCH_GET_SECONDS', 10, 2),
  createSeconds: knob('PARAPH_BENCH_CREATE_SECONDS', 10, 2),
  createInFlight: 4,
  largeRuns: knob('PARAPH_BENCH_LARGE_RUNS', 5, 1),
  largeCount: knob('PARAPH_BENCH_LARGE_COUNT', 12, 4),
  flows: knob('PARAPH_BENCH_FLOWS', 10, 2),
  concurrentFlows: knob('PARAPH_BENCH_CONCURRENT_FLOWS', 12, 4),
  largeFlows: knob('PARAPH_BENCH_LARGE_FLOWS', 3, 1),
  freshServes: knob('PARAPH_BENCH_FRESH_SERVES', 4, 1),
  smtpMails: knob('PARAPH_BENCH_SMTP_MAILS', 2000, 200),
  storedCount: knob('PARAPH_BENCH_STORED', 100_000, 100_000),
  storedBase: 40,
  storedSeconds: knob('PARAPH_BENCH_STORED_SECONDS', 4, 1),
  storedPageSize: 25,
  sealRunsOnePage: knob('PARAPH_BENCH_SEAL_RUNS', 7, 2),
  sealRunsLarge: knob('PARAPH_BENCH_SEAL_RUNS', 5, 2),
};
const SCENARIOS = ['startup', 'get', 'create', 'flow', 'fresh', 'smtp', 'stored', 'seal', 'detect', 'quality', 'ocr'] as const;
type Scenario = (typeof SCENARIOS)[number];
const only = process.env.PARAPH_BENCH_ONLY?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
for (const name of only ?? [])
  if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`PARAPH_BENCH_ONLY: unknown scenario ${name} (${SCENARIOS.join(', ')})`);
const enabled = (name: Scenario) => !only || only.includes(name);
const resultsFile = process.env.PARAPH_BENCH_RESULTS ?? path.join(ROOT, 'bench/results.json');

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const machine = `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`;
// Other work on the machine skews every figure: the load average before and after says whether there was any.
const loadBefore = os.loadavg().map((x) => Number(x.toFixed(2)));
console.log(
  `paraph bench on ${machine}, Node ${process.version}, ${os.type()} ${os.release()}; load average ${loadBefore.join(' ')}` +
    `${QUICK ? ' (QUICK: short runs, figures are rough)' : ''}`,
);
const begun = performance.now();

const contract = fs.readFileSync(path.join(ROOT, 'fixtures/contract.pdf'));
const onePage = await benchPdf(null);
const small = await sizedPdf(200 * 1024);
const large = await sizedPdf(7.9 * 2 ** 20);

const failures: Array<{ scenario: Scenario; error: string }> = [];
/** Runs one scenario; a failure is printed, recorded and the next scenario runs. */
async function scenario<T>(name: Scenario, fn: () => Promise<T>): Promise<T | null> {
  if (!enabled(name)) return null;
  const started = performance.now();
  try {
    const result = await fn();
    if (process.env.PARAPH_BENCH_TIMINGS === '1') console.log(`  (${name}: ${fmt((performance.now() - started) / 1000, 1)} s)`);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.log(`${name}: FAILED: ${message}`);
    failures.push({ scenario: name, error: message });
    return null;
  }
}

const startup: StartupResult | null = await scenario('startup', () => benchStartup(config.startupRuns));
const get: GetResult | null = await scenario('get', () => benchGet(config.getSeconds, contract));
const create: CreateResult | null = await scenario('create', () =>
  benchCreate(small, large, { seconds: config.createSeconds, inFlight: config.createInFlight, largeRuns: config.largeRuns, largeCount: config.largeCount }),
);
const flow: FlowResult | null = await scenario('flow', () =>
  benchFlow(contract, large, { flows: config.flows, concurrentFlows: config.concurrentFlows, inFlight: config.createInFlight, largeRuns: config.largeFlows }),
);
const fresh: FreshResult | null = await scenario('fresh', () => benchFreshArtifacts(contract, config.freshServes));
const smtp: SmtpResult | null = await scenario('smtp', () => benchSmtp(config.smtpMails));
const stored: StoredResult | null = await scenario('stored', () =>
  benchStored(contract, { count: config.storedCount, baseRequests: config.storedBase, seconds: config.storedSeconds, pageSize: config.storedPageSize }),
);
const sealing: SealingResult[] | null = await scenario('seal', async () => [
  await benchSealing('1-page', onePage, config.sealRunsOnePage),
  await benchSealing('large', large, config.sealRunsLarge),
]);
await scenario('detect', () => benchDetection());
const quality: QualityResult | null = await scenario('quality', () => benchDetectionQuality());
const ocr: OcrResult | null = await scenario('ocr', () => benchOcr());

// --- Summary -------------------------------------------------------------------------------------

const ms = (x: number) => `${fmt(x)} ms`;
const rows: Row[] = [];
const failed = (name: Scenario) => failures.find((f) => f.scenario === name)?.error;
const failedOr = (name: Scenario, measure: string, add: () => void) => {
  const error = failed(name);
  if (error !== undefined) rows.push(failedRow(measure, error));
  else if (enabled(name)) add();
};

failedOr('startup', 'start -> /healthz (median)', () => {
  if (startup)
    rows.push(ratioRow('start -> /healthz (median)', ms(startup.paraphMedianMs), `floor ${ms(startup.floorMedianMs)}`, startup.ratio, { atMost: 2 }));
});
failedOr('get', 'GET one request (10 conn.)', () => {
  if (!get) return;
  rows.push(
    ratioRow('GET one request vs floor', `${fmt(get.paraph.reqPerS)} req/s`, `floor ${fmt(get.floor.reqPerS)} req/s`, get.floorRatio, { atLeast: 0.4 }),
  );
  rows.push(
    get.prism
      ? ratioRow('GET one request vs Prism', `${fmt(get.paraph.reqPerS)} req/s`, `Prism ${fmt(get.prism.reqPerS)} req/s`, get.prismRatio, { atLeast: 5 })
      : { ...ratioRow('GET one request vs Prism', `${fmt(get.paraph.reqPerS)} req/s`, 'Prism unavailable', null, { atLeast: 5 }), note: get.prismNote },
  );
});
failedOr('create', 'create', () => {
  if (!create) return;
  rows.push(
    valueRow(`create, ${fmt(create.small.bytes / 1024)} KB PDF, ${create.small.inFlight} in flight`, create.small.reqPerS, 'req/s', { atLeast: 300 }, 1),
  );
  rows.push(valueRow(`  same: p50 / p99`, create.small.p50Ms, `ms / ${fmt(create.small.p99Ms, 1)} ms`, null, 1));
  rows.push(valueRow(`create, ${fmt(create.large.bytes / 2 ** 20, 2)} MiB PDF, alone (median)`, create.large.singleMedianMs, 'ms', null));
  rows.push(
    valueRow(
      `create, ${fmt(create.large.bytes / 2 ** 20, 2)} MiB PDF, ${create.large.inFlight} in flight`,
      create.large.reqPerS,
      `req/s (${fmt(create.large.mibPerS)} MiB/s)`,
      null,
      1,
    ),
  );
});
failedOr('flow', 'full flow', () => {
  if (!flow) return;
  rows.push(valueRow('full flow, 2 signers (median, warm)', flow.totalMedianMs, 'ms', null));
  rows.push(valueRow(`full flows, ${flow.concurrent.inFlight} at once`, flow.concurrent.flowsPerS, 'flows/s', null, 2));
  rows.push(valueRow('last signature -> artifacts, warm', flow.lastSignToArtifactsWarmMedianMs, 'ms', { atMost: 150 }));
  rows.push(valueRow(`  same, ${fmt(flow.large.bytes / 2 ** 20, 2)} MiB PDF, warm`, flow.large.medianMs, 'ms', null));
});
failedOr('fresh', 'last signature -> artifacts, fresh serve', () => {
  if (!fresh) return;
  rows.push(valueRow('last sig. -> artifacts, fresh serve, new dir', fresh.newDataDirMedianMs, 'ms', { atMost: 500 }));
  rows.push(valueRow('last sig. -> artifacts, fresh serve, restart', fresh.restartedMedianMs, 'ms', { atMost: 500 }));
});
failedOr('smtp', 'SMTP ingest', () => {
  if (!smtp) return;
  rows.push(
    smtp.maildev
      ? ratioRow(
          `SMTP ingest, ${fmt(smtp.mails)} mails, pool of 5`,
          `${fmt(smtp.paraphMean)} mails/s`,
          `${smtp.maildev.name} ${fmt(smtp.maildev.mean)}`,
          smtp.ratioVsMaildev,
          { atLeast: 2 },
        )
      : { ...ratioRow('SMTP ingest vs maildev', `${fmt(smtp.paraphMean)} mails/s`, 'maildev unavailable', null, { atLeast: 2 }), note: smtp.maildevNote },
  );
  rows.push({
    measure: '  same vs bare smtp-server',
    paraph: `${fmt(smtp.paraphMean)} mails/s`,
    reference: `floor ${fmt(smtp.floor.mean)}`,
    ratio: `${smtp.ratioVsFloor.toFixed(2)}x`,
    target: smtp.maildev ? '-' : '(stands in for maildev)',
    met: null,
  });
  const cpu = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(3)} ms`);
  const peerCpu = smtp.maildev ?? smtp.floor;
  rows.push({
    measure: '  server CPU per mail',
    paraph: cpu(smtp.paraphCpuMsPerMail),
    reference: `${smtp.maildev ? smtp.maildev.name : 'floor'} ${cpu(peerCpu.cpuMsPerMail)}; floor ${cpu(smtp.floor.cpuMsPerMail)}`,
    ratio: smtp.paraphCpuMsPerMail !== null && peerCpu.cpuMsPerMail !== null ? `${(peerCpu.cpuMsPerMail / smtp.paraphCpuMsPerMail).toFixed(2)}x less` : '-',
    target: '-',
    met: null,
  });
});
failedOr('stored', `list/get with ${fmt(config.storedCount)} stored`, () => {
  if (!stored) return;
  for (const e of stored.endpoints) {
    rows.push(
      ratioRow(
        `${e.name}, ${fmt(stored.count / 1000)}k stored`,
        `${fmt(e.many.meanMs, 2)} ms (${fmt(e.many.reqPerS)}/s)`,
        `${stored.few} stored ${fmt(e.few.meanMs, 2)} ms`,
        e.ratio,
        { atMost: 1.2 },
      ),
    );
  }
});
failedOr('seal', 'seal timestamp (B-T), warm', () => {
  // What a B-T seal adds: the built-in authority's token over the signature value, and its check.
  // It does not depend on the PDF: the target is on the 1-page case, where no large document's garbage is collected meanwhile.
  for (const run of sealing ?? []) {
    rows.push(valueRow(`seal timestamp (B-T), ${run.label} PDF, warm`, run.timestampWarmMs, 'ms', run.label === '1-page' ? { atMost: 5 } : null, 1));
  }
});
failedOr('quality', 'field detection quality', () => {
  if (quality) rows.push(...detectionQualityRows(quality));
});
const rss = peakRss(rssReadings());
if (rss.max) {
  // The target is on the serve process itself; its child processes (the upload inspector, field
  // detection with its OCR workers) are reported beside it, without a target.
  const own = rssReadings().reduce((max, r) => (r.serveMb > max.serveMb ? r : max));
  const ownMb = own.serveMb * 1.048576;
  rows.push({
    ...valueRow(`peak RSS of the serve process (${own.scenario})`, ownMb, 'MB', { atMost: 300 }),
    paraph: `${fmt(ownMb)} MB (${fmt(own.serveMb)} MiB)`,
  });
  const mb = rss.max.totalMb * 1.048576;
  rows.push({
    ...valueRow(`  same with its child processes (${rss.max.scenario})`, mb, 'MB', null),
    paraph: `${fmt(mb)} MB (${fmt(rss.max.totalMb)} MiB)`,
  });
}

const loadAfter = os.loadavg().map((x) => Number(x.toFixed(2)));
console.log(
  `\nSummary (${machine}, Node ${process.version}${QUICK ? ', QUICK' : ''}; ${fmt((performance.now() - begun) / 1000)} s in all; ` +
    `load average ${loadBefore.join(' ')} before, ${loadAfter.join(' ')} after; the bench itself keeps about 2 busy)`,
);
printTable(rows);
if (rss.lines.length > 0) {
  console.log('Peak RSS (VmHWM) of each serve, largest per scenario; child processes of serve alive at its stop are added in:');
  for (const line of rss.lines) console.log(line);
}

const results = {
  machine,
  node: process.version,
  at: new Date().toISOString(),
  loadAverage: { before: loadBefore, after: loadAfter },
  config: { ...config, only: only ?? null },
  ...(startup
    ? {
        startup: {
          paraphMedianMs: Math.round(startup.paraphMedianMs),
          floorMedianMs: Math.round(startup.floorMedianMs),
          ratio: round(startup.ratio, 2),
          runs: startup.paraphMs.length,
          paraphMs: startup.paraphMs.map((x) => Math.round(x)),
          floorMs: startup.floorMs.map((x) => Math.round(x)),
        },
      }
    : {}),
  ...(get
    ? {
        get: {
          paraphReqPerS: Math.round(get.paraph.reqPerS),
          paraphP99Ms: get.paraph.p99Ms,
          floorReqPerS: Math.round(get.floor.reqPerS),
          ratio: round(get.floorRatio, 3),
          prismReqPerS: get.prism ? Math.round(get.prism.reqPerS) : null,
          prismRatio: get.prismRatio === null ? null : round(get.prismRatio, 2),
          prism: get.prismNote,
        },
      }
    : {}),
  ...(create ? { create } : {}),
  ...(ocr ? { ocr } : {}),
  ...(flow
    ? {
        flow: {
          totalMedianMs: Math.round(flow.totalMedianMs),
          firstOnServeMs: Math.round(flow.firstOnServe.totalMs),
          flowsMs: flow.flows.map((f) => Math.round(f.totalMs)),
          concurrent: flow.concurrent,
        },
      }
    : {}),
  ...(flow || fresh
    ? {
        artifacts: {
          warmMedianMs: flow ? Math.round(flow.lastSignToArtifactsWarmMedianMs) : null,
          warmMs: flow ? flow.flows.map((f) => Math.round(f.lastSignToArtifactsMs)) : null,
          lastSignAnswerMedianMs: flow ? round(flow.lastSignAnswerMedianMs, 1) : null,
          largeWarmMedianMs: flow ? Math.round(flow.large.medianMs) : null,
          freshNewDataDirMedianMs: fresh ? Math.round(fresh.newDataDirMedianMs) : null,
          freshNewDataDirMs: fresh ? fresh.newDataDir.map((x) => Math.round(x)) : null,
          freshRestartedMedianMs: fresh ? Math.round(fresh.restartedMedianMs) : null,
          freshRestartedMs: fresh ? fresh.restarted.map((x) => Math.round(x)) : null,
        },
      }
    : {}),
  ...(smtp ? { smtp } : {}),
  ...(stored ? { stored100k: stored } : {}),
  ...(sealing ? { sealing } : {}),
  ...(quality ? { detectionQuality: quality } : {}),
  peakRss: {
    maxMiB: rss.max ? round(rss.max.totalMb, 1) : null,
    maxMB: rss.max ? round(rss.max.totalMb * 1.048576, 1) : null,
    scenario: rss.max?.scenario ?? null,
    readings: rssReadings().map((r) => ({
      scenario: r.scenario,
      serveMiB: round(r.serveMb, 1),
      children: r.children.map((c) => ({ name: c.name, MiB: round(c.mb, 1) })),
      totalMiB: round(r.totalMb, 1),
    })),
  },
  summary: rows,
  failures,
};
// Two decimals are plenty for every figure.
const tidy = (_key: string, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value);
fs.writeFileSync(resultsFile, `${JSON.stringify(results, tidy, 2)}\n`);
console.log(`Results in ${path.relative(process.cwd(), resultsFile).startsWith('..') ? resultsFile : path.relative(process.cwd(), resultsFile)}`);
if (failures.length > 0) process.exitCode = 1;
