// Artifact attempts are kept in the data directory, as webhook attempts are: a completion whose first
// attempt fails (an artifacts fault rule) shows that attempt, its error and its next retry in the
// dashboard's request detail; after `kill -9` and a restart on the same directory the restarted
// server makes the artifacts, and the detail lists the failed attempt unchanged, then the success.
// Runs the built dist/ (`npm run build`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, serveProcess, type ServeProcess } from '../helpers/cli.js';
import { signerAction } from '../helpers/flows.js';
import { makePdf } from '../helpers/pdfs.js';
import { useTmpDir } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

interface Attempt {
  number: number;
  outcome: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  error: string | null;
  next_attempt_at: string | null;
}

/** The dashboard's detail of a request, read with the data directory's dashboard token. */
async function detail(serve: ServeProcess, id: string): Promise<{ status: string; artifacts: Record<string, boolean>; artifact_attempts: Attempt[] }> {
  const url = new URL(serve.ready.dashboard_url as string);
  const token = /#token=(pdash_[0-9A-Za-z]+)$/.exec(url.hash)?.[1];
  assert.ok(token, 'the ready line carries the dashboard token');
  const response = await fetch(`${url.origin}/_dashboard/api/requests/${id}`, { headers: { authorization: `Dashboard ${token}` } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { data: Awaited<ReturnType<typeof detail>> }).data;
}

test('a failed artifact attempt is recorded with its error and next retry, and is still listed after kill -9 and a restart', async (t) => {
  const dataDir = useTmpDir(t);
  const args = ['--data-dir', dataDir, '--rate-limit', 'off'];
  const first = await serveProcess(t, args);
  const key = first.ready.api_key as string;
  const api = apiClient(first.ready.api_url as string, key);

  const form = new FormData();
  form.append('document', new Blob([await makePdf()], { type: 'application/pdf' }), 'contract.pdf');
  form.append(
    'request',
    JSON.stringify({
      client_reference: 'attempts',
      signers: [{ reference: 's1', email: 's1@example.com', name: 'Ada Lovelace', order: 1 }],
      fields: [{ signer_reference: 's1', type: 'signature', page: 1, x: 72, y: 100, width: 180, height: 40 }],
    }),
  );
  const created = await api('POST', '/signature-requests', form);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;
  const rule = await api('POST', '/_sandbox/faults', { target: 'artifacts', mode: 'fail', signature_request_id: id });
  assert.equal(rule.status, 201, JSON.stringify(rule.body));
  const activated = await api('POST', `/signature-requests/${id}/activate`, {});
  assert.equal(activated.status, 200, JSON.stringify(activated.body));
  const link = activated.body.signers[0].signing_url as string;
  assert.equal((await signerAction(link, 'view')).status, 200);
  const signed = await signerAction(link, 'sign', { signature: { type: 'typed', text: 'Ada Lovelace' } });
  assert.equal(signed.status, 200, await signed.clone().text());

  // The first attempt fails on the rule; the retry would come 5 s later, but the server dies first.
  const [failed] = await waitUntil(
    'the failed attempt',
    async () => {
      const attempts = (await detail(first, id)).artifact_attempts;
      return attempts.length > 0 && attempts;
    },
    30_000,
    50,
  );
  assert.ok(failed);
  assert.equal(failed.number, 1);
  assert.equal(failed.outcome, 'failed');
  assert.match(failed.error ?? '', new RegExp(`sandbox fault rule ${rule.body.id as string}`));
  assert.ok(Date.parse(failed.finished_at) >= Date.parse(failed.started_at));
  assert.equal(failed.duration_ms, Date.parse(failed.finished_at) - Date.parse(failed.started_at));
  const retryIn = Date.parse(failed.next_attempt_at ?? '') - Date.parse(failed.finished_at);
  assert.equal(retryIn, 5000, 'the next attempt is due 5 s after the first failure');
  assert.equal(await first.stop('SIGKILL'), null);

  // A restarted server picks the request up and makes the artifacts; the failed attempt is still there.
  const second = await serveProcess(t, args);
  const done = await waitUntil(
    'the artifacts after the restart',
    async () => {
      const view = await detail(second, id);
      return view.artifacts.signed_pdf && view;
    },
    90_000,
  );
  assert.deepEqual(done.artifacts, { signed_pdf: true, evidence_pdf: true, evidence_json: true });
  assert.deepEqual(done.artifact_attempts[0], failed, 'the failed attempt as it was recorded before the kill');
  const last = done.artifact_attempts.at(-1);
  assert.equal(last?.outcome, 'succeeded');
  assert.equal(last?.error, null);
  assert.equal(last?.next_attempt_at, null);
  assert.deepEqual(
    done.artifact_attempts.map((a) => a.number),
    done.artifact_attempts.map((_, i) => i + 1),
    'numbered 1, 2, … across the restart',
  );
  assert.ok(
    done.artifact_attempts.slice(1, -1).every((a) => a.outcome === 'failed'),
    'one success, the last',
  );
  assert.equal(await second.stop(), 0);
});
