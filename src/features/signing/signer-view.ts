import { isoTime } from '../../platform/clock.js';
import type { Context } from '../../context.js';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../domain/locales.js';
import { requestFields, type FieldRow, type RequestRow, type SignerRow } from '../../model/request-queries.js';
import type { PageBox } from '../../domain/field-rules.js';
import { initialsOf } from '../../domain/initials.js';
import type { SignerField, SignerView } from '../../contract/signing.js';
import type { EmailBranding, FieldType } from '../../contract/signature-requests.js';
import { audit, emitEvent } from '../events/record-events.js';
import { updateRequest } from '../../model/request-guard.js';
import { requestDocument } from '../../model/documents.js';
import { resolveSigningLink } from './resolve-signing-link.js';
import { describeOpen, returnUrlFor } from './signer-access.js';
import { copyLocked, signedPdfState } from './signer-copy.js';
import { waitingNames } from './signer-turns.js';
import { earlierFields } from './earlier-fields.js';
import { liveCode } from './signer-otp.js';

/**
 * The signer's view of their link. Loading it while the link is open marks the signer `viewed` the
 * first time (event signer.viewed): the page and `paraph sign` load it, a mail scanner's bare GET of
 * the page does not.
 */
export function loadSignerView(
  ctx: Context,
  token: string,
  hints: { lang?: string | undefined; acceptLanguage?: string | undefined; verification: string | null },
): SignerView {
  return ctx.db.transaction(() => {
    const link = resolveSigningLink(ctx, token);
    const request = link.request;
    let signer = link.signer;
    const lang = pickLang(signer?.locale ?? null, hints.lang, hints.acceptLanguage);
    if (!link.ok) {
      const reason = link.reason;
      const signedPdf = request && signer && reason === 'signed' ? signedPdfState(ctx, request) : 'none';
      // A signer's copy behind their email code: the page asks for it, as it did before they signed.
      const locked = signer !== null && copyLocked(ctx, signedPdf, signer, hints.verification);
      const returnable = reason === 'signed' || reason === 'declined' || reason === 'cancelled' || reason === 'expired';
      return {
        state: 'closed',
        closed_reason: reason,
        lang,
        brand: ctx.brand.iframeSource,
        embed_origin: request?.embed_origin ?? '',
        // (Not from the signer's copy, a completed mail's link: that page is where the mail leads.)
        return_url: request && signer && returnable && link.copy !== true ? returnUrlFor(ctx, request, signer, reason) : '',
        request: request ? requestPart(ctx, request) : null,
        signer: signer ? signerPart(signer) : null,
        fields: [],
        signed_pdf: signedPdf,
        verification_required: locked,
        code_live: locked && signer !== null && liveCode(ctx, signer.id),
        can_sign: false,
        waiting_for: [],
        waiting_for_names: [],
        earlier_fields: [],
      };
    }
    if (link.signer.status === 'pending') signer = markViewed(ctx, link.request, link.signer);
    const open = describeOpen(ctx, link.request, signer as SignerRow, hints.verification);
    const fields = signerFields(ctx, open.request, open.signer);
    return {
      state: 'open',
      closed_reason: null,
      lang,
      brand: ctx.brand.iframeSource,
      embed_origin: open.request.embed_origin ?? '',
      return_url: '',
      request: requestPart(ctx, open.request),
      signer: signerPart(open.signer),
      // Before the email code, no content of the document: the fields without the values put on them (the sender's, the signer's own).
      fields: open.verificationRequired ? fields.map((f) => ({ ...f, value: '' })) : fields,
      signed_pdf: 'none',
      verification_required: open.verificationRequired,
      code_live: open.verificationRequired && liveCode(ctx, open.signer.id),
      can_sign: !open.verificationRequired && open.waitingFor.length === 0,
      waiting_for: open.waitingFor,
      waiting_for_names: waitingNames(ctx, open.request, open.signer),
      earlier_fields: open.verificationRequired ? [] : earlierFields(ctx, open.request, open.signer),
    };
  });
}

/** The signer's first opening of their link: `viewed`, with its event and audit entry. */
export function markViewed(ctx: Context, request: RequestRow, signer: SignerRow): SignerRow {
  const now = ctx.clock.now();
  const viewed: SignerRow = { ...signer, status: 'viewed', viewed_at: now, updated_at: now };
  ctx.db.run(ctx.db.q.updateTable('signers').set({ status: 'viewed', viewed_at: now, updated_at: now }).where('id', '=', signer.id));
  const updated = updateRequest(ctx, request, {}, now);
  emitEvent(ctx, { request: updated, type: 'signer.viewed', signer: viewed, at: now });
  audit(ctx, {
    requestId: request.id,
    type: 'signer_viewed',
    actor: { type: 'signer', signerId: signer.id, email: signer.email },
    signerId: signer.id,
    at: now,
  });
  return viewed;
}

function requestPart(ctx: Context, request: RequestRow) {
  const document = requestDocument(ctx.db, request);
  const branding = request.email_json ? (JSON.parse(request.email_json) as EmailBranding) : null;
  return {
    id: request.id,
    client_reference: request.client_reference,
    status: request.status,
    document_name: document.filename,
    sequential_signing: request.sequential_signing === 1,
    sender_name: branding?.sender_name?.trim() ?? '',
    message: branding?.message ?? '',
    logo_url: branding?.logo_url?.startsWith('https://') ? branding.logo_url : '',
    cancellation_reason: request.status === 'cancelled' ? (request.cancellation_reason ?? '') : '',
    pages: (JSON.parse(document.pages_json) as Array<PageBox & { rotation: number }>).map((p) => ({
      width: p.width,
      height: p.height,
      rotation: p.rotation,
    })),
  };
}

function signerPart(signer: SignerRow) {
  return {
    id: signer.id,
    reference: signer.reference,
    name: signer.name ?? '',
    email: signer.email,
    status: signer.status,
    verification: signer.verification ?? '',
    verified_at: isoTime(signer.verified_at),
    expires_at: isoTime(signer.expires_at),
  };
}

/** The signer's own fields with the values the signing page shows (and that signing will keep). */
export function signerFields(ctx: Context, request: RequestRow, signer: SignerRow): SignerField[] {
  return requestFields(ctx.db, request.id)
    .filter((f) => f.signer_reference === signer.reference)
    .map((field) => {
      const identity = identityValue(field, signer, ctx.clock.now());
      return {
        id: field.id,
        type: field.type as FieldType,
        page: field.page,
        x: field.x,
        y: field.y,
        width: field.width,
        height: field.height,
        name: field.name ?? '',
        field_key: field.field_key ?? '',
        value: identity ?? field.value ?? '',
        read_only: field.read_only === 1,
        editable: (field.type === 'text' || field.type === 'date') && field.read_only !== 1 && identity === null,
      };
    });
}

/** Values that come from who the signer is and when they sign, not from what they type. */
export function identityValue(field: FieldRow, signer: SignerRow, now: number): string | null {
  switch (field.field_key) {
    case 'signer_email':
      return signer.email;
    case 'sign_date':
      return new Date(now).toISOString().slice(0, 10);
    case 'signer_name':
      return signer.name || null;
    case 'initials':
      return signer.name ? initialsOf(signer.name) : null;
    default:
      return null;
  }
}

function pickLang(locale: string | null, hint: string | undefined, acceptLanguage: string | undefined): Locale {
  const known = (value: string | null | undefined): Locale | null => {
    const base = value?.trim().toLowerCase().slice(0, 2);
    return isLocale(base) ? base : null;
  };
  const chosen = known(locale) ?? known(hint);
  if (chosen) return chosen;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const lang = known(part.split(';')[0]);
    if (lang) return lang;
  }
  return DEFAULT_LOCALE;
}
