// Every line: what the line's worker messages can transfer (its Buffer pool).
// Worker messages carry only what the running Node line lets us transfer. Node 24 and later pool
// Buffers up to 32 KiB in an untransferable 64 KiB ArrayBuffer (Node 22: 4 KiB): transferring one
// throws DataCloneError, which once left every request without its artifacts on those lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, isMarkedAsUntransferable } from 'node:worker_threads';
import { ownedBytes, transferList } from '../../src/pdf/transfer.js';

/** Sends views through a real MessagePort with their transfer list; answers what arrives. */
async function roundTrip(views: Uint8Array<ArrayBuffer>[]): Promise<Uint8Array[]> {
  const { port1, port2 } = new MessageChannel();
  try {
    const received = new Promise<Uint8Array[]>((resolve) => port2.once('message', resolve));
    port1.postMessage(views, transferList(...views));
    return await received;
  } finally {
    port1.close();
  }
}

test('a pooled Buffer (Buffer.from, Buffer.concat) is copied into its own ArrayBuffer and transfers', async () => {
  for (const pooled of [Buffer.from('%PDF-1.7 small'), Buffer.concat([Buffer.alloc(1000, 1), Buffer.alloc(2000, 2)])]) {
    assert.equal(isMarkedAsUntransferable(pooled.buffer), true, 'precondition: Node keeps this Buffer in its pool');
    const before = Buffer.from(pooled);
    const owned = ownedBytes(pooled);
    assert.notEqual(owned.buffer, pooled.buffer);
    assert.equal(owned.byteOffset, 0);
    assert.equal(owned.buffer.byteLength, pooled.byteLength);
    const [arrived] = await roundTrip([owned]);
    assert.deepEqual(Buffer.from(arrived as Uint8Array), before);
    assert.equal(owned.buffer.byteLength, 0, 'the copy was transferred (detached), not cloned');
    assert.deepEqual(pooled, before, 'the pooled original is attached and unchanged');
  }
});

test('a sealed-PDF-sized Buffer.concat (20 KiB: pooled from Node 24 on) always transfers', async () => {
  const sealed = Buffer.concat([Buffer.alloc(12_000, 7), Buffer.alloc(8_000, 8)]);
  const owned = ownedBytes(sealed);
  assert.equal(isMarkedAsUntransferable(owned.buffer), false);
  const [arrived] = await roundTrip([owned]);
  assert.equal(arrived?.byteLength, 20_000);
  assert.equal(arrived?.[19_999], 8);
});

test('a view over part of a larger buffer, or over a SharedArrayBuffer, is copied; the rest stays attached', async () => {
  const big = new Uint8Array(64);
  big.set([1, 2, 3, 4], 8);
  const part = big.subarray(8, 12);
  const shared = new Uint8Array(new SharedArrayBuffer(4));
  shared.set([9, 8, 7, 6]);
  const ownedPart = ownedBytes(part);
  const ownedShared = ownedBytes(shared);
  assert.notEqual(ownedPart.buffer, big.buffer);
  assert.ok(ownedShared.buffer instanceof ArrayBuffer);
  const [a, b] = await roundTrip([ownedPart, ownedShared]);
  assert.deepEqual([...(a as Uint8Array)], [1, 2, 3, 4]);
  assert.deepEqual([...(b as Uint8Array)], [9, 8, 7, 6]);
  assert.equal(big.byteLength, 64, 'the larger buffer is not detached');
});

test('bytes that own a whole transferable ArrayBuffer are sent as they are, without a copy', async () => {
  const whole = new Uint8Array([5, 6, 7]);
  assert.equal(ownedBytes(whole), whole);
  const large = Buffer.alloc(70_000, 3);
  assert.equal(ownedBytes(large), large);
  const [arrived] = await roundTrip([whole]);
  assert.deepEqual([...(arrived as Uint8Array)], [5, 6, 7]);
  assert.equal(whole.byteLength, 0, 'transferred');
});

test('the transfer list names each ArrayBuffer once, so two views of one buffer do not throw', async () => {
  const buffer = new ArrayBuffer(8);
  const a = new Uint8Array(buffer, 0, 4);
  const b = new Uint8Array(buffer, 4, 4);
  assert.deepEqual(transferList(a, b), [buffer]);
  const [x, y] = await roundTrip([a, b]);
  assert.equal(x?.byteLength, 4);
  assert.equal(y?.byteLength, 4);
});
