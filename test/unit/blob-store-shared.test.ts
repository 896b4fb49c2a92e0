// The blob store's shared reads (the artifact worker's input): read a slice at a time into a
// SharedArrayBuffer, byte for byte what was written, and refused like a whole read when the file
// was changed, truncated or is read with another digest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createBlobStore } from '../../src/platform/blob-store.js';
import { createSealer } from '../../src/platform/crypto/sealed.js';
import { useTmpDir } from '../helpers/server.js';

const MiB = 1 << 20;

test('a shared read gives the bytes written, in a SharedArrayBuffer, whatever the size', async (t) => {
  const store = createBlobStore(useTmpDir(t), createSealer(randomBytes(32), 'blobs'));
  for (const size of [0, 1, 1000, MiB - 1, MiB, MiB + 1, 2.5 * MiB]) {
    const bytes = randomBytes(size);
    const { id, sha256 } = await store.put(bytes);
    const read = await store.get(id, sha256, { shared: true });
    assert.ok(read.buffer instanceof SharedArrayBuffer, `${size} bytes: shared`);
    assert.ok(read.equals(bytes), `${size} bytes read back`);
  }
});

test('a shared read of a changed or truncated blob, or with another digest, is refused', async (t) => {
  const dir = useTmpDir(t);
  const store = createBlobStore(dir, createSealer(randomBytes(32), 'blobs'));
  const { id, sha256 } = await store.put(randomBytes(2 * MiB + 5));
  await assert.rejects(store.get(id, '0'.repeat(64), { shared: true }));
  const file = path.join(dir, 'blobs', `${id}.blob`);
  const sealed = fs.readFileSync(file);
  const changed = Buffer.from(sealed);
  changed.writeUInt8(changed.readUInt8(MiB + 100) ^ 0x01, MiB + 100);
  fs.writeFileSync(file, changed);
  await assert.rejects(store.get(id, sha256, { shared: true }));
  fs.writeFileSync(file, sealed.subarray(0, sealed.length - 1000));
  await assert.rejects(store.get(id, sha256, { shared: true }));
  fs.writeFileSync(file, Buffer.from('not a blob'));
  await assert.rejects(store.get(id, sha256, { shared: true }), /not a paraph blob/);
});
