// Every line: child processes and worker threads, their time and memory limits, on the line's V8.
// The one worker supervisor (src/platform/supervised-worker.ts) on a tiny real worker written to a
// temporary directory, run as a child process and as a worker thread: queue order, one call at a time,
// time budget, memory budgets (during a call, and a replacement the caller asks for after one), crashes,
// a worker that cannot start, the failure messages in the caller's words, a worker started ahead and
// its notes, the next worker started at once after a replacement or during a call it follows (`successorFor`), the
// warm-up note of a worker started ahead, idle stop and close.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createSupervisedWorker,
  residentMb,
  WorkerFailure,
  type SupervisedWorker,
  type SupervisedWorkerOptions,
  type WorkerFailureKind,
} from '../../src/platform/supervised-worker.js';
import { waitUntil } from '../helpers/crash-loop.js';
import { useTmpDir } from '../helpers/server.js';

const ENTRY = new URL('../../src/platform/worker-entry.ts', import.meta.url).href;

/** What the tiny worker does with a call. */
type Request =
  | { op: 'echo'; value: string; delayMs?: number }
  | { op: 'write'; file: string; delayMs: number }
  | { op: 'hang' }
  | { op: 'exit' }
  | { op: 'throw' }
  | { op: 'grow'; mb: number; hang?: boolean }
  | { op: 'heap' }
  | { op: 'progress' }
  | { op: 'born' };
/** `who`: the process or thread that answered; `handled`: calls it had taken, this one included. */
interface Reply {
  who: string;
  handled: number;
  notes: string[];
  value?: string;
}

const WORKER = `
import { isMainThread, threadId } from 'node:worker_threads';
import { writeFileSync } from 'node:fs';
import { serveCalls, workerArguments } from ${JSON.stringify(ENTRY)};

const args = workerArguments(import.meta.url);
if (args) {
  if (args[0] === 'die-at-start') process.exit(5);
  const born = Date.now();
  globalThis.tinyWorkerStarted = true;
  const who = isMainThread ? 'process ' + process.pid : 'thread ' + threadId;
  const notes = [];
  const kept = [];
  let handled = 0;
  serveCalls({
    async call(request, progress) {
      handled += 1;
      const me = { who, handled, notes: [...notes] };
      switch (request.op) {
        case 'echo':
          if (request.delayMs) await new Promise((resolve) => setTimeout(resolve, request.delayMs));
          return { ...me, value: request.value };
        case 'write':
          await new Promise((resolve) => setTimeout(resolve, request.delayMs));
          writeFileSync(request.file, 'written');
          return me;
        case 'hang':
          return new Promise(() => {});
        case 'exit':
          process.exit(3);
        case 'throw':
          throw new Error('thrown in the worker');
        case 'grow':
          kept.push(Buffer.alloc(request.mb * 2 ** 20, 1));
          return request.hang ? new Promise(() => {}) : me;
        case 'heap': {
          const hoard = [];
          for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i));
        }
        case 'progress':
          for (let i = 1; i <= 3; i++) progress(i);
          return me;
        case 'born':
          return { ...me, value: String(born) };
      }
    },
    note(note) {
      notes.push(note);
      // A note 'touch FILE' leaves a trace the test can wait for.
      if (note.startsWith('touch ')) writeFileSync(note.slice(6), 'noted');
    },
  });
}
`;

function tinyWorker(t: TestContext): URL {
  const file = path.join(useTmpDir(t, 'paraph-worker-'), 'tiny-worker.mjs');
  fs.writeFileSync(file, WORKER);
  return pathToFileURL(file);
}

type Tiny = SupervisedWorker<Request, Reply, number, string>;

function useWorker(
  t: TestContext,
  options: Partial<SupervisedWorkerOptions<Request, Reply, string>> & Pick<SupervisedWorkerOptions<Request, Reply, string>, 'kind'>,
): Tiny {
  const worker = createSupervisedWorker<Request, Reply, number, string>({
    entry: tinyWorker(t),
    timeoutMs: 10_000,
    heapMb: 256,
    words: { task: 'echoing', worker: 'the tiny worker' },
    ...options,
  });
  t.after(() => worker.close());
  return worker;
}

async function failure(promise: Promise<unknown>, kind: WorkerFailureKind): Promise<WorkerFailure> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof WorkerFailure, String(error));
    assert.equal(error.kind, kind, error.message);
    return error;
  }
  assert.fail(`expected a ${kind} failure`);
}

const echo = (value: string, delayMs?: number): Request => ({ op: 'echo', value, ...(delayMs === undefined ? {} : { delayMs }) });

for (const kind of ['process', 'thread'] as const) {
  test(`${kind}: calls are answered in the order they came, one worker for all`, async (t) => {
    const worker = useWorker(t, { kind });
    // The first calls take longest: an answer in another order would show.
    const replies = await Promise.all([60, 40, 20, 0, 0].map((delay, i) => worker.call(echo(`v${i}`, delay))));
    assert.deepEqual(
      replies.map((r) => [r.value, r.handled]),
      [
        ['v0', 1],
        ['v1', 2],
        ['v2', 3],
        ['v3', 4],
        ['v4', 5],
      ],
    );
    assert.equal(new Set(replies.map((r) => r.who)).size, 1);
    assert.equal(worker.busy, false);
    assert.equal(worker.waiting, 0);
  });

  test(`${kind}: past the time budget the call fails, and the next call gets a fresh worker`, async (t) => {
    const worker = useWorker(t, { kind, timeoutMs: 1500 });
    const first = await worker.call(echo('before'));
    const [hung, next] = await Promise.allSettled([worker.call({ op: 'hang' }), worker.call(echo('after'))]);
    assert.equal(hung.status, 'rejected');
    assert.equal((await failure(Promise.reject(hung.reason), 'timeout')).message, 'echoing took longer than 1500 ms');
    // Node's timers count whole milliseconds, so the budget's timer may fire a fraction of one early.
    assert.ok((hung.reason as WorkerFailure).elapsedMs >= 1495, `failed after ${(hung.reason as WorkerFailure).elapsedMs} ms`);
    assert.equal(next.status, 'fulfilled');
    assert.equal(next.value.value, 'after');
    assert.notEqual(next.value.who, first.who, 'a new worker took the next call');
    assert.equal(next.value.handled, 1);
  });

  test(`${kind}: a worker that crashes fails the call it worked on; the calls after it go to a new worker`, async (t) => {
    const worker = useWorker(t, { kind });
    const first = await worker.call(echo('before'));
    const [crashed, next] = await Promise.allSettled([worker.call({ op: 'exit' }), worker.call(echo('after'))]);
    assert.equal(crashed.status, 'rejected');
    const exit = await failure(Promise.reject(crashed.reason), 'crashed');
    assert.equal(exit.message, 'the tiny worker stopped (exit code 3)');
    assert.equal(next.status, 'fulfilled');
    assert.notEqual(next.value.who, first.who);
  });

  test(`${kind}: a call that throws fails alone; the worker goes on serving`, async (t) => {
    const worker = useWorker(t, { kind });
    const first = await worker.call(echo('before'));
    const thrown = await failure(worker.call({ op: 'throw' }), 'failed');
    assert.equal(thrown.message, 'echoing failed: thrown in the worker');
    const next = await worker.call(echo('after'));
    assert.equal(next.who, first.who);
    assert.equal(next.handled, 3);
  });

  test(`${kind}: past the heap cap the call fails with "memory", and the next call works`, async (t) => {
    const worker = useWorker(t, { kind, heapMb: 64, timeoutMs: 60_000 });
    assert.equal((await failure(worker.call({ op: 'heap' }), 'memory')).message, 'echoing needs more than 64 MB of memory');
    assert.equal((await worker.call(echo('after'))).value, 'after');
  });

  test(`${kind}: close() fails the call in the worker and the waiting ones, and refuses new ones`, async (t) => {
    const worker = useWorker(t, { kind });
    await worker.call(echo('started'));
    const pid = worker.pid;
    const hung = failure(worker.call({ op: 'hang' }), 'closed').then((closed) => assert.equal(closed.message, 'the tiny worker was closed'));
    const waiting = failure(worker.call(echo('never')), 'closed');
    await waitUntil('the worker to take the call', () => worker.busy, 10_000, 5);
    await worker.close();
    await hung;
    await waiting;
    await failure(worker.call(echo('late')), 'closed');
    if (pid !== undefined) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the child process is gone');
  });

  if (kind === 'thread')
    test('thread: close() lets the call in the worker finish before the thread ends (terminating it while it works may abort the process)', async (t) => {
      const worker = useWorker(t, { kind });
      const file = path.join(useTmpDir(t, 'paraph-worker-'), 'written');
      const closed = failure(worker.call({ op: 'write', file, delayMs: 300 }), 'closed');
      await waitUntil('the worker to take the call', () => worker.busy, 10_000, 5);
      await worker.close();
      await closed;
      assert.equal(fs.readFileSync(file, 'utf8'), 'written', 'the call ran to its end');
    });

  test(`${kind}: a worker that cannot start fails the waiting calls, without respawning in a loop`, async (t) => {
    const worker = useWorker(t, { kind, args: ['die-at-start'] });
    const calls = [worker.call(echo('a')), worker.call(echo('b'))];
    for (const call of calls) assert.match((await failure(call, 'start')).message, /^the tiny worker could not start \(exit code 5 while starting\)$/);
    assert.equal(worker.pid, undefined);
    assert.equal(worker.waiting, 0);
  });

  test(`${kind}: a worker started ahead gets its notes before the first call`, async (t) => {
    const worker = useWorker(t, { kind });
    const started = worker.prestart();
    assert.ok(started);
    // Sent once the worker is ready.
    started.notify('warm');
    // Only the first start makes a worker.
    assert.equal(worker.prestart(), undefined);
    const reply = await worker.call(echo('first'));
    assert.deepEqual(reply.notes, ['warm']);
    assert.equal(reply.handled, 1);
  });

  test(`${kind}: a note for a worker started ahead that has been replaced since goes nowhere`, async (t) => {
    const worker = useWorker(t, { kind, replaceAfter: () => true });
    const started = worker.prestart();
    assert.ok(started);
    assert.deepEqual((await worker.call(echo('first'))).notes, []);
    started.notify('late');
    const reply = await worker.call(echo('second'));
    assert.deepEqual([reply.handled, reply.notes], [1, []]);
  });

  test(`${kind}: a call's progress reaches its caller before its answer`, async (t) => {
    const worker = useWorker(t, { kind });
    const told: number[] = [];
    const reply = await worker.call({ op: 'progress' }, { onProgress: (n) => told.push(n) });
    assert.deepEqual(told, [1, 2, 3]);
    assert.equal(reply.handled, 1);
  });
}

test('process: calls sent ahead to a worker that times out are answered by the next one, in order', async (t) => {
  const worker = useWorker(t, { kind: 'process', timeoutMs: 1500, sendAhead: () => true });
  await worker.call(echo('started'));
  const [hung, a, b] = await Promise.allSettled([worker.call({ op: 'hang' }), worker.call(echo('a')), worker.call(echo('b'))]);
  assert.equal(hung.status, 'rejected');
  await failure(Promise.reject(hung.reason), 'timeout');
  assert.deepEqual(
    [a, b].map((r) => (r.status === 'fulfilled' ? [r.value.value, r.value.handled] : r.reason)),
    [
      ['a', 1],
      ['b', 2],
    ],
  );
});

test('process: one call at a time: a call is sent ahead only when the caller allows it for both', async (t) => {
  const worker = useWorker(t, { kind: 'process', sendAhead: (request) => request.op === 'echo' && request.value !== 'alone' });
  await worker.call(echo('started'));
  const slow = worker.call(echo('slow', 300));
  const ahead = worker.call(echo('ahead'));
  const alone = worker.call(echo('alone'));
  await waitUntil('the worker to take the first call', () => worker.busy, 10_000, 5);
  // One call sent ahead beside the slow one; the one that may not be waits for both answers.
  await waitUntil('the call sent ahead', () => worker.waiting === 1, 10_000, 5);
  assert.deepEqual([(await slow).value, (await ahead).value, (await alone).value], ['slow', 'ahead', 'alone']);
  // Without `sendAhead`, never: the next call waits for the answer.
  const plain = useWorker(t, { kind: 'process' });
  await plain.call(echo('started'));
  const first = plain.call(echo('slow', 300));
  const second = plain.call(echo('next'));
  await waitUntil('the worker to take the first call', () => plain.busy, 10_000, 5);
  assert.equal(plain.waiting, 1);
  assert.deepEqual([(await first).value, (await second).value], ['slow', 'next']);
});

test('process: past the resident-set budget during a call, the call fails with "memory" and the next call works', async (t) => {
  const probe = useWorker(t, { kind: 'process' });
  await probe.call(echo('size'));
  const base = residentMb(probe.pid as number) as number;
  await probe.close();
  const worker = useWorker(t, { kind: 'process', maxRssMb: base + 100, timeoutMs: 60_000 });
  assert.equal((await failure(worker.call({ op: 'grow', mb: 300, hang: true }), 'memory')).message, `echoing needs more than ${base + 100} MB of memory`);
  assert.equal((await worker.call(echo('after'))).handled, 1);
});

test('process: a worker left above the recycling size by a call is replaced before the next one; a small one is kept', async (t) => {
  const probe = useWorker(t, { kind: 'process' });
  await probe.call(echo('size'));
  const base = residentMb(probe.pid as number) as number;
  await probe.close();
  const worker = useWorker(t, { kind: 'process', replaceAfter: (_request, _reply, rss) => (rss() ?? 0) > base + 100 });
  const small = await worker.call({ op: 'grow', mb: 10 });
  assert.equal(worker.pid, Number(small.who.split(' ')[1]), 'kept after a small call');
  const large = await worker.call({ op: 'grow', mb: 200 });
  assert.equal(large.who, small.who);
  assert.equal(worker.pid, undefined, 'replaced after the call that grew it');
  const next = await worker.call(echo('after'));
  assert.notEqual(next.who, small.who);
  assert.equal(next.handled, 1);
});

test('process: a worker the caller says to replace after a call is replaced', async (t) => {
  const worker = useWorker(t, { kind: 'process', replaceAfter: (request, reply) => reply !== undefined && request.op === 'echo' && request.value === 'last' });
  const kept = await worker.call(echo('kept'));
  assert.equal((await worker.call(echo('last'))).who, kept.who);
  assert.equal(worker.pid, undefined);
  assert.notEqual((await worker.call(echo('new'))).who, kept.who);
});

test('process: startAhead: a worker replaced after a call, or dropped at its time budget or a crash, is followed at once by the next', async (t) => {
  const worker = useWorker(t, {
    kind: 'process',
    startAhead: true,
    timeoutMs: 1000,
    replaceAfter: (request) => request.op === 'echo' && request.value === 'last',
  });
  const who = () => `process ${worker.pid}`;
  const replaced = await worker.call(echo('last'));
  // Running before the next call is made, and the one that answers it.
  const ahead = who();
  assert.ok(worker.pid !== undefined && ahead !== replaced.who, 'a new worker runs as soon as the old one is replaced');
  assert.deepEqual(await worker.call(echo('next')), { who: ahead, handled: 1, notes: [], value: 'next' });
  await failure(worker.call({ op: 'hang' }), 'timeout');
  const afterTimeout = who();
  assert.ok(worker.pid !== undefined && afterTimeout !== ahead, 'started again at once after the time budget');
  assert.equal((await worker.call(echo('a'))).who, afterTimeout);
  await failure(worker.call({ op: 'exit' }), 'crashed');
  const afterCrash = who();
  assert.ok(worker.pid !== undefined && afterCrash !== afterTimeout, 'started again at once after a crash');
  assert.equal((await worker.call(echo('b'))).who, afterCrash);
  // Killed while idle: not started again (a worker that dies on its own would be restarted in a loop).
  process.kill(worker.pid as number, 'SIGKILL');
  await waitUntil('the killed worker to be noticed', () => worker.pid === undefined, 10_000, 20);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(worker.pid, undefined);
});

test('process: successorFor: the next worker starts while the worker works on a call it is replaced after, and gets the warm-up note first', async (t) => {
  const worker = useWorker(t, { kind: 'process', successorFor: (request) => request.op === 'echo' && request.value === 'last', warmUp: 'warm-up' });
  const first = await worker.call(echo('first'));
  const last = await worker.call(echo('last', 2000));
  const answeredAt = Date.now();
  assert.equal(last.who, first.who, 'the worker answered the call it is replaced after');
  const next = await worker.call({ op: 'born' });
  assert.notEqual(next.who, first.who, 'replaced');
  assert.ok(Number(next.value) < answeredAt, `the successor started ${Number(next.value) - answeredAt} ms after the call was answered`);
  assert.deepEqual([next.handled, next.notes], [1, ['warm-up']], 'its first call, after the warm-up note');
  // A successor takes over from a worker dropped at its time budget too.
  const timed = useWorker(t, { kind: 'process', timeoutMs: 2000, successorFor: (request) => request.op === 'hang' });
  const before = await timed.call(echo('before'));
  await failure(timed.call({ op: 'hang' }), 'timeout');
  const failedAt = Date.now();
  const after = await timed.call({ op: 'born' });
  assert.ok(after.who !== before.who && Number(after.value) < failedAt, 'the successor, started during the call, takes the next one');
  // startAhead's and prestart's workers get it too, when no call waits for them once ready.
  const trace = path.join(useTmpDir(t), 'warmed');
  const ahead = useWorker(t, { kind: 'process', startAhead: true, warmUp: `touch ${trace}`, replaceAfter: (request) => request.op === 'echo' });
  await ahead.call(echo('replaced'));
  await waitUntil('the worker started ahead to get its warm-up note', () => fs.existsSync(trace), 10_000, 20);
  assert.deepEqual((await ahead.call({ op: 'born' })).notes, [`touch ${trace}`]);
  const started = useWorker(t, { kind: 'process', warmUp: 'warm-up' });
  started.prestart();
  assert.deepEqual((await started.call({ op: 'born' })).notes, [], 'a call waited when it was ready: no warm-up');
  const idle = useWorker(t, { kind: 'process', warmUp: `touch ${trace}-idle` });
  idle.prestart();
  await waitUntil('the idle worker started ahead to get its warm-up note', () => fs.existsSync(`${trace}-idle`), 10_000, 20);
});

test('process: startAhead: a worker that cannot start is not started again ahead', async (t) => {
  const worker = useWorker(t, { kind: 'process', startAhead: true, args: ['die-at-start'] });
  await failure(worker.call(echo('a')), 'start');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(worker.pid, undefined);
});

test('process: a worker idle for idleMs is stopped; the next call starts another', async (t) => {
  const worker = useWorker(t, { kind: 'process', idleMs: 200 });
  const first = await worker.call(echo('first'));
  await waitUntil('the idle worker to stop', () => worker.pid === undefined, 10_000, 20);
  assert.notEqual((await worker.call(echo('second'))).who, first.who);
});

test('the artifact worker warmed with a signer that fails: no unhandled rejection, and the first job still runs', async (t) => {
  const { createArtifactProducer } = await import('../../src/pdf/produce-artifacts.js');
  const producer = createArtifactProducer();
  t.after(() => producer.close());
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.after(() => process.off('unhandledRejection', onUnhandled));
  // The first warm-up starts the worker; the second finds it running.
  producer.warm(Promise.reject(new Error('no certificate')));
  producer.warm(Promise.reject(new Error('still no certificate')));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(unhandled, []);
  producer.injectFault('exit');
  await assert.rejects(producer.produce({ original: new Uint8Array(1) } as never), {
    name: 'WorkerFailure',
    message: 'the artifact worker stopped (exit code 70)',
  });
});

test('the entry module imported by something else starts nothing', async (t) => {
  const listeners = process.listenerCount('message');
  await import(tinyWorker(t).href);
  assert.equal((globalThis as { tinyWorkerStarted?: boolean }).tinyWorkerStarted, undefined);
  assert.equal(process.listenerCount('message'), listeners);
});

test('budgets must be positive and fit a timer', () => {
  const entry = new URL('file:///nowhere.mjs');
  assert.throws(() => createSupervisedWorker({ kind: 'process', entry, timeoutMs: 0, heapMb: 64 }), RangeError);
  assert.throws(() => createSupervisedWorker({ kind: 'process', entry, timeoutMs: 2 ** 31, heapMb: 64 }), RangeError);
  assert.throws(() => createSupervisedWorker({ kind: 'thread', entry, timeoutMs: 1000, heapMb: -1 }), RangeError);
});
