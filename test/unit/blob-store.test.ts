// Every line: documents sealed with the line's crypto (AES-GCM) and written to disk.
// The blob store on a real directory: documents written a slice at a time read back byte for byte,
// the file is the one sealed form (magic, IV, tag, ciphertext) whatever the size, and a changed
// byte or a wrong digest is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createBlobStore } from '../../src/platform/blob-store.js';
import { createSealer } from '../../src/platform/crypto/sealed.js';
import { useTmpDir } from '../helpers/server.js';

const MAGIC = Buffer.from('PRPHBLOB1\n');
const MiB = 1 << 20;

test('blobs of every size around the 1 MiB slice read back as written, in the one sealed form', async (t) => {
  const dir = useTmpDir(t);
  const sealer = createSealer(randomBytes(32), 'blobs');
  const store = createBlobStore(dir, sealer);
  for (const size of [1, 1000, MiB - 1, MiB, MiB + 1, 2.5 * MiB, 3 * MiB]) {
    const bytes = randomBytes(size);
    const { id, sha256, size: stored } = await store.put(bytes);
    assert.equal(stored, size);
    assert.ok((await store.get(id, sha256)).equals(bytes), `${size} bytes read back`);
    const file = fs.readFileSync(path.join(dir, 'blobs', `${id}.blob`));
    assert.ok(file.subarray(0, MAGIC.length).equals(MAGIC), `${size} bytes: the file starts with the magic`);
    assert.equal(file.length, MAGIC.length + 12 + 16 + size, `${size} bytes: IV, tag and ciphertext, nothing more`);
    assert.ok(sealer.open(file.subarray(MAGIC.length), `${id}:${sha256}`).equals(bytes), `${size} bytes: one sealed value`);
  }
  assert.deepEqual(
    fs.readdirSync(path.join(dir, 'blobs')).filter((name) => name.endsWith('.tmp')),
    [],
    'no temporary file left',
  );
});

test('a blob with a changed byte, or read with another digest, is refused', async (t) => {
  const dir = useTmpDir(t);
  const store = createBlobStore(dir, createSealer(randomBytes(32), 'blobs'));
  const bytes = randomBytes(MiB + 5);
  const { id, sha256 } = await store.put(bytes);
  await assert.rejects(store.get(id, '0'.repeat(64)));
  const file = path.join(dir, 'blobs', `${id}.blob`);
  const sealed = fs.readFileSync(file);
  sealed.writeUInt8(sealed.readUInt8(sealed.length - 3) ^ 0x01, sealed.length - 3);
  fs.writeFileSync(file, sealed);
  await assert.rejects(store.get(id, sha256));
});
