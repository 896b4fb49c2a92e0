import { currentSigners } from '../db/repos/signature-requests.js';
import { conflict } from '../errors.js';
import { resolveSigningLink } from './resolve-signing-link.js';
const CLOSED_MESSAGES = {
    signed: 'this link was already used: the document is signed',
    declined: 'the signature request was declined',
    cancelled: 'the signature request was cancelled',
    expired: 'this signing link has expired',
    revoked: 'this signing link was replaced by a newer one',
    unavailable: 'this signing link cannot be used',
};
export function closedMessage(reason) {
    return CLOSED_MESSAGES[reason];
}
/** The live link behind a token, or the 409 that says why it is closed. */
export function openLink(ctx, token) {
    const link = resolveSigningLink(ctx, token);
    if (!link.ok)
        throw conflict(closedMessage(link.reason));
    return describeOpen(ctx, link.request, link.signer);
}
export function describeOpen(ctx, request, signer) {
    const waitingFor = request.sequential_signing === 1
        ? currentSigners(ctx.db, request.id)
            .filter((s) => s.signing_order < signer.signing_order && s.status !== 'signed')
            .map((s) => s.reference)
        : [];
    return { request, signer, verificationRequired: signer.verification === 'email_otp' && signer.verified_at === null, waitingFor };
}
/** The return URL with the outcome appended (existing query kept); empty when the request has none. */
export function returnUrlFor(ctx, request, signer, status) {
    if (!request.return_url)
        return '';
    const url = new URL(request.return_url);
    url.searchParams.set(ctx.brand.returnStatusParam, status);
    url.searchParams.set('signature_request_id', request.id);
    url.searchParams.set('client_reference', request.client_reference);
    url.searchParams.set('signer_reference', signer.reference);
    return url.href;
}
//# sourceMappingURL=signer-access.js.map