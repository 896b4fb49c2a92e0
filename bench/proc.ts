/**
 * Child processes of the bench (paraph serve, the floors, the peers): free ports, waiting for a port
 * or a URL, stopping gently, and reading a process's peak resident set (VmHWM) and its descendants.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const live = new Set<ChildProcess>();
let guarded = false;

/**
 * Ends `child` with the bench: if the bench exits, is interrupted or dies before stopping it, the
 * child is killed too, so no serve or peer outlives a run.
 */
export function track<T extends ChildProcess>(child: T): T {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!guarded) {
    guarded = true;
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        for (const c of live) c.kill('SIGKILL');
        process.exit(130);
      });
    }
  }
  return child;
}

/** A port that was free a moment ago (for peers that cannot be told to pick one themselves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers `status`; rejects after `timeoutMs` or when `child` exits first. */
export async function untilAnswers(url: string, options: { status?: number; timeoutMs?: number; child?: ChildProcess } = {}): Promise<void> {
  const deadline = performance.now() + (options.timeoutMs ?? 60_000);
  const want = options.status ?? 200;
  for (;;) {
    const answer = await fetch(url).catch(() => null);
    await answer?.arrayBuffer().catch(() => undefined);
    if (answer?.status === want) return;
    if (options.child && (options.child.exitCode !== null || options.child.signalCode !== null)) {
      throw new Error(`the process behind ${new URL(url).host} exited (${options.child.exitCode ?? options.child.signalCode}) before answering`);
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer ${want} within ${options.timeoutMs ?? 60_000} ms`);
    await sleep(5);
  }
}

/** Resolves once a TCP connection to `port` succeeds. */
export async function untilListening(port: number, options: { timeoutMs?: number; child?: ChildProcess } = {}): Promise<void> {
  const deadline = performance.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (options.child && (options.child.exitCode !== null || options.child.signalCode !== null)) {
      throw new Error(`the process for port ${port} exited (${options.child.exitCode ?? options.child.signalCode}) before listening`);
    }
    if (performance.now() > deadline) throw new Error(`nothing listened on port ${port} within ${options.timeoutMs ?? 60_000} ms`);
    await sleep(20);
  }
}

/** SIGTERM, then SIGKILL if the child has not exited after `graceMs`. */
export function stopGently(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Peak resident set of a live process, in MiB (VmHWM from /proc), or null when it cannot be read. */
export function peakRssMb(pid: number): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/** Every live descendant of `pid` (children, grandchildren…), from the parent ids in /proc/<pid>/stat. */
export function descendants(pid: number): Array<{ pid: number; name: string }> {
  const parentOf = new Map<number, { ppid: number; name: string }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'.
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      parentOf.set(Number(entry), { ppid, name: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // The process ended while we looked.
    }
  }
  const found: Array<{ pid: number; name: string }> = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [child, info] of parentOf) {
      if (info.ppid === parent) {
        found.push({ pid: child, name: scriptOf(child) ?? info.name });
        queue.push(child);
      }
    }
  }
  return found;
}

/** The script a Node child runs (its comm is only "MainThread"), e.g. `inspect-child.js`. */
function scriptOf(pid: number): string | null {
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const script = args.slice(1).find((a) => /\.(c|m)?[jt]s$/.test(a));
    return script ? path.basename(script) : null;
  } catch {
    return null;
  }
}
