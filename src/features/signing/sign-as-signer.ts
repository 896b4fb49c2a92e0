import type { Context } from '../../context.js';
import { currentSigners, requestFields, type RequestRow, type SignerRow } from '../../model/request-queries.js';
import { conflict, failWith, invalidRequest } from '../../domain/errors.js';
import { startArtifactGeneration } from '../artifacts/generate-artifacts.js';
import type { SignerOutcome, SignInput } from '../../contract/signing.js';
import { isoTime } from '../../platform/clock.js';
import { audit, emitEvent } from '../events/record-events.js';
import { moveRequest } from '../../model/request-guard.js';
import { openLink, returnUrlFor } from './signer-access.js';
import { identityValue, markViewed } from './signer-view.js';
import { revokeRequestLinks, revokeSignerLinks } from '../../model/signing-links.js';
import { nextSigners, personName, queueTurnMails } from './signer-turns.js';
import { sendQueuedMail } from '../mail/outbox.js';
import { expireRequest, someoneCanSign } from './no-one-can-sign.js';
import { isBlankText, isIsoDate } from '../../domain/field-rules.js';
import { undrawnTextProblem } from '../../pdf/font-coverage.js';

const MAX_IMAGE_BYTES = 512 * 1024;
/** A drawn mark's pixels: the signing page's canvas at three times its size is well within. */
const MAX_IMAGE_SIDE = 4096;
const MAX_IMAGE_PIXELS = 4_000_000;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The signer signs: every signature and initials field needs its mark, every text and date field a
 * value (sender values of read-only fields and identity values are kept whatever is sent). The last
 * signature completes the request; one that leaves to sign only signers who cannot (their links expired)
 * expires it.
 */
export function signAsSigner(ctx: Context, token: string, input: SignInput, verification: string | null): SignerOutcome {
  return ctx.db.transaction(() => {
    const open = openLink(ctx, token, verification);
    const { request, signer } = open;
    if (open.verificationRequired) throw conflict('enter the code sent by email before signing');
    if (open.waitingFor.length > 0) {
      throw conflict(`signing is sequential: ${open.waitingFor.map((r) => `"${r}"`).join(', ')} must sign first`);
    }
    const now = ctx.clock.now();
    const fields = requestFields(ctx.db, request.id).filter((f) => f.signer_reference === signer.reference);
    const given = input.fields ?? {};
    const known = new Set<string>();
    for (const field of fields) {
      if (field.type !== 'text' && field.type !== 'date') continue;
      const identity = identityValue(field, signer, now);
      const typed = (field.name !== null ? given[field.name] : undefined) ?? given[field.id];
      if (field.name !== null) known.add(field.name);
      known.add(field.id);
      const value = identity ?? (field.read_only === 1 ? field.value : (typed ?? field.value));
      if (!value || isBlankText(value)) throw invalidRequest(`field "${field.name ?? field.id}" needs a value`);
      if (value === typed) failWith(undrawnTextProblem(`field "${field.name ?? field.id}"`, typed, 'value'));
      // A date the signer gives is one date, written as every date on the document is: ISO 8601.
      if (field.type === 'date' && value === typed && !isIsoDate(typed)) {
        throw invalidRequest(`field "${field.name ?? field.id}" is a date: give it as YYYY-MM-DD (ISO 8601), e.g. 2026-11-28`);
      }
      if (value !== field.value) ctx.db.run(ctx.db.q.updateTable('fields').set({ value }).where('id', '=', field.id));
    }
    const unknown = Object.keys(given).find((key) => !known.has(key));
    if (unknown !== undefined) throw invalidRequest(`fields.${unknown} is not one of your text or date fields`);
    for (const kind of ['signature', 'initials'] as const) {
      if (!fields.some((f) => f.type === kind)) continue;
      const mark = input[kind];
      if (!mark) throw invalidRequest(`${kind} is required: the document has ${kind === 'signature' ? 'a signature' : 'an initials'} field for you`);
      if (mark.type === 'typed') {
        if (isBlankText(mark.text)) throw invalidRequest(`${kind}.text is blank: type the ${kind === 'signature' ? 'signature' : 'initials'} to draw`);
        failWith(undrawnTextProblem(`${kind}.text`, mark.text, 'mark'));
      }
      ctx.db.run(
        ctx.db.q
          .insertInto('signer_marks')
          .values({
            signer_id: signer.id,
            kind,
            method: mark.type,
            text: mark.type === 'typed' ? mark.text : null,
            image: mark.type === 'drawn' ? pngOf(mark.image, kind) : null,
            created_at: now,
          })
          .onConflict((oc) => oc.columns(['signer_id', 'kind']).doNothing()),
      );
    }

    // A signer who signs has opened their link: one whose client signed without loading the view first
    // is marked viewed at the same instant, so the signer still goes pending -> viewed -> signed.
    const seen = signer.status === 'pending' ? markViewed(ctx, request, signer) : signer;
    const signed: SignerRow = { ...seen, status: 'signed', signed_at: now, updated_at: now };
    ctx.db.run(ctx.db.q.updateTable('signers').set({ status: 'signed', signed_at: now, updated_at: now }).where('id', '=', signer.id));
    revokeSignerLinks(ctx, signer.id, 'closed', now);
    const actor = { type: 'signer' as const, signerId: signer.id, email: signer.email };
    const outstanding = currentSigners(ctx.db, request.id).filter((s) => s.id !== signer.id && s.status !== 'signed');
    let updated: RequestRow = moveRequest(ctx, request, 'sign', {}, now);
    // A signature that leaves to sign only signers whose links expired (or who wait behind one) ends the request: no signer can sign any more.
    const ends = outstanding.length > 0 && !someoneCanSign(ctx, updated);
    const after = outstanding.length === 0 ? 'completed' : ends ? 'expired' : updated.status;
    emitEvent(ctx, { request: { ...updated, status: after }, type: 'signer.completed', signer: signed, at: now });
    audit(ctx, { requestId: request.id, type: 'signer_signed', actor, signerId: signer.id, data: { fields: fields.length }, at: now });
    if (ends) updated = expireRequest(ctx, updated, now);
    if (outstanding.length === 0) {
      updated = moveRequest(ctx, updated, 'complete', { completed_at: now }, now);
      revokeRequestLinks(ctx, request.id, 'closed', now);
      emitEvent(ctx, { request: updated, type: 'signature_request.completed', at: now });
      audit(ctx, { requestId: request.id, type: 'request_completed', actor: { type: 'system' }, at: now });
      // Once the completion is committed, the artifacts are made in the background: never holding or failing this answer.
      ctx.afterCommit(() => void startArtifactGeneration(ctx, request.id));
    }
    const turns = queueTurnMails(ctx, updated, signed, now);
    // Sent in the background once committed, owned by the context (close waits for it).
    if (turns.length > 0)
      ctx.afterCommit(
        () =>
          void ctx.background.add(
            sendQueuedMail(
              ctx,
              turns.map((t) => t.mailId),
            ),
          ),
      );
    const nextUp = request.sequential_signing === 1 ? nextSigners(ctx, updated) : [];
    return {
      status: 'signed' as const,
      request_status: updated.status,
      signed_at: isoTime(now),
      return_url: returnUrlFor(ctx, request, signer, 'signed'),
      next:
        updated.status === 'completed'
          ? ('completed' as const)
          : updated.status === 'expired'
            ? ('none' as const)
            : request.sequential_signing !== 1
              ? ('others' as const)
              : turns.length > 0
                ? ('next_mailed' as const)
                : ('next_not_mailed' as const),
      next_names: nextUp.map(personName),
    };
  });
}

function pngOf(dataUrl: string, kind: string): Buffer {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) throw invalidRequest(`${kind}.image is larger than 512 KiB`);
  if (!bytes.subarray(0, 8).equals(PNG_MAGIC) || bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw invalidRequest(`${kind}.image is not a PNG image`);
  }
  // The size the image says it has is what drawing it on the PDF decodes: a small file may claim 30000 x 30000 pixels.
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width === 0 || height === 0 || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw invalidRequest(
      `${kind}.image is ${width} x ${height} pixels: a drawn mark may be at most ${MAX_IMAGE_SIDE} pixels a side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`,
    );
  }
  return bytes;
}
