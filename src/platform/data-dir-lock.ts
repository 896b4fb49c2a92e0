import fs from 'node:fs';
import path from 'node:path';
import { DataDirError } from './data-dir.js';

/** What the lock file of a data directory says: the serve process that holds it and where it answers. */
interface LockRecord {
  pid: number;
  /** The server's address once it listens; null while it starts. */
  url: string | null;
}

export const lockFile = (dir: string) => path.join(dir, 'serve.lock');

/** One serve per data directory: released with `release`, and taken over from a process that is gone. */
export interface DataDirLock {
  /** Records the running server's address (for the message a second serve prints). */
  setUrl(url: string): void;
  release(): void;
}

/**
 * Takes the data directory for this serve process, or throws the DataDirError that names the running
 * server (address and pid). The lock is a file holding the owner's pid: a server that crashed (kill -9,
 * power loss) leaves it behind, and the next start finds that pid gone and takes the lock over.
 */
export function lockDataDir(dir: string): DataDirLock {
  const file = lockFile(dir);
  const mine: LockRecord = { pid: process.pid, url: null };
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
    }
    const held = readLock(file);
    if (held !== null && held.pid !== process.pid && alive(held.pid)) {
      const where = held.url ?? 'an address not yet known (it is starting)';
      throw new DataDirError(
        dir,
        `is in use by another paraph serve, at ${where} (pid ${held.pid})`,
        'Stop that server first, use it (`paraph` commands read the same directory), or choose another --data-dir',
      );
    }
    // Left by a server that is gone (or unreadable): taken over.
    fs.rmSync(file, { force: true });
  }
  return {
    setUrl(url) {
      mine.url = url;
      const temporary = `${file}.${process.pid}`;
      fs.writeFileSync(temporary, JSON.stringify(mine), { mode: 0o600 });
      fs.renameSync(temporary, file);
    },
    release() {
      if (readLock(file)?.pid === process.pid) fs.rmSync(file, { force: true });
    },
  };
}

function readLock(file: string): LockRecord | null {
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockRecord>;
    return typeof record.pid === 'number' && Number.isInteger(record.pid) && record.pid > 0
      ? { pid: record.pid, url: typeof record.url === 'string' ? record.url : null }
      : null;
  } catch {
    return null;
  }
}

/** The process exists (a process of another user counts: EPERM). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
