import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { SEALED_HEADER_BYTES, type Sealer, type Sealing } from './crypto/sealed.js';
import { sha256Hex } from './crypto/tokens.js';
import { makeDirectory } from './data-dir.js';

const MAGIC = Buffer.from('PRPHBLOB1\n');
/** Plaintext encrypted and written at a time. */
const SLICE_BYTES = 1 << 20;

/** Writes all of `bytes` at `position` (a write may take fewer bytes than asked). */
async function writeAll(file: fs.promises.FileHandle, bytes: Buffer, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/**
 * A document of at most one slice: sealed whole, then written, closed and renamed into place on this
 * thread (the bytes go to the page cache: microseconds), and flushed to disk (fsync) in the thread
 * pool. One trip through the thread pool instead of six: under load each trip waits about a
 * millisecond for its turn back on this thread, time the request would spend waiting.
 */
async function writeWhole(tmp: string, target: string, sealing: Sealing, bytes: Uint8Array): Promise<void> {
  const body = sealing.update(bytes);
  const { rest, tag } = sealing.final();
  const parts = [MAGIC, sealing.iv, tag, body, rest];
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    // writev may take fewer bytes than asked: the rest is written from where it stopped.
    const written = fs.writevSync(fd, parts, 0);
    const total = parts.reduce((sum, part) => sum + part.length, 0);
    if (written < total) writeSyncAll(fd, Buffer.concat(parts).subarray(written), written);
    await new Promise<void>((resolve, reject) => fs.fsync(fd, (error) => (error ? reject(error) : resolve())));
  } catch (error) {
    closeQuietly(fd);
    await fs.promises.rm(tmp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, target);
}

/** A larger document: encrypted and written a slice at a time, so it is never held twice more. */
async function writeSliced(tmp: string, target: string, sealing: Sealing, bytes: Uint8Array): Promise<void> {
  const file = await fs.promises.open(tmp, 'wx', 0o600);
  try {
    let position = MAGIC.length + SEALED_HEADER_BYTES;
    for (let at = 0; at < bytes.byteLength; at += SLICE_BYTES) {
      const piece = sealing.update(bytes.subarray(at, Math.min(at + SLICE_BYTES, bytes.byteLength)));
      await writeAll(file, piece, position);
      position += piece.length;
    }
    const { rest, tag } = sealing.final();
    if (rest.length > 0) await writeAll(file, rest, position);
    await writeAll(file, Buffer.concat([MAGIC, sealing.iv, tag]), 0);
    await file.sync();
  } catch (error) {
    await file.close().catch(() => {});
    await fs.promises.rm(tmp, { force: true });
    throw error;
  }
  await file.close();
  await fs.promises.rename(tmp, target);
}

function writeSyncAll(fd: number, bytes: Buffer, position: number): void {
  for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done, position + done);
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already closed or never usable: the temporary file is removed next.
  }
}

/**
 * A blob read a slice at a time and decrypted into one SharedArrayBuffer: its sealed form is never
 * held whole, and a worker thread can read the plaintext without a copy of its own.
 */
async function readShared(file: string, id: string, aad: string, sealer: Sealer): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(MAGIC.length + SEALED_HEADER_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (!head.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`blob ${id} is not a paraph blob`);
    const opening = sealer.opening(head.subarray(MAGIC.length, bytesRead), aad);
    const plain = Buffer.from(new SharedArrayBuffer(Math.max(0, size - head.length)));
    const slice = Buffer.allocUnsafeSlow(Math.min(SLICE_BYTES, plain.length));
    let filled = 0;
    while (filled < plain.length) {
      const { bytesRead: read } = await handle.read(slice, 0, Math.min(slice.length, plain.length - filled), head.length + filled);
      // The file is shorter than it was: what is left fails the tag check.
      if (read === 0) break;
      filled += opening.update(slice.subarray(0, read)).copy(plain, filled);
    }
    opening.final();
    return filled === plain.length ? plain : plain.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * Encrypted files under `<data-dir>/blobs`. A blob is written to a temporary file, fsynced and
 * renamed into place before any row refers to it, so a crash never leaves a row without its bytes.
 * The sealing binds each file to its id and the SHA-256 of its plaintext.
 */
export interface BlobStore {
  put(bytes: Uint8Array): Promise<{ id: string; sha256: string; size: number }>;
  /** `shared`: the bytes are in a SharedArrayBuffer of their own (for a worker thread to read). */
  get(id: string, sha256: string, options?: { shared?: boolean }): Promise<Buffer>;
  delete(id: string): Promise<void>;
  /**
   * Deletes the blob files no row refers to (`referenced` answers which ids are) and the temporary files of writes
   * a crash cut short, when last written before `writtenBefore` (epoch ms, real time): a write under way, whose row
   * is not committed yet, is younger. Answers how many files went.
   */
  sweep(referenced: (id: string) => boolean, writtenBefore: number): Promise<number>;
}

export function createBlobStore(dataDir: string, sealer: Sealer): BlobStore {
  const dir = path.join(dataDir, 'blobs');
  // One level (the data directory exists): a recursive mkdir can loop forever on procfs.
  makeDirectory(dir);
  // A folder left unwritable stops the start (naming it), rather than every later upload.
  fs.accessSync(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  const fileOf = (id: string) => {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error('invalid blob id');
    return path.join(dir, `${id}.blob`);
  };

  return {
    async put(bytes) {
      const id = randomUUID();
      const sha256 = sha256Hex(bytes);
      const tmp = path.join(dir, `.${id}.tmp`);
      const sealing = sealer.begin(`${id}:${sha256}`);
      if (bytes.byteLength <= SLICE_BYTES) await writeWhole(tmp, fileOf(id), sealing, bytes);
      else await writeSliced(tmp, fileOf(id), sealing, bytes);
      return { id, sha256, size: bytes.byteLength };
    },
    async get(id, sha256, options = {}) {
      if (options.shared) {
        const plain = await readShared(fileOf(id), id, `${id}:${sha256}`, sealer);
        if (sha256Hex(plain) !== sha256) throw new Error(`blob ${id} does not match its digest`);
        return plain;
      }
      const sealed = await fs.promises.readFile(fileOf(id));
      if (!sealed.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`blob ${id} is not a paraph blob`);
      const plain = sealer.open(sealed.subarray(MAGIC.length), `${id}:${sha256}`);
      if (sha256Hex(plain) !== sha256) throw new Error(`blob ${id} does not match its digest`);
      return plain;
    },
    async delete(id) {
      await fs.promises.rm(fileOf(id), { force: true });
    },
    async sweep(referenced, writtenBefore) {
      let swept = 0;
      for (const name of await fs.promises.readdir(dir)) {
        const blob = /^([0-9a-f-]{36})\.blob$/.exec(name);
        if (!(blob && !referenced(blob[1] as string)) && !/^\.[0-9a-f-]{36}\.tmp$/.test(name)) continue;
        const file = path.join(dir, name);
        const stat = await fs.promises.stat(file).catch(() => null);
        if (stat === null || stat.mtimeMs >= writtenBefore) continue;
        await fs.promises.rm(file, { force: true });
        swept += 1;
      }
      return swept;
    },
  };
}
