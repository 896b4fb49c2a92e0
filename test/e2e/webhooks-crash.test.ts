// Every line: webhook deliveries across a kill -9 of the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { apiClient, paraph, serveProcess } from '../helpers/cli.js';
import { makePdf } from '../helpers/pdfs.js';
import { useReceiver, type Received } from '../helpers/receiver.js';
import { useTmpDir } from '../helpers/server.js';
import { waitUntil as waitFor } from '../helpers/wait.js';
import { DELIVERY_KEYS } from '../helpers/answer-keys.js';

const waitUntil = <T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number) =>
  waitFor(what, probe, timeoutMs, 50);

type Api = ReturnType<typeof apiClient>;

async function createWithCallback(api: Api, reference: string, callbackUrl: string, signers = 1): Promise<string> {
  const people = Array.from({ length: signers }, (_, i) => ({ reference: `s${i + 1}`, email: `s${i + 1}@example.com`, order: i + 1 }));
  const form = new FormData();
  form.append('document', new Blob([await makePdf()], { type: 'application/pdf' }), 'contract.pdf');
  form.append(
    'request',
    JSON.stringify({
      client_reference: reference,
      callback_url: callbackUrl,
      signers: people,
      fields: people.map((p, i) => ({ signer_reference: p.reference, type: 'signature', page: 1, x: 72, y: 100 + i * 60, width: 180, height: 40 })),
    }),
  );
  const created = await api('POST', '/signature-requests', form);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id as string;
}

function headersOf(received: Received): Record<string, string> {
  return Object.fromEntries(Object.entries(received.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function verify(received: Received, secret: string): { id: string; type: string } {
  const event = new Webhook(secret).verify(received.body, headersOf(received)) as { id: string; type: string };
  assert.equal(received.headers['webhook-id'], event.id);
  return event;
}

function readDb<T>(dataDir: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, 'paraph.db'), { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

test('kill -9 with deliveries in flight: after a restart every recorded event is delivered, with the same webhook-id', async (t) => {
  const dataDir = useTmpDir(t);
  const receiver = await useReceiver(t);
  receiver.respond({ status: 204, delayMs: 2000 }); // slow: attempts are in flight when the server dies
  const args = ['--data-dir', dataDir, '--allow-loopback-webhooks', '--smtp-port', '0', '--rate-limit', 'off'];
  const first = await serveProcess(t, args);
  const secret = first.ready.webhook_secret as string;
  const api = apiClient(first.ready.api_url as string, first.ready.api_key as string);

  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push(await createWithCallback(api, `crash-${i}`, receiver.url, 2));
  for (const id of ids) assert.equal((await api('POST', `/signature-requests/${id}/activate`, {})).status, 200);
  const replaced = await api('POST', `/signature-requests/${ids[0]}/signers/s2/replace`, { email: 'other@example.com' });
  assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
  for (const id of ids.slice(0, 2)) assert.equal((await api('POST', `/signature-requests/${id}/cancel`, {})).status, 200);
  // Some attempts have reached the receiver, which has not answered yet.
  await receiver.waitFor(1, 3000);
  assert.equal(await first.stop('SIGKILL'), null);
  const inFlight = receiver.received.map((r) => verify(r, secret).id);
  assert.ok(inFlight.length >= 1);

  const before = readDb(dataDir, (db) => ({
    events: (db.prepare('SELECT id FROM events ORDER BY seq').all() as Array<{ id: string }>).map((e) => e.id),
    deliveries: db.prepare('SELECT event_id, status FROM webhook_deliveries').all() as Array<{ event_id: string; status: string }>,
  }));
  assert.equal(before.events.length, 4 + 1 + 2, 'activated x4, replaced, cancelled x2');
  assert.deepEqual(before.deliveries.map((d) => d.event_id).sort(), [...before.events].sort(), 'one delivery per event, written with it');
  assert.ok(
    before.deliveries.every((d) => d.status === 'pending'),
    'nothing was acknowledged before the kill',
  );
  for (const id of inFlight) assert.ok(before.events.includes(id));

  receiver.respond({ status: 204 });
  const restartedAt = Date.now();
  const second = await serveProcess(t, args);
  assert.equal(second.ready.api_key, null, 'the same data directory');
  const afterRestart = () => receiver.received.filter((r) => r.at >= restartedAt);
  await waitUntil(
    'every event to be received after the restart',
    () => {
      const seen = new Set(afterRestart().map((r) => r.headers['webhook-id']));
      return before.events.every((id) => seen.has(id));
    },
    10_000,
  );
  for (const received of receiver.received) {
    const event = verify(received, secret);
    assert.ok(before.events.includes(event.id), `unknown webhook-id ${event.id}`);
  }
  // What was in flight at the kill was sent again with the same webhook-id and body.
  for (const id of inFlight) {
    const copies = receiver.received.filter((r) => r.headers['webhook-id'] === id);
    assert.ok(copies.length >= 2, `${id} sent again after the restart`);
    assert.equal(new Set(copies.map((c) => c.body)).size, 1);
  }
  await waitUntil(
    'every delivery to be recorded as delivered',
    () =>
      readDb(
        dataDir,
        (db) => (db.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'").get() as { n: number }).n === before.events.length,
      ),
    5000,
  );
  assert.equal(await second.stop('SIGTERM'), 0);
});

test('paraph webhooks list and replay work on the data directory of a running server', async (t) => {
  const dataDir = useTmpDir(t);
  const receiver = await useReceiver(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir, '--allow-loopback-webhooks', '--smtp-port', '0', '--rate-limit', 'off']);
  const secret = serve.ready.webhook_secret as string;
  const api = apiClient(serve.ready.api_url as string, serve.ready.api_key as string);
  const id = await createWithCallback(api, 'cli-1', receiver.url);
  const other = await createWithCallback(api, 'cli-2', receiver.url);
  assert.equal((await api('POST', `/signature-requests/${id}/activate`, {})).status, 200);
  assert.equal((await api('POST', `/signature-requests/${other}/activate`, {})).status, 200);
  await receiver.waitFor(2);
  await waitUntil(
    'both deliveries to be recorded',
    async () => ((await api('GET', '/webhook-deliveries')).body.data as Array<{ status: string }>).every((d) => d.status === 'delivered'),
    5000,
  );

  const listed = await paraph(['webhooks', 'list', '--request', id, '--json', '--data-dir', dataDir]);
  assert.equal(listed.code, 0, listed.stderr);
  const deliveries = JSON.parse(listed.stdout) as Array<Record<string, any>>;
  assert.equal(deliveries.length, 1, 'only the deliveries of --request');
  const delivery = deliveries[0] as Record<string, any>;
  assert.deepEqual(Object.keys(delivery).sort(), [...DELIVERY_KEYS, 'attempts'].sort());
  assert.equal(delivery.signature_request_id, id);
  assert.equal(delivery.event_type, 'signature_request.activated');
  assert.equal(delivery.status, 'delivered');
  assert.equal(delivery.payload.id, delivery.event_id);
  assert.equal(delivery.attempts.length, 1);
  const [attempt] = delivery.attempts as Array<Record<string, any>>;
  assert.deepEqual(Object.keys(attempt ?? {}).sort(), ['attempted_at', 'duration_ms', 'error', 'number', 'request_headers', 'status_code', 'trigger']);
  // The headers the attempt sent, signature included (as the dashboard shows them).
  assert.match(String(attempt?.request_headers?.['webhook-signature']), /^v1,/);
  assert.equal(attempt?.number, 1);
  assert.equal(attempt?.trigger, 'automatic');
  assert.equal(attempt?.status_code, 204);
  assert.equal(attempt?.error, null);
  assert.equal(typeof attempt?.duration_ms, 'number');
  assert.ok(!Number.isNaN(Date.parse(attempt?.attempted_at)));
  const everything = await paraph(['webhooks', 'list', '--json', '--data-dir', dataDir]);
  assert.deepEqual(
    (JSON.parse(everything.stdout) as Array<{ signature_request_id: string }>).map((d) => d.signature_request_id),
    [other, id],
  );

  // The CLI sends the replay itself, before it exits.
  const replayed = await paraph(['webhooks', 'replay', delivery.id, '--data-dir', dataDir]);
  assert.equal(replayed.code, 0, replayed.stderr);
  assert.match(replayed.stdout, /delivered/);
  assert.equal(receiver.received.length, 3);
  const last = receiver.received[2] as Received;
  assert.equal(last.headers['webhook-id'], delivery.event_id);
  assert.equal(verify(last, secret).id, delivery.event_id);

  const after = JSON.parse((await paraph(['webhooks', 'list', '--request', id, '--json', '--data-dir', dataDir])).stdout) as Array<Record<string, any>>;
  assert.equal(after[0]?.attempt_count, 2);
  assert.deepEqual(
    ((after[0]?.attempts ?? []) as Array<{ trigger: string; status_code: number }>).map((a) => [a.trigger, a.status_code]),
    [
      ['automatic', 204],
      ['replay', 204],
    ],
  );
  // The server reads the same database.
  const viaApi = await api('GET', `/webhook-deliveries?signature_request_id=${id}`);
  assert.equal(viaApi.body.data[0].attempt_count, 2);

  const unknown = await paraph(['webhooks', 'replay', '00000000-0000-4000-8000-000000000000', '--data-dir', dataDir]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /does not exist/);
  assert.equal(receiver.received.length, 3);

  // Without --json: each delivery with a line per attempt (time, trigger, outcome, duration), then what comes next.
  receiver.respond({ status: 500 });
  const refused = await paraph(['webhooks', 'replay', delivery.id, '--data-dir', dataDir]);
  assert.equal(refused.code, 0, refused.stderr);
  const table = await paraph(['webhooks', 'list', '--request', id, '--data-dir', dataDir]);
  assert.equal(table.code, 0, table.stderr);
  const text = table.stdout.split('\n');
  assert.equal(text[0], `Delivery ${delivery.id}  signature_request.activated  pending  (request ${id})`);
  assert.match(text[1] ?? '', /^ {2}#\s+AT\s+TRIGGER\s+OUTCOME\s+TOOK$/);
  const at = String.raw`\d{4}-\d\d-\d\dT[\d:.]+Z`;
  assert.match(text[2] ?? '', new RegExp(`^  1\\s+${at}\\s+automatic\\s+HTTP 204\\s+\\d+ ms$`));
  assert.match(text[3] ?? '', new RegExp(`^  2\\s+${at}\\s+replay\\s+HTTP 204\\s+\\d+ ms$`));
  assert.match(text[4] ?? '', new RegExp(`^  3\\s+${at}\\s+replay\\s+HTTP 500\\s+\\d+ ms$`));
  assert.match(text[5] ?? '', new RegExp(`^  Next attempt at ${at} \\(sandbox time\\); \`paraph webhooks replay ${delivery.id}\` sends it now\\.$`));
  assert.equal(text.length, 7, table.stdout);
  assert.equal(await serve.stop('SIGTERM'), 0);
});
