import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import fastifyStatic from '@fastify/static';
import { PACKAGE_ROOT } from '../../package-files.js';
import { declineAsSigner } from '../../services/decline-as-signer.js';
import { startArtifactGeneration } from '../../services/generate-artifacts.js';
import { resolveSigningLink } from '../../services/resolve-signing-link.js';
import { signAsSigner } from '../../services/sign-as-signer.js';
import { signerDocument } from '../../services/signer-document.js';
import { sendSignerOtp, verifySignerOtp } from '../../services/signer-otp.js';
import { loadSignerView } from '../../services/signer-view.js';
import { DeclineInput, OtpChecked, OtpSent, OtpVerifyInput, SignerOutcome, SignerView, SignInput, TokenParams } from '../schemas/signing.js';
import { errorResponses } from './responses.js';
const UI_DIR = path.join(PACKAGE_ROOT, 'signing-ui');
const PDFJS_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'legacy/build');
/** Every answer under a signing link, errors included: never cached, never sent on as a Referer. */
function privateAnswer(reply) {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('x-content-type-options', 'nosniff');
}
const UNDER_A_LINK = /^\/(sign|embed)\//;
/**
 * The signer's side: the signing page (`/sign/<token>`, and `/embed/<token>` for an iframe on the
 * request's embed origin) and the JSON API under the link that the page and `paraph sign` share.
 */
export async function registerSigning(app, ctx) {
    app.addHook('onRequest', async (request, reply) => {
        if (UNDER_A_LINK.test(request.url))
            privateAnswer(reply);
    });
    await app.register(fastifyStatic, { root: UI_DIR, prefix: '/signing-ui/', decorateReply: false, index: false, cacheControl: false });
    await app.register(fastifyStatic, { root: PDFJS_DIR, prefix: '/signing-ui/vendor/', decorateReply: false, index: false, allowedPath: (p) => /^\/pdf(\.worker)?\.min\.mjs$/.test(p) });
    // The page is static: read once, in both modes.
    const template = fs.readFileSync(path.join(UI_DIR, 'index.html'), 'utf8');
    const html = { page: template, embed: template.replace('data-mode="page"', 'data-mode="embed"') };
    const page = (embed) => async (request, reply) => {
        let frameAncestors = "'none'";
        if (embed) {
            const link = resolveSigningLink(ctx, request.params.token);
            if (link.request?.embed_origin)
                frameAncestors = link.request.embed_origin;
        }
        return reply
            .header('content-security-policy', `default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; worker-src 'self' blob:; connect-src 'self'; frame-ancestors ${frameAncestors}`)
            .type('text/html; charset=utf-8')
            .send(embed ? html.embed : html.page);
    };
    app.get('/sign/:token', { config: { hidden: true }, schema: { params: TokenParams } }, page(false));
    app.get('/embed/:token', { config: { hidden: true }, schema: { params: TokenParams } }, page(true));
    const api = '/sign/:token/api';
    app.post(`${api}/view`, {
        config: { summary: "Signer: load the signing view (marks the signer viewed the first time)" },
        schema: {
            params: TokenParams,
            querystring: { type: 'object', properties: { lang: { type: 'string', maxLength: 10 } }, additionalProperties: false },
            response: { 200: SignerView },
        },
    }, async (request) => {
        const query = request.query;
        return loadSignerView(ctx, request.params.token, { lang: query.lang, acceptLanguage: request.headers['accept-language'] });
    });
    app.get(`${api}/document`, { config: { summary: 'Signer: the PDF to sign (after the email code, if any)' }, schema: { params: TokenParams } }, async (request, reply) => {
        const document = await signerDocument(ctx, request.params.token);
        return reply.type('application/pdf').header('content-disposition', 'inline').send(document.bytes);
    });
    app.post(`${api}/otp`, { config: { summary: 'Signer: email a 6-digit code' }, schema: { params: TokenParams, response: { 200: OtpSent, ...errorResponses(409) } } }, async (request) => sendSignerOtp(ctx, request.params.token));
    app.post(`${api}/otp/verify`, { config: { summary: 'Signer: check the code' }, schema: { params: TokenParams, body: OtpVerifyInput, response: { 200: OtpChecked, ...errorResponses(400, 409) } } }, async (request) => verifySignerOtp(ctx, request.params.token, request.body.code));
    app.post(`${api}/sign`, { config: { summary: 'Signer: sign with field values and a drawn or typed signature' }, schema: { params: TokenParams, body: SignInput, response: { 200: SignerOutcome, ...errorResponses(400, 409) } } }, async (request) => {
        const { completed, requestId, ...outcome } = signAsSigner(ctx, request.params.token, request.body ?? {});
        // The completion is committed: artifacts are made after this answer, never holding or failing it.
        if (completed)
            setImmediate(() => void startArtifactGeneration(ctx, requestId));
        return outcome;
    });
    app.post(`${api}/decline`, { config: { summary: 'Signer: decline with a reason' }, schema: { params: TokenParams, body: DeclineInput, response: { 200: SignerOutcome, ...errorResponses(400, 409) } } }, async (request) => declineAsSigner(ctx, request.params.token, request.body.reason));
}
//# sourceMappingURL=signing.js.map