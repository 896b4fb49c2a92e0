import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import type { Context } from '../../context.js';
import { isoTime } from '../../platform/clock.js';
import { sha256Hex } from '../../platform/crypto/tokens.js';
import { postWebhook } from '../../platform/webhooks/post-webhook.js';
import { TEST_DELIVERY_HEADER } from '../../platform/webhooks/sign-webhook.js';
import { isIpLiteral } from '../../domain/ip-ranges.js';
import { invalidRequest, notFound } from '../../domain/errors.js';
import { MAX_RECEIVER_TOLERANCE_SECONDS } from '../../domain/limits.js';
import type { ReceiverCheck, ReceiverCheckCase, ReceiverCheckDelivery, ReceiverCheckKey } from '../../contract/receiver-check.js';
import { findApiKey, findApiKeyByHash, listApiKeys as keyRows, type ApiKeyRow } from '../keys/queries.js';
import { webhookSecretOf } from '../keys/create-api-key.js';
import { listApiKeys } from '../keys/list-api-keys.js';
import { checkCases, TIMING_CASE, type CaseDefinition, type CaseKit } from './receiver-check-cases.js';
import { sampleRequest, type Shot } from './receiver-check-events.js';

/** The Standard Webhooks libraries' tolerance: a timestamp more than 5 minutes off is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
const MAX_TOLERANCE_SECONDS = MAX_RECEIVER_TOLERANCE_SECONDS;
/** Cases sent at the same time (the deliveries of one case go one after the other, in order). */
const CONCURRENCY = 4;

/** The key whose webhook secret signs the deliveries: an API key, a key id, or (null) the data directory's first live key. */
export type CheckKey = { apiKey: string } | { keyId: string } | null;

export interface ReceiverCheckOptions {
  key?: CheckKey;
  /** The timestamp tolerance the receiver is assumed to apply; default 300 s. */
  toleranceSeconds?: number;
}

/** The receiver's URL: http(s), any host (loopback and private ones included: it is the developer's own receiver). */
export function parseReceiverUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidRequest(`the receiver URL must be an http(s) URL such as http://127.0.0.1:8080/webhooks, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidRequest(`the receiver URL must be http or https, got "${url.protocol}"`);
  return url;
}

export function checkTolerance(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TOLERANCE_SECONDS) {
    throw invalidRequest(`the tolerance must be a whole number of seconds from 1 to ${MAX_TOLERANCE_SECONDS}, got ${seconds}`);
  }
  return seconds;
}

/**
 * Sends the battery of test deliveries (receiver-check-cases.ts) to the receiver at `urlText`, signed
 * with the webhook secret of the key given, and reports what it answered to each case and whether
 * that is right. The events belong to no stored request and carry `paraph-test-delivery: true`; the
 * report is kept in its own table, never among the account's webhook deliveries.
 */
export async function checkReceiver(ctx: Context, urlText: string, options: ReceiverCheckOptions = {}): Promise<ReceiverCheck> {
  const url = parseReceiverUrl(urlText);
  const toleranceSeconds = checkTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
  const key = resolveKey(ctx, options.key ?? null);
  const secret = webhookSecretOf(ctx, key);
  const target = await resolveReceiver(url);
  const timeoutMs = ctx.policy.webhookTimeoutMs;
  const startedAt = ctx.clock.now();
  const started = performance.now();
  const kit: CaseKit = { secret, nowMs: ctx.clock.realNow(), toleranceSeconds, createdAt: isoTime(startedAt), request: sampleRequest() };

  const send = async (shot: Shot): Promise<ReceiverCheckDelivery> => {
    const headers = { ...shot.headers, [TEST_DELIVERY_HEADER]: 'true' };
    const sent = await postWebhook({ url, address: target.address, family: target.family, body: shot.body, headers, timeoutMs });
    return {
      webhook_id: shot.headers['webhook-id'] ?? '',
      event_type: shot.event.type,
      status_code: sent.statusCode,
      error: sent.error,
      duration_ms: sent.durationMs,
      headers,
      body: shot.body,
    };
  };
  const cases = await inPool(checkCases(toleranceSeconds), CONCURRENCY, async (definition) => runCase(definition, kit, send));
  cases.push(timingCase(cases, timeoutMs));

  const passedCount = cases.filter((c) => c.ok).length;
  const report: ReceiverCheck = {
    id: randomUUID(),
    url: url.href,
    account_id: key.account_id,
    key_id: key.id,
    tolerance_seconds: toleranceSeconds,
    delivery_timeout_ms: timeoutMs,
    test_header: `${TEST_DELIVERY_HEADER}: true`,
    started_at: isoTime(startedAt),
    duration_ms: Math.round(performance.now() - started),
    passed: passedCount === cases.length,
    passed_count: passedCount,
    case_count: cases.length,
    cases,
  };
  ctx.db.insert('receiver_checks', {
    id: report.id,
    account_id: report.account_id,
    key_id: report.key_id,
    url: report.url,
    passed: report.passed ? 1 : 0,
    report_json: JSON.stringify(report),
    created_at: startedAt,
  });
  return report;
}

/** The latest checks, newest first. */
export function listReceiverChecks(ctx: Context, limit = 10): ReceiverCheck[] {
  const rows = ctx.db.all(ctx.db.q.selectFrom('receiver_checks').select('report_json').orderBy('seq', 'desc').limit(limit));
  return rows.map((row) => JSON.parse(row.report_json) as ReceiverCheck);
}

/** The live keys a check can sign with, as hints (never the key or the secret). */
export function receiverCheckKeys(ctx: Context): ReceiverCheckKey[] {
  return listApiKeys(ctx)
    .filter((k) => k.status === 'active')
    .map((k) => ({ key_id: k.key_id, account_id: k.account_id, api_key_hint: k.api_key_hint, webhook_secret_hint: k.webhook_secret_hint }));
}

function resolveKey(ctx: Context, key: CheckKey): ApiKeyRow {
  let row: ApiKeyRow | undefined;
  if (key === null) {
    row = keyRows(ctx.db).find((k) => k.revoked_at === null);
    if (!row) throw notFound('this data directory has no live API key to sign with: `paraph keys create` makes one');
  } else if ('apiKey' in key) {
    row = findApiKeyByHash(ctx.db, sha256Hex(key.apiKey.trim()));
    if (!row) throw notFound("unknown API key: give a key of this sandbox's data directory (`paraph keys list` lists them)");
  } else {
    row = findApiKey(ctx.db, key.keyId);
    if (!row) throw notFound(`API key ${key.keyId} does not exist`);
  }
  if (row.revoked_at !== null) throw invalidRequest('this API key was revoked: its secret signs nothing any more; give a live key');
  return row;
}

async function resolveReceiver(url: URL): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIpLiteral(host)) return { address: host, family: host.includes(':') ? 6 : 4 };
  try {
    const found = await lookup(host);
    return { address: found.address, family: found.family === 6 ? 6 : 4 };
  } catch (error) {
    throw invalidRequest(`cannot resolve the receiver's host ${host} (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
  }
}

async function runCase(definition: CaseDefinition, kit: CaseKit, send: (shot: Shot) => Promise<ReceiverCheckDelivery>): Promise<ReceiverCheckCase> {
  const deliveries: ReceiverCheckDelivery[] = [];
  for (const shot of definition.shots(kit)) deliveries.push(await send(shot));
  const low = definition.expected === '2xx' ? 200 : 400;
  const ok = deliveries.every((d) => d.status_code !== null && d.status_code >= low && d.status_code < low + 100);
  return {
    id: definition.id,
    group: definition.group,
    title: definition.title,
    expected: definition.expected,
    answered: deliveries.map(answerOf).join(', '),
    ok,
    risk: definition.risk,
    fix: definition.fix,
    note: definition.note,
    deliveries,
  };
}

function answerOf(delivery: ReceiverCheckDelivery): string {
  return delivery.status_code === null ? (delivery.error ?? 'no answer') : String(delivery.status_code);
}

/** How long the receiver took to accept the valid deliveries, against paraph's delivery timeout. */
function timingCase(cases: readonly ReceiverCheckCase[], timeoutMs: number): ReceiverCheckCase {
  const timed = cases.filter((c) => c.group === 'valid').flatMap((c) => c.deliveries);
  const answered = timed.filter((d) => d.status_code !== null);
  const slowest = answered.reduce<ReceiverCheckDelivery | undefined>((max, d) => (max === undefined || d.duration_ms > max.duration_ms ? d : max), undefined);
  const unanswered = timed.length - answered.length;
  const ok = slowest !== undefined && unanswered === 0 && slowest.duration_ms < timeoutMs;
  const slowestText = slowest === undefined ? 'no valid delivery was answered' : `slowest answer ${slowest.duration_ms} ms (${slowest.event_type})`;
  return {
    id: TIMING_CASE.id,
    group: TIMING_CASE.group,
    title: 'how long the receiver takes to answer a valid delivery',
    expected: `an answer within ${timeoutMs / 1000} s`,
    answered: unanswered > 0 ? `${slowestText}; ${unanswered} of ${timed.length} not answered` : slowestText,
    ok,
    risk: TIMING_CASE.risk,
    fix: TIMING_CASE.fix,
    note: `paraph waits ${timeoutMs / 1000} s for an answer to a delivery before it counts the attempt as failed`,
    deliveries: [],
  };
}

/** `fn` over `items`, at most `limit` at a time, answers in the items' order. */
async function inPool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
