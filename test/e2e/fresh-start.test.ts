// Every line: the built binary starting and stopping on the line, its native SQLite binding, a request to its three sealed artifacts.
// The real binary on an empty data directory, as a new user runs it on whatever Node line they have:
// it starts, answers and stops cleanly, and a request goes all the way to its three artifacts. This
// runs on every supported line in CI (.ci/run), so a native module or worker fault specific to one
// line (an abort at start or exit, a worker message that line refuses) fails here, not in a user's
// terminal. Needs the built dist/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient, serveProcess } from '../helpers/cli.js';
import { signerAction } from '../helpers/flows.js';
import { createForm } from '../helpers/requests.js';
import { useTmpDir } from '../helpers/server.js';

const CONTRACT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/contract.pdf');
/** What the faults of other Node lines print: a native abort, or a worker message refused. */
const FAULTS = /Assertion failed|Aborted|DataCloneError|artifact generation failed|uncaughtException/;

test('five fresh starts in a row: each creates its key, answers, and exits 0 on SIGTERM', async (t) => {
  for (let i = 0; i < 5; i++) {
    const dataDir = useTmpDir(t);
    const serve = await serveProcess(t, ['--data-dir', dataDir]);
    assert.equal(serve.ready.status, 'ready');
    const api = serve.ready.api_url as string;
    const call = apiClient(api, serve.ready.api_key as string);
    // A few queries, so prepared statements exist to be finalized at exit.
    assert.equal((await fetch(api.replace(/\/v1$/, '/healthz'))).status, 200);
    assert.equal((await call('GET', '/signature-requests')).status, 200);
    assert.equal((await call('GET', '/signature-requests/00000000-0000-4000-8000-000000000000')).status, 404);
    const code = await serve.stop('SIGTERM');
    assert.equal(code, 0, `start ${i + 1}: exit ${code}, signal ${serve.child.signalCode}: ${serve.stderr()}`);
    assert.doesNotMatch(serve.stderr(), FAULTS);
  }
});

test('a fresh serve takes a request to its three artifacts: sealed PDF valid for pdfsig, evidence hashes match', async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir, '--log-level', 'warn']);
  const api = serve.ready.api_url as string;
  const call = apiClient(api, serve.ready.api_key as string);

  const form = await createForm(
    {
      client_reference: 'fresh-start',
      signers: [
        { reference: 'buyer', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 },
        { reference: 'seller', name: 'Grace Hopper', email: 'grace@example.com', order: 1 },
      ],
      fields: [
        { signer_reference: 'buyer', type: 'signature', page: 2, x: 72, y: 600, width: 180, height: 40 },
        { signer_reference: 'seller', type: 'signature', page: 2, x: 300, y: 600, width: 180, height: 40 },
      ],
    },
    { bytes: fs.readFileSync(CONTRACT) },
  );
  const created = await call('POST', '/signature-requests', form);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;
  const activated = await call('POST', `/signature-requests/${id}/activate`, {});
  assert.equal(activated.status, 200, JSON.stringify(activated.body));
  for (const signer of activated.body.signers as Array<{ reference: string; signing_url: string }>) {
    const answer = await signAs(signer.signing_url, signer.reference);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  }

  const deadline = Date.now() + 60_000;
  let current = (await call('GET', `/signature-requests/${id}`)).body;
  while (!Object.values(current.artifacts as Record<string, boolean>).every(Boolean)) {
    assert.ok(Date.now() < deadline, `no artifacts after 60 s: ${JSON.stringify(current.artifacts)}; log: ${serve.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = (await call('GET', `/signature-requests/${id}`)).body;
  }
  assert.equal(current.status, 'completed');

  const key = serve.ready.api_key as string;
  const download = async (type: string) => {
    const response = await fetch(`${api}/signature-requests/${id}/artifacts/${type}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(response.status, 200, type);
    return Buffer.from(await response.arrayBuffer());
  };
  const [signed, evidencePdf, evidenceJson] = await Promise.all(['signed-pdf', 'evidence.pdf', 'evidence.json'].map(download));
  assert.ok(signed && evidencePdf && evidenceJson);
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const { hashes } = JSON.parse(evidenceJson.toString('utf8')) as { hashes: Record<string, string> };
  assert.deepEqual(hashes, {
    original_pdf_sha256: sha256(fs.readFileSync(CONTRACT)),
    signed_pdf_sha256: sha256(signed),
    evidence_pdf_sha256: sha256(evidencePdf),
  });
  assert.equal(evidencePdf.subarray(0, 5).toString('latin1'), '%PDF-');

  const file = path.join(dataDir, 'signed.pdf');
  fs.writeFileSync(file, signed);
  const report = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  assert.match(report, /Signature Validation: Signature is Valid\./, report);
  assert.match(report, /Total document signed/, report);

  assert.equal(await serve.stop('SIGTERM'), 0);
  assert.doesNotMatch(serve.stderr(), FAULTS);
});

/** The signer's page's own calls: view, then sign with a typed signature. */
async function signAs(link: string, name: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const view = await signerAction(link, 'view');
  assert.equal(view.status, 200, await view.text());
  const signed = await signerAction(link, 'sign', { signature: { type: 'typed', text: name } });
  return { status: signed.status, body: (await signed.json()) as Record<string, unknown> };
}
