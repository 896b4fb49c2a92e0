import type { Context } from '../../context.js';
import { currentSigners } from '../../model/request-queries.js';
import { checkFields, checkFieldsOnPages, signerWithoutField } from '../../domain/field-rules.js';
import type { PageBox } from '../../domain/field-rules.js';
import { failWith } from '../../domain/errors.js';
import { undrawnFieldValue } from '../../pdf/font-coverage.js';
import type { FieldInput, SignatureRequestStatus } from '../../contract/signature-requests.js';
import type { Principal } from '../../domain/principal.js';
import { fieldRows } from './field-rows.js';
import { audit } from '../events/record-events.js';
import { assertMove, loadRequest, updateRequest } from '../../model/request-guard.js';
import { requestDocument } from '../../model/documents.js';
import { requestStatus } from './get-signature-request.js';
import { recordIdempotentAnswer } from '../idempotency/committed-answers.js';

/** PUT /fields: the confirmed field set replaces every field; every signer needs one. */
export function replaceFields(ctx: Context, input: { principal: Principal; id: string; fields: FieldInput[] }): SignatureRequestStatus {
  return ctx.db.transaction(() => {
    const now = ctx.clock.now();
    const row = loadRequest(ctx, input.principal.accountId, input.id);
    assertMove(row, 'set_fields');
    const signers = currentSigners(ctx.db, row.id);
    const refs = signers.map((s) => ({ reference: s.reference, email: s.email, order: s.signing_order }));
    failWith(checkFields(input.fields, refs, 'fields'));
    failWith(undrawnFieldValue(input.fields, 'fields'));
    failWith(checkFieldsOnPages(input.fields, JSON.parse(requestDocument(ctx.db, row).pages_json) as PageBox[], 'fields'));
    const missing = signerWithoutField(input.fields, signers);
    if (missing !== null) failWith(`fields: signer "${missing}" has no field; every signer needs at least one`);

    ctx.db.run(ctx.db.q.deleteFrom('fields').where('request_id', '=', row.id));
    for (const field of fieldRows(row.id, input.fields)) ctx.db.insert('fields', field);
    const updated = updateRequest(ctx, row, {}, now);
    audit(ctx, {
      requestId: row.id,
      type: 'fields_confirmed',
      actor: { type: 'api_client', keyId: input.principal.apiKeyId },
      data: { field_count: input.fields.length },
      at: now,
    });
    const answer = requestStatus(ctx, updated);
    recordIdempotentAnswer(ctx, { status: 200, body: answer });
    return answer;
  });
}
