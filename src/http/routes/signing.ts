import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { PACKAGE_ROOT } from '../../platform/package-files.js';
import { declineAsSigner } from '../../features/signing/decline-as-signer.js';
import { resolveSigningLink } from '../../features/signing/resolve-signing-link.js';
import { signAsSigner } from '../../features/signing/sign-as-signer.js';
import { signedDocumentForSigner } from '../../features/signing/signer-copy.js';
import { signerDocument } from '../../features/signing/signer-document.js';
import { sendSignerOtp, verifySignerOtp } from '../../features/signing/signer-otp.js';
import { loadSignerView } from '../../features/signing/signer-view.js';
import type { App } from '../app-type.js';
import type { NotFoundHandler } from '../not-found.js';
import { DeclineInput, OtpChecked, OtpSent, OtpVerifyInput, SignerOutcome, SignerView, SignInput, TokenParams } from '../../contract/signing.js';
import { mediaResponse, signingErrorResponses } from './responses.js';
import { PdfBytes } from '../../contract/artifacts.js';
import { VERIFICATION_COOKIE, VERIFICATION_HEADER } from '../../domain/email-code.js';
import { MAX_FIELD_VALUE, MAX_REASON, MINUTE_MS, OTP_CODE_WINDOW_MS, OTP_CODES_PER_WINDOW } from '../../domain/limits.js';
import { attachment } from '../content-disposition.js';

const UI_DIR = path.join(PACKAGE_ROOT, 'signing-ui');
/** The typed-signature font (Aref Ruqaa, SIL OFL 1.1), as the page loads it; the stamp uses the same font. */
const FONT_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/aref-ruqaa/package.json')), 'files');

/**
 * A plugin under a link (prefix `/sign/` or `/embed/`, with the slash: `/sign` alone is not under a
 * link): every answer, errors and 404s included, is never cached and never sent on as a Referer.
 */
function underALink(scope: App, notFound: NotFoundHandler): void {
  scope.addHook('onRequest', (_request, reply, done) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('x-content-type-options', 'nosniff');
    done();
  });
  scope.setNotFoundHandler(notFound);
}

/**
 * The secret of the email code this browser or client entered for the link: the cookie, else the
 * header (clients without cookies), else null.
 */
function verificationOf(request: FastifyRequest): string | null {
  const header = request.headers[VERIFICATION_HEADER];
  const cookies = request.headers.cookie ?? '';
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === VERIFICATION_COOKIE) return value.join('=');
  }
  return typeof header === 'string' ? header : null;
}

/**
 * The signer's side: the signing page (`/sign/<token>`, and `/embed/<token>` for an iframe on the
 * request's embed origin) and the JSON API under the link that the page and `paraph sign` share.
 */
export async function registerSigning(app: App, ctx: Context, notFound: NotFoundHandler): Promise<void> {
  await app.register(fastifyStatic, { root: UI_DIR, prefix: '/signing-ui/', decorateReply: false, index: false, cacheControl: false });
  await app.register(fastifyStatic, {
    root: FONT_DIR,
    prefix: '/signing-ui/fonts/',
    decorateReply: false,
    index: false,
    allowedPath: (p) => /^\/aref-ruqaa-(arabic|latin|latin-ext)-400-normal\.woff2$/.test(p),
  });

  // The page is static: read once, in both modes.
  const template = fs.readFileSync(path.join(UI_DIR, 'index.html'), 'utf8');
  // The page's text limits come from the API's (src/domain/limits.ts): it has no build step to import them.
  const limits = `data-value-max="${MAX_FIELD_VALUE}" data-reason-max="${MAX_REASON}"`;
  const withMode = (mode: string) => template.replace('data-mode="page"', `data-mode="${mode}" ${limits}`);
  const html = { page: withMode('page'), embed: withMode('embed') };
  const page = (embed: boolean) => async (request: { params: { token: string } }, reply: FastifyReply) => {
    let frameAncestors = "'none'";
    const link = resolveSigningLink(ctx, request.params.token);
    if (embed && link.request?.embed_origin) frameAncestors = link.request.embed_origin;
    // The sender's logo is the only image from elsewhere: its https origin, nothing wider.
    const logo = logoOrigin(link.request?.email_json ?? null);
    return reply
      .header(
        'content-security-policy',
        `default-src 'self'; img-src 'self' data: blob:${logo ? ` ${logo}` : ''}; font-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; worker-src 'self' blob:; connect-src 'self'; frame-ancestors ${frameAncestors}`,
      )
      .type('text/html; charset=utf-8')
      .send(embed ? html.embed : html.page);
  };
  await app.register(
    async (sign: App) => {
      underALink(sign, notFound);
      sign.get(':token', { config: { hidden: true }, schema: { params: TokenParams } }, page(false));
      registerSignerApi(sign, ctx);
    },
    { prefix: '/sign/' },
  );
  await app.register(
    async (embed: App) => {
      underALink(embed, notFound);
      embed.get(':token', { config: { hidden: true }, schema: { params: TokenParams } }, page(true));
    },
    { prefix: '/embed/' },
  );
}

/** The JSON API under a link (`/sign/<token>/api/…`, paths given after the prefix), which the page and `paraph sign` share. */
function registerSignerApi(app: App, ctx: Context): void {
  const api = ':token/api';
  app.post(
    `${api}/view`,
    {
      config: { summary: 'Signer: load the signing view (marks the signer viewed the first time)' },
      schema: {
        params: TokenParams,
        querystring: { type: 'object', properties: { lang: { type: 'string', maxLength: 10 } }, additionalProperties: false },
        response: { 200: SignerView },
      },
    },
    async (request) => {
      const query = request.query as { lang?: string };
      return loadSignerView(ctx, request.params.token, {
        lang: query.lang,
        acceptLanguage: request.headers['accept-language'],
        verification: verificationOf(request),
      });
    },
  );

  const pdf = (description: string) => ({ 200: mediaResponse('application/pdf', description, PdfBytes) });
  app.get(
    `${api}/document`,
    {
      config: { summary: 'Signer: the PDF to sign (after the email code, if any)', documentedResponses: pdf('the PDF to sign') },
      schema: { params: TokenParams },
    },
    async (request, reply) => {
      const document = await signerDocument(ctx, request.params.token, verificationOf(request));
      return reply.type('application/pdf').header('content-disposition', 'inline').send(document.bytes);
    },
  );

  app.get(
    `${api}/signed-document`,
    {
      config: { summary: 'Signer: the signed PDF, once the request is completed (as long as its content is kept)', documentedResponses: pdf('the signed PDF') },
      schema: { params: TokenParams },
    },
    async (request, reply) => {
      const document = await signedDocumentForSigner(ctx, request.params.token, verificationOf(request));
      return reply.type('application/pdf').header('content-disposition', attachment(document.filename)).send(document.bytes);
    },
  );

  app.post(
    `${api}/otp`,
    {
      config: { summary: `Signer: email a 6-digit code (at most ${OTP_CODES_PER_WINDOW} per link in ${OTP_CODE_WINDOW_MS / MINUTE_MS} minutes)` },
      schema: { params: TokenParams, response: { 200: OtpSent, ...signingErrorResponses(409, 429) } },
    },
    async (request) => sendSignerOtp(ctx, request.params.token, verificationOf(request)),
  );

  app.post(
    `${api}/otp/verify`,
    {
      config: { summary: 'Signer: check the code' },
      schema: { params: TokenParams, body: OtpVerifyInput, response: { 200: OtpChecked, ...signingErrorResponses(400, 409) } },
    },
    async (request, reply) => {
      const { secret, ...checked } = verifySignerOtp(ctx, request.params.token, (request.body as { code: string }).code, verificationOf(request));
      if (secret !== null) {
        // The code unlocks the link for this browser (the cookie, on the link's path only) or this client (the header).
        const secure = request.protocol === 'https' ? '; Secure' : '';
        reply
          .header('set-cookie', `${VERIFICATION_COOKIE}=${secret}; Path=/sign/${encodeURIComponent(request.params.token)}; HttpOnly; SameSite=Strict${secure}`)
          .header(VERIFICATION_HEADER, secret);
      }
      return checked;
    },
  );

  app.post(
    `${api}/sign`,
    {
      config: { summary: 'Signer: sign with field values and a drawn or typed signature' },
      schema: { params: TokenParams, body: SignInput, response: { 200: SignerOutcome, ...signingErrorResponses(400, 409) } },
    },
    async (request) => signAsSigner(ctx, request.params.token, request.body ?? {}, verificationOf(request)),
  );

  app.post(
    `${api}/decline`,
    {
      config: { summary: 'Signer: decline with a reason' },
      schema: { params: TokenParams, body: DeclineInput, response: { 200: SignerOutcome, ...signingErrorResponses(400, 409) } },
    },
    async (request) => declineAsSigner(ctx, request.params.token, (request.body as { reason: string }).reason, verificationOf(request)),
  );
}

/** The https origin of a request's logo, for the page's img-src; null when it has none. */
function logoOrigin(emailJson: string | null): string | null {
  if (!emailJson) return null;
  try {
    const url = new URL((JSON.parse(emailJson) as { logo_url?: string }).logo_url ?? '');
    return url.protocol === 'https:' && !/[;,'\s]/.test(url.origin) ? url.origin : null;
  } catch {
    return null;
  }
}
