// Every line: the package's entry imported as users import it, its child process.
// The programmatic sandbox, imported as users import it (`from 'paraph'`, the package's main entry):
// a child process on free ports, its helpers against the real server, and nothing left behind however
// the test process ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, SandboxRequestError, type Sandbox } from 'paraph';
import { createForm, payload } from '../helpers/requests.js';
import { useTmpDir } from '../helpers/server.js';
import { alive, gone } from '../helpers/processes.js';
import { useReceiver } from '../helpers/receiver.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function createRequest(sandbox: Sandbox, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${sandbox.apiUrl}/signature-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
    body: await createForm(body),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return ((await response.json()) as { id: string }).id;
}

test('startSandbox: a flow with an email code, signed from code, its artifacts, the clock, keys and the sandbox moves', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.stop());
  assert.match(sandbox.apiUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  assert.notEqual(sandbox.smtpPort, 2525);
  assert.match(sandbox.apiKey, /^paraph_test_/);
  assert.match(sandbox.webhookSecret, /^whsec_/);
  assert.ok(fs.existsSync(sandbox.dataDir));
  assert.notEqual(sandbox.pid, process.pid);
  assert.match(sandbox.dashboardUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\/_dashboard\/#token=pdash_[0-9A-Za-z]+$/);

  // Loopback webhooks are accepted: the receiver lives in the test.
  const receiver = await useReceiver(t);
  const id = await createRequest(
    sandbox,
    payload({
      callback_url: receiver.url,
      signers: [
        { reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1, verification: 'email_otp' },
        { reference: 'provider', name: 'Grace Hopper', email: 'grace@example.com', order: 2 },
      ],
      fields: [
        { signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 600, width: 200, height: 50 },
        { signer_reference: 'provider', type: 'signature', page: 1, x: 300, y: 600, width: 200, height: 50 },
      ],
    }),
  );
  const activated = await sandbox.request<{ signers: Array<{ reference: string; signing_url: string }> }>('POST', `/v1/signature-requests/${id}/activate`, {
    send_emails: true,
  });
  const invitation = await sandbox.emails.waitFor({ to: 'ada@example.com', kind: 'invitation' });
  assert.equal(invitation.signature_request_id, id);
  const urlOf = (reference: string) => activated.signers.find((s) => s.reference === reference)?.signing_url as string;

  // The email code is read from the catcher.
  const first = await sandbox.sign(urlOf('client'));
  assert.equal(first.status, 'signed');
  assert.equal(first.request_status, 'active');
  const otp = await sandbox.emails.list({ to: 'ada@example.com', kind: 'otp' });
  assert.equal(otp.length, 1, 'one code was sent and used');
  const second = await sandbox.sign(urlOf('provider'), { signature: 'G. Hopper' });
  assert.equal(second.request_status, 'completed');
  const done = await sandbox.waitForArtifacts(id);
  assert.deepEqual(done.artifacts, { signed_pdf: true, evidence_pdf: true, evidence_json: true });
  assert.equal(done.signers.find((s) => s.reference === 'client')?.verification, 'email_otp');
  await receiver.waitFor(1);

  // The clock.
  const before = await sandbox.clock.now();
  const after = await sandbox.clock.advance('1d12h');
  assert.ok(after.getTime() - before.getTime() >= 36 * 3600_000);
  assert.ok((await sandbox.clock.advance(60)).getTime() >= after.getTime() + 60_000);
  await assert.rejects(sandbox.clock.advance('-1d'), RangeError);

  // Expire and purge; decline.
  const other = await createRequest(sandbox, payload());
  const links = await sandbox.request<{ signers: Array<{ signing_url: string }> }>('POST', `/v1/signature-requests/${other}/activate`, {});
  assert.equal((await sandbox.expire(other)).status, 'expired');
  await assert.rejects(sandbox.sign(links.signers[0]?.signing_url as string), /closed|expired|no longer/i);
  assert.equal((await sandbox.purge(other)).status, 'purged');
  const third = await createRequest(sandbox, payload());
  const thirdLinks = await sandbox.request<{ signers: Array<{ signing_url: string }> }>('POST', `/v1/signature-requests/${third}/activate`, {});
  const declined = await sandbox.decline(thirdLinks.signers[0]?.signing_url as string, 'wrong amount');
  assert.deepEqual([declined.status, declined.request_status], ['declined', 'declined']);
  await assert.rejects(sandbox.waitForArtifacts(third, 2_000), /declined: it will have no artifacts/);

  // Keys: a new account sees none of this one's requests; a key of the same account sees them.
  const stranger = await sandbox.createKey();
  assert.notEqual(stranger.account_id, sandbox.accountId);
  const foreign = await fetch(`${sandbox.apiUrl}/signature-requests/${id}`, { headers: { authorization: `Bearer ${stranger.api_key}` } });
  assert.equal(foreign.status, 404);
  const colleague = await sandbox.createKey({ sameAccount: true });
  assert.equal(colleague.account_id, sandbox.accountId);
  const own = await fetch(`${sandbox.apiUrl}/signature-requests/${id}`, { headers: { authorization: `Bearer ${colleague.api_key}` } });
  assert.equal(own.status, 200);

  // Errors come apart.
  const error = await sandbox.request('GET', '/v1/signature-requests/00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
  assert.ok(error instanceof SandboxRequestError);
  assert.equal(error.status, 404);
  assert.equal(error.code, 'not_found');
  assert.match(error.requestId ?? '', /^req_/);

  // stop(): the process ends, the throwaway directory goes, and a second stop is harmless.
  await sandbox.stop();
  assert.equal(alive(sandbox.pid), false);
  assert.equal(fs.existsSync(sandbox.dataDir), false);
  await sandbox.stop();
});

test('startSandbox on a data directory: kept after stop, and a second start gets a key of its own', { timeout: 60_000 }, async (t) => {
  const dataDir = path.join(useTmpDir(t), 'sandbox');
  const first = await startSandbox({ dataDir, rateLimit: 'off' });
  const id = await createRequest(first, payload());
  await first.stop();
  assert.ok(fs.existsSync(dataDir));
  const second = await startSandbox({ dataDir });
  t.after(() => second.stop());
  assert.notEqual(second.apiKey, first.apiKey);
  assert.equal((await second.request<{ id: string }>('GET', `/v1/signature-requests/${id}`).catch(() => null))?.id ?? null, null, 'a new account');
  const listed = await second.createKey();
  assert.match(listed.api_key, /^paraph_test_/);
});

test('a test process that ends without stop() leaves no sandbox behind, whether it exits or is killed', { timeout: 60_000 }, async () => {
  // A script that starts a sandbox, says where it is, then ends in the way given.
  const script = `
    import { startSandbox } from 'paraph';
    const sandbox = await startSandbox();
    process.stdout.write(JSON.stringify({ pid: sandbox.pid, dataDir: sandbox.dataDir }) + '\\n');
    if (process.argv[1] === 'exit') process.exit(0);
    setInterval(() => {}, 1000);
  `;
  for (const ending of ['exit', 'killed']) {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, ending], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0] as string);
      });
    });
    const started = JSON.parse(line) as { pid: number; dataDir: string };
    assert.ok(alive(started.pid));
    if (ending === 'killed') child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    assert.ok(await gone(started.pid), `${ending}: the sandbox process stopped`);
    assert.equal(fs.existsSync(started.dataDir), false, `${ending}: it deleted its throwaway directory`);
  }
});

test('a sandbox that cannot start says why', async () => {
  await assert.rejects(startSandbox({ serveArgs: ['--brand', 'Not A Word'] }), /exited with code 2 before it was ready: .*--brand/);
});

test('stop() while a call is still in flight past stopTimeoutMs: the sandbox is killed and its throwaway directory deleted all the same', {
  timeout: 60_000,
}, async () => {
  const sandbox = await startSandbox({ stopTimeoutMs: 300 });
  await sandbox.faults.add({ target: 'api', path: '/v1/signature-requests', method: 'GET', delay_ms: 20_000 });
  const held = fetch(`${sandbox.apiUrl}/signature-requests`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } }).catch(() => null);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await sandbox.stop();
  await held;
  assert.ok(await gone(sandbox.pid), 'the sandbox process is gone');
  assert.equal(fs.existsSync(sandbox.dataDir), false, 'its throwaway directory is deleted');
});

test('a start that runs past startTimeoutMs is stopped, not killed: it leaves no throwaway directory', { timeout: 60_000 }, async (t) => {
  const tmp = useTmpDir(t);
  // Timeouts that land before, while and after the directory is made.
  for (const startTimeoutMs of [150, 400, 700, 1000]) {
    const started = await startSandbox({ startTimeoutMs, env: { ...process.env, TMPDIR: tmp } }).catch((error: unknown) => error);
    if (started instanceof Error) assert.match(started.message, new RegExp(`paraph did not start within ${startTimeoutMs} ms`));
    else await (started as Sandbox).stop();
    assert.deepEqual(fs.readdirSync(tmp), [], `${startTimeoutMs} ms: nothing left in TMPDIR`);
  }
});
