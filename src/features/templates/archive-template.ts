import type { Context } from '../../context.js';
import { recordIdempotentAnswer } from '../idempotency/committed-answers.js';
import { archivedTemplateBlobs, findActiveTemplate, forgetTemplateBlob, markTemplateArchived } from './queries.js';
import type { Principal } from '../../domain/principal.js';
import { templateNotFound } from './load-template.js';

/**
 * Archives a template: it leaves the list and can no longer be used, and its PDF is deleted. Requests
 * made from it keep their own copy. The row is marked first and the file deleted after, so a create
 * that loaded the template just before sees it archived and makes nothing; a file left by an archive
 * that stopped half-way is deleted by the account's next archive.
 */
export async function archiveTemplate(ctx: Context, input: { principal: Principal; id: string }): Promise<void> {
  const { accountId } = input.principal;
  ctx.db.transaction(() => {
    if (!findActiveTemplate(ctx.db, accountId, input.id)) throw templateNotFound(input.id);
    markTemplateArchived(ctx.db, input.id, ctx.clock.now());
    // With its change: a retry after a crash at any later instant replays the 204 (a 404 otherwise: the template is gone).
    recordIdempotentAnswer(ctx, { status: 204, body: null });
  });
  for (const template of archivedTemplateBlobs(ctx.db, accountId)) {
    await ctx.blobs.delete(template.blob_id);
    ctx.db.transaction(() => forgetTemplateBlob(ctx.db, template.id));
  }
}
