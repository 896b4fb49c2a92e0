// The worker side of a child's bulk pipe: the bytes of calls come one call after the other, in any
// chunking, before or after the calls ask for them, and each call gets exactly its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { createBulkReader } from '../../src/platform/bulk-reader.js';

test('each take gets its own bytes, whatever the chunks and whenever they come', async () => {
  const pipe = new PassThrough();
  const reader = createBulkReader(pipe);
  const docs = [randomBytes(10), randomBytes(0), randomBytes(70_000), randomBytes(3)];
  const all = Buffer.concat(docs);
  // Some bytes arrive before any call asks for them.
  pipe.write(all.subarray(0, 5));
  await new Promise((resolve) => setImmediate(resolve));
  const takes = docs.map((doc) => reader.take(doc.length));
  for (let at = 5; at < all.length; at += 999) pipe.write(all.subarray(at, Math.min(at + 999, all.length)));
  const read = await Promise.all(takes);
  read.forEach((bytes, i) => assert.ok(bytes.equals(docs[i] as Buffer), `document ${i}`));
});

test('bytes of a later call wait for it', async () => {
  const pipe = new PassThrough();
  const reader = createBulkReader(pipe);
  const first = reader.take(4);
  pipe.write(Buffer.from('abcdefgh'));
  assert.equal((await first).toString(), 'abcd');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal((await reader.take(4)).toString(), 'efgh');
});
