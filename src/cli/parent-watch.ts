import fs from 'node:fs';
import type { Env } from '../platform/config.js';

/** Shells npm runs a command through (`sh -c 'paraph serve …'`), by their process name. */
const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'ksh', 'mksh', 'busybox']);

/**
 * Calls `stop` once the process that started this one is gone, when that process is npm (`npx paraph
 * …`, an npm script: npm passes signals to its shell, not to paraph) or asked for it with
 * PARAPH_STOP_WITH_PARENT=1 (the programmatic sandbox). Answers a function that ends the watch.
 *
 * npm starts paraph through a shell, which stays paraph's parent: killed with SIGKILL, npm leaves that
 * shell running, waiting for paraph. So when the parent is a shell (and so on up, for a script that
 * starts paraph), the watch also follows the shell's own parent, and stops paraph once a shell of that
 * chain has lost it. Linux tells a process's parent in /proc; elsewhere only the direct parent is watched.
 */
export function stopWithParent(env: Env, stop: () => void): () => void {
  if (env.npm_command === undefined && env.PARAPH_STOP_WITH_PARENT !== '1') return () => {};
  const parent = process.ppid;
  const shells = shellChain(parent);
  const timer = setInterval(() => {
    if (process.ppid !== parent || shells.some(({ pid, ppid }) => parentOf(pid) !== ppid)) stop();
  }, 500).unref();
  return () => clearInterval(timer);
}

/** The shells from `pid` up (at most a few), each with the parent it has now. */
function shellChain(pid: number): Array<{ pid: number; ppid: number }> {
  const chain: Array<{ pid: number; ppid: number }> = [];
  for (let at = pid; chain.length < 4; ) {
    const stat = statOf(at);
    if (stat === null || !SHELLS.has(stat.name)) break;
    chain.push({ pid: at, ppid: stat.ppid });
    at = stat.ppid;
  }
  return chain;
}

function parentOf(pid: number): number | null {
  return statOf(pid)?.ppid ?? null;
}

/** The process name and parent of `pid` from /proc/PID/stat, or null (gone, or no /proc). */
function statOf(pid: number): { name: string; ppid: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // `PID (NAME) STATE PPID …`: the name may hold spaces and parentheses, so it ends at the last ')'.
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? { name, ppid } : null;
  } catch {
    return null;
  }
}
