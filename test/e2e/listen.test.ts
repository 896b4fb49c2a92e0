import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { apiClient, BIN, paraph, serveProcess } from '../helpers/cli.js';
import { makePdf } from '../helpers/pdfs.js';
import { closedPort, useReceiver } from '../helpers/receiver.js';
import { useTmpDir } from '../helpers/server.js';
import { unknownApiKey } from '../helpers/keys.js';

interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: { signature_request_id: string; status: string; signer?: { reference: string } };
}

interface ListenProcess {
  lines: string[];
  stderr(): string;
  /** Waits until `count` lines are on stdout (lines that the filter keeps, when given). */
  waitForLines(count: number, timeoutMs?: number): Promise<string[]>;
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** `paraph listen` as a child process, killed when the test ends. */
function listen(t: TestContext, args: string[], env: Record<string, string> = {}): ListenProcess {
  const child = spawn(process.execPath, [BIN, 'listen', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    const text = partial + d.toString();
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const until = async (done: () => boolean, what: () => string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!done() && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 25));
    if (!done()) throw new Error(`${what()}\nstdout:\n${lines.join('\n')}\nstderr:\n${stderr}`);
  };
  return {
    lines,
    stderr: () => stderr,
    async waitForLines(count, timeoutMs = 15_000) {
      await until(
        () => lines.length >= count,
        () => `expected ${count} line(s), got ${lines.length}`,
        timeoutMs,
      );
      return lines.slice(0, count);
    },
    async waitForStderr(pattern, timeoutMs = 15_000) {
      await until(
        () => pattern.test(stderr),
        () => `expected ${pattern} on stderr`,
        timeoutMs,
      );
    },
    async stop(signal = 'SIGINT') {
      child.kill(signal);
      return exited;
    },
    exited,
  };
}

type Api = ReturnType<typeof apiClient>;

async function createRequest(api: Api, callbackUrl?: string): Promise<string> {
  const form = new FormData();
  form.append('document', new Blob([await makePdf()], { type: 'application/pdf' }), 'contract.pdf');
  form.append(
    'request',
    JSON.stringify({
      client_reference: `listen-${Math.random().toString(36).slice(2)}`,
      signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'client@example.com', order: 1 }],
      fields: [{ signer_reference: 'client', type: 'signature', page: 1, x: 72, y: 600, width: 180, height: 40 }],
      ...(callbackUrl ? { callback_url: callbackUrl } : {}),
    }),
  );
  const created = await api('POST', '/signature-requests', form);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id as string;
}

/** A signed request: signature_request.activated, signer.viewed, signer.completed, signature_request.completed. */
async function signedRequest(api: Api): Promise<string> {
  const id = await createRequest(api);
  const activated = await api('POST', `/signature-requests/${id}/activate`, {});
  assert.equal(activated.status, 200);
  const signed = await paraph(['sign', activated.body.signers[0].signing_url as string]);
  assert.equal(signed.code, 0, signed.stderr);
  return id;
}

const FLOW = ['signature_request.activated', 'signer.viewed', 'signer.completed', 'signature_request.completed'];

function storedEvents(dataDir: string): Array<{ id: string; payload: string }> {
  const db = new Database(path.join(dataDir, 'paraph.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT id, payload FROM events ORDER BY seq').all() as Array<{ id: string; payload: string }>;
  } finally {
    db.close();
  }
}

test('listen --json prints each event of a flow as its WebhookEvent line; listen prints a line per event; Ctrl-C exits 0', async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir]);
  const apiUrl = serve.ready.api_url as string;
  const key = serve.ready.api_key as string;
  // The environment twins carry the server and the key.
  const asJson = listen(t, ['--json'], { PARAPH_API_URL: apiUrl, PARAPH_API_KEY: key });
  const human = listen(t, ['--api', new URL(apiUrl).origin, '--key', key]);
  await asJson.waitForStderr(/Listening for events at/);
  await human.waitForStderr(/Listening for events at/);

  const id = await signedRequest(apiClient(apiUrl, key));
  const lines = await asJson.waitForLines(4);
  // The exact bytes a webhook delivery sends, one event per line, in the order they were recorded.
  assert.deepEqual(
    lines,
    storedEvents(dataDir).map((e) => e.payload),
  );
  const events = lines.map((line) => JSON.parse(line) as WebhookEvent);
  assert.deepEqual(
    events.map((e) => e.type),
    FLOW,
  );
  assert.ok(events.every((e) => e.data.signature_request_id === id));

  const printed = await human.waitForLines(4);
  printed.forEach((line, i) => {
    const event = events[i] as WebhookEvent;
    const signer = event.data.signer ? `\\s+${event.data.signer.reference}` : '';
    assert.match(line, new RegExp(`^${event.created_at}\\s+${event.type.replace('.', '\\.')}\\s+${id}${signer}$`));
  });
  assert.equal(await asJson.stop('SIGINT'), 0);
  assert.equal(await human.stop('SIGTERM'), 0);
  for (const output of [asJson.stderr(), human.stderr(), asJson.lines.join('\n'), human.lines.join('\n')]) assert.ok(!output.includes(key));
  await serve.stop();
});

test('listen --forward-to posts each event signed with the webhook secret, and goes on after a refusal or an unreachable receiver', async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir]);
  const apiUrl = serve.ready.api_url as string;
  const key = serve.ready.api_key as string;
  const receiver = await useReceiver(t, '/local/hooks');
  const forwarding = listen(t, ['--forward-to', receiver.url, '--api', apiUrl, '--key', key]);
  const closed = await closedPort();
  const nowhere = listen(t, ['--forward-to', `http://127.0.0.1:${closed}/hooks`, '--api', apiUrl, '--key', key]);
  await forwarding.waitForStderr(/Listening for events at .*; forwarding to http:\/\/127\.0\.0\.1:\d+\/local\/hooks/);
  await nowhere.waitForStderr(/Listening for events/);

  receiver.respond({ status: 500 });
  const api = apiClient(apiUrl, key);
  const first = await createRequest(api);
  assert.equal((await api('POST', `/signature-requests/${first}/activate`, {})).status, 200);
  await receiver.waitFor(1);
  receiver.respond({ status: 204 });
  await signedRequest(api);
  const received = await receiver.waitFor(5);
  const wh = new Webhook(serve.ready.webhook_secret as string);
  const stored = storedEvents(dataDir);
  assert.deepEqual(
    received.map((r) => r.body),
    stored.map((e) => e.payload),
  );
  for (const delivery of received) {
    const event = wh.verify(delivery.body, delivery.headers as Record<string, string>) as WebhookEvent;
    assert.equal(delivery.headers['webhook-id'], event.id);
    assert.equal(delivery.headers['content-type'], 'application/json');
  }
  const lines = await forwarding.waitForLines(5);
  assert.match(lines[0] as string, /signature_request\.activated\s+\S+\s+→ 500$/);
  for (const line of lines.slice(1)) assert.match(line, /→ 204$/);
  const failed = await nowhere.waitForLines(5);
  for (const line of failed) assert.match(line, /→ failed: connection failed: ECONNREFUSED$/);
  assert.equal(await forwarding.stop(), 0);
  assert.equal(await nowhere.stop(), 0);
  await serve.stop();
});

test('listen --events keeps only the types asked for; bad usage exits 2; a refused key exits 1 with the API message', async (t) => {
  const dataDir = useTmpDir(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir]);
  const apiUrl = serve.ready.api_url as string;
  const key = serve.ready.api_key as string;
  const filtered = listen(t, ['--events', 'signer.completed, signature_request.completed', '--json', '--api', apiUrl, '--key', key]);
  await filtered.waitForStderr(/Listening/);
  const api = apiClient(apiUrl, key);
  await signedRequest(api);
  await signedRequest(api);
  const lines = await filtered.waitForLines(4);
  assert.deepEqual(
    lines.map((l) => (JSON.parse(l) as WebhookEvent).type),
    ['signer.completed', 'signature_request.completed', 'signer.completed', 'signature_request.completed'],
  );
  assert.equal(await filtered.stop(), 0);
  assert.equal(filtered.lines.length, 4);

  const unknown = await paraph(['listen', '--events', 'signer.completed,signer.signed', '--api', apiUrl, '--key', key]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown event type "signer\.signed"; the types are signature_request\.activated, signer\.viewed, .*signature_request\.expired/);
  const noKey = await paraph(['listen', '--api', apiUrl], { PARAPH_API_KEY: '' });
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /pass --key or set PARAPH_API_KEY/);
  const badUrl = await paraph(['listen', '--key', key], { PARAPH_API_URL: 'ftp://example.test' });
  assert.equal(badUrl.code, 2);
  assert.match(badUrl.stderr, /PARAPH_API_URL must be an http\(s\) URL/);
  const badForward = await paraph(['listen', '--forward-to', 'not a url', '--api', apiUrl, '--key', key]);
  assert.equal(badForward.code, 2);

  const wrongKey = unknownApiKey();
  const refused = await paraph(['listen', '--api', apiUrl, '--key', wrongKey]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /unknown API key/);
  assert.ok(!refused.stderr.includes(wrongKey) && !refused.stdout.includes(wrongKey));
  const unreachable = await paraph(['listen', '--api', `http://127.0.0.1:${await closedPort()}`, '--key', key]);
  assert.equal(unreachable.code, 1);
  assert.match(unreachable.stderr, /cannot reach http:\/\/127\.0\.0\.1:\d+ \(connection refused\): is `paraph serve` running there\?/);
  await serve.stop();
});

test('across a serve restart, events recorded while it was down arrive once each, none lost, none doubled', async (t) => {
  const { dataDir, args, apiUrl, key, ...first } = await restartableServe(t);
  let serve = first.serve;
  const secret = serve.ready.webhook_secret as string;
  const receiver = await useReceiver(t);
  const follower = listen(t, ['--json', '--api', apiUrl, '--key', key]);
  const forwarder = listen(t, ['--forward-to', receiver.url, '--api', apiUrl, '--key', key]);
  await follower.waitForStderr(/Listening/);
  await forwarder.waitForStderr(/Listening/);

  const api = apiClient(apiUrl, key);
  const requests = [await createRequest(api), await createRequest(api), await createRequest(api)];
  for (const id of requests) assert.equal((await api('POST', `/signature-requests/${id}/activate`, {})).status, 200);
  await follower.waitForLines(2);
  assert.equal(await serve.stop(), 0);
  await follower.waitForStderr(/Connection lost/);

  // While the server is down, the CLI records events on the data directory.
  for (const id of requests.slice(0, 2)) {
    const expired = await paraph(['expire', id, '--data-dir', dataDir]);
    assert.equal(expired.code, 0, expired.stderr);
  }
  const advanced = await paraph(['clock', 'advance', '8d', '--data-dir', dataDir]);
  assert.equal(advanced.code, 0, advanced.stderr);

  serve = await serveProcess(t, args);
  assert.equal(serve.ready.api_url, apiUrl);
  await follower.waitForStderr(/Reconnected/);
  // And after the restart, as usual.
  const last = await createRequest(api);
  assert.equal((await api('POST', `/signature-requests/${last}/activate`, {})).status, 200);

  const stored = storedEvents(dataDir);
  assert.equal(stored.length, 3 + 2 * 2 + 2 + 1, 'activated x3, expired x2 by hand, expired by the clock, activated');
  const lines = await follower.waitForLines(stored.length);
  assert.deepEqual(
    lines,
    stored.map((e) => e.payload),
  );
  const received = await receiver.waitFor(stored.length);
  assert.deepEqual(
    received.map((r) => r.headers['webhook-id']),
    stored.map((e) => e.id),
  );
  const wh = new Webhook(secret);
  for (const delivery of received) wh.verify(delivery.body, delivery.headers as Record<string, string>);

  assert.equal(await follower.stop(), 0);
  assert.equal(await forwarder.stop(), 0);
  // Nothing came twice after the last wait either.
  assert.equal(follower.lines.length, stored.length);
  assert.equal(receiver.received.length, stored.length);
  for (const output of [follower.stderr(), forwarder.stderr()]) {
    assert.equal(output.match(/Connection lost/g)?.length, 1, output);
    assert.equal(output.match(/Reconnected/g)?.length, 1, output);
  }
  await serve.stop();
});

test('a listener that has received no event yet still gets, after a serve restart, the events recorded while it was down', async (t) => {
  const { dataDir, args, apiUrl, key, ...first } = await restartableServe(t);
  let serve = first.serve;
  // The request is activated before listen starts: its event is in the past, and is not printed.
  const api = apiClient(apiUrl, key);
  const id = await createRequest(api);
  assert.equal((await api('POST', `/signature-requests/${id}/activate`, {})).status, 200);
  const follower = listen(t, ['--json', '--api', apiUrl, '--key', key]);
  await follower.waitForStderr(/Listening/);
  assert.equal(await serve.stop(), 0);
  await follower.waitForStderr(/Connection lost/);

  const expired = await paraph(['expire', id, '--data-dir', dataDir]);
  assert.equal(expired.code, 0, expired.stderr);
  serve = await serveProcess(t, args);
  await follower.waitForStderr(/Reconnected/);

  const stored = storedEvents(dataDir);
  assert.equal(stored.length, 3, 'activated before listen, then signer.expired and signature_request.expired');
  const lines = await follower.waitForLines(2);
  assert.deepEqual(
    lines,
    stored.slice(1).map((e) => e.payload),
  );
  assert.deepEqual(
    lines.map((l) => (JSON.parse(l) as WebhookEvent).type),
    ['signer.expired', 'signature_request.expired'],
  );
  assert.equal(await follower.stop(), 0);
  assert.equal(follower.lines.length, 2);
  await serve.stop();
});

/** A serve on a data directory and a port of its own, to stop and start again on the same address. */
async function restartableServe(t: TestContext) {
  const dataDir = useTmpDir(t);
  const args = ['--data-dir', dataDir, '--port', String(await closedPort())];
  const serve = await serveProcess(t, args);
  return { dataDir, args, serve, apiUrl: serve.ready.api_url as string, key: serve.ready.api_key as string };
}
