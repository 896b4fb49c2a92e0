import type { Context } from '../../context.js';
import { currentSigners, findAnyRequest, requestFields, signerMarks } from '../../model/request-queries.js';
import { requestDocument } from '../../model/documents.js';
import { checkAuditChain } from '../../domain/audit-chain.js';
import { loadOrCreateSigningIdentity, type SigningIdentity } from '../../pdf/certificate.js';
import type { StampField } from '../../pdf/stamp.js';
import { slot } from '../../platform/slots.js';
import { sha256Hex } from '../../platform/crypto/tokens.js';
import { evidenceJsonOf, evidenceReportOf, type EvidenceFacts } from './evidence-views.js';
import { fireFault } from '../faults/fire-fault.js';
import { audit } from '../events/record-events.js';
import { sendQueuedMail } from '../mail/outbox.js';
import { queueCompletionMails } from './completion-mails.js';
import { timestampPlan } from './timestamp-authority.js';
import { recordArtifactAttempt } from './artifact-attempts.js';

export const ARTIFACT_TYPES = ['signed-pdf', 'evidence.pdf', 'evidence.json'] as const;
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];

/** Workers at once per process: each holds a whole PDF (up to 8 MiB, several times over) in memory. */
const PARALLEL = 2;
/** After the n-th failure, wait 5 s, 20 s, 80 s, 320 s, then 10 min between attempts (real time). */
const retryDelayMs = (failures: number) => Math.min(5_000 * 4 ** (failures - 1), 600_000);

interface Facts extends EvidenceFacts {
  fields: StampField[];
}

/**
 * Produces and stores a completed request's three artifacts: the signed PDF (every field value drawn
 * in place, then one PAdES seal), the evidence report and the evidence JSON. Runs after the
 * completing transaction has committed; the three rows appear in one transaction (with an
 * `artifacts_generated` audit event carrying their hashes), so the status flags turn true together.
 * Answers false when there was nothing to do (not completed, already done, purged meanwhile). An
 * artifacts fault rule of the account makes the attempt fail (and be retried) or start late. A success
 * is recorded as an attempt (started at `startedAt`) with the artifacts; a failure is the caller's to record.
 */
export async function generateArtifacts(ctx: Context, requestId: string, startedAt = ctx.clock.now()): Promise<boolean> {
  let facts = ctx.db.transaction(() => readFacts(ctx, requestId));
  if (!facts) return false;
  const fault = fireFault(ctx, facts.request.account_id, { target: 'artifacts', signatureRequestId: requestId }, { signature_request_id: requestId });
  if (fault?.mode === 'fail') throw new Error(`making the artifacts failed on purpose: sandbox fault rule ${fault.id}`);
  if (fault?.mode === 'delay') {
    await new Promise((resolve) => setTimeout(resolve, fault.delay_ms));
    // The request may have been purged, or its artifacts made by another process, meanwhile.
    facts = ctx.db.transaction(() => readFacts(ctx, requestId));
    if (!facts) return false;
  }
  const identity = await signingIdentity(ctx);
  const timestamp = await timestampPlan(ctx);
  const { signedPdf, evidencePdf, timestamps } = await ctx.workers.artifacts.produce({
    // Shared with the worker thread rather than copied to it (an 8 MiB document was held three times).
    original: await ctx.blobs.get(facts.document.blob_id as string, facts.document.sha256, { shared: true }),
    fields: facts.fields,
    sealAt: facts.generatedAt,
    signer: { certificateDer: identity.certificateDer, privateKeyDer: identity.privateKeyDer, name: SEAL_NAME },
    timestamp,
    report: evidenceReportOf(facts, identity),
  });
  // A token that fails its check is still the authority's answer: it is kept, reported `failed` and logged.
  for (const stamp of timestamps) {
    if (stamp.verificationStatus === 'verified') continue;
    const fields = { signature_request_id: requestId, provider: stamp.provider, status: stamp.verificationStatus, reason: stamp.reason };
    if (stamp.verificationStatus === 'failed') ctx.log.warn(fields, 'the seal timestamp is not verified');
    else ctx.log.info(fields, 'the seal timestamp is not verified');
  }
  const evidence = evidenceJsonOf(facts, ctx.brand, { signed: sha256Hex(signedPdf), evidencePdf: sha256Hex(evidencePdf) }, timestamps);
  const evidenceJson = Buffer.from(`${JSON.stringify(evidence, null, 2)}\n`);

  const stored: Array<{ type: ArtifactType; id: string; sha256: string; size: number }> = [];
  try {
    for (const [type, bytes] of [
      ['signed-pdf', signedPdf],
      ['evidence.pdf', evidencePdf],
      ['evidence.json', evidenceJson],
    ] as const) {
      stored.push({ type, ...(await ctx.blobs.put(bytes)) });
    }
  } catch (error) {
    await Promise.all(stored.map((s) => ctx.blobs.delete(s.id)));
    throw error;
  }
  let mails: string[] = [];
  const kept = ctx.db.transaction(() => {
    const row = findAnyRequest(ctx.db, requestId);
    const existing = ctx.db.first(ctx.db.q.selectFrom('artifacts').select('type').where('request_id', '=', requestId));
    // Purged while we worked, or another process got there first.
    if (row?.status !== 'completed' || existing) return false;
    const now = ctx.clock.now();
    for (const s of stored) {
      ctx.db.insert('artifacts', { request_id: requestId, type: s.type, blob_id: s.id, sha256: s.sha256, size: s.size, created_at: now, purged_at: null });
    }
    const hashOf = (type: ArtifactType) => stored.find((s) => s.type === type)?.sha256;
    audit(ctx, {
      requestId,
      type: 'artifacts_generated',
      actor: { type: 'system' },
      data: { signed_pdf_sha256: hashOf('signed-pdf'), evidence_pdf_sha256: hashOf('evidence.pdf'), evidence_json_sha256: hashOf('evidence.json') },
      at: now,
    });
    recordArtifactAttempt(ctx, requestId, { startedAt, outcome: 'succeeded' });
    // The signers' copies: a `completed` mail each, with a read-only link to the signed PDF.
    mails = queueCompletionMails(ctx, row, now);
    return true;
  });
  if (!kept) await Promise.all(stored.map((s) => ctx.blobs.delete(s.id)));
  else await sendQueuedMail(ctx, mails);
  return kept;
}

function readFacts(ctx: Context, requestId: string): Facts | null {
  const { db } = ctx;
  const request = findAnyRequest(db, requestId);
  if (request?.status !== 'completed') return null;
  if (db.first(db.q.selectFrom('artifacts').select('type').where('request_id', '=', requestId))) return null;
  const document = requestDocument(db, request);
  if (!document.blob_id) return null;
  const signers = currentSigners(db, requestId);
  const marks = signerMarks(
    db,
    signers.map((s) => s.id),
  );
  const fieldRows = requestFields(db, requestId);
  const fields: StampField[] = fieldRows.map((field) => {
    const signer = signers.find((s) => s.reference === field.signer_reference);
    const mark = marks.find((m) => m.signer_id === signer?.id && m.kind === field.type);
    return {
      type: field.type as StampField['type'],
      page: field.page,
      x: field.x,
      y: field.y,
      width: field.width,
      height: field.height,
      value: field.value,
      locale: signer?.locale ?? null,
      mark: !mark
        ? null
        : mark.method === 'drawn' && mark.image
          ? { method: 'drawn', png: new Uint8Array(mark.image) }
          : { method: 'typed', text: mark.text ?? '' },
    };
  });
  const rows = db.all(db.q.selectFrom('audit_events').selectAll().where('request_id', '=', requestId).orderBy('id', 'asc'));
  const chain = checkAuditChain(rows);
  // Evidence is not made from a trail that does not verify.
  if (chain.broken) throw new Error(`the audit trail of ${requestId} is broken: ${chain.broken.message}`);
  return {
    request,
    document,
    signers,
    fields,
    fieldRows,
    marks,
    events: rows,
    chain: { head: chain.head, count: chain.count },
    generatedAt: ctx.clock.now(),
  };
}

// --- Scheduling: a kick after completion, a sweep on every scheduler tick, retries with backoff ---

interface GenerationState {
  running: Map<string, Promise<boolean>>;
  failures: Map<string, { count: number; retryAt: number }>;
  active: number;
  waiting: Array<() => void>;
  identity?: Promise<SigningIdentity>;
}

const GENERATION = slot<GenerationState>('artifact-generation', () => ({ running: new Map(), failures: new Map(), active: 0, waiting: [] }));

function stateOf(ctx: Context): GenerationState {
  return ctx.state.get(GENERATION);
}

/** The name in the seal's signature dictionary. */
const SEAL_NAME = 'paraph sandbox TEST ONLY';

/**
 * Gets the first completion's artifacts ready sooner: starts the artifact worker and has it produce
 * once with the signing certificate, read (or made) meanwhile. Never throws: a failure here is only a
 * slower first completion, which then meets the same failure and reports it.
 */
export function warmArtifactGeneration(ctx: Context): void {
  const signer = Promise.all([signingIdentity(ctx), timestampPlan(ctx)]).then(([identity, plan]) => ({
    signer: { certificateDer: identity.certificateDer, privateKeyDer: identity.privateKeyDer, name: SEAL_NAME },
    // A warm-up never calls an external authority.
    timestamp: plan?.authority === 'built-in' ? plan : null,
  }));
  signer.catch((error: unknown) => {
    try {
      ctx.log.debug({ err: error }, 'warming the artifact worker: no signing certificate');
    } catch {
      // The log is gone with the process.
    }
  });
  ctx.background.add(signer);
  ctx.workers.artifacts.warm(signer);
}

/** The data directory's signing certificate, made on first use (kept for the process once read). */
export function signingIdentity(ctx: Context): Promise<SigningIdentity> {
  const state = stateOf(ctx);
  if (!state.identity) {
    const loading = loadOrCreateSigningIdentity(ctx.dataDir, ctx.secrets, new Date(Math.min(ctx.clock.realNow(), ctx.clock.now())));
    state.identity = loading;
    loading.catch(() => {
      if (state.identity === loading) delete state.identity;
    });
  }
  return state.identity;
}

/**
 * Starts generating a request's artifacts in the background (once per process at a time) and
 * answers the attempt; a failure is recorded (artifact_attempts), logged and retried later by
 * `generateMissingArtifacts`. Never rejects: the signer's answer must not depend on it.
 */
export function startArtifactGeneration(ctx: Context, requestId: string): Promise<boolean> {
  const state = stateOf(ctx);
  const running = state.running.get(requestId);
  if (running) return running;
  let startedAt = ctx.clock.now();
  const attempt = withSlot(state, () => generateArtifacts(ctx, requestId, (startedAt = ctx.clock.now())))
    .then(
      (done) => {
        state.failures.delete(requestId);
        return done;
      },
      (error: unknown) => {
        const count = (state.failures.get(requestId)?.count ?? 0) + 1;
        const delay = retryDelayMs(count);
        state.failures.set(requestId, { count, retryAt: ctx.clock.realNow() + delay });
        let recorded: unknown;
        try {
          recordArtifactAttempt(ctx, requestId, { startedAt, outcome: 'failed', error, retryInMs: delay });
        } catch (failure) {
          recorded = failure;
        }
        try {
          ctx.log.error({ err: error, signature_request_id: requestId, attempt: count }, `artifact generation failed; next attempt in ${delay / 1000} s`);
          if (recorded) ctx.log.error({ err: recorded, signature_request_id: requestId }, 'recording the failed artifact attempt failed');
        } catch {
          // The log is gone with the process: the next start retries.
        }
        return false;
      },
    )
    .finally(() => state.running.delete(requestId));
  state.running.set(requestId, attempt);
  return ctx.background.add(attempt);
}

/**
 * The sweep: every completed request that lacks its artifacts and is not waiting out a retry delay
 * gets an attempt. With `wait`, answers once they are done (how many succeeded); otherwise they run
 * in the background and it answers 0.
 */
export async function generateMissingArtifacts(ctx: Context, options: { wait: boolean }): Promise<number> {
  const state = stateOf(ctx);
  const { db } = ctx;
  const due = db.all(
    db.q
      .selectFrom('signature_requests')
      .select('id')
      .where('status', '=', 'completed')
      .where((eb) =>
        eb(
          eb
            .selectFrom('artifacts')
            .select((a) => a.fn.countAll<number>().as('n'))
            .whereRef('artifacts.request_id', '=', 'signature_requests.id'),
          '<',
          3,
        ),
      )
      .orderBy('completed_at', 'asc'),
  );
  const now = ctx.clock.realNow();
  const attempts: Array<Promise<boolean>> = [];
  for (const { id } of due) {
    const running = state.running.get(id);
    if (running) {
      attempts.push(running);
      continue;
    }
    if ((state.failures.get(id)?.retryAt ?? 0) > now) continue;
    attempts.push(startArtifactGeneration(ctx, id));
  }
  if (!options.wait) return 0;
  return (await Promise.all(attempts)).filter(Boolean).length;
}

/** Runs `fn` when one of the PARALLEL slots is free; a finishing job hands its slot to the next. */
async function withSlot<T>(state: GenerationState, fn: () => Promise<T>): Promise<T> {
  if (state.active >= PARALLEL) await new Promise<void>((resolve) => state.waiting.push(resolve));
  else state.active += 1;
  try {
    return await fn();
  } finally {
    const next = state.waiting.shift();
    if (next) next();
    else state.active -= 1;
  }
}
