import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDuration } from '../domain/duration.js';
import type { SignatureRequestStatus } from '../contract/signature-requests.js';
import type { FaultRule, FaultRuleInput } from '../contract/faults.js';
import type { CaughtEmail, ClockState } from '../contract/sandbox.js';
import type { CreatedApiKey } from '../contract/sandbox-keys.js';
import type { SignerOutcome } from '../contract/signing.js';
import { actAsSigner, parseSigningLink } from '../signer-client/act-as-signer.js';
import { triggerEvent, type TriggerOptions, type TriggerResult } from './trigger-event.js';
import { caughtCodeMailIds, emailCodeFromCatcher } from './catcher-code.js';
import { poll, sandboxFetch } from './sandbox-http.js';
import { keyFromCli } from './cli-key.js';
import { runReceiverCheck, type CheckReceiverOptions, type ReceiverCheck } from './receiver-check.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/paraph.js');

export interface SandboxOptions {
  /** Keep the data in this directory (created if needed); default: a throwaway one, deleted by `stop()`. */
  dataDir?: string;
  /** HTTP port; default 0, a free one. */
  port?: number;
  /** SMTP catcher port; default 0, a free one. */
  smtpPort?: number;
  /** The documented rate limits; default `on`, as `paraph serve`. */
  rateLimit?: 'on' | 'off';
  /** Accept loopback `callback_url`s, so webhooks reach a receiver in the test; default true. */
  allowLoopbackWebhooks?: boolean;
  /** Any other `paraph serve` option, as on the command line: `['--brand', 'acme']`. */
  serveArgs?: readonly string[];
  /** Environment of the sandbox process; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** How long start-up may take; default 30 s. */
  startTimeoutMs?: number;
  /**
   * How long `stop()` lets the sandbox finish its work in flight (a delivery to a receiver that never answers, a
   * delayed call) before it kills it; default 10 s. A throwaway directory is deleted either way.
   */
  stopTimeoutMs?: number;
}

export type ApiKey = CreatedApiKey;
/** A fault rule as `POST /_sandbox/faults` takes it, and as paraph answers it (docs/faults.md). */
export type { CaughtEmail, FaultRule, FaultRuleInput, SignatureRequestStatus, SignerOutcome, TriggerOptions, TriggerResult };

export interface EmailFilter {
  to?: string;
  signatureRequestId?: string;
  kind?: NonNullable<CaughtEmail['kind']>;
}

export interface SignOptions {
  /** Values of the signer's own text and date fields, by field name. */
  fields?: Record<string, string>;
  /** The typed signature; default the signer's name, else their email. */
  signature?: string;
  /** The email code, or `auto` to read it from the SMTP catcher (default when the signer must verify one). */
  otp?: string;
}

export interface Sandbox {
  /** The API base, `http://127.0.0.1:PORT/v1`. */
  readonly apiUrl: string;
  /** The base of signing links. */
  readonly publicUrl: string;
  readonly smtpPort: number;
  /** The key the helpers use (the first key of the data directory, or one made for this sandbox). */
  readonly apiKey: string;
  readonly webhookSecret: string;
  readonly accountId: string;
  readonly dataDir: string;
  /** The sandbox process. */
  readonly pid: number;
  /** The operator dashboard, its token in the fragment (`http://127.0.0.1:PORT/_dashboard/#token=…`); null from an older paraph. */
  readonly dashboardUrl: string | null;
  /** A call with this sandbox's key: `path` under the server root (`/v1/…`, `/_sandbox/…`); errors throw SandboxRequestError. */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Another key: in a new account (default), or in this key's account. */
  createKey(options?: { sameAccount?: boolean }): Promise<ApiKey>;
  readonly clock: {
    now(): Promise<Date>;
    /** Moves the sandbox clock forward (`'90s'`, `'2h'`, `'8d'`, `'1d12h'`, or seconds) and runs what falls due. */
    advance(by: string | number): Promise<Date>;
  };
  readonly emails: {
    /** Caught mail of this key's account, newest first. */
    list(filter?: EmailFilter): Promise<CaughtEmail[]>;
    /** The newest matching mail, waiting for one to arrive (default 10 s). */
    waitFor(filter: EmailFilter, timeoutMs?: number): Promise<CaughtEmail>;
  };
  /** Acts as the signer of a signing link: opens it, verifies the email code (read from the catcher), signs. */
  sign(signingUrl: string, options?: SignOptions): Promise<SignerOutcome>;
  decline(signingUrl: string, reason: string, options?: Pick<SignOptions, 'otp'>): Promise<SignerOutcome>;
  /** Expires the request's links now (`POST /_sandbox/signature-requests/{id}/expire`). */
  expire(id: string): Promise<SignatureRequestStatus>;
  /** Purges the request's content now. */
  purge(id: string): Promise<SignatureRequestStatus>;
  /**
   * Makes an event happen for real (`paraph trigger`): on a throwaway request, or a prepared one of
   * this account (`requestId`); answers the request id, the steps and the events they record.
   */
  trigger(event: string, options?: TriggerOptions): Promise<TriggerResult>;
  /** Waits until the signed PDF and both evidence files can be downloaded (default 30 s); answers the request. */
  waitForArtifacts(id: string, timeoutMs?: number): Promise<SignatureRequestStatus>;
  /**
   * Runs `paraph listen --forward-to URL` against this sandbox: every event of the account is POSTed
   * to the URL, signed like a webhook delivery with this key's secret; no `callback_url` needed.
   * Resolves once it is following the stream. `stop()` of the sandbox stops it too.
   */
  listen(options: { forwardTo: string; events?: readonly string[] }): Promise<Listener>;
  /**
   * Runs `paraph webhooks check` against your receiver: valid, retried, forged, stale, malformed and
   * out-of-order test deliveries signed with this key's secret; answers the report (`passed`, and each
   * case with what the receiver answered). Loopback and private addresses are fine.
   */
  checkReceiver(url: string, options?: CheckReceiverOptions): Promise<ReceiverCheck>;
  readonly faults: {
    add(rule: FaultRuleInput): Promise<FaultRule>;
    list(): Promise<FaultRule[]>;
    /** Removes one rule, or every rule of the account. */
    clear(id?: string): Promise<void>;
  };
  /** Stops the sandbox (a throwaway data directory goes with it). Safe to call more than once. */
  stop(): Promise<void>;
}

export interface Listener {
  /** What `paraph listen` printed: one line per event forwarded, with the receiver's answer. */
  readonly lines: readonly string[];
  stop(): Promise<void>;
}

interface ReadyBanner {
  pid: number;
  api_url: string;
  public_url: string;
  smtp_port: number;
  data_dir: string;
  account_id: string | null;
  api_key: string | null;
  webhook_secret: string | null;
  dashboard_url?: string;
}

/** How long a sandbox asked to stop may finish its work in flight before it is killed, unless told otherwise. */
const STOP_DEADLINE_MS = 10_000;

/** Every sandbox this process started and has not stopped: killed when the process exits. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // SIGTERM: each sandbox still closes cleanly (and deletes its throwaway directory) after we are gone.
  process.once('exit', () => {
    for (const child of running) child.kill('SIGTERM');
  });
}

/**
 * Starts a paraph sandbox in a child process (never in this one: its native modules and workers stay
 * out of the test runner), on free ports and a throwaway data directory unless told otherwise, and
 * resolves once it answers. A process that exits without `stop()` leaves nothing behind: the sandbox
 * stops when its parent is gone.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const args = [
    BIN,
    'serve',
    '--json',
    '--port',
    String(options.port ?? 0),
    '--smtp-port',
    String(options.smtpPort ?? 0),
    '--rate-limit',
    options.rateLimit ?? 'on',
    ...(options.dataDir === undefined ? ['--ephemeral'] : ['--data-dir', options.dataDir]),
    ...(options.allowLoopbackWebhooks === false ? [] : ['--allow-loopback-webhooks']),
    ...(options.serveArgs ?? []),
  ];
  const child = spawn(process.execPath, args, {
    env: { ...(options.env ?? process.env), PARAPH_STOP_WITH_PARENT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  killAllOnExit();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => running.delete(child));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-8000);
  });

  const ready = await new Promise<ReadyBanner>((resolve, reject) => {
    let out = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      // SIGTERM first: a start stopped so ends once started and deletes its throwaway directory (SIGKILL would
      // leave it, with its master.key and database); SIGKILL only if it does not end.
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), options.stopTimeoutMs ?? STOP_DEADLINE_MS).unref();
      void exited.then(() => reject(new Error(`paraph did not start within ${options.startTimeoutMs ?? 30_000} ms: ${stderr.trim()}`)));
    }, options.startTimeoutMs ?? 30_000);
    const onData = (d: Buffer) => {
      // (A banner written as the stop after a time-out arrived is of a sandbox already going: not answered.)
      if (timedOut) return;
      out += d.toString();
      const end = out.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      try {
        resolve(JSON.parse(out.slice(0, end)) as ReadyBanner);
      } catch {
        child.kill('SIGKILL');
        reject(new Error(`paraph printed no ready banner: ${out.slice(0, 200)}`));
      }
    };
    child.stdout?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!timedOut) reject(new Error(`paraph exited with code ${code} before it was ready: ${stderr.trim()}`));
    });
  });
  // Keep reading, so a full pipe never blocks the sandbox.
  child.stdout?.resume();

  const origin = new URL(ready.api_url).origin;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), options.stopTimeoutMs ?? STOP_DEADLINE_MS);
        await exited;
        clearTimeout(timer);
      }
      running.delete(child);
      // Killed before it finished its work in flight (a webhook receiver that never answers, a delayed call), the
      // sandbox could not delete its throwaway directory: deleted here.
      if (options.dataDir === undefined && child.signalCode === 'SIGKILL') fs.rmSync(ready.data_dir, { recursive: true, force: true });
    })());

  let key: { api_key: string; webhook_secret: string; account_id: string };
  try {
    key =
      ready.api_key !== null && ready.webhook_secret !== null && ready.account_id !== null
        ? { api_key: ready.api_key, webhook_secret: ready.webhook_secret, account_id: ready.account_id }
        : await keyFromCli(BIN, ready.data_dir, options.env);
  } catch (error) {
    await stop();
    throw error;
  }

  const call = <T>(method: string, route: string, body?: unknown) => sandboxFetch<T>(origin, key.api_key, method, route, body);
  const emailsOf = async (filter: EmailFilter = {}): Promise<CaughtEmail[]> => {
    const query = new URLSearchParams();
    if (filter.to) query.set('to', filter.to);
    if (filter.signatureRequestId) query.set('signature_request_id', filter.signatureRequestId);
    // Filtered by the server: the newest 100 of that kind, not those among the newest 100 mails.
    if (filter.kind) query.set('kind', filter.kind);
    const { data } = await call<{ data: CaughtEmail[] }>('GET', `/_sandbox/emails${query.size > 0 ? `?${query}` : ''}`);
    return data;
  };
  const actAs = async (signingUrl: string, options: SignOptions & { decline?: string }): Promise<SignerOutcome> => {
    const link = parseSigningLink(signingUrl);
    const access = { origin, apiKey: key.api_key };
    // Read from the catcher unless given; codes caught before this call are not the one it asks for.
    const before = options.otp === undefined || options.otp === 'auto' ? await caughtCodeMailIds(access) : null;
    const otp =
      before === null
        ? (options.otp as string)
        : (view: { request?: { id: string } | null; signer?: { reference: string } | null }) =>
            emailCodeFromCatcher(access, { requestId: view.request?.id ?? '', reference: view.signer?.reference ?? '' }, before);
    const { outcome } = await actAsSigner(link, {
      otp,
      ...(options.fields ? { fields: options.fields } : {}),
      ...(options.signature !== undefined ? { signature: options.signature } : {}),
      ...(options.decline !== undefined ? { decline: options.decline } : {}),
    });
    return outcome;
  };

  const listeners = new Set<Listener>();
  const listen = async (o: { forwardTo: string; events?: readonly string[] }): Promise<Listener> => {
    const args = [BIN, 'listen', '--api', ready.api_url, '--forward-to', o.forwardTo, ...(o.events ? ['--events', o.events.join(',')] : [])];
    // The key goes by the environment, never on a command line that `ps` shows.
    const listener = spawn(process.execPath, args, {
      env: { ...(options.env ?? process.env), PARAPH_API_KEY: key.api_key, PARAPH_STOP_WITH_PARENT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(listener);
    const ended = new Promise<number | null>((resolve) => listener.once('exit', (code) => resolve(code)));
    void ended.then(() => running.delete(listener));
    const lines: string[] = [];
    let pending = '';
    listener.stdout?.on('data', (d: Buffer) => {
      const parts = (pending + d.toString()).split('\n');
      pending = parts.pop() ?? '';
      lines.push(...parts);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        listener.kill('SIGKILL');
        reject(new Error('paraph listen did not connect within 15 s'));
      }, 15_000);
      void ended.then(() => clearTimeout(timer));
      let err = '';
      listener.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('Listening for events')) {
          clearTimeout(timer);
          resolve();
        }
      });
      void ended.then((code) => reject(new Error(`paraph listen exited with code ${code}: ${err.trim()}`)));
    });
    let stopped: Promise<void> | undefined;
    const handle: Listener = {
      lines,
      stop: () =>
        (stopped ??= (async () => {
          if (listener.exitCode === null && listener.signalCode === null) {
            listener.kill('SIGTERM');
            await ended;
          }
          listeners.delete(handle);
        })()),
    };
    listeners.add(handle);
    return handle;
  };
  const stopAll = async () => {
    await Promise.all([...listeners].map((l) => l.stop()));
    await stop();
  };

  return {
    apiUrl: ready.api_url,
    publicUrl: ready.public_url,
    smtpPort: ready.smtp_port,
    apiKey: key.api_key,
    webhookSecret: key.webhook_secret,
    accountId: key.account_id,
    dataDir: ready.data_dir,
    pid: ready.pid,
    dashboardUrl: ready.dashboard_url ?? null,
    request: call,
    createKey: (o = {}) => call<ApiKey>('POST', '/_sandbox/api-keys', { account: o.sameAccount ? 'same' : 'new' }),
    clock: {
      now: async () => new Date((await call<ClockState>('GET', '/_sandbox/clock')).now),
      advance: async (by) => {
        const ms = typeof by === 'number' ? by * 1000 : parseDuration(by);
        if (ms === null || !Number.isInteger(ms / 1000) || ms < 1000) {
          throw new RangeError(`clock.advance takes a duration such as '90s', '2h', '8d', '1d12h' or a whole number of seconds, got ${JSON.stringify(by)}`);
        }
        return new Date((await call<ClockState>('POST', '/_sandbox/clock/advance', { seconds: ms / 1000 })).now);
      },
    },
    emails: {
      list: emailsOf,
      waitFor: (filter, timeoutMs = 10_000) => poll(`a mail matching ${JSON.stringify(filter)}`, timeoutMs, async () => (await emailsOf(filter))[0]),
    },
    sign: (signingUrl, o = {}) => actAs(signingUrl, o),
    decline: (signingUrl, reason, o = {}) => actAs(signingUrl, { ...o, decline: reason }),
    trigger: (event, o = {}) => triggerEvent({ origin, apiKey: key.api_key }, event, o),
    expire: (id) => call<SignatureRequestStatus>('POST', `/_sandbox/signature-requests/${encodeURIComponent(id)}/expire`),
    purge: (id) => call<SignatureRequestStatus>('POST', `/_sandbox/signature-requests/${encodeURIComponent(id)}/purge`),
    waitForArtifacts: (id, timeoutMs = 30_000) =>
      poll(`the artifacts of ${id}`, timeoutMs, async () => {
        const request = await call<SignatureRequestStatus>('GET', `/v1/signature-requests/${encodeURIComponent(id)}`);
        if (request.status !== 'completed' && request.status !== 'active') {
          throw new Error(`signature request ${id} is ${request.status}: it will have no artifacts`);
        }
        const a = request.artifacts;
        return a.signed_pdf && a.evidence_pdf && a.evidence_json ? request : undefined;
      }),
    listen,
    checkReceiver: (url, o = {}) => runReceiverCheck(BIN, { dataDir: ready.data_dir, apiKey: key.api_key, env: options.env }, url, o),
    faults: {
      add: (rule) => call<FaultRule>('POST', '/_sandbox/faults', rule),
      list: async () => (await call<{ data: FaultRule[] }>('GET', '/_sandbox/faults')).data,
      clear: async (id) => {
        await call('DELETE', id === undefined ? '/_sandbox/faults' : `/_sandbox/faults/${encodeURIComponent(id)}`);
      },
    },
    stop: stopAll,
  };
}
