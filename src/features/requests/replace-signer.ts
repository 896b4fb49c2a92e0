import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { currentSigners, type SignerRow } from '../../model/request-queries.js';
import { conflict, invalidRequest, notFound } from '../../domain/errors.js';
import type { SignerReplaceInput, SignerStatusValue } from '../../contract/signature-requests.js';
import type { Principal } from '../../domain/principal.js';
import { audit, emitEvent } from '../events/record-events.js';
import { assertMove, loadRequest, updateRequest } from '../../model/request-guard.js';
import { issueLink, revokeSignerLinks } from '../../model/signing-links.js';
import { queueMail, sendQueuedMail } from '../mail/outbox.js';
import { waitingNames } from '../signing/signer-turns.js';
import { recordIdempotentAnswer } from '../idempotency/committed-answers.js';

export interface ReplacedSignerView {
  id: string;
  signer: {
    id: string;
    reference: string;
    email: string;
    status: SignerStatusValue;
    signing_url: string;
    embed_url?: string;
    email_delivery: 'not_requested' | 'sent' | 'failed';
  };
}

/**
 * Gives a signer's role to another person. Before activation the signer is simply corrected; once
 * active the old signer is revoked (link dead, gone from status) and a new signer takes the same
 * reference, order and fields with a fresh link.
 */
export async function replaceSigner(
  ctx: Context,
  input: { principal: Principal; id: string; reference: string; person: SignerReplaceInput },
): Promise<ReplacedSignerView> {
  let mail: string | null = null;
  const answer = ctx.db.transaction(() => {
    const result = replaceInTransaction();
    // The answer goes with the change; a replay reads the mail's outcome from the outbox.
    recordIdempotentAnswer(ctx, { status: 200, body: result, mails: mail === null ? [] : [{ path: ['signer'], mail_id: mail }] });
    return result;
  });
  if (mail !== null) answer.signer.email_delivery = (await sendQueuedMail(ctx, [mail])).get(mail) ?? 'failed';
  return answer;

  function replaceInTransaction(): ReplacedSignerView {
    const now = ctx.clock.now();
    const row = loadRequest(ctx, input.principal.accountId, input.id);
    assertMove(row, 'replace_signer');
    const signers = currentSigners(ctx.db, row.id);
    const old = signers.find((s) => s.reference === input.reference);
    if (!old) throw notFound(`no active signer has the reference "${input.reference}"`);
    if (old.status === 'signed' || old.status === 'declined') {
      throw conflict(`signer "${old.reference}" already ${old.status}: the role can no longer be given to someone else`);
    }
    const email = input.person.email.toLowerCase();
    if (signers.some((s) => s.id !== old.id && s.email.toLowerCase() === email)) {
      throw invalidRequest(`email ${input.person.email} is already used by another signer of this request`);
    }
    const person = { email: input.person.email, name: input.person.name ?? null, locale: input.person.locale ?? null };
    const actor = { type: 'api_client' as const, keyId: input.principal.apiKeyId };

    if (row.status === 'prepared') {
      ctx.db.run(
        ctx.db.q
          .updateTable('signers')
          .set({ ...person, updated_at: now })
          .where('id', '=', old.id),
      );
      updateRequest(ctx, row, {}, now);
      audit(ctx, { requestId: row.id, type: 'signer_corrected', actor, signerId: old.id, data: { reference: old.reference }, at: now });
      return view(row.id, { ...old, ...person }, { signing_url: '', embed_url: '' }, 'not_requested', row.embed_origin !== null);
    }

    const fresh: SignerRow = { ...old, ...person, id: randomUUID(), status: 'pending', signed_at: null, verified_at: null, created_at: now, updated_at: now };
    ctx.db.run(ctx.db.q.updateTable('signers').set({ replaced_at: now, updated_at: now }).where('id', '=', old.id));
    ctx.db.insert('signers', fresh);
    const updated = updateRequest(ctx, row, {}, now);
    revokeSignerLinks(ctx, old.id, 'replaced', now);
    const link = issueLink(ctx, updated, fresh, now);
    emitEvent(ctx, { request: updated, type: 'signer.replaced', signer: fresh, replacedSigner: old, at: now });
    if (input.person.send_email === true) {
      const waitingFor = waitingNames(ctx, updated, fresh);
      mail = queueMail(ctx, { request: updated, signer: fresh, kind: 'replacement', link: link.signing_url, linkExpiresAt: link.expires_at, waitingFor });
    }
    audit(ctx, { requestId: row.id, type: 'signer_replaced', actor, signerId: fresh.id, data: { replaced_signer_id: old.id }, at: now });
    return view(row.id, fresh, link, 'not_requested', row.embed_origin !== null);
  }
}

function view(
  requestId: string,
  signer: SignerRow,
  link: { signing_url: string; embed_url: string },
  delivery: 'not_requested' | 'sent' | 'failed',
  embedded: boolean,
): ReplacedSignerView {
  return {
    id: requestId,
    signer: {
      id: signer.id,
      reference: signer.reference,
      email: signer.email,
      status: signer.status,
      signing_url: link.signing_url,
      ...(embedded ? { embed_url: link.embed_url } : {}),
      email_delivery: delivery,
    },
  };
}
