import type { Context } from '../context.js';
import { currentSigners } from '../db/repos/signature-requests.js';
import { signerOutstanding, type SignerStatus } from '../domain/request-states.js';
import { conflict, notFound } from '../errors.js';
import type { Principal } from './authenticate-api-key.js';
import { audit } from './record-events.js';
import { assertMove, loadRequest, updateRequest } from './request-guard.js';
import { issueLink } from './signing-links.js';

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
export function sendReminders(
  ctx: Context,
  input: { principal: Principal; id: string; signerReference?: string | undefined },
): { id: string; status: 'active'; reminders: Reminder[] } {
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const row = loadRequest(ctx, input.principal.accountId, input.id);
    assertMove(row, 'remind');
    const signers = currentSigners(ctx.db, row.id);
    let chosen = signers.filter((s) => signerOutstanding(s.status as SignerStatus));
    if (input.signerReference !== undefined) {
      const signer = signers.find((s) => s.reference === input.signerReference);
      if (!signer) throw notFound(`no active signer has the reference "${input.signerReference}"`);
      if (!signerOutstanding(signer.status as SignerStatus)) {
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
      audit(ctx, {
        requestId: row.id,
        type: 'reminder_sent',
        actor: { type: 'api_client', keyId: input.principal.apiKeyId },
        signerId: signer.id,
        at: now,
      });
      return {
        reference: signer.reference,
        // Sending mail arrives with the SMTP catcher; until then the link is only returned here.
        email_delivery: 'failed',
        signing_url: link.signing_url,
        ...(row.embed_origin !== null ? { embed_url: link.embed_url } : {}),
      };
    });
    return { id: row.id, status: 'active' as const, reminders };
  });
}
