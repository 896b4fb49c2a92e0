import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Creates the data directory (mode 0700) or checks an existing one. */
export function prepareDataDir(dir: string, warn: (message: string) => void): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dir).mode & 0o777;
  if (mode & 0o077) {
    warn(`data directory ${dir} is accessible by other users (mode ${mode.toString(8)}); run: chmod 700 '${dir}'`);
  }
}

/** A throwaway data directory for `--ephemeral`. */
export function makeEphemeralDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-'));
}

export function removeDataDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export const databaseFile = (dir: string) => path.join(dir, 'paraph.db');
