import type { Context } from '../../context.js';
import { requestFields } from '../../model/request-queries.js';
import type { DashboardRequestDetail } from '../../contract/dashboard.js';
import { listCaughtEmails } from '../mail/caught-emails.js';
import { showRequest } from './operator-requests.js';
import { listOperatorDeliveries } from './operator-deliveries.js';
import { verifyAuditTrail } from '../artifacts/verify-audit-trail.js';
import { artifactAttempts } from '../artifacts/artifact-attempts.js';

/** Everything the operator sees of one request: status, signers, fields, audit trail and its check, mail, webhooks, artifact attempts. */
export function operatorRequestDetail(ctx: Context, id: string): DashboardRequestDetail {
  const view = showRequest(ctx, id);
  const check = verifyAuditTrail(ctx, id);
  const request = ctx.db.first(ctx.db.q.selectFrom('signature_requests').select('embed_origin').where('id', '=', id));
  return {
    ...view,
    embed_origin: request?.embed_origin ?? '',
    layout: requestFields(ctx.db, id).map((f) => ({
      type: f.type,
      name: f.name ?? '',
      signer_reference: f.signer_reference,
      page: f.page,
      x: f.x,
      y: f.y,
      width: f.width,
      height: f.height,
    })),
    audit_check: { events: check.events, head: check.head, intact: check.intact, broken: check.broken },
    emails: listCaughtEmails(ctx, { accountId: null, signatureRequestId: id }),
    webhook_deliveries: listOperatorDeliveries(ctx, { signatureRequestId: id, limit: 100 }).data,
    artifact_attempts: artifactAttempts(ctx, id),
  };
}
