import { randomInt, randomUUID } from 'node:crypto';
import { isoTime } from '../../platform/clock.js';
import type { Context } from '../../context.js';
import type { RequestRow, SignerRow } from '../../model/request-queries.js';
import { randomBase62, safeEqual, sha256Hex } from '../../platform/crypto/tokens.js';
import { conflict, ParaphError } from '../../domain/errors.js';
import {
  OTP_ATTEMPTS_PER_CODE as ATTEMPTS_PER_CODE,
  OTP_CODE_TTL_MS as CODE_TTL_MS,
  OTP_CODE_WINDOW_MS as CODE_WINDOW_MS,
  OTP_CODES_PER_WINDOW as CODES_PER_WINDOW,
  OTP_FAILURE_WINDOW_MS,
  OTP_FAILURES_PER_DAY as FAILURES_PER_DAY,
} from '../../domain/limits.js';
import { queueMail, sendQueuedMail } from '../mail/outbox.js';
import { audit } from '../events/record-events.js';
import { closedMessage, describeOpen, verifiedHere } from './signer-access.js';
import { resolveSigningLink } from './resolve-signing-link.js';

/**
 * Emails the signer a fresh 6-digit code (any earlier one dies), valid 10 minutes on the sandbox clock.
 * A browser or client that has not entered the code itself needs one, even when another did. At most
 * 5 codes per link in 10 minutes: the sixth answers 429 with Retry-After.
 */
export async function sendSignerOtp(
  ctx: Context,
  token: string,
  verification: string | null,
): Promise<{ sent: boolean; expires_at: string; email_delivery: 'sent' | 'failed' }> {
  const { mailId, expiresAt } = ctx.db.transaction(() => {
    const { request, signer } = linkForCode(ctx, token, verification);
    if (signer.verification !== 'email_otp') throw conflict('this signer has no email verification');
    if (verifiedHere(ctx, signer, verification)) throw conflict('the email code was already entered in this browser');
    const now = ctx.clock.now();
    assertNotLocked(ctx, signer.id, now);
    assertCodeAllowed(ctx, signer.id, now);
    ctx.db.run(ctx.db.q.updateTable('signer_otps').set({ closed_at: now }).where('signer_id', '=', signer.id).where('closed_at', 'is', null));
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expires = now + CODE_TTL_MS;
    ctx.db.insert('signer_otps', {
      id: randomUUID(),
      signer_id: signer.id,
      code_hash: sha256Hex(`${signer.id}:${code}`),
      attempts: 0,
      created_at: now,
      expires_at: expires,
      closed_at: null,
    });
    audit(ctx, { requestId: request.id, type: 'otp_sent', actor: { type: 'signer', signerId: signer.id, email: signer.email }, signerId: signer.id, at: now });
    return { mailId: queueMail(ctx, { request, signer, kind: 'otp', code }), expiresAt: expires };
  });
  const delivery = (await sendQueuedMail(ctx, [mailId])).get(mailId) ?? 'failed';
  return { sent: delivery === 'sent', expires_at: isoTime(expiresAt), email_delivery: delivery };
}

/**
 * Checks a code: 5 attempts per code (the fifth wrong one kills it), at most 15 wrong codes in 24 hours
 * (then the signer's verification is locked until the window has passed). A right code makes a new
 * verification for the browser or client that entered it: `secret` is what it holds from then on
 * (the route sets it as a cookie and a header); each verification is an `otp_verified` audit event.
 */
export function verifySignerOtp(
  ctx: Context,
  token: string,
  code: string,
  verification: string | null,
): { verified: boolean; verified_at: string | null; attempts_left: number; locked_until: string | null; secret: string | null } {
  return ctx.db.transaction(() => {
    const { request, signer } = linkForCode(ctx, token, verification);
    if (signer.verification !== 'email_otp') throw conflict('this signer has no email verification');
    if (verifiedHere(ctx, signer, verification)) {
      return { verified: true, verified_at: isoTime(signer.verified_at), attempts_left: 0, locked_until: null, secret: null };
    }
    const now = ctx.clock.now();
    assertNotLocked(ctx, signer.id, now);
    const otp = ctx.db.first(
      ctx.db.q.selectFrom('signer_otps').selectAll().where('signer_id', '=', signer.id).where('closed_at', 'is', null).orderBy('created_at', 'desc'),
    );
    if (!otp || otp.expires_at <= now) throw new ParaphError('otp_code_expired', 'no valid code: request a new one');
    const actor = { type: 'signer' as const, signerId: signer.id, email: signer.email };
    if (safeEqual(otp.code_hash, sha256Hex(`${signer.id}:${code}`))) {
      const secret = randomBase62(32);
      ctx.db.run(ctx.db.q.updateTable('signer_otps').set({ closed_at: now }).where('id', '=', otp.id));
      // verified_at keeps the first verification; each one is in the audit trail.
      if (signer.verified_at === null) ctx.db.run(ctx.db.q.updateTable('signers').set({ verified_at: now, updated_at: now }).where('id', '=', signer.id));
      ctx.db.insert('signer_verifications', { id: randomUUID(), signer_id: signer.id, secret_hash: sha256Hex(`${signer.id}:${secret}`), created_at: now });
      const count = ctx.db.all(ctx.db.q.selectFrom('signer_verifications').select('id').where('signer_id', '=', signer.id)).length;
      audit(ctx, { requestId: request.id, type: 'otp_verified', actor, signerId: signer.id, data: { verification: count }, at: now });
      return { verified: true, verified_at: isoTime(signer.verified_at ?? now), attempts_left: ATTEMPTS_PER_CODE - otp.attempts, locked_until: null, secret };
    }
    const attempts = otp.attempts + 1;
    ctx.db.run(
      ctx.db.q
        .updateTable('signer_otps')
        .set({ attempts, closed_at: attempts >= ATTEMPTS_PER_CODE ? now : null })
        .where('id', '=', otp.id),
    );
    ctx.db.insert('otp_failures', { signer_id: signer.id, at: now });
    audit(ctx, { requestId: request.id, type: 'otp_failed', actor, signerId: signer.id, data: { attempt: attempts }, at: now });
    // The wrong code that locks the verification says so, and until when, as every later call does.
    const until = lockedUntil(ctx, signer.id, now);
    return {
      verified: false,
      verified_at: null,
      attempts_left: until === null ? Math.max(0, ATTEMPTS_PER_CODE - attempts) : 0,
      locked_until: until === null ? null : isoTime(until),
      secret: null,
    };
  });
}

/** Whether a code mailed to the signer is still valid: neither entered, used up, replaced nor expired (sandbox clock). */
export function liveCode(ctx: Context, signerId: string): boolean {
  const otp = ctx.db.first(
    ctx.db.q.selectFrom('signer_otps').select('expires_at').where('signer_id', '=', signerId).where('closed_at', 'is', null).orderBy('created_at', 'desc'),
  );
  return otp !== undefined && otp.expires_at > ctx.clock.now();
}

function assertNotLocked(ctx: Context, signerId: string, now: number): void {
  const until = lockedUntil(ctx, signerId, now);
  if (until !== null) {
    throw new ParaphError('otp_locked', `too many wrong codes: email verification is locked until ${isoTime(until)}`, {
      details: { locked_until: isoTime(until) },
    });
  }
}

/** When the signer's verification unlocks, if 15 wrong codes in 24 hours locked it; null if it is not locked. */
function lockedUntil(ctx: Context, signerId: string, now: number): number | null {
  const failures = ctx.db.all(
    ctx.db.q
      .selectFrom('otp_failures')
      .select('at')
      .where('signer_id', '=', signerId)
      .where('at', '>', now - OTP_FAILURE_WINDOW_MS)
      .orderBy('at', 'asc'),
  );
  if (failures.length < FAILURES_PER_DAY) return null;
  return (failures[failures.length - FAILURES_PER_DAY]?.at ?? now) + OTP_FAILURE_WINDOW_MS;
}

/** "Send me a code" at most CODES_PER_WINDOW times per link in CODE_WINDOW_MS: then 429 with Retry-After. */
function assertCodeAllowed(ctx: Context, signerId: string, now: number): void {
  const recent = ctx.db.all(
    ctx.db.q
      .selectFrom('signer_otps')
      .select('created_at')
      .where('signer_id', '=', signerId)
      .where('created_at', '>', now - CODE_WINDOW_MS)
      .orderBy('created_at', 'asc'),
  );
  if (recent.length < CODES_PER_WINDOW) return;
  const freeAt = (recent[recent.length - CODES_PER_WINDOW]?.created_at ?? now) + CODE_WINDOW_MS;
  const seconds = Math.max(1, Math.ceil((freeAt - now) / 1000));
  throw new ParaphError(
    'rate_limit_exceeded',
    `${CODES_PER_WINDOW} codes were sent for this link in the last ${CODE_WINDOW_MS / 60_000} minutes: use the last one, or ask for a new one in ${seconds} s`,
    { headers: { 'retry-after': String(seconds) } },
  );
}

/**
 * The link a code is asked or entered for: a live one, or the link of a signer who signed a completed request,
 * whose copy of the signed PDF stays behind their code (signer-copy.ts); any other closed link answers 409.
 */
function linkForCode(ctx: Context, token: string, verification: string | null): { request: RequestRow; signer: SignerRow } {
  const link = resolveSigningLink(ctx, token);
  if (link.ok) return describeOpen(ctx, link.request, link.signer, verification);
  if (link.reason === 'signed' && link.request?.status === 'completed' && link.signer) return { request: link.request, signer: link.signer };
  throw conflict(closedMessage(link.reason));
}
