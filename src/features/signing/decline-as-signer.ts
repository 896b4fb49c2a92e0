import { isoTime } from '../../platform/clock.js';
import type { Context } from '../../context.js';
import { conflict, invalidRequest } from '../../domain/errors.js';
import type { SignerOutcome } from '../../contract/signing.js';
import { audit, emitEvent } from '../events/record-events.js';
import { moveRequest } from '../../model/request-guard.js';
import { openLink, returnUrlFor } from './signer-access.js';
import { revokeRequestLinks } from '../../model/signing-links.js';
import type { SignerRow } from '../../model/request-queries.js';

/** The signer declines with a reason: signer and request `declined`, every other link closed. */
export function declineAsSigner(ctx: Context, token: string, reason: string, verification: string | null): SignerOutcome {
  return ctx.db.transaction(() => {
    if (reason.trim() === '') throw invalidRequest('reason must not be blank: say why you decline');
    const open = openLink(ctx, token, verification);
    const { request, signer } = open;
    if (open.verificationRequired) throw conflict('enter the code sent by email before declining');
    const now = ctx.clock.now();
    const declined: SignerRow = { ...signer, status: 'declined', updated_at: now };
    ctx.db.run(ctx.db.q.updateTable('signers').set({ status: 'declined', updated_at: now }).where('id', '=', signer.id));
    const updated = moveRequest(ctx, request, 'decline', {}, now);
    revokeRequestLinks(ctx, request.id, 'closed', now);
    const actor = { type: 'signer' as const, signerId: signer.id, email: signer.email };
    emitEvent(ctx, { request: updated, type: 'signer.declined', signer: declined, reason, at: now });
    emitEvent(ctx, { request: updated, type: 'signature_request.declined', at: now });
    audit(ctx, { requestId: request.id, type: 'signer_declined', actor, signerId: signer.id, data: { reason }, at: now });
    audit(ctx, { requestId: request.id, type: 'request_declined', actor: { type: 'system' }, at: now });
    return {
      status: 'declined' as const,
      request_status: 'declined',
      signed_at: isoTime(null),
      return_url: returnUrlFor(ctx, request, signer, 'declined'),
      next: 'none' as const,
    };
  });
}
