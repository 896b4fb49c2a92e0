import type { Context } from '../../context.js';
import { currentSigners } from '../../model/request-queries.js';
import { signerOutstanding } from '../../domain/request-states.js';
import { conflict, notFound } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import { audit } from '../events/record-events.js';
import { assertMove, loadRequest, updateRequest } from '../../model/request-guard.js';
import { issueLink } from '../../model/signing-links.js';
import { queueMail, sendQueuedMail } from '../mail/outbox.js';
import { waitingNames } from '../signing/signer-turns.js';
import { recordIdempotentAnswer } from '../idempotency/committed-answers.js';

export interface Reminder {
  reference: string;
  email_delivery: string;
  signing_url: string;
  embed_url?: string;
}

/**
 * Reminds one signer, or every signer who has neither signed nor declined: each gets a new link and
 * the previous one stops working. An expired signer of a still-active request gets a live link again.
 */
export async function sendReminders(
  ctx: Context,
  input: { principal: Principal; id: string; signerReference?: string | undefined },
): Promise<{ id: string; status: 'active'; reminders: Reminder[] }> {
  const mails: string[] = [];
  const answer = ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const row = loadRequest(ctx, input.principal.accountId, input.id);
    assertMove(row, 'remind');
    const signers = currentSigners(ctx.db, row.id);
    let chosen = signers.filter((s) => signerOutstanding(s.status));
    if (input.signerReference !== undefined) {
      const signer = signers.find((s) => s.reference === input.signerReference);
      if (!signer) throw notFound(`no active signer has the reference "${input.signerReference}"`);
      if (!signerOutstanding(signer.status)) {
        throw conflict(`signer "${signer.reference}" already ${signer.status}: there is nothing to remind`);
      }
      chosen = [signer];
    }
    const updated = updateRequest(ctx, row, {}, now);
    const reminders = chosen.map((signer) => {
      if (signer.status === 'expired') {
        ctx.db.run(ctx.db.q.updateTable('signers').set({ status: 'pending' }).where('id', '=', signer.id));
      }
      const link = issueLink(ctx, updated, signer, now);
      const waitingFor = waitingNames(ctx, updated, signer);
      mails.push(queueMail(ctx, { request: updated, signer, kind: 'reminder', link: link.signing_url, linkExpiresAt: link.expires_at, waitingFor }));
      audit(ctx, {
        requestId: row.id,
        type: 'reminder_sent',
        actor: { type: 'api_client', keyId: input.principal.apiKeyId },
        signerId: signer.id,
        at: now,
      });
      return {
        reference: signer.reference,
        email_delivery: 'failed',
        signing_url: link.signing_url,
        ...(row.embed_origin !== null ? { embed_url: link.embed_url } : {}),
      };
    });
    const result = { id: row.id, status: 'active' as const, reminders };
    // The answer goes with the change; a replay reads each reminder's outcome from the outbox.
    recordIdempotentAnswer(ctx, { status: 200, body: result, mails: mails.map((mail_id, i) => ({ path: ['reminders', i], mail_id })) });
    return result;
  });
  // A reminder always mails the new link; the answer says whether it went.
  const sent = await sendQueuedMail(ctx, mails);
  answer.reminders.forEach((reminder, i) => {
    reminder.email_delivery = sent.get(mails[i] ?? '') ?? 'failed';
  });
  return answer;
}
