import type { Context } from '../../context.js';
import { currentSigners, requestFields } from '../../model/request-queries.js';
import { signerWithoutField } from '../../domain/field-rules.js';
import { ParaphError } from '../../domain/errors.js';
import { DEFAULT_LINK_EXPIRY_DAYS } from '../../domain/limits.js';
import type { ActivateInput } from '../../contract/signature-requests.js';
import type { Principal } from '../../domain/principal.js';
import { audit, emitEvent } from '../events/record-events.js';
import { assertMove, loadRequest, moveRequest } from '../../model/request-guard.js';
import { issueLink } from '../../model/signing-links.js';
import { queueMail, sendQueuedMail } from '../mail/outbox.js';
import { signersBefore } from '../signing/signer-turns.js';
import { warmArtifactGeneration } from '../artifacts/generate-artifacts.js';
import { recordIdempotentAnswer } from '../idempotency/committed-answers.js';

export interface ActivatedSignerView {
  id: string;
  reference: string;
  status: 'pending';
  signing_url: string;
  email_delivery: 'not_requested' | 'sent' | 'failed';
  embed_url: string;
}

/** prepared -> active: one secret link per signer; event signature_request.activated. */
export async function activateSignatureRequest(
  ctx: Context,
  input: { principal: Principal; id: string; options: ActivateInput },
): Promise<{ id: string; status: 'active'; environment: 'sandbox'; signers: ActivatedSignerView[] }> {
  const mails = new Map<string, string>();
  const answer = ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const row = loadRequest(ctx, input.principal.accountId, input.id);
    assertMove(row, 'activate');
    const signers = currentSigners(ctx.db, row.id);
    const missing = signerWithoutField(requestFields(ctx.db, row.id), signers);
    if (missing !== null) {
      throw new ParaphError(
        'request_not_ready',
        `signer "${missing}" has no field: give every signer at least one with PUT /v1/signature-requests/${row.id}/fields, then activate`,
      );
    }
    const active = moveRequest(
      ctx,
      row,
      'activate',
      {
        activated_at: now,
        link_expiry_days: input.options.link_expiry_days ?? DEFAULT_LINK_EXPIRY_DAYS,
        send_emails: input.options.send_emails === true ? 1 : 0,
      },
      now,
    );
    const views = signers.map((signer): ActivatedSignerView => {
      const link = issueLink(ctx, active, signer, now);
      // Sequential signing: a signer who must wait is invited when their turn comes (signer-turns.ts).
      if (input.options.send_emails === true && signersBefore(ctx, active, signer, signers).length === 0) {
        mails.set(signer.id, queueMail(ctx, { request: active, signer, kind: 'invitation', link: link.signing_url, linkExpiresAt: link.expires_at }));
      }
      return {
        id: signer.id,
        reference: signer.reference,
        status: 'pending',
        signing_url: link.signing_url,
        email_delivery: 'not_requested',
        embed_url: link.embed_url,
      };
    });
    emitEvent(ctx, { request: active, type: 'signature_request.activated', at: now });
    audit(ctx, {
      requestId: row.id,
      type: 'request_activated',
      actor: { type: 'api_client', keyId: input.principal.apiKeyId },
      data: { link_expiry_days: active.link_expiry_days, send_emails: input.options.send_emails === true },
      at: now,
    });
    const result = { id: row.id, status: 'active' as const, environment: 'sandbox' as const, signers: views };
    // The answer goes with the change; a replay reads each invitation's outcome from the outbox.
    const answerMails = views.flatMap((v, i) => (mails.has(v.id) ? [{ path: ['signers', i], mail_id: mails.get(v.id) as string }] : []));
    recordIdempotentAnswer(ctx, { status: 200, body: result, mails: answerMails });
    return result;
  });
  // A completion may follow: a worker that is gone (a crash, a time-out) starts again meanwhile.
  warmArtifactGeneration(ctx);
  // The answer waits for the invitations so that it can say truthfully whether each was sent.
  const sent = await sendQueuedMail(ctx, [...mails.values()]);
  for (const view of answer.signers) {
    const mail = mails.get(view.id);
    if (mail !== undefined) view.email_delivery = sent.get(mail) ?? 'failed';
  }
  return answer;
}
