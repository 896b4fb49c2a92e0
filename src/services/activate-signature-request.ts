import type { Context } from '../context.js';
import { currentSigners, requestFields } from '../db/repos/signature-requests.js';
import { signerWithoutField } from '../domain/field-rules.js';
import { ParaphError } from '../errors.js';
import type { ActivateInput } from '../http/schemas/signature-requests.js';
import type { Principal } from './authenticate-api-key.js';
import { audit, emitEvent } from './record-events.js';
import { assertMove, loadRequest, updateRequest } from './request-guard.js';
import { issueLink } from './signing-links.js';

export interface ActivatedSignerView {
  id: string;
  reference: string;
  status: 'pending';
  signing_url: string;
  email_delivery: 'not_requested' | 'sent' | 'failed';
  embed_url: string;
}

/** prepared -> active: one secret link per signer; event signature_request.activated. */
export function activateSignatureRequest(
  ctx: Context,
  input: { principal: Principal; id: string; options: ActivateInput },
): { id: string; status: 'active'; environment: 'sandbox'; signers: ActivatedSignerView[] } {
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const row = loadRequest(ctx, input.principal.accountId, input.id);
    const to = assertMove(row, 'activate');
    const signers = currentSigners(ctx.db, row.id);
    const missing = signerWithoutField(requestFields(ctx.db, row.id), signers);
    if (missing !== null) {
      throw new ParaphError('request_not_ready', `signer "${missing}" has no field: confirm the fields with PUT /fields first`);
    }
    const active = updateRequest(
      ctx,
      row,
      { status: to, activated_at: now, link_expiry_days: input.options.link_expiry_days ?? 7 },
      now,
    );
    const views = signers.map((signer) => {
      const link = issueLink(ctx, active, signer, now);
      return {
        id: signer.id,
        reference: signer.reference,
        status: 'pending' as const,
        signing_url: link.signing_url,
        // Sending mail arrives with the SMTP catcher; until then nothing is sent.
        email_delivery: input.options.send_emails === true ? ('failed' as const) : ('not_requested' as const),
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
    return { id: row.id, status: 'active' as const, environment: 'sandbox' as const, signers: views };
  });
}
