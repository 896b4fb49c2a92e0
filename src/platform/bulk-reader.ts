/**
 * The worker side of a child process's bulk pipe (see `bulk` in supervised-worker.ts): the bytes of
 * each call arrive on the child's stdin, one call after the other, in the order the calls were sent.
 * Each is gathered into a buffer of its own, of the length its call announced.
 */
import type { Readable } from 'node:stream';

interface Take {
  bytes: Buffer;
  filled: number;
  resolve(bytes: Buffer): void;
}

export interface BulkReader {
  /** The next `length` bytes of the pipe; takes are answered in the order they were made. */
  take(length: number): Promise<Buffer>;
}

export function createBulkReader(input: Readable): BulkReader {
  const takes: Take[] = [];
  let early: Buffer[] = [];
  const fill = (chunk: Buffer) => {
    let at = 0;
    while (at < chunk.length) {
      const take = takes[0];
      if (!take) {
        // The bytes came before their call's message.
        early.push(chunk.subarray(at));
        return;
      }
      const n = Math.min(take.bytes.length - take.filled, chunk.length - at);
      chunk.copy(take.bytes, take.filled, at, at + n);
      take.filled += n;
      at += n;
      if (take.filled === take.bytes.length) {
        takes.shift();
        take.resolve(take.bytes);
      }
    }
  };
  input.on('data', fill);
  return {
    take(length) {
      if (length === 0) return Promise.resolve(Buffer.alloc(0));
      return new Promise<Buffer>((resolve) => {
        takes.push({ bytes: Buffer.allocUnsafeSlow(length), filled: 0, resolve });
        if (takes.length === 1 && early.length > 0) {
          const chunks = early;
          early = [];
          for (const chunk of chunks) fill(chunk);
        }
      });
    },
  };
}
