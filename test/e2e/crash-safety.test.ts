// Every line: kill -9 and restart: SQLite recovery, child processes and signals on the line.
// Crash safety of `paraph serve`: rounds of real work (creates, activations, signatures through the
// signer's JSON API, a few calls in flight, webhooks to a loopback receiver) end with `kill -9` at a
// random moment and a restart on the same data directory. Then nothing the client was told is lost:
// every 2xx still holds, no client_reference is duplicated, every recorded event is delivered,
// the database is intact, audit trails verify and completed requests have their artifacts.
// Every third round mails through an SMTP relay that never answers, and its kill lands while a call
// waits for that mail: a retry with the same Idempotency-Key must answer the first call's answer (its
// links, its mail outcome), and no call acts twice (one activation, one reminder_sent per reminded
// signer, one queued mail per signer; mail itself goes at least once).
// The moments and choices come from a seeded PRNG: the seed is printed, and PARAPH_CRASH_SEED=<seed>
// replays the same choices (the server's own timing still varies). PARAPH_CRASH_ROUNDS=<n> sets the
// number of kill rounds (12 by default). Runs the built dist/ (`npm run build`).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { paraph, serveProcess } from '../helpers/cli.js';
import {
  callJson,
  inBatches,
  NoAnswer,
  readDb,
  seededRandom,
  sleep,
  useSilentSmtpRelay,
  waitUntil,
  within,
  type Answer,
  type Random,
} from '../helpers/crash-loop.js';
import { makePdf } from '../helpers/pdfs.js';
import { useReceiver, type Received, type Receiver } from '../helpers/receiver.js';
import { useTmpDir } from '../helpers/server.js';

/** Rounds that end with kill -9 (a final start follows, which is stopped cleanly). */
const ROUNDS = Number(process.env.PARAPH_CRASH_ROUNDS ?? 12);
/** Workers, each with at most one call in flight. */
const WORKERS = 4;
/** One new request may start per this many ms of a running server, so work flows until each kill. */
const CREATE_EVERY_MS = 70;
/** At most this many requests short of their target at once. */
const MAX_OPEN = 8;
/** At most this many requests are taken to completion (each makes artifacts and gets an audit check). */
const MAX_COMPLETED = 24;
/** The kill comes this long after the server's ready line, in ms... */
const KILL_AFTER: [number, number] = [150, 1500];
/** ...then, once a call is in flight (waiting at most 400 ms), this long after it was sent. */
const KILL_INTO_CALL: [number, number] = [0, 30];
/** The receiver answers this late during the rounds, so deliveries are in flight at the kills. */
const RECEIVER_DELAY: [number, number] = [0, 300];
/** In a round that mails through the silent relay: wait this long (ms) for a call that waits for mail... */
const MAIL_CALL_WAIT_MS = 4000;
/** ...then kill this far into it, inside the 5 s the send waits for the relay's greeting. */
const KILL_INTO_MAIL: [number, number] = [0, 3500];
/** Bound on a start of serve (until its ready line). */
const START_TIMEOUT_MS = 20_000;
/** What a killed or restarted server must never print: a native abort, a refused worker message. */
const FAULTS = /Assertion failed|Aborted|DataCloneError|uncaughtException|artifact generation failed/;

type Status = 'prepared' | 'active' | 'completed';
const RANK: Record<string, number> = { prepared: 0, active: 1, completed: 2 };

/** One request as the client knows it. Actions: 'create', 'activate', 'remind', 'sign:<reference>'. */
interface Tracked {
  ref: string;
  signers: string[];
  /** Where the workload takes it; some stay prepared or active. */
  target: Status;
  /** Activation mails the signers (the answer then waits for the catcher, after the commit). */
  sendEmails: boolean;
  id: string | undefined;
  busy: boolean;
  /** Known active: a 200 to activate, or a GET after an activation whose answer was lost. */
  active: boolean;
  /** A reminder is sent once the request is active (its answer replaces the links). */
  wantsReminder: boolean;
  /** The reminder's Idempotency-Key got an answer. */
  reminded: boolean;
  /** Signers the answered reminder named: one reminder_sent audit event each, no more. */
  remindedSigners: number;
  links: Map<string, string>;
  /** Known signed: a 2xx to sign, or a closed link saying `signed` after a lost sign answer. */
  signed: Set<string>;
  /** What 2xx answers said. */
  ok: { create: boolean; activate: boolean; signed: Set<string> };
  /** Actions sent at least once, answered or not. */
  sent: Set<string>;
  /** Actions whose last attempt got no answer. */
  lost: Set<string>;
}

interface Session {
  apiUrl: string;
  key: string;
  startedAt: number;
  /** Set just before the kill: from then on a call without an answer is expected. */
  killing: boolean;
  /** This start mails through the silent relay. */
  slowMail: boolean;
  /** The final start: no new request, the open ones are taken to their targets. */
  final?: boolean;
}

interface Figures {
  created201: number;
  replays: number;
  activated200: number;
  signed200: number;
  reminded200: number;
  /** Retries answered with the first call's stored answer (Idempotent-Replayed)... */
  keyedReplays: number;
  /** ...of which after an answer the client did get: the same body, byte for byte. */
  replaysCompared: number;
  /** Retries told 409 idempotency_request_in_progress: the first call's mail was still being sent. */
  inProgress: number;
  /** Calls that got no answer because of a kill... */
  lost: number;
  /** ...of which the retry showed they had taken effect (create replay, activation 409, link closed as signed). */
  lostButDone: number;
}

/** An answer for a failure message: the status and error, never a signing URL or a key. */
const summary = (answer: Answer) => `${answer.status} ${JSON.stringify(answer.body.error ?? answer.body.status ?? '')}`;

/** The client side of the loop: picks the next step of some request and tracks what each answer proved. */
class Workload {
  readonly tracked: Tracked[] = [];
  readonly figures: Figures = {
    created201: 0,
    replays: 0,
    activated200: 0,
    signed200: 0,
    reminded200: 0,
    keyedReplays: 0,
    replaysCompared: 0,
    inProgress: 0,
    lost: 0,
    lostButDone: 0,
  };
  /** When each call now in flight was sent, by call number. */
  private readonly inFlight = new Map<number, number>();
  /** The calls in flight that wait for mail (activation with send_emails, reminders). */
  private readonly mailInFlight = new Map<number, number>();
  private calls = 0;
  /** Time the server ran in the rounds before this one, in ms. */
  private workedMs = 0;
  private toComplete = 0;

  private readonly rng: Random;
  private readonly pdf: Uint8Array;
  private readonly callbackUrl: string;
  private readonly prefix: string;

  constructor(rng: Random, pdf: Uint8Array, callbackUrl: string, prefix: string) {
    this.rng = rng;
    this.pdf = pdf;
    this.callbackUrl = callbackUrl;
    this.prefix = prefix;
  }

  /** Counts a finished round's running time towards the creation allowance. */
  endRound(session: Session): void {
    this.workedMs += Date.now() - session.startedAt;
  }

  /** One worker: steps requests until the kill is under way. */
  async worker(session: Session): Promise<void> {
    while (!session.killing) {
      const request = this.pickWork(session);
      if (!request) {
        await sleep(15);
        continue;
      }
      request.busy = true;
      try {
        await this.step(request, session);
      } finally {
        request.busy = false;
      }
      await sleep(this.rng.between(0, 10));
    }
  }

  /** After the last restart: every create that never got an answer is sent again until it has one. */
  async resolveLostCreates(session: Session): Promise<void> {
    for (const request of this.tracked.filter((r) => r.id === undefined)) await this.create(request, session);
  }

  /** After the last restart: the workers take every request to its target (at most `timeoutMs`). */
  async finish(session: Session, timeoutMs: number): Promise<void> {
    let failed = false;
    const workers = Promise.all(Array.from({ length: WORKERS }, () => this.worker(session)));
    workers.catch(() => (failed = true));
    const deadline = Date.now() + timeoutMs;
    while (!failed && Date.now() < deadline && this.tracked.some((r) => nextStep(r) !== null)) await sleep(50);
    session.killing = true;
    await workers;
  }

  /** After the last restart: every activation and reminder whose answer was lost is retried, with its key, until answered. */
  async resolveLostKeyedCalls(session: Session): Promise<void> {
    for (const request of this.tracked) {
      for (let tries = 0; request.lost.has('activate') && tries < 100; tries++) await this.activate(request, session);
      for (let tries = 0; request.lost.has('remind') && tries < 100; tries++) await this.remind(request, session);
      assert.ok(!request.lost.has('activate') && !request.lost.has('remind'), `${request.ref}: a retried call never got its answer`);
    }
  }

  private pickWork(session: Session): Tracked | undefined {
    const open = this.tracked.filter((r) => nextStep(r) !== null);
    const idle = open.filter((r) => !r.busy);
    const allowed = Math.floor((this.workedMs + Date.now() - session.startedAt) / CREATE_EVERY_MS);
    const mayCreate = !session.final && this.tracked.length < allowed && open.length < MAX_OPEN;
    if (mayCreate && (idle.length === 0 || this.rng.chance(0.3))) return this.newRequest();
    return idle.length > 0 ? this.rng.pick(idle) : undefined;
  }

  private newRequest(): Tracked {
    const signers = this.rng.chance(0.5) ? ['s1'] : ['s1', 's2'];
    // (The first request always goes all the way: with two short rounds, as on the lines other than the full one, a
    // handful of requests may be all there is, and the run must still see one completed.)
    const complete = this.toComplete < MAX_COMPLETED && (this.tracked.length === 0 || this.rng.chance(0.5));
    const target: Status = complete ? 'completed' : this.rng.chance(0.6) ? 'active' : 'prepared';
    if (complete) this.toComplete++;
    const request: Tracked = {
      ref: `${this.prefix}-${this.tracked.length + 1}`,
      signers,
      target,
      sendEmails: this.rng.chance(0.5),
      id: undefined,
      busy: false,
      active: false,
      wantsReminder: target !== 'prepared' && this.rng.chance(0.4),
      reminded: false,
      remindedSigners: 0,
      links: new Map(),
      signed: new Set(),
      ok: { create: false, activate: false, signed: new Set() },
      sent: new Set(),
      lost: new Set(),
    };
    this.tracked.push(request);
    return request;
  }

  private async step(request: Tracked, session: Session): Promise<void> {
    switch (nextStep(request)) {
      case 'create':
        return this.create(request, session);
      case 'activate':
        return this.activate(request, session);
      case 'remind':
        return this.remind(request, session);
      case 'sign':
        return this.sign(request, session, request.signers.find((s) => !request.signed.has(s)) as string);
      case null:
        return;
    }
  }

  /** A call to the server; undefined when it got no answer because the server is being killed. */
  private async attempt(session: Session, call: () => Promise<Answer>, waitsForMail = false): Promise<Answer | undefined> {
    const number = ++this.calls;
    this.inFlight.set(number, performance.now());
    if (waitsForMail) this.mailInFlight.set(number, performance.now());
    try {
      return await call();
    } catch (error) {
      if (error instanceof NoAnswer && session.killing) {
        this.figures.lost++;
        return undefined;
      }
      throw error;
    } finally {
      this.inFlight.delete(number);
      this.mailInFlight.delete(number);
    }
  }

  /** Waits (at most `timeoutMs`) for a call in flight, then until it has run `intoMs`. */
  async callUnderWay(intoMs: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.inFlight.size === 0 && Date.now() < deadline) await sleep(1);
    const oldest = Math.min(...this.inFlight.values());
    if (Number.isFinite(oldest)) await sleep(Math.max(0, oldest + intoMs - performance.now()));
  }

  /** Waits (at most `timeoutMs`) for a call that waits for mail, then until it has run `intoMs`; false if none came. */
  async mailCallUnderWay(intoMs: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.mailInFlight.size === 0 && Date.now() < deadline) await sleep(2);
    const oldest = Math.min(...this.mailInFlight.values());
    if (!Number.isFinite(oldest)) return false;
    await sleep(Math.max(0, oldest + intoMs - performance.now()));
    return true;
  }

  /** An API call with the key: a FormData body goes as multipart, anything else as JSON. */
  private api(
    session: Session,
    method: string,
    route: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
    waitsForMail = false,
  ): Promise<Answer | undefined> {
    const headers: Record<string, string> = { authorization: `Bearer ${session.key}`, ...extraHeaders };
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    return this.attempt(session, () => callJson(`${session.apiUrl}${route}`, { method, headers, body: payload }), waitsForMail);
  }

  /**
   * A POST to the signer's JSON API under a signing link, as the signing page makes it. Each start
   * listens on a new port, so the link's path is taken to the current server.
   */
  private signer(session: Session, link: string, action: string, body: unknown = {}): Promise<Answer | undefined> {
    const url = new URL(`${new URL(link).pathname}/api/${action}`, session.apiUrl);
    return this.attempt(session, () => callJson(url.href, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  }

  /** Create with the request's client_reference; a retry after a lost answer may be an idempotent replay. */
  private async create(request: Tracked, session: Session): Promise<void> {
    const answer = await this.api(session, 'POST', '/signature-requests', this.createForm(request));
    if (!answer) {
      request.lost.add('create');
      return;
    }
    if (answer.status === 201) {
      assert.equal(answer.body.idempotent_replay, false);
      this.figures.created201++;
    } else {
      assert.equal(answer.status, 200, `create ${request.ref}: ${summary(answer)}`);
      assert.equal(answer.body.idempotent_replay, true);
      assert.ok(request.lost.has('create'), `create ${request.ref}: a replay although the client never sent it before without an answer`);
      this.figures.replays++;
      this.figures.lostButDone++;
    }
    assert.equal(answer.body.client_reference, request.ref);
    request.id = answer.body.id as string;
    request.ok.create = true;
    request.lost.delete('create');
  }

  private createForm(request: Tracked): FormData {
    const form = new FormData();
    form.append('document', new Blob([this.pdf], { type: 'application/pdf' }), 'contract.pdf');
    const signers = request.signers.map((reference, i) => ({
      reference,
      name: `Signer ${reference}`,
      email: `${reference}-${request.ref}@example.com`,
      order: i + 1,
    }));
    const fields = request.signers.map((reference, i) => ({
      signer_reference: reference,
      type: 'signature',
      page: 1,
      x: 72,
      y: 100 + i * 60,
      width: 180,
      height: 40,
    }));
    form.append('request', JSON.stringify({ client_reference: request.ref, callback_url: this.callbackUrl, signers, fields }));
    return form;
  }

  /**
   * Activate with an Idempotency-Key. After a lost answer the retry replays the first call's answer
   * (its links, its mail outcome), activates now if the first call never committed, or answers 409
   * idempotency_request_in_progress while the first call's mail is still being sent (tried again
   * later). A 409 `conflict` (already active) would be a retry that lost its answer: a failure.
   */
  private async activate(request: Tracked, session: Session): Promise<void> {
    request.sent.add('activate');
    const call = () =>
      this.api(
        session,
        'POST',
        `/signature-requests/${request.id}/activate`,
        { send_emails: request.sendEmails },
        { 'idempotency-key': `activate-${request.ref}` },
        request.sendEmails,
      );
    const answer = await call();
    if (!answer) {
      request.lost.add('activate');
      return;
    }
    if (this.inProgress(request, 'activate', answer)) return sleep(200);
    assert.equal(answer.status, 200, `activate ${request.ref}: ${summary(answer)}`);
    if (answer.replayed) this.replayAfterLoss(request, 'activate');
    this.figures.activated200++;
    request.ok.activate = true;
    request.active = true;
    for (const s of answer.body.signers as Array<{ reference: string; signing_url: string; email_delivery: string }>) {
      request.links.set(s.reference, s.signing_url);
      const expected = request.sendEmails ? ['sent', 'failed'] : ['not_requested'];
      assert.ok(expected.includes(s.email_delivery), `activate ${request.ref}/${s.reference}: email_delivery ${s.email_delivery}`);
    }
    assert.deepEqual([...request.links.keys()].sort(), [...request.signers].sort());
    request.lost.delete('activate');
    if (!answer.replayed && this.rng.chance(0.25)) await this.compareReplay(request, 'activate', answer, call);
  }

  /** A 409 idempotency_request_in_progress: only for a retry of a lost call, whose mail is still being sent. */
  private inProgress(request: Tracked, action: string, answer: Answer): boolean {
    if (answer.status !== 409 || answer.body.error?.code !== 'idempotency_request_in_progress') return false;
    assert.ok(request.lost.has(action), `${action} ${request.ref}: in progress although no earlier call went unanswered`);
    this.figures.inProgress++;
    return true;
  }

  /** A replay: only after a call whose answer was lost. */
  private replayAfterLoss(request: Tracked, action: string): void {
    assert.ok(request.lost.has(action), `${action} ${request.ref}: a replay although the client never sent it before without an answer`);
    this.figures.keyedReplays++;
    this.figures.lostButDone++;
  }

  /** The same call again with the same key after its answer came: the stored answer, byte for byte the same JSON. */
  private async compareReplay(request: Tracked, action: string, first: Answer, call: () => Promise<Answer | undefined>): Promise<void> {
    const again = await call();
    if (!again) return;
    assert.equal(again.status, first.status, `${action} ${request.ref} again: ${summary(again)}`);
    assert.equal(again.replayed, true, `${action} ${request.ref} again: not a replay`);
    assert.deepEqual(again.body, first.body, `${action} ${request.ref} again: another answer than the first`);
    this.figures.keyedReplays++;
    this.figures.replaysCompared++;
  }

  /**
   * New links for every signer who has not signed, with an Idempotency-Key: a retry after a lost answer
   * replays it (the same links, still live: the reminder acted once). A signer left out must have signed
   * by a lost call.
   */
  private async remind(request: Tracked, session: Session): Promise<void> {
    request.sent.add('remind');
    const call = () => this.api(session, 'POST', `/signature-requests/${request.id}/reminders`, {}, { 'idempotency-key': `remind-${request.ref}` }, true);
    const answer = await call();
    if (!answer) {
      request.lost.add('remind');
      return;
    }
    if (this.inProgress(request, 'remind', answer)) return sleep(200);
    assert.equal(answer.status, 200, `reminders ${request.ref}: ${summary(answer)}`);
    if (answer.replayed) this.replayAfterLoss(request, 'remind');
    this.figures.reminded200++;
    const reminders = answer.body.reminders as Array<{ reference: string; signing_url: string; email_delivery: string }>;
    for (const r of reminders)
      assert.ok(['sent', 'failed'].includes(r.email_delivery), `reminders ${request.ref}/${r.reference}: email_delivery ${r.email_delivery}`);
    const reminded = new Map(reminders.map((r) => [r.reference, r.signing_url]));
    for (const reference of request.signers) {
      const link = reminded.get(reference);
      if (link) request.links.set(reference, link);
      else if (!request.signed.has(reference)) {
        assert.ok(request.lost.has(`sign:${reference}`), `reminders ${request.ref}: ${reference} left out although the client never signed for them`);
        this.figures.lostButDone++;
        request.signed.add(reference);
        request.lost.delete(`sign:${reference}`);
      }
    }
    request.remindedSigners = reminders.length;
    request.reminded = true;
    request.lost.delete('remind');
    if (!answer.replayed && this.rng.chance(0.25)) await this.compareReplay(request, 'remind', answer, call);
  }

  /** View, then sign with a typed signature, as the signing page does. */
  private async sign(request: Tracked, session: Session, reference: string): Promise<void> {
    const link = request.links.get(reference) as string;
    const view = await this.signer(session, link, 'view');
    if (!view) return;
    assert.equal(view.status, 200, `view ${request.ref}/${reference}: ${summary(view)}`);
    if (view.body.state === 'closed') {
      // Only a sign call whose answer was lost may have closed the link.
      assert.equal(view.body.closed_reason, 'signed', `view ${request.ref}/${reference}: closed as ${view.body.closed_reason}`);
      assert.ok(request.lost.has(`sign:${reference}`), `view ${request.ref}/${reference}: signed although the client never sent a signature`);
      this.figures.lostButDone++;
      request.signed.add(reference);
      request.lost.delete(`sign:${reference}`);
      return;
    }
    assert.equal(view.body.can_sign, true, `view ${request.ref}/${reference}`);
    request.sent.add(`sign:${reference}`);
    const signed = await this.signer(session, link, 'sign', { signature: { type: 'typed', text: `Signer ${reference}` } });
    if (!signed) {
      request.lost.add(`sign:${reference}`);
      return;
    }
    assert.equal(signed.status, 200, `sign ${request.ref}/${reference}: ${summary(signed)}`);
    this.figures.signed200++;
    request.ok.signed.add(reference);
    request.signed.add(reference);
    request.lost.delete(`sign:${reference}`);
    // Signers sign in order, and a lost signature is settled before the next signer starts.
    const last = request.signed.size === request.signers.length;
    assert.equal(signed.body.request_status, last ? 'completed' : 'active', `sign ${request.ref}/${reference}`);
  }
}

/** The next action the workload takes on a request, or null once it reached its target. */
function nextStep(request: Tracked): 'create' | 'activate' | 'remind' | 'sign' | null {
  if (request.id === undefined) return 'create';
  if (request.target === 'prepared') return null;
  if (!request.active) return 'activate';
  if (request.wantsReminder && !request.reminded) return 'remind';
  if (request.target === 'active') return null;
  return request.signed.size < request.signers.length ? 'sign' : null;
}

/** The least status the client's 2xx answers imply. */
function impliedAtLeast(request: Tracked): Status {
  if (request.ok.signed.size === request.signers.length) return 'completed';
  if (request.ok.activate || request.ok.signed.size > 0) return 'active';
  return 'prepared';
}

/** The furthest status the calls the client sent can have caused. */
function reachableAtMost(request: Tracked): Status {
  if (request.signers.every((s) => request.sent.has(`sign:${s}`))) return 'completed';
  return request.sent.has('activate') ? 'active' : 'prepared';
}

function headersOf(received: Received): Record<string, string> {
  return Object.fromEntries(Object.entries(received.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Every delivery the receiver got, signature-checked; answers how many came per webhook-id. */
function verifiedDeliveries(receiver: Receiver, secret: string): Map<string, number> {
  const counts = new Map<string, number>();
  const webhook = new Webhook(secret);
  for (const received of receiver.received) {
    const event = webhook.verify(received.body, headersOf(received)) as { id: string };
    assert.equal(received.headers['webhook-id'], event.id);
    counts.set(event.id, (counts.get(event.id) ?? 0) + 1);
  }
  return counts;
}

interface DbState {
  events: Array<{ id: string; request_id: string; type: string }>;
  /** Audit events of the calls retried with a key: request_activated, reminder_sent. */
  audits: Array<{ request_id: string; type: string }>;
  /** paraph's outgoing mails, and the mails the catcher caught (a mail may come more than once). */
  outbox: Array<{ request_id: string; signer_id: string; kind: string; status: string }>;
  caught: Array<{ request_id: string; signer_reference: string; kind: string }>;
  pendingMail: number;
  deliveries: number;
  undelivered: number;
  completedWithoutArtifacts: number;
}

function dbState(dataDir: string): DbState {
  return readDb(dataDir, (db) => ({
    events: db.prepare('SELECT id, request_id, type FROM events ORDER BY seq').all() as DbState['events'],
    audits: db.prepare("SELECT request_id, type FROM audit_events WHERE type IN ('request_activated', 'reminder_sent')").all() as DbState['audits'],
    outbox: db.prepare('SELECT request_id, signer_id, kind, status FROM mail_outbox').all() as DbState['outbox'],
    caught: db.prepare('SELECT request_id, signer_reference, kind FROM emails WHERE kind IS NOT NULL').all() as DbState['caught'],
    pendingMail: (db.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE status = 'pending'").get() as { n: number }).n,
    deliveries: (db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get() as { n: number }).n,
    undelivered: (db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status <> 'delivered'").get() as { n: number }).n,
    completedWithoutArtifacts: (
      db
        .prepare(
          "SELECT COUNT(*) AS n FROM signature_requests r WHERE r.status = 'completed' AND (SELECT COUNT(*) FROM artifacts a WHERE a.request_id = r.id) < 3",
        )
        .get() as { n: number }
    ).n,
  }));
}

/** Waits until every delivery is delivered and received, and every completed request has its artifacts. */
async function settle(dataDir: string, receiver: Receiver): Promise<DbState> {
  let state = dbState(dataDir);
  const missing = () => {
    const seen = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    return state.events.filter((e) => !seen.has(e.id)).length;
  };
  await waitUntil(
    () =>
      `the server to settle: ${state.undelivered} deliveries not delivered, ${missing()} events not received, ` +
      `${state.completedWithoutArtifacts} completed requests without artifacts, ${state.pendingMail} mails pending`,
    () => {
      state = dbState(dataDir);
      return state.undelivered === 0 && state.completedWithoutArtifacts === 0 && missing() === 0 && state.pendingMail === 0;
    },
    60_000,
    200,
  );
  return state;
}

/** Every request of the account through the API's list, page by page. */
async function listAll(session: Session): Promise<Array<{ id: string; client_reference: string }>> {
  const all: Array<{ id: string; client_reference: string }> = [];
  let cursor = '';
  for (let page = 0; page < 100; page++) {
    const answer = await callJson(`${session.apiUrl}/signature-requests?limit=20&cursor=${encodeURIComponent(cursor)}`, {
      method: 'GET',
      headers: { authorization: `Bearer ${session.key}` },
    });
    assert.equal(answer.status, 200, summary(answer));
    all.push(...(answer.body.data as Array<{ id: string; client_reference: string }>));
    cursor = answer.body.next_cursor as string;
    if (!cursor) return all;
  }
  throw new Error('the list never ended');
}

/** The rounds: start serve on the data directory, work, kill -9 at a random moment. Answers the first start's key and secret. */
async function crashRounds(t: TestContext, run: Run): Promise<{ key: string; secret: string }> {
  let key = '';
  let secret = '';
  for (let round = 1; round <= ROUNDS; round++) {
    run.receiver.respond({ status: 204, delayMs: run.rng.between(...RECEIVER_DELAY) });
    const slowMail = round % 3 === 2;
    const args = slowMail ? [...run.args, '--smtp-relay', run.relayUrl] : run.args;
    const server = await within(START_TIMEOUT_MS, `round ${round}: serve start`, serveProcess(t, args));
    if (round === 1) {
      key = server.ready.api_key as string;
      secret = server.ready.webhook_secret as string;
      assert.match(key, /^paraph_test_/);
    } else assert.equal(server.ready.api_key, null, `round ${round}: the same data directory, no new key`);
    const session: Session = { apiUrl: server.ready.api_url as string, key, startedAt: Date.now(), killing: false, slowMail };
    const workers = Promise.all(Array.from({ length: WORKERS }, () => run.workload.worker(session)));
    // With the silent relay, the kill lands while a call waits for its mail (the stored answer's mail outcome unknown).
    const killMoment = sleep(run.rng.between(...KILL_AFTER)).then(async () => {
      if (slowMail && (await run.workload.mailCallUnderWay(run.rng.between(...KILL_INTO_MAIL), MAIL_CALL_WAIT_MS))) {
        run.mailKills++;
        return;
      }
      await run.workload.callUnderWay(run.rng.between(...KILL_INTO_CALL), 400);
    });
    try {
      await Promise.race([killMoment, workers]);
    } catch (error) {
      session.killing = true; // a failed check stops the other workers too
      throw error;
    }
    assert.equal(server.child.exitCode ?? server.child.signalCode, null, `round ${round}: serve died on its own: ${server.stderr()}`);
    session.killing = true;
    assert.equal(await within(5000, `round ${round}: kill -9`, server.stop('SIGKILL')), null);
    await workers;
    run.workload.endRound(session);
    assert.doesNotMatch(server.stderr(), FAULTS, `round ${round}`);
  }
  return { key, secret };
}

/**
 * Every request the client was told about exists, at least as far as its 2xx answers took it and no
 * further than the calls it sent can take it, with artifacts exactly when completed and the events
 * its status implies. Answers each request's final status.
 */
async function checkRequests(session: Session, tracked: Tracked[], state: DbState): Promise<Map<string, Status>> {
  const { events } = state;
  const finalStatus = new Map<string, Status>();
  for (const request of tracked) {
    const answer = await callJson(`${session.apiUrl}/signature-requests/${request.id}`, { method: 'GET', headers: { authorization: `Bearer ${session.key}` } });
    assert.equal(answer.status, 200, `${request.ref}: ${summary(answer)}`);
    const status = answer.body.status as Status;
    assert.ok(status in RANK, `${request.ref}: unexpected status ${status}`);
    assert.ok(RANK[status]! >= RANK[impliedAtLeast(request)]!, `${request.ref} is ${status}, the client's 2xx answers imply ${impliedAtLeast(request)}`);
    assert.ok(
      RANK[status]! <= RANK[reachableAtMost(request)]!,
      `${request.ref} is ${status}, beyond what the client's calls can do (${reachableAtMost(request)})`,
    );
    const signers = new Map((answer.body.signers as Array<{ reference: string; status: string }>).map((s) => [s.reference, s.status]));
    for (const reference of request.ok.signed) assert.equal(signers.get(reference), 'signed', `${request.ref}/${reference} got a 2xx to sign`);
    const done = status === 'completed';
    assert.deepEqual(answer.body.artifacts, { signed_pdf: done, evidence_pdf: done, evidence_json: done }, `${request.ref} (${status}) artifacts`);
    // One activation, one completion, one signer.completed per signed signer: no event lost or doubled.
    const types = events.filter((e) => e.request_id === request.id).map((e) => e.type);
    const count = (type: string) => types.filter((x) => x === type).length;
    assert.equal(count('signature_request.activated'), status === 'prepared' ? 0 : 1, `${request.ref} activated events`);
    assert.equal(count('signature_request.completed'), done ? 1 : 0, `${request.ref} completed events`);
    assert.equal(count('signer.completed'), [...signers.values()].filter((s) => s === 'signed').length, `${request.ref} signer.completed events`);
    checkActedOnce(request, status, state);
    finalStatus.set(request.id as string, status);
  }
  return finalStatus;
}

/**
 * The keyed calls acted once: one request_activated audit event for an active request, one
 * reminder_sent per signer the answered reminder named, one queued invitation per signer when the
 * activation mailed and one queued reminder per reminded signer.
 */
function checkActedOnce(request: Tracked, status: Status, state: DbState): void {
  const audits = state.audits.filter((a) => a.request_id === request.id);
  const auditCount = (type: string) => audits.filter((a) => a.type === type).length;
  assert.equal(auditCount('request_activated'), status === 'prepared' ? 0 : 1, `${request.ref} request_activated audit events`);
  assert.equal(auditCount('reminder_sent'), request.remindedSigners, `${request.ref} reminder_sent audit events`);
  const outbox = state.outbox.filter((m) => m.request_id === request.id);
  const queued = (kind: string) => outbox.filter((m) => m.kind === kind).length;
  assert.equal(queued('invitation'), status !== 'prepared' && request.sendEmails ? request.signers.length : 0, `${request.ref} invitations queued`);
  assert.equal(queued('reminder'), request.remindedSigners, `${request.ref} reminders queued`);
}

/**
 * Mail is delivered at least once: every mail the outbox marks sent reached the catcher. Answers how
 * many came more than once (a kill between the relay's acceptance and the outbox's `sent`).
 */
function checkMail(state: DbState): { sent: number; failed: number; duplicates: number } {
  const caught = new Map<string, number>();
  for (const m of state.caught) caught.set(`${m.request_id}/${m.kind}`, (caught.get(`${m.request_id}/${m.kind}`) ?? 0) + 1);
  const sentByKind = new Map<string, number>();
  for (const m of state.outbox.filter((x) => x.status === 'sent'))
    sentByKind.set(`${m.request_id}/${m.kind}`, (sentByKind.get(`${m.request_id}/${m.kind}`) ?? 0) + 1);
  let duplicates = 0;
  for (const [what, sent] of sentByKind) {
    const got = caught.get(what) ?? 0;
    assert.ok(got >= sent, `${what}: ${sent} mails marked sent, ${got} caught`);
    duplicates += got - sent;
  }
  const failed = state.outbox.filter((m) => m.status === 'failed').length;
  return { sent: [...sentByKind.values()].reduce((a, b) => a + b, 0), failed, duplicates };
}

/** Exactly one request per client_reference, through the API's list and in the database. */
async function checkOnePerReference(session: Session, dataDir: string, tracked: Tracked[]): Promise<void> {
  const listed = await listAll(session);
  assert.deepEqual(listed.map((r) => r.client_reference).sort(), tracked.map((r) => r.ref).sort(), 'the list holds each client_reference once');
  assert.deepEqual(listed.map((r) => r.id).sort(), tracked.map((r) => r.id).sort());
  const stored = readDb(dataDir, (db) => db.prepare('SELECT client_reference FROM signature_requests').all() as Array<{ client_reference: string }>);
  assert.deepEqual(stored.map((r) => r.client_reference).sort(), tracked.map((r) => r.ref).sort(), 'the database holds each client_reference once');
}

/** Every recorded event reached the receiver, signed with the key's secret, and nothing else did. Answers the duplicates. */
function checkDeliveries(receiver: Receiver, secret: string, state: DbState): { distinct: number; duplicates: number } {
  const deliveries = verifiedDeliveries(receiver, secret);
  const eventIds = new Set(state.events.map((e) => e.id));
  assert.equal(state.deliveries, state.events.length, 'one delivery row per event (every request has a callback_url)');
  for (const id of eventIds) assert.ok(deliveries.has(id), `event ${id} never reached the receiver`);
  for (const id of deliveries.keys()) assert.ok(eventIds.has(id), `the receiver got ${id}, which is not a recorded event`);
  return { distinct: deliveries.size, duplicates: [...deliveries.values()].reduce((sum, n) => sum + n - 1, 0) };
}

/** `paraph audit verify --json` on each request: exit 0, chain intact. */
async function checkAuditTrails(dataDir: string, ids: string[]): Promise<void> {
  await inBatches(ids, 2, async (id) => {
    const verified = await within(20_000, `audit verify ${id}`, paraph(['audit', 'verify', id, '--json', '--data-dir', dataDir]));
    assert.equal(verified.code, 0, `audit verify ${id}: ${verified.stderr}`);
    const result = JSON.parse(verified.stdout) as { intact: boolean; events: number; broken: unknown };
    assert.equal(result.intact, true, `audit verify ${id}`);
    assert.equal(result.broken, null);
    assert.ok(result.events >= 4, `audit trail of ${id}: ${result.events} events`);
  });
}

interface Run {
  rng: Random;
  dataDir: string;
  receiver: Receiver;
  args: string[];
  /** The silent relay's URL: every third round mails through it. */
  relayUrl: string;
  /** Kills that landed while a call waited for the relay. */
  mailKills: number;
  workload: Workload;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

test('kill -9 at random moments under load: every 2xx holds after restarts, retries answer the first answer, nothing acts twice, every event delivered, data intact', {
  timeout: 60_000 + ROUNDS * 15_000,
}, async (t) => {
  const started = Date.now();
  const seed = Number(process.env.PARAPH_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 32));
  assert.ok(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32, 'PARAPH_CRASH_SEED is an integer from 0 to 2^32 - 1');
  console.log(`crash-safety: seed ${seed} (PARAPH_CRASH_SEED=${seed} replays its choices)`);
  const rng = seededRandom(seed);
  const dataDir = useTmpDir(t, 'paraph-crash-');
  const receiver = await useReceiver(t);
  const args = ['--data-dir', dataDir, '--allow-loopback-webhooks', '--rate-limit', 'off', '--log-level', 'warn'];
  const workload = new Workload(rng, await makePdf(), receiver.url, `crash-${seed}`);
  const relay = await useSilentSmtpRelay(t);
  const run: Run = { rng, dataDir, receiver, args, relayUrl: relay.url, mailKills: 0, workload };
  const { key, secret } = await crashRounds(t, run);
  const roundsDone = Date.now();

  // The final start: settle what the last kill left unanswered, let the server finish its work.
  receiver.respond({ status: 204 });
  const final = await within(START_TIMEOUT_MS, 'final serve start', serveProcess(t, args));
  const session: Session = { apiUrl: final.ready.api_url as string, key, startedAt: Date.now(), killing: false, slowMail: false };
  await workload.resolveLostCreates(session);
  await workload.resolveLostKeyedCalls(session);
  await workload.finish({ ...session, final: true }, 30_000);
  const { tracked } = workload;
  assert.ok(tracked.every((r) => r.id !== undefined));
  const state = await settle(dataDir, receiver);
  const settled = Date.now();

  const finalStatus = await checkRequests(session, tracked, state);
  const mail = checkMail(state);
  await checkOnePerReference(session, dataDir, tracked);
  const { distinct, duplicates } = checkDeliveries(receiver, secret, state);
  assert.equal(await within(15_000, 'final SIGTERM', final.stop('SIGTERM')), 0, final.stderr());
  assert.doesNotMatch(final.stderr(), FAULTS);
  const integrity = readDb(dataDir, (db) => db.pragma('integrity_check', { simple: true }));
  assert.equal(integrity, 'ok');
  const completed = [...finalStatus].filter(([, status]) => status === 'completed').map(([id]) => id);
  await checkAuditTrails(dataDir, completed);

  // The loop did what it is for: kills cut calls off, and requests went all the way.
  assert.ok(workload.figures.lost > 0, 'no kill cut a call off');
  if (ROUNDS >= 4) assert.ok(run.mailKills > 0, 'no kill landed while a call waited for the silent relay');
  assert.ok(completed.length > 0, 'no request completed');

  const byStatus = (s: Status) => [...finalStatus.values()].filter((x) => x === s).length;
  const { figures } = workload;
  const ok2xx = figures.created201 + figures.replays + figures.activated200 + figures.signed200 + figures.reminded200;
  console.log(
    `crash-safety: node ${process.version}, seed ${seed}, ${ROUNDS} kill -9 rounds + a final start; ` +
      `${tracked.length} requests (create 2xx ${tracked.filter((r) => r.ok.create).length}, activate 200 ${tracked.filter((r) => r.ok.activate).length}, ` +
      `final prepared/active/completed ${byStatus('prepared')}/${byStatus('active')}/${completed.length}); ` +
      `2xx counted ${ok2xx} (create 201 ${figures.created201} + replay 200 ${figures.replays}, activate ${figures.activated200}, sign ${figures.signed200}, reminders ${figures.reminded200}); ` +
      `calls without answer ${figures.lost} (${figures.lostButDone} had taken effect); ` +
      `keyed replays ${figures.keyedReplays} (${figures.replaysCompared} compared with the answer received), in progress ${figures.inProgress}, ` +
      `kills while a call waited for the silent relay ${run.mailKills} (relay connections ${relay.connections()}); ` +
      `mail sent ${mail.sent}, failed ${mail.failed}, caught more than once ${mail.duplicates}`,
  );
  console.log(
    `crash-safety: events ${state.events.length}, deliveries received ${receiver.received.length} (${distinct} distinct, ${duplicates} duplicates); ` +
      `audit trails verified ${completed.length}, integrity ${integrity}; ` +
      `wall ${seconds(Date.now() - started)} (rounds ${seconds(roundsDone - started)}, final start and settle ${seconds(settled - roundsDone)}, checks ${seconds(Date.now() - settled)})`,
  );
});
