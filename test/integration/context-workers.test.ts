// Every line: the child processes a server starts, ended when it closes.
// The Context owns its supervised workers: a server that closes ends the inspection and detection
// child processes it started and the artifact worker, and a context that closes refuses new work.
// Servers started with `shareWorkers` (as the test servers are) hold the process's reader instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createForm, payload } from '../helpers/requests.js';
import { alive, gone } from '../helpers/processes.js';
import { useServer } from '../helpers/server.js';

/** The pids of this process's child processes (Linux /proc). */
function children(): number[] {
  const tasks = fs.readdirSync('/proc/self/task');
  const found = tasks.flatMap((task) => fs.readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  return [...new Set(found)];
}

test('closing the server ends the workers its context started; the closed context refuses new work', {
  skip: process.platform !== 'linux' && 'reads /proc',
}, async (t) => {
  const before = new Set(children());
  const server = await useServer(t, {}, {}, { shareWorkers: false });
  const { ctx } = server.running;
  // An upload starts the inspection child; a detection, the detection child.
  const created = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ client_reference: 'workers' })) });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  const detected = await server.call('POST', `/v1/signature-requests/${id}/detect-fields`);
  assert.equal(detected.status, 200, await detected.clone().text());
  const detector = ctx.workers.detector.pid;
  assert.ok(detector !== undefined, 'the detection child runs');
  const started = children().filter((pid) => !before.has(pid));
  assert.ok(started.includes(detector));
  assert.equal(started.length, 2, `an inspection child beside the detection child: ${started.join(', ')}`);

  await server.running.close();
  for (const pid of started) assert.ok(await gone(pid), `child ${pid} ended with the server`);
  assert.equal(ctx.workers.detector.pid, undefined);
  const pdf = new Uint8Array(fs.readFileSync(new URL('../../fixtures/contract.pdf', import.meta.url)));
  await assert.rejects(ctx.workers.inspector.inspect(pdf), /closed/);
  await assert.rejects(ctx.workers.detector.detect(pdf), /closed/);
  const job = {
    original: pdf,
    fields: [],
    sealAt: 0,
    signer: { certificateDer: new Uint8Array(), privateKeyDer: new Uint8Array(), name: 'x' },
    timestamp: null,
  };
  await assert.rejects(ctx.workers.artifacts.produce({ ...job, report: {} as never }), /the artifact worker was closed/);
});

test('servers that share workers read uploads with one reader child, which ends a few seconds after the last of them closed', {
  skip: process.platform !== 'linux' && 'reads /proc',
}, async (t) => {
  const before = new Set(children());
  const upload = async (server: Awaited<ReturnType<typeof useServer>>, reference: string) => {
    const created = await server.call('POST', '/v1/signature-requests', { body: await createForm(payload({ client_reference: reference })) });
    assert.equal(created.status, 201, await created.clone().text());
    return children().filter((pid) => !before.has(pid));
  };
  const first = await useServer(t, {}, {}, { shareWorkers: true });
  const readers = await upload(first, 'first');
  assert.equal(readers.length, 1, `one reader child: ${readers.join(', ')}`);
  const second = await useServer(t, {}, {}, { shareWorkers: true });
  assert.deepEqual(await upload(second, 'second'), readers, "the second server's upload is read by the same child");
  await first.running.close();
  assert.deepEqual(await upload(second, 'after the first closed'), readers, 'the reader stays while a server holds it');
  await second.running.close();
  const [reader] = readers as [number];
  assert.ok(alive(reader), 'kept a few seconds for a next server');
  assert.ok(await gone(reader, 20_000), 'and ended once none came');
});
