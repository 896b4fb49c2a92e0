import type { Context } from '../../context.js';
import { isParaphError } from '../../domain/errors.js';
import type { BulkSendBatch, BulkSendError, BulkSendRecipient, BulkSendResponse, BulkSendResult } from '../../contract/bulk-sends.js';
import { activateSignatureRequest, type ActivatedSignerView } from './activate-signature-request.js';
import type { Principal } from '../../domain/principal.js';
import { checkDeliveryOptions, createSignatureRequest } from './create-signature-request.js';
import { loadTemplate, type TemplateSource } from '../templates/load-template.js';
import { inKeyedRow } from '../idempotency/committed-answers.js';
import { committedRowAnswers, type RowAnswers } from '../idempotency/row-answers.js';

/** A recipient as it arrived: valid against BulkSendRecipient, or the sentence saying why not. */
export type BulkRow = { recipient: BulkSendRecipient } | { clientReference: string; invalid: string };

export interface BulkSendInput {
  principal: Principal;
  /** The batch's options, already valid against the BulkSendBatch schema. */
  batch: Omit<BulkSendBatch, 'recipients'>;
  rows: readonly BulkRow[];
}

/**
 * One request created and activated per recipient, from the template, through the same create and
 * activate as single calls. The batch as a whole answers 400 (options), 404 or 409 (template); after
 * that each row succeeds or fails on its own. A row whose `client_reference` the account already used
 * is `already_exists`: nothing is created, activated or mailed for it again. With an Idempotency-Key,
 * each row's create and activation write their answer as that row's: a retry after a crash answers the
 * rows the first attempt got through as it would have (their links, their mails' outcome), finishes a
 * row it created but did not activate, and does the rest.
 */
export async function bulkSend(ctx: Context, input: BulkSendInput): Promise<BulkSendResponse> {
  const { batch, principal } = input;
  checkDeliveryOptions(ctx, batch, 'body');
  const template = await loadTemplate(ctx, principal.accountId, batch.template_id);
  const results: BulkSendResult[] = [];
  const earlier = new Set<string>();
  const answered = committedRowAnswers(ctx);
  for (const [index, row] of input.rows.entries()) {
    if ('invalid' in row) {
      results.push(failed(row.clientReference, { code: 'invalid_request', message: row.invalid }));
      continue;
    }
    const reference = row.recipient.client_reference;
    if (earlier.has(reference)) {
      const message = `recipients[${index}].client_reference "${reference}" is used by an earlier recipient of this batch`;
      results.push(failed(reference, { code: 'invalid_request', message }));
      continue;
    }
    earlier.add(reference);
    results.push(await sendOne(ctx, { principal, batch, template, recipient: row.recipient, index, answered }));
  }
  return {
    template_id: batch.template_id,
    total: results.length,
    created: results.filter((r) => r.status === 'active').length,
    failed: results.filter((r) => r.status === 'error').length,
    results,
  };
}

interface Row {
  principal: Principal;
  batch: BulkSendInput['batch'];
  template: TemplateSource;
  recipient: BulkSendRecipient;
  index: number;
  /** The answers this row's steps wrote in an earlier attempt of the same keyed call. */
  answered: RowAnswers;
}

type Activated = Awaited<ReturnType<typeof activateSignatureRequest>>;

async function sendOne(ctx: Context, row: Row): Promise<BulkSendResult> {
  const { batch, recipient, index } = row;
  const reference = recipient.client_reference;
  const activatedBefore = row.answered.get(index, 'activate') as Activated | undefined;
  if (activatedBefore) return activeResult(recipient, activatedBefore);
  const createdBefore = row.answered.get(index, 'create') as { id: string } | undefined;
  let id: string;
  if (createdBefore) {
    // Created by an attempt of this very call that stopped before activating it: activated now, once.
    id = createdBefore.id;
  } else {
    let created;
    try {
      created = await inKeyedRow({ index, step: 'create' }, () =>
        createSignatureRequest(ctx, {
          principal: row.principal,
          document: null,
          template: row.template,
          root: `recipients[${index}]`,
          payload: {
            client_reference: reference,
            template_id: batch.template_id,
            signers: recipient.signers,
            field_values: recipient.field_values,
            callback_url: batch.callback_url,
            return_url: recipient.return_url ?? batch.return_url,
            email: batch.email,
            sequential_signing: batch.sequential_signing,
            embed_origin: batch.embed_origin,
          },
        }),
      );
    } catch (error) {
      // The row's own data (or its template, archived meanwhile) is at fault: retrying will not help.
      if (isParaphError(error) && error.status < 500) return failed(reference, { code: 'invalid_request', message: error.message });
      ctx.log.error({ err: error, row: index }, 'bulk send: a row could not be created');
      const message = 'the request could not be created; send the batch again to retry this recipient';
      return failed(reference, { code: 'temporarily_unavailable', message });
    }
    id = created.response.id;
    if (!created.created) return { client_reference: reference, status: 'already_exists', id, signers: [] };
  }

  try {
    const activated = await inKeyedRow({ index, step: 'activate' }, () =>
      activateSignatureRequest(ctx, {
        principal: row.principal,
        id,
        options: { send_emails: batch.send_emails, link_expiry_days: batch.link_expiry_days },
      }),
    );
    return activeResult(recipient, activated);
  } catch (error) {
    if (!isParaphError(error)) ctx.log.error({ err: error, row: index }, 'bulk send: a row could not be activated');
    const why = isParaphError(error) && error.status < 500 ? error.message : 'the activation could not be completed';
    const message = `the request was created (prepared) but not activated: ${why}; activate it with POST /v1/signature-requests/${id}/activate`;
    return { ...failed(reference, { code: 'activation_failed', message }), id };
  }
}

/** An activated row: each signer's link and invitation outcome, with the email the recipient gave. */
function activeResult(recipient: BulkSendRecipient, activated: { id: string; signers: readonly ActivatedSignerView[] }): BulkSendResult {
  const emails = new Map(recipient.signers.map((s) => [s.reference, s.email]));
  return {
    client_reference: recipient.client_reference,
    status: 'active',
    id: activated.id,
    signers: activated.signers.map((signer) => ({
      id: signer.id,
      reference: signer.reference,
      email: emails.get(signer.reference) ?? '',
      status: signer.status,
      signing_url: signer.signing_url,
      email_delivery: signer.email_delivery,
      ...(signer.embed_url !== '' ? { embed_url: signer.embed_url } : {}),
    })),
  };
}

function failed(clientReference: string, error: BulkSendError): BulkSendResult {
  return { client_reference: clientReference, status: 'error', signers: [], error };
}
