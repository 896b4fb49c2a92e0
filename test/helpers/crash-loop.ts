// Pieces of the crash-safety loop (test/e2e/crash-safety.test.ts): a seeded random source, so a
// failing run is replayed from its seed; bounded polling; HTTP calls that tell "the server never
// answered" (it was killed) apart from an answer; read-only access to a data directory's database.
import net from 'node:net';
import path from 'node:path';
import type { TestContext } from 'node:test';
import Database from 'better-sqlite3';

import { sleep, waitUntil } from './wait.js';

export { sleep, waitUntil };

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: a small PRNG whose whole state is one 32-bit seed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
  };
}

export interface Answer {
  status: number;
  body: Record<string, any>;
  /** The `Idempotent-Replayed` header said `true`. */
  replayed: boolean;
}

/** The server gave no answer: the connection was refused or reset, or the answer was cut off. */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
}

/**
 * One HTTP call that answers the status and JSON body, or throws NoAnswer when no complete answer
 * came back (within `timeoutMs`). A complete answer that is not JSON is a plain error.
 */
export async function callJson(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string | FormData },
  timeoutMs = 15_000,
): Promise<Answer> {
  let status: number;
  let text: string;
  let replayed: boolean;
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    status = response.status;
    replayed = response.headers.get('idempotent-replayed') === 'true';
    text = await response.text();
  } catch (error) {
    throw new NoAnswer(`${init.method} ${new URL(url).pathname.replace(/\/sign\/[^/]+/, '/sign/<token>')}: no answer`, { cause: error });
  }
  return { status, body: text === '' ? {} : (JSON.parse(text) as Record<string, any>), replayed };
}

/** Opens the data directory's `paraph.db` read-only for `fn`, as a second process would. */
export function readDb<T>(dataDir: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, 'paraph.db'), { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Runs `task` over `items`, at most `limit` at a time. */
export async function inBatches<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** `promise`, or an error naming `what` once `timeoutMs` passed first. */
export async function within<T>(timeoutMs: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no outcome after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An SMTP relay that accepts connections and never says a word: paraph's mail to it waits for its
 * greeting until the send times out, so calls that mail are in flight long enough for a kill.
 * Answers its `smtp://` URL and how many connections it took.
 */
export async function useSilentSmtpRelay(t: TestContext): Promise<{ url: string; connections: () => number }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as net.AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, connections: () => connections };
}
