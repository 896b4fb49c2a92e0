// A keyed bulk send killed in the middle (`kill -9` on a real `paraph serve`) and retried with the same
// Idempotency-Key after a restart: the retry answers each row the first attempt got through as that
// attempt would have (the same request, the same signing link, the outcome of its invitation), finishes
// the rest, and nothing is created, activated or mailed twice.
// Two kinds of instants: while a row's invitation waits for an SMTP relay that never answers (the row
// is active, its mail pending), and at seeded random moments of a batch that runs without mail (rows a
// few milliseconds apart: the kill may land between a row's create and its activation).
// PARAPH_CRASH_SEED=<seed> replays the choices; PARAPH_BULK_CRASH_ROUNDS=<n> sets the random rounds (4).
// Runs the built dist/ (`npm run build`).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { apiClient, serveProcess, type ServeProcess } from '../helpers/cli.js';
import { callJson, NoAnswer, readDb, seededRandom, sleep, useSilentSmtpRelay, waitUntil, within, type Answer } from '../helpers/crash-loop.js';
import { useTmpDir } from '../helpers/server.js';
import { sigOf, templateForm } from '../helpers/templates.js';

const ROUNDS = Number(process.env.PARAPH_BULK_CRASH_ROUNDS ?? 4);
const START_TIMEOUT_MS = 20_000;
/** What a killed or restarted server must never print. */
const FAULTS = /Assertion failed|Aborted|DataCloneError|uncaughtException|artifact generation failed/;

interface BulkSigner {
  id: string;
  reference: string;
  email: string;
  status: string;
  signing_url: string;
  email_delivery: string;
}
interface BulkResult {
  client_reference: string;
  status: string;
  id?: string;
  signers: BulkSigner[];
  error?: { code: string; message: string };
}

/** A row as the database holds it at a given moment: the request, its status and each signer's links. */
interface StoredRow {
  id: string;
  status: string;
  links: Array<{ signer_id: string; token_hash: string; revoked_at: number | null }>;
  mails: Array<{ signer_id: string; status: string }>;
}

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop() as string;
const hashOf = (url: string) => createHash('sha256').update(tokenOf(url)).digest('hex');

function recipients(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    client_reference: `${prefix}-${i + 1}`,
    signers: [{ reference: 'client', name: `Client ${i + 1}`, email: `${prefix}-${i + 1}@example.com`, order: 1 }],
  }));
}

/** The batch's requests as stored now, by client_reference (read-only, as a second process would). */
function storedRows(dataDir: string, prefix: string): Map<string, StoredRow> {
  return readDb(dataDir, (db) => {
    const requests = db.prepare('SELECT id, client_reference, status FROM signature_requests WHERE client_reference LIKE ?').all(`${prefix}-%`) as Array<{
      id: string;
      client_reference: string;
      status: string;
    }>;
    const links = db.prepare('SELECT signer_id, token_hash, revoked_at FROM signing_links WHERE request_id = ?');
    const mails = db.prepare("SELECT signer_id, status FROM mail_outbox WHERE request_id = ? AND kind = 'invitation'");
    return new Map(
      requests.map((r) => [
        r.client_reference,
        { id: r.id, status: r.status, links: links.all(r.id) as StoredRow['links'], mails: mails.all(r.id) as StoredRow['mails'] },
      ]),
    );
  });
}

/** How many times each request of the batch was created and activated, by the audit trail and the events. */
function actions(dataDir: string, ids: string[]): Map<string, { created: number; activated: number; activatedEvents: number }> {
  return readDb(dataDir, (db) => {
    const audit = db.prepare('SELECT COUNT(*) AS n FROM audit_events WHERE request_id = ? AND type = ?');
    const events = db.prepare("SELECT COUNT(*) AS n FROM events WHERE request_id = ? AND type = 'signature_request.activated'");
    const count = (statement: typeof audit, ...args: string[]) => (statement.get(...args) as { n: number }).n;
    return new Map(
      ids.map((id) => [
        id,
        { created: count(audit, id, 'request_created'), activated: count(audit, id, 'request_activated'), activatedEvents: count(events, id) },
      ]),
    );
  });
}

/** Caught invitations of the batch, by recipient: the token of the link each carried. */
function caughtInvitations(dataDir: string, prefix: string): Map<string, string[]> {
  return readDb(dataDir, (db) => {
    const rows = db.prepare("SELECT recipients, text FROM emails WHERE kind = 'invitation'").all() as Array<{ recipients: string; text: string }>;
    const out = new Map<string, string[]>();
    for (const row of rows) {
      const to = (JSON.parse(row.recipients) as string[])[0] as string;
      if (!to.startsWith(`${prefix}-`)) continue;
      const token = /\/sign\/([0-9A-Za-z]+)/.exec(row.text)?.[1];
      assert.ok(token, `the invitation to ${to} carries a signing link`);
      out.set(to, [...(out.get(to) ?? []), token]);
    }
    return out;
  });
}

/** The server at `apiUrl` with the first start's key. */
interface Session {
  server: ServeProcess;
  apiUrl: string;
  key: string;
}

async function start(t: TestContext, args: string[], key?: string): Promise<Session & { firstKey: string | null }> {
  const server = await within(START_TIMEOUT_MS, 'serve start', serveProcess(t, args));
  const apiUrl = server.ready.api_url as string;
  return { server, apiUrl, key: key ?? (server.ready.api_key as string), firstKey: server.ready.api_key ?? null };
}

function bulkCall(session: Session, batch: unknown, idempotencyKey: string): Promise<Answer> {
  return callJson(
    `${session.apiUrl}/bulk-sends`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${session.key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(batch),
    },
    60_000,
  );
}

/** The retry after the restart: 409 in progress while the start still sends what the killed server left pending. */
async function retryUntilAnswered(session: Session, batch: unknown, idempotencyKey: string): Promise<{ answer: Answer; inProgress: number }> {
  let inProgress = 0;
  const answer = await waitUntil(
    'the retried bulk send to answer',
    async () => {
      const answer = await bulkCall(session, batch, idempotencyKey);
      if (answer.status === 409 && answer.body.error?.code === 'idempotency_request_in_progress') {
        inProgress++;
        return undefined;
      }
      return answer;
    },
    30_000,
    200,
  );
  return { answer, inProgress };
}

/** Kills the server with -9 while `call` is in flight; the call must get no answer. */
async function kill(session: Session, call: Promise<Answer>, what: string): Promise<void> {
  assert.equal(session.server.child.exitCode ?? session.server.child.signalCode, null, `${what}: serve died on its own: ${session.server.stderr()}`);
  assert.equal(await within(5000, `${what}: kill -9`, session.server.stop('SIGKILL')), null);
  await assert.rejects(call, NoAnswer, `${what}: the first attempt got no answer`);
  assert.doesNotMatch(session.server.stderr(), FAULTS, what);
}

/**
 * The retry's answer against what the database held at the kill: every row active once, each signer
 * with one link that is live and is the one the first attempt issued if it got that far; each request
 * created and activated once; one invitation queued per signer when the batch mails.
 */
function checkRetry(dataDir: string, prefix: string, results: BulkResult[], atKill: Map<string, StoredRow>, sendEmails: boolean): void {
  const now = storedRows(dataDir, prefix);
  assert.equal(now.size, results.length, 'one request per recipient');
  for (const result of results) {
    const what = result.client_reference;
    assert.equal(result.status, 'active', `${what}: ${JSON.stringify(result.error)}`);
    const stored = now.get(what) as StoredRow;
    assert.equal(result.id, stored.id, `${what}: the answer names the stored request`);
    assert.equal(stored.status, 'active');
    const before = atKill.get(what);
    if (before) assert.equal(before.id, result.id, `${what}: the request the first attempt created, not another`);
    for (const signer of result.signers) {
      assert.deepEqual(
        stored.links.filter((l) => l.signer_id === signer.id).map((l) => [l.token_hash, l.revoked_at]),
        [[hashOf(signer.signing_url), null]],
        `${what}: one link for the signer, live, the answer's`,
      );
      if (before?.status === 'active') {
        assert.deepEqual(
          before.links.filter((l) => l.signer_id === signer.id).map((l) => l.token_hash),
          [hashOf(signer.signing_url)],
          `${what}: the link the first attempt issued`,
        );
      }
      assert.equal(stored.mails.filter((m) => m.signer_id === signer.id).length, sendEmails ? 1 : 0, `${what}: invitations queued`);
    }
  }
  for (const [id, count] of actions(
    dataDir,
    results.map((r) => r.id as string),
  )) {
    assert.deepEqual(count, { created: 1, activated: 1, activatedEvents: 1 }, `request ${id}: created and activated once`);
  }
}

/** Each link of the answer opens its signing page's data on the running server. */
async function checkLinksOpen(session: Session, results: BulkResult[]): Promise<void> {
  for (const signer of results.flatMap((r) => r.signers)) {
    const view = await callJson(new URL(`/sign/${tokenOf(signer.signing_url)}/api/view`, session.apiUrl).href, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(view.status, 200, `view: ${view.status}`);
    assert.equal(view.body.can_sign, true);
  }
}

/** The stored answer from then on: the same status and body, marked as a replay. */
async function checkReplay(session: Session, batch: unknown, idempotencyKey: string, retry: Answer): Promise<void> {
  const again = await bulkCall(session, batch, idempotencyKey);
  assert.equal(again.status, 200);
  assert.equal(again.replayed, true);
  assert.deepEqual(again.body, retry.body);
}

test('a keyed bulk send killed mid-way answers, when retried, each row as the first attempt would have, and acts once', {
  timeout: 120_000 + ROUNDS * 30_000,
}, async (t) => {
  const seed = Number(process.env.PARAPH_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 32));
  console.log(`bulk-send-crash: seed ${seed} (PARAPH_CRASH_SEED=${seed} replays its choices)`);
  const rng = seededRandom(seed);
  const dataDir = useTmpDir(t, 'paraph-bulk-crash-');
  const relay = await useSilentSmtpRelay(t);
  const args = ['--data-dir', dataDir, '--rate-limit', 'off', '--log-level', 'warn'];

  // Through the silent relay: each row's activation waits 5 s for its invitation, which then fails.
  const first = await start(t, [...args, '--smtp-relay', relay.url]);
  assert.ok(first.firstKey, 'a new data directory shows its first key');
  const key = first.key;
  const template = await apiClient(first.apiUrl, key)('POST', '/templates', await templateForm({ fields: [sigOf('client')] }));
  assert.equal(template.status, 201, JSON.stringify(template.body));
  const templateId = template.body.id as string;

  await t.test(
    'killed while a row waits for its invitation: the rows before keep their links and mail outcome, the mail left pending goes at the restart',
    async (st) => {
      const batch = { template_id: templateId, send_emails: true, recipients: recipients('mail', 4) };
      const call = bulkCall(first, batch, 'mail-batch');
      call.catch(() => {});
      // The chosen instant: the second row is active and its invitation waits for the relay.
      await waitUntil(
        'the second row to wait for its invitation',
        () =>
          storedRows(dataDir, 'mail')
            .get('mail-2')
            ?.mails.some((m) => m.status === 'pending'),
        20_000,
        20,
      );
      await sleep(rng.between(0, 3500));
      await kill(first, call, 'mail batch');
      const atKill = storedRows(dataDir, 'mail');
      assert.deepEqual([...atKill.keys()].sort(), ['mail-1', 'mail-2'], 'the kill came while the second row waited');
      assert.deepEqual(
        atKill.get('mail-1')?.mails.map((m) => m.status),
        ['failed'],
      );
      assert.deepEqual(
        atKill.get('mail-2')?.mails.map((m) => m.status),
        ['pending'],
      );

      // The restart mails through the catcher: it sends the pending invitation, then the retry answers.
      const second = await start(st, args, key);
      const { answer, inProgress } = await retryUntilAnswered(second, batch, 'mail-batch');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.replayed, false, 'the retry acted for the rows never reached');
      const results = answer.body.results as BulkResult[];
      assert.deepEqual([answer.body.total, answer.body.created, answer.body.failed], [4, 4, 0]);
      checkRetry(dataDir, 'mail', results, atKill, true);
      // What the first attempt would have said: its invitation failed; the one it left pending went at the restart.
      assert.deepEqual(
        results.map((r) => r.signers.map((s) => s.email_delivery)),
        [['failed'], ['sent'], ['sent'], ['sent']],
      );
      const caught = caughtInvitations(dataDir, 'mail');
      assert.equal(caught.get('mail-1@example.com'), undefined, 'the failed invitation is not sent again');
      for (const result of results.slice(1)) {
        const signer = result.signers[0] as BulkSigner;
        assert.deepEqual(caught.get(signer.email), [tokenOf(signer.signing_url)], `${result.client_reference}: one invitation, with the answer's link`);
      }
      await checkLinksOpen(second, results);
      await checkReplay(second, batch, 'mail-batch', answer);
      assert.equal(await within(15_000, 'SIGTERM', second.server.stop('SIGTERM')), 0, second.server.stderr());
      console.log(
        `bulk-send-crash: mail round: killed in row 2's mail wait; retries told 409 in progress ${inProgress}; relay connections ${relay.connections()}`,
      );
    },
  );

  await t.test(`killed at ${ROUNDS} random moments of batches without mail: every row answered once, links kept`, async (st) => {
    let betweenCreateAndActivate = 0;
    let rowsCut = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const prefix = `fast${round}`;
      const session = await start(st, args, key);
      const batch = { template_id: templateId, recipients: recipients(prefix, 30) };
      const call = bulkCall(session, batch, `${prefix}-batch`);
      call.catch(() => {});
      const rowsBefore = rng.between(1, 20);
      await waitUntil(`${rowsBefore} rows of round ${round}`, () => storedRows(dataDir, prefix).size >= rowsBefore, 20_000, 2);
      await sleep(rng.between(0, 10));
      await kill(session, call, `round ${round}`);
      const atKill = storedRows(dataDir, prefix);
      assert.ok(atKill.size < 30, `round ${round}: the kill came before the last row`);
      rowsCut += 30 - [...atKill.values()].filter((r) => r.status === 'active').length;
      betweenCreateAndActivate += [...atKill.values()].filter((r) => r.status === 'prepared').length;

      const next = await start(st, args, key);
      const { answer } = await retryUntilAnswered(next, batch, `${prefix}-batch`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const results = answer.body.results as BulkResult[];
      assert.deepEqual([answer.body.total, answer.body.created, answer.body.failed], [30, 30, 0], `round ${round}`);
      assert.deepEqual(
        results.map((r) => r.signers.map((s) => s.email_delivery)),
        results.map(() => ['not_requested']),
      );
      checkRetry(dataDir, prefix, results, atKill, false);
      await checkLinksOpen(next, results.slice(0, 3));
      await checkReplay(next, batch, `${prefix}-batch`, answer);
      assert.equal(await within(15_000, 'SIGTERM', next.server.stop('SIGTERM')), 0, next.server.stderr());
    }
    console.log(
      `bulk-send-crash: node ${process.version}, seed ${seed}, ${ROUNDS} random kills in 30-row batches; ` +
        `rows the retries made or activated ${rowsCut}, of which created but not activated at the kill ${betweenCreateAndActivate}`,
    );
  });
});
