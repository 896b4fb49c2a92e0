import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FOREIGN_DATABASE } from '../db/database.js';
import { onVirtualFileSystem } from './virtual-file-systems.js';

const CHOOSE_ANOTHER = 'Choose another directory with --data-dir (or PARAPH_DATA_DIR)';
const NOT_PARAPHS = `This is not a paraph data directory. ${CHOOSE_ANOTHER}`;

/**
 * The data directory cannot be made or used. The message names the directory, how it was chosen
 * (`--data-dir` unless the CLI says otherwise), what is wrong and what to do.
 */
export class DataDirError extends Error {
  override name = 'DataDirError';
  readonly dir: string;
  readonly problem: string;
  readonly remedy: string;
  readonly source: string;

  constructor(dir: string, problem: string, remedy: string, source = '--data-dir') {
    super(`data directory ${dir} (${source}) ${problem}. ${remedy}.`);
    this.dir = dir;
    this.problem = problem;
    this.remedy = remedy;
    this.source = source;
  }

  /** The same failure, naming how the directory was chosen: `PARAPH_DATA_DIR`, or the default. */
  from(source: string): DataDirError {
    return new DataDirError(this.dir, this.problem, this.remedy, source);
  }
}

/**
 * Checks the data directory, and with `create` (serve) makes it (mode 0700) if it does not exist.
 * The other commands never create one: a typo or the wrong working directory must not leave an empty
 * data directory behind.
 */
export function prepareDataDir(dir: string, warn: (message: string) => void, options: { create: boolean } = { create: true }): void {
  const at = path.resolve(dir);
  if (options.create) {
    try {
      makeDirectories(at);
    } catch (error) {
      throw creationFailure(at, error as NodeJS.ErrnoException);
    }
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(at);
  } catch (error) {
    throw useFailure(at, error as NodeJS.ErrnoException);
  }
  if (!stat.isDirectory()) throw new DataDirError(at, 'exists and is not a directory', CHOOSE_ANOTHER);
  if (onVirtualFileSystem(at)) {
    throw new DataDirError(at, 'cannot be used: this file system does not let paraph create its files there', `${CHOOSE_ANOTHER}, on a disk`);
  }
  try {
    fs.accessSync(at, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw new DataDirError(at, 'is not readable and writable by this user', `Fix its owner or mode (chmod 700 ${shellWord(at)}), or ${lower(CHOOSE_ANOTHER)}`);
  }
  const mode = stat.mode & 0o777;
  if (mode & 0o077) {
    warn(`data directory ${at} is accessible by other users (mode ${mode.toString(8)}); run: chmod 700 ${shellWord(at)}`);
  }
}

/**
 * mkdir -p, one level at a time from the nearest existing ancestor. Node's recursive mkdir loops
 * forever where mkdir answers ENOENT for a path whose parent exists (procfs, for one).
 */
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !fs.existsSync(at); at = path.dirname(at)) {
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of missing) makeDirectory(at);
}

/** mkdir of one level whose parent exists; one made meanwhile (by another process starting on it) is fine. */
export function makeDirectory(dir: string): void {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !isDirectory(dir)) throw error;
  }
}

function isDirectory(at: string): boolean {
  try {
    return fs.statSync(at).isDirectory();
  } catch {
    return false;
  }
}

function isBrokenLink(at: string | undefined): at is string {
  try {
    return at !== undefined && fs.lstatSync(at).isSymbolicLink() && !fs.existsSync(at);
  } catch {
    return false;
  }
}

function creationFailure(dir: string, error: NodeJS.ErrnoException): DataDirError {
  switch (error.code) {
    case 'EEXIST':
      if (isBrokenLink(error.path)) {
        return new DataDirError(dir, `cannot be created: ${error.path} is a symbolic link to nothing`, `Remove the link, or ${lower(CHOOSE_ANOTHER)}`);
      }
      return new DataDirError(dir, 'exists and is not a directory', CHOOSE_ANOTHER);
    case 'ENOTDIR':
      return new DataDirError(dir, 'cannot be created: a part of the path is not a directory', CHOOSE_ANOTHER);
    case 'EACCES':
    case 'EPERM':
      return new DataDirError(dir, 'cannot be created: permission denied', `Create it yourself, or ${lower(CHOOSE_ANOTHER)}`);
    case 'EROFS':
      return new DataDirError(dir, 'cannot be created: the file system is read-only', CHOOSE_ANOTHER);
    case 'ENOENT':
      return new DataDirError(dir, 'cannot be created here: this file system does not allow it', `${CHOOSE_ANOTHER}, on a disk`);
    default:
      return new DataDirError(dir, `cannot be created: ${error.message}`, CHOOSE_ANOTHER);
  }
}

function useFailure(dir: string, error: NodeJS.ErrnoException): DataDirError {
  switch (error.code) {
    case 'ENOENT':
      return new DataDirError(
        dir,
        'does not exist',
        'Only `paraph serve` creates a data directory. Name the one `paraph serve` uses with --data-dir DIR ' +
          '(or PARAPH_DATA_DIR), or run `paraph serve` first to create it',
      );
    case 'ENOTDIR':
      return new DataDirError(dir, 'cannot be used: a part of the path is not a directory', CHOOSE_ANOTHER);
    case 'EACCES':
    case 'EPERM':
      return new DataDirError(dir, 'cannot be used: permission denied', `Fix the permissions of its parent directories, or ${lower(CHOOSE_ANOTHER)}`);
    default:
      return new DataDirError(dir, `cannot be used: ${error.message}`, CHOOSE_ANOTHER);
  }
}

/**
 * A file or folder inside the data directory could not be read or made (the master key, the
 * database, the blobs folder): the failure as a DataDirError naming that file, or the error itself
 * when it is neither the file system's nor SQLite's.
 */
export function contentFailure(dir: string, error: unknown): unknown {
  if (error instanceof DataDirError) return error;
  const e = error as NodeJS.ErrnoException;
  const file = typeof e?.path === 'string' ? path.relative(dir, e.path) || '.' : 'a file in it';
  const database = path.basename(databaseFile(dir));
  if (isDiskFull(error)) return new DataDirError(dir, 'cannot be used: the disk is full', `Free some space, or ${lower(CHOOSE_ANOTHER)}`);
  switch (e?.code) {
    case 'EACCES':
    case 'EPERM':
      return new DataDirError(dir, `cannot be used: ${file} is not readable and writable by this user`, `Fix its owner or mode, or ${lower(CHOOSE_ANOTHER)}`);
    case 'EISDIR':
      return new DataDirError(dir, `cannot be used: ${file} is a directory, where paraph keeps a file`, NOT_PARAPHS);
    case 'EEXIST':
    case 'ENOTDIR':
      return new DataDirError(dir, `cannot be used: ${file} is not a directory, where paraph keeps one`, NOT_PARAPHS);
    case 'ENOENT':
      return new DataDirError(dir, 'cannot be used: this file system does not let paraph create its files there', `${CHOOSE_ANOTHER}, on a disk`);
    case 'EROFS':
      return new DataDirError(dir, 'cannot be used: the file system is read-only', CHOOSE_ANOTHER);
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return new DataDirError(dir, `cannot be used: ${database} is not a paraph database`, NOT_PARAPHS);
    case FOREIGN_DATABASE:
      return new DataDirError(dir, `cannot be used: ${database} is another program's SQLite database (paraph left it as it was)`, NOT_PARAPHS);
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
      return new DataDirError(dir, `cannot be used: ${database} cannot be opened for writing`, `Fix its owner or mode, or ${lower(CHOOSE_ANOTHER)}`);
    default:
      return error;
  }
}

/** A write refused for want of space: the file system's (no space, over quota) or SQLite's. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

/** A path as one word of a POSIX shell command: in single quotes, each quote in it written '\''. */
const shellWord = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

const lower = (sentence: string) => sentence.charAt(0).toLowerCase() + sentence.slice(1);

/** A throwaway data directory for `--ephemeral`, in the system's temporary directory (TMPDIR), as an absolute path. */
export function makeEphemeralDataDir(): string {
  const parent = path.resolve(os.tmpdir());
  try {
    return fs.mkdtempSync(path.join(parent, 'paraph-'));
  } catch (error) {
    const failure = creationFailure(path.join(parent, 'paraph-XXXXXX'), error as NodeJS.ErrnoException);
    throw new DataDirError(
      failure.dir,
      failure.problem,
      'Point TMPDIR to a directory this user may write, or give a data directory with --data-dir',
      '--ephemeral, in TMPDIR',
    );
  }
}

export function removeDataDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export const databaseFile = (dir: string) => path.join(dir, 'paraph.db');
