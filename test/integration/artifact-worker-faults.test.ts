// A crash of the artifact worker, of any kind, costs one attempt: serve keeps answering, the job
// fails, a fresh worker takes the retry, and the artifacts appear sealed and valid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { ArtifactWorkerFault } from '../../src/pdf/produce-artifacts.js';
import { activate, createRequest, signerAction, status } from '../helpers/flows.js';
import { json, useServer } from '../helpers/server.js';

test('an artifact worker that throws, exits or runs out of memory is replaced; serve keeps answering; each job is retried to valid artifacts', async (t) => {
  const lines: Array<{ msg: string; attempt?: number; signature_request_id?: string; err?: { message?: string } }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  });
  const server = await useServer(t, {}, {}, { log: pino({ level: 'error' }, sink) });
  const { call } = server;

  const faults: ArtifactWorkerFault[] = ['throw', 'exit', 'out-of-memory'];
  const ids: string[] = [];
  for (const fault of faults) ids.push(await createRequest(server, { client_reference: `fault-${fault}` }, { signers: 'payload' }));
  // One fault per job, in the order the jobs reach the worker.
  for (const fault of faults) server.running.ctx.workers.artifacts.injectFault(fault);
  for (const id of ids) {
    const { signers } = await activate(server, id);
    const signed = await signerAction(signers[0]?.signing_url as string, 'sign', { signature: { type: 'typed', text: 'Ada' } });
    assert.equal(signed.status, 200, await signed.clone().text());
    // Completion answers at once, whatever happens to the worker afterwards.
    assert.equal((await json<{ request_status: string }>(signed)).request_status, 'completed');
  }

  // Every first attempt fails, each with its own cause, while the API keeps answering.
  const failures = () => lines.filter((l) => l.msg.startsWith('artifact generation failed') && l.attempt === 1);
  const deadline = Date.now() + 60_000;
  while (failures().length < faults.length) {
    assert.ok(Date.now() < deadline, `first attempts did not all fail: ${JSON.stringify(lines)}`);
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    assert.equal((await call('GET', `/v1/signature-requests/${ids[0]}`)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Jobs may reach the worker in another order than the completions: match causes, not ids.
  assert.deepEqual(new Set(failures().map((l) => l.signature_request_id)), new Set(ids));
  const causes = failures().map((l) => l.err?.message ?? '');
  for (const cause of [/injected artifact worker fault/, /artifact worker stopped \(exit code 70\)/, /needs more than 1024 MB/]) {
    assert.equal(causes.filter((c) => cause.test(c)).length, 1, `${cause}: ${JSON.stringify(causes)}`);
  }

  // The retries (5 s after each failure) run on fresh workers and succeed.
  for (const id of ids) {
    let current = await status(server, id);
    while (!Object.values(current.artifacts).every(Boolean)) {
      assert.ok(Date.now() < deadline + 30_000, `no artifacts for ${id}: ${JSON.stringify(lines)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      current = await status(server, id);
    }
    const response = await call('GET', `/v1/signature-requests/${id}/artifacts/signed-pdf`);
    assert.equal(response.status, 200);
    const file = path.join(server.dataDir, `${id}.pdf`);
    fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    assert.match(execFileSync('pdfsig', [file], { encoding: 'utf8' }), /Signature Validation: Signature is Valid\./);
  }
  assert.equal(lines.filter((l) => l.msg.startsWith('artifact generation failed') && (l.attempt ?? 0) > 1).length, 0, 'one failure per job');
});
