import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const FILE_NAME = 'master.key';

export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

/**
 * The data directory's 256-bit master key, created on first use with mode 0600.
 * Every secret at rest (PDF blobs, webhook secrets, the signing key) is encrypted under keys derived from it.
 */
export function loadOrCreateMasterKey(dataDir: string, warn: (message: string) => void): Buffer {
  const file = path.join(dataDir, FILE_NAME);
  try {
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
    try {
      fs.writeSync(fd, `${randomBytes(32).toString('base64')}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = fs.statSync(file);
  if (stat.isDirectory()) throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR', path: file });
  const mode = stat.mode & 0o777;
  if (mode & 0o077) {
    warn(`${file} is readable by other users (mode ${mode.toString(8)}); run: chmod 600 '${file}'`);
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new MasterKeyError(`${file} does not hold a 256-bit base64 key`);
  return key;
}
