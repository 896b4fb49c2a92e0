import type { Context } from '../../context.js';
import type { SignatureRequestStatus } from '../../contract/signature-requests.js';
import type { Principal } from '../../domain/principal.js';
import { audit, emitEvent } from '../events/record-events.js';
import { loadRequest, moveRequest } from '../../model/request-guard.js';
import { requestStatus } from './get-signature-request.js';
import { revokeRequestLinks } from '../../model/signing-links.js';
import { currentSigners } from '../../model/request-queries.js';
import { queueMail, sendQueuedMail } from '../mail/outbox.js';
import { recordIdempotentAnswer } from '../idempotency/committed-answers.js';

/** prepared or active -> cancelled: every unsigned link dies, the reason is kept. */
export function cancelSignatureRequest(ctx: Context, input: { principal: Principal; id: string; reason?: string | undefined }): SignatureRequestStatus {
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const row = loadRequest(ctx, input.principal.accountId, input.id);
    const cancelled = moveRequest(ctx, row, 'cancel', { cancelled_at: now, cancellation_reason: input.reason ?? null }, now);
    revokeRequestLinks(ctx, row.id, 'cancelled', now);
    // Each signer who was mailed about the request learns it is cancelled, with the reason (after the commit).
    const mails = currentSigners(ctx.db, row.id)
      .filter(
        (signer) => ctx.db.first(ctx.db.q.selectFrom('mail_outbox').select('id').where('signer_id', '=', signer.id).where('kind', '!=', 'otp')) !== undefined,
      )
      .map((signer) => queueMail(ctx, { request: cancelled, signer, kind: 'cancelled', reason: input.reason ?? null }));
    if (mails.length > 0) ctx.afterCommit(() => void ctx.background.add(sendQueuedMail(ctx, mails)));
    // The event is always recorded; it is delivered only when the request has a callback URL.
    emitEvent(ctx, { request: cancelled, type: 'signature_request.cancelled', at: now });
    audit(ctx, {
      requestId: row.id,
      type: 'request_cancelled',
      actor: { type: 'api_client', keyId: input.principal.apiKeyId },
      data: input.reason === undefined ? {} : { reason: input.reason },
      at: now,
    });
    const answer = requestStatus(ctx, cancelled);
    recordIdempotentAnswer(ctx, { status: 200, body: answer });
    return answer;
  });
}
