/**
 * List and get latency with 100,000 signature requests stored vs a data directory holding only a few.
 *
 * Seeding 100,000 requests through the API would take minutes, so: a `serve --data-dir` makes a few
 * requests through the API in a mix of states (prepared, active with and without mailed links,
 * completed with artifacts, cancelled), is stopped, and a copy of that directory is multiplied with
 * SQL `INSERT … SELECT` into every table that hangs off a request (documents, signature_requests,
 * signers, fields, signing_links, events, mail_outbox, signer_marks, artifacts) with fresh unique ids,
 * the same account and key, timestamps spread over the day before the seeding, and foreign keys on.
 * The audit trail is the one table copied row by row: its triggers require each request's hash chain,
 * so each copy's chain is computed again (with paraph's own `auditRowHash`) and `paraph audit verify`
 * accepts it. Copies share their base request's encrypted blobs (documents and artifacts), which
 * nothing in the measured calls opens.
 *
 * Both directories are kept under the peers cache (PARAPH_BENCH_PEERS_DIR), keyed by the schema
 * (the compiled migrations) and the seed's shape, for 5 days (so no link or retention deadline of the
 * copies falls due), and each run serves copies of them, so serving never changes the cache.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { activate, allArtifacts, create, createBody, signerAction, status, twoSignerPayload, viewAndSign, type Client } from './client.js';
import { cannon } from './load.js';
import { PEERS_DIR } from './peers.js';
import { sleep, track } from './proc.js';
import { BIN, ROOT, startServe, type Serve } from './serve.js';
import { fmt } from './stats.js';
import { multiply } from './stored-multiply.js';

/** Bump when the seeding changes what it writes. */
const SEED_VERSION = 2;
const CACHE_DAYS = 5;
const DAY_MS = 86_400_000;

interface Meta {
  seedVersion: number;
  count: number;
  baseRequests: number;
  seededAt: number;
  accountId: string;
  /** A completed base request, and its copy in the middle of the seeded list (for GET by id). */
  getIdSmall: string;
  getIdLarge: string;
  seedMs: number;
}

/** What the state of base request `j` is: 40% prepared, 30% active (a third of them mailed), 20% completed, 10% cancelled. */
function stateOf(j: number): 'prepared' | 'active' | 'active-mailed' | 'completed' | 'cancelled' {
  const k = j % 10;
  if (k < 4) return 'prepared';
  if (k === 4) return 'active-mailed';
  if (k < 7) return 'active';
  if (k < 9) return 'completed';
  return 'cancelled';
}

function cli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`paraph ${args[0]} ${args[1] ?? ''} exited ${code}: ${err.trim().slice(0, 300)}`)),
    );
  });
}

/** The few requests, through the API, on a first start of `dir`. */
async function seedBase(dir: string, contract: Uint8Array, count: number): Promise<{ accountId: string; completedId: string; completedIndex: number }> {
  const serve = await startServe({ scenario: 'list/get: seeding the few requests', dataDir: dir });
  try {
    const accountId = serve.banner.account_id;
    if (!accountId) throw new Error('the first start printed no account id');
    const make = createBody(contract, 'contract.pdf');
    const tag = randomBytes(4).toString('hex');
    const ids: string[] = [];
    let completed: { id: string; index: number } | null = null;
    // One after the other, so creation order (seq) is j order.
    for (let j = 0; j < count; j += 1) ids.push(await create(serve, make(twoSignerPayload(`seed-${tag}-${j}`, 2))));
    for (let j = 0; j < count; j += 1) {
      const id = ids[j] as string;
      const state = stateOf(j);
      if (state === 'prepared') continue;
      if (state === 'cancelled') {
        const answer = await fetch(`${serve.api}/signature-requests/${id}/cancel`, {
          method: 'POST',
          headers: { authorization: `Bearer ${serve.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ reason: 'bench seed' }),
        });
        if (answer.status !== 200) throw new Error(`cancel answered ${answer.status}`);
        continue;
      }
      if (state === 'active-mailed') {
        const answer = await fetch(`${serve.api}/signature-requests/${id}/activate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${serve.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ send_emails: true }),
        });
        if (answer.status !== 200) throw new Error(`activate answered ${answer.status}`);
        continue;
      }
      const links = await activate(serve, id);
      if (state === 'active') {
        // One of the two has opened the page.
        await signerAction(links.get('a') as string, 'view');
        continue;
      }
      await viewAndSign(links.get('a') as string, 'Ada Lovelace');
      await viewAndSign(links.get('b') as string, 'Grace Hopper');
      completed ??= { id, index: j };
    }
    if (!completed) throw new Error('the base has no completed request');
    // Wait for every completion's artifacts and for the mails to leave the outbox.
    const deadline = performance.now() + 120_000;
    for (let j = 0; j < count; j += 1) {
      if (stateOf(j) !== 'completed') continue;
      while (!allArtifacts(await status(serve, ids[j] as string))) {
        if (performance.now() > deadline) throw new Error('the seed requests got no artifacts within 120 s');
        await sleep(20);
      }
    }
    for (;;) {
      const db = new Database(path.join(dir, 'paraph.db'), { readonly: true });
      const pending = (db.prepare("SELECT count(*) AS n FROM mail_outbox WHERE status <> 'sent'").get() as { n: number }).n;
      db.close();
      if (pending === 0) break;
      if (performance.now() > deadline) throw new Error(`${pending} seed mails were not sent within 120 s`);
      await sleep(50);
    }
    return { accountId, completedId: completed.id, completedIndex: completed.index };
  } finally {
    await serve.stop();
  }
}

/** The cache key: the compiled migrations (the schema) and the seed's shape. */
function cacheKey(count: number, baseRequests: number): string {
  const hash = createHash('sha256').update(`seed ${SEED_VERSION} ${count} ${baseRequests}\n`);
  const dir = path.join(ROOT, 'dist/db/migrations');
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort())
    hash.update(file).update(fs.readFileSync(path.join(dir, file)));
  return hash.digest('hex').slice(0, 12);
}

/** The cached base and seeded directories, made (in about half a minute) when missing or stale. */
async function seededCache(contract: Uint8Array, count: number, baseRequests: number): Promise<{ dir: string; meta: Meta; reused: boolean }> {
  const dir = path.join(PEERS_DIR, `stored-${count}-${cacheKey(count, baseRequests)}`);
  const metaFile = path.join(dir, 'meta.json');
  let why = `no seed cached for this schema and shape (${path.basename(dir)})`;
  if (fs.existsSync(metaFile)) {
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as Meta;
    const ageDays = (Date.now() - meta.seededAt) / DAY_MS;
    if (meta.seedVersion === SEED_VERSION && ageDays < CACHE_DAYS) return { dir, meta, reused: true };
    why = meta.seedVersion !== SEED_VERSION ? 'the cached seed is of another version' : `the cached seed is ${ageDays.toFixed(1)} days old`;
  }
  console.log(`list/get: seeding ${fmt(count)} requests: ${why}`);
  // Stale seeds (another schema or shape) are 500 MB each: only the current one is kept.
  if (fs.existsSync(PEERS_DIR)) {
    for (const entry of fs.readdirSync(PEERS_DIR)) if (entry.startsWith('stored-')) fs.rmSync(path.join(PEERS_DIR, entry), { recursive: true, force: true });
  }
  const work = `${dir}.tmp-${process.pid}`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  try {
    const started = performance.now();
    const base = await seedBase(path.join(work, 'base'), contract, baseRequests);
    const baseMs = performance.now() - started;
    fs.cpSync(path.join(work, 'base'), path.join(work, 'seeded'), { recursive: true });
    const { getIdLarge } = await multiply(path.join(work, 'seeded', 'paraph.db'), count, base.completedId);
    // paraph's own check of a copied request's hash chain.
    const verified = JSON.parse(await cli(['audit', 'verify', getIdLarge, '--json', '--data-dir', path.join(work, 'seeded')])) as {
      intact: boolean;
      events: number;
    };
    if (!verified.intact) throw new Error('paraph audit verify finds the copied audit trail broken');
    const seedMs = performance.now() - started;
    const meta: Meta = {
      seedVersion: SEED_VERSION,
      count,
      baseRequests,
      seededAt: Date.now(),
      accountId: base.accountId,
      getIdSmall: base.completedId,
      getIdLarge,
      seedMs,
    };
    fs.writeFileSync(path.join(work, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
    fs.renameSync(work, dir);
    console.log(
      `list/get: seeded ${fmt(count)} requests in ${fmt(seedMs / 1000, 1)} s (${baseRequests} through the API in ${fmt(baseMs / 1000, 1)} s, the rest by SQL; ` +
        `foreign keys and paraph audit verify pass); cached in ${dir}`,
    );
    return { dir, meta, reused: false };
  } catch (error) {
    fs.rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

export interface Endpoint {
  reqPerS: number;
  /** Mean latency under load: connections / throughput (autocannon's own percentiles are whole milliseconds). */
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

export interface StoredResult {
  count: number;
  few: number;
  seconds: number;
  seedReused: boolean;
  seedMs: number;
  dbMiB: number;
  endpoints: Array<{ name: string; few: Endpoint; many: Endpoint; ratio: number }>;
}

async function serveCopy(cacheDir: string, name: 'base' | 'seeded', accountId: string, scenario: string, scratch: string): Promise<Serve> {
  const dir = path.join(scratch, name);
  fs.cpSync(path.join(cacheDir, name), dir, { recursive: true });
  fs.chmodSync(dir, 0o700);
  // A key of the seeded account, made in the copy (keys are stored hashed; the cache keeps none).
  const made = JSON.parse(await cli(['keys', 'create', '--account', accountId, '--json', '--data-dir', dir])) as { api_key: string };
  return startServe({ scenario, dataDir: dir, apiKey: made.api_key });
}

/**
 * A cursor about `depth` rows into the list, made by the API. Walking the unfiltered list there costs
 * one call per 100 rows, and each call sorts the whole account's rows (see the report), so with
 * `status` the walk pages through one status only (an index range, fast): the list's cursor marks
 * a position in the account's list, so it also pages the unfiltered list from there. `share` is that
 * status's part of the rows.
 */
async function cursorAt(client: Client, depth: number, filter?: { status: string; share: number }): Promise<string> {
  let cursor = '';
  let seen = 0;
  const target = filter ? Math.floor(depth * filter.share) : depth;
  while (seen < target) {
    const limit = Math.min(100, target - seen);
    const query = `limit=${limit}${filter ? `&status=${filter.status}` : ''}${cursor ? `&cursor=${cursor}` : ''}`;
    const answer = await fetch(`${client.api}/signature-requests?${query}`, { headers: { authorization: `Bearer ${client.key}` } });
    if (answer.status !== 200) throw new Error(`list answered ${answer.status}`);
    const page = (await answer.json()) as { data: unknown[]; next_cursor: string };
    seen += page.data.length;
    cursor = page.next_cursor;
    if (!cursor) throw new Error(`the list ended after ${seen} rows, before ${target}`);
  }
  return cursor;
}

export async function benchStored(
  contract: Uint8Array,
  options: { count: number; baseRequests: number; seconds: number; pageSize: number },
): Promise<StoredResult> {
  const { dir, meta, reused } = await seededCache(contract, options.count, options.baseRequests);
  if (reused) console.log(`list/get: reusing the ${fmt(options.count)} requests seeded ${fmt((Date.now() - meta.seededAt) / 3_600_000, 1)} h ago (${dir})`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-bench-stored-'));
  const dbMiB = fs.statSync(path.join(dir, 'seeded', 'paraph.db')).size / 2 ** 20;
  let few: Serve | null = null;
  let many: Serve | null = null;
  try {
    few = await serveCopy(dir, 'base', meta.accountId, `list/get, ${options.baseRequests} stored`, scratch);
    many = await serveCopy(dir, 'seeded', meta.accountId, `list/get, ${fmt(options.count)} stored`, scratch);
    // A page deep in: half-way down the 100,000; on the few, after the first quarter of them.
    const deepFew = await cursorAt(few, Math.floor(options.baseRequests / 4));
    const deepMany = await cursorAt(many, Math.floor(options.count / 2), { status: 'prepared', share: 0.4 });
    const limit = options.pageSize;
    const endpoints: Array<{ name: string; few: string; many: string }> = [
      { name: `list, first page (limit ${limit})`, few: `/signature-requests?limit=${limit}`, many: `/signature-requests?limit=${limit}` },
      {
        name: `list, page deep in (limit ${limit}, cursor)`,
        few: `/signature-requests?limit=${limit}&cursor=${deepFew}`,
        many: `/signature-requests?limit=${limit}&cursor=${deepMany}`,
      },
      { name: 'get one request (completed)', few: `/signature-requests/${meta.getIdSmall}`, many: `/signature-requests/${meta.getIdLarge}` },
    ];
    const measure = async (serve: Serve, route: string, label: string): Promise<Endpoint> => {
      const r = await cannon(label, { url: `${serve.api}${route}`, headers: { authorization: `Bearer ${serve.key}` } }, options.seconds);
      return { reqPerS: r.requests.average, meanMs: (10 / r.requests.average) * 1000, p50Ms: r.latency.p50, p99Ms: r.latency.p99 };
    };
    const results: StoredResult['endpoints'] = [];
    for (const endpoint of endpoints) {
      const small = await measure(few, endpoint.few, `${endpoint.name} (few)`);
      const large = await measure(many, endpoint.many, `${endpoint.name} (${options.count})`);
      const ratio = large.meanMs / small.meanMs;
      results.push({ name: endpoint.name, few: small, many: large, ratio });
      console.log(
        `${endpoint.name}: ${fmt(options.count)} stored ${fmt(large.reqPerS)} req/s, mean ${fmt(large.meanMs, 2)} ms, p50 ${large.p50Ms} ms, p99 ${large.p99Ms} ms; ` +
          `${options.baseRequests} stored ${fmt(small.reqPerS)} req/s, mean ${fmt(small.meanMs, 2)} ms, p99 ${small.p99Ms} ms; latency ${ratio.toFixed(2)}x (10 connections, ${options.seconds} s)`,
      );
    }
    return { count: options.count, few: options.baseRequests, seconds: options.seconds, seedReused: reused, seedMs: meta.seedMs, dbMiB, endpoints: results };
  } finally {
    await few?.stop();
    await many?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
