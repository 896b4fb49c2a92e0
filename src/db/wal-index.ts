import fs from 'node:fs';

/**
 * A cheap first look for commits by other connections. In WAL mode every commit rewrites the header
 * of the WAL index (the `-shm` file every connection maps): its change counter, frame count and
 * checksums (https://www.sqlite.org/walformat.html). While the header reads the same as at the last
 * look, nothing was committed since, and `PRAGMA data_version` (a read transaction with its locks)
 * would answer the same: `changedSinceLastLook` says false. Any difference, a header caught while a
 * writer rewrites it included, says true, and the caller asks SQLite. Without a `-shm` file to read
 * (not in WAL mode), it always says true.
 */
export interface WalIndexWatch {
  changedSinceLastLook(): boolean;
  close(): void;
}

/** The first copy of the WAL-index header. */
const HEADER_BYTES = 48;

export function watchWalIndex(databaseFile: string): WalIndexWatch {
  let fd: number | null = null;
  try {
    fd = fs.openSync(`${databaseFile}-shm`, 'r');
  } catch {
    return { changedSinceLastLook: () => true, close() {} };
  }
  const seen = Buffer.alloc(HEADER_BYTES);
  const now = Buffer.alloc(HEADER_BYTES);
  let looked = false;
  return {
    changedSinceLastLook() {
      if (fd === null) return true;
      const read = fs.readSync(fd, now, 0, HEADER_BYTES, 0);
      if (read === HEADER_BYTES && looked && now.equals(seen)) return false;
      now.copy(seen);
      looked = read === HEADER_BYTES;
      return true;
    },
    close() {
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    },
  };
}
