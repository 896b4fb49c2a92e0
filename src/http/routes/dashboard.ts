import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { Context } from '../../context.js';
import { PACKAGE_ROOT } from '../../platform/package-files.js';
import { listCaughtEmails, showCaughtEmail } from '../../features/mail/caught-emails.js';
import { caughtMailHtml, issueMailTicket, readMailTicket } from '../../features/dashboard/dashboard-mail-tickets.js';
import { advanceOperatorClock, operatorClock } from '../../features/dashboard/operator-clock.js';
import { operatorArtifact, operatorDocument } from '../../features/dashboard/operator-documents.js';
import { issueOperatorSigningLink } from '../../features/dashboard/operator-signing-link.js';
import { forceExpire, forcePurge } from '../../features/sandbox/force-request-outcome.js';
import { listOperatorDeliveries, replayOperatorDelivery } from '../../features/dashboard/operator-deliveries.js';
import { operatorRequestDetail } from '../../features/dashboard/operator-request-detail.js';
import { listOperatorRequests } from '../../features/dashboard/list-operator-requests.js';
import { checkReceiver, listReceiverChecks, receiverCheckKeys } from '../../features/webhooks/receiver-check.js';
import type { App } from '../app-type.js';
import { dashboardAuth, dashboardHeaders } from '../hooks/dashboard-auth.js';
import { ArtifactParams } from '../../contract/artifacts.js';
import { IdParams } from '../../contract/common.js';
import {
  DashboardClock,
  DashboardClockAdvance,
  DashboardDelivery,
  DashboardDeliveryQuery,
  DashboardEmail,
  DashboardEmailQuery,
  DashboardRequestDetail,
  DashboardRequestItem,
  DashboardRequestQuery,
  DashboardSigningLink,
  MailView,
  MailViewInput,
  Scoped,
  ScopedPage,
  SignerParams,
  TicketParams,
} from '../../contract/dashboard.js';
import { CaughtEmail } from '../../contract/sandbox.js';
import { ReceiverCheck, ReceiverCheckInput, ReceiverCheckOverview } from '../../contract/receiver-check.js';
import { SignatureRequestStatus } from '../../contract/signature-requests.js';
import { errorResponses } from './responses.js';
import { uiFiles } from './ui-files.js';
import { attachment } from '../content-disposition.js';
import { answeredNotModified } from '../conditional-get.js';

const UI_DIR = path.join(PACKAGE_ROOT, 'dashboard-ui');
/** The page's files (every page, script and stylesheet of the folder), each served at `/_dashboard/<name>` (the page itself at `/_dashboard/`). */
const UI_FILES = uiFiles(UI_DIR);

/** A caught mail's HTML in the dashboard's iframe: no script at all, inline styles, images only when asked. */
function mailCsp(remoteImages: boolean): string {
  const img = remoteImages ? 'img-src data: https: http:' : 'img-src data:';
  return `default-src 'none'; style-src 'unsafe-inline'; ${img}; frame-ancestors 'self'; base-uri 'none'; form-action 'none'`;
}
const scope = 'all accounts' as const;

/**
 * The operator dashboard: its page at `/_dashboard/` and its JSON API under `/_dashboard/api`, which
 * only the data directory's dashboard token opens (docs/dashboard.md). Left out of the OpenAPI
 * document: it is paraph's own console, not part of the signature request API.
 */
export function registerDashboard(app: App, ctx: Context): void {
  const onRequest = dashboardAuth(ctx);
  const config = { hidden: true } as const;

  // `/_dashboard` leads to the page (a browser keeps the `#token=…` fragment across the redirect).
  app.get('/_dashboard', { config, onRequest: dashboardHeaders }, async (_request, reply) => reply.redirect('/_dashboard/', 302));

  // The page's static files, read once: the page at `/_dashboard/`, its script and stylesheet beside it.
  const files = new Map<string, string>();
  const file = (name: string) => async (_request: unknown, reply: FastifyReply) => {
    let body = files.get(name);
    if (body === undefined) {
      body = fs.readFileSync(path.join(UI_DIR, name), 'utf8');
      files.set(name, body);
    }
    return reply.type(UI_FILES.get(name)!).send(body);
  };
  app.get('/_dashboard/', { config, onRequest: dashboardHeaders }, file('index.html'));
  for (const name of UI_FILES.keys()) {
    if (name !== 'index.html') app.get(`/_dashboard/${name}`, { config, onRequest: dashboardHeaders }, file(name));
  }

  app.get(
    '/_dashboard/api/requests',
    { config, onRequest, schema: { querystring: DashboardRequestQuery, response: { 200: ScopedPage(DashboardRequestItem), ...errorResponses(400, 401) } } },
    async (request) => {
      const q = request.query;
      const page = listOperatorRequests(ctx, {
        accountId: q.account_id,
        status: q.status,
        clientReference: q.client_reference,
        limit: q.limit,
        cursor: q.cursor,
      });
      return { scope, ...page };
    },
  );

  app.get(
    '/_dashboard/api/requests/:id',
    { config, onRequest, schema: { params: IdParams, response: { 200: Scoped(DashboardRequestDetail), ...errorResponses(401, 404) } } },
    async (request) => ({ scope, data: operatorRequestDetail(ctx, request.params.id) }),
  );

  app.post(
    '/_dashboard/api/requests/:id/expire',
    { config, onRequest, schema: { params: IdParams, response: { 200: Scoped(SignatureRequestStatus), ...errorResponses(401, 404, 409) } } },
    async (request) => ({ scope, data: forceExpire(ctx, { accountId: null, id: request.params.id }) }),
  );

  app.post(
    '/_dashboard/api/requests/:id/purge',
    { config, onRequest, schema: { params: IdParams, response: { 200: Scoped(SignatureRequestStatus), ...errorResponses(401, 404, 409) } } },
    async (request) => ({ scope, data: await forcePurge(ctx, { accountId: null, id: request.params.id }) }),
  );

  app.get(
    '/_dashboard/api/emails',
    { config, onRequest, schema: { querystring: DashboardEmailQuery, response: { 200: ScopedPage(CaughtEmail), ...errorResponses(400, 401) } } },
    async (request) => ({
      scope,
      data: listCaughtEmails(ctx, { accountId: null, to: request.query.to, limit: request.query.limit ?? 100 }),
      next_cursor: '',
    }),
  );

  app.get(
    '/_dashboard/api/emails/:id',
    { config, onRequest, schema: { params: IdParams, response: { 200: Scoped(DashboardEmail), ...errorResponses(401, 404) } } },
    async (request) => ({ scope, data: showCaughtEmail(ctx, request.params.id) }),
  );

  app.get(
    '/_dashboard/api/webhook-deliveries',
    { config, onRequest, schema: { querystring: DashboardDeliveryQuery, response: { 200: ScopedPage(DashboardDelivery), ...errorResponses(400, 401) } } },
    async (request) => ({
      scope,
      ...listOperatorDeliveries(ctx, {
        signatureRequestId: request.query.signature_request_id,
        status: request.query.status,
        limit: request.query.limit,
        cursor: request.query.cursor,
      }),
    }),
  );

  app.post(
    '/_dashboard/api/webhook-deliveries/:id/replay',
    { config, onRequest, schema: { params: IdParams, response: { 200: Scoped(DashboardDelivery), ...errorResponses(401, 404) } } },
    async (request) => ({ scope, data: await replayOperatorDelivery(ctx, request.params.id) }),
  );

  app.get(
    '/_dashboard/api/receiver-checks',
    { config, onRequest, schema: { response: { 200: Scoped(ReceiverCheckOverview), ...errorResponses(401) } } },
    async () => ({ scope, data: { keys: receiverCheckKeys(ctx), checks: listReceiverChecks(ctx) } }),
  );

  app.post(
    '/_dashboard/api/receiver-checks',
    { config, onRequest, schema: { body: ReceiverCheckInput, response: { 200: Scoped(ReceiverCheck), ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const { url, key_id: keyId, tolerance_seconds: toleranceSeconds } = request.body;
      return {
        scope,
        data: await checkReceiver(ctx, url, { key: keyId === undefined ? null : { keyId }, ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }) }),
      };
    },
  );

  app.get('/_dashboard/api/clock', { config, onRequest, schema: { response: { 200: Scoped(DashboardClock), ...errorResponses(401) } } }, async () => ({
    scope,
    data: operatorClock(ctx),
  }));

  app.post(
    '/_dashboard/api/clock/advance',
    { config, onRequest, schema: { body: DashboardClockAdvance, response: { 200: Scoped(DashboardClock), ...errorResponses(400, 401) } } },
    async (request) => ({ scope, data: await advanceOperatorClock(ctx, request.body.duration) }),
  );

  app.get(
    '/_dashboard/api/requests/:id/document',
    { config, onRequest, schema: { params: IdParams, response: errorResponses(401, 404, 410) } },
    async (request, reply) => {
      const document = await operatorDocument(ctx, request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', 'inline')
        .send(document.bytes as never);
    },
  );

  app.get(
    '/_dashboard/api/requests/:id/artifacts/:type',
    { config, onRequest, schema: { params: ArtifactParams, response: errorResponses(401, 404, 409, 410) } },
    async (request, reply) => {
      const artifact = await operatorArtifact(ctx, request.params.id, request.params.type);
      if (answeredNotModified(request, reply, `"${artifact.sha256}"`)) return reply;
      return reply
        .type(artifact.contentType)
        .header('content-disposition', attachment(artifact.filename))
        .header('etag', `"${artifact.sha256}"`)
        .send(artifact.bytes as never);
    },
  );

  app.post(
    '/_dashboard/api/requests/:id/signers/:reference/link',
    { config, onRequest, schema: { params: SignerParams, response: { 200: Scoped(DashboardSigningLink), ...errorResponses(401, 404, 409) } } },
    async (request) => ({ scope, data: issueOperatorSigningLink(ctx, request.params.id, request.params.reference) }),
  );

  app.post(
    '/_dashboard/api/emails/:id/view',
    { config, onRequest, schema: { params: IdParams, body: MailViewInput, response: { 200: Scoped(MailView), ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const ticket = issueMailTicket(ctx, request.params.id, request.body?.remote_images === true);
      return { scope, data: { url: `/_dashboard/mail/${ticket}` } };
    },
  );

  // The mail's HTML under a ticket (an iframe sends no Authorization header): its own strict policy,
  // framed only by the dashboard, never cached.
  const mailHeaders = (_request: unknown, reply: FastifyReply, done: () => void) => {
    reply.headers({
      'content-security-policy': mailCsp(false),
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    done();
  };
  app.get('/_dashboard/mail/:ticket', { config, onRequest: mailHeaders, schema: { params: TicketParams } }, async (request, reply) => {
    const ticket = readMailTicket(ctx, request.params.ticket);
    if (ticket === null) {
      return reply.code(404).type('text/plain; charset=utf-8').send('This mail view expired: open the mail again in the dashboard.');
    }
    return reply
      .header('content-security-policy', mailCsp(ticket.remoteImages))
      .type('text/html; charset=utf-8')
      .send(linksInNewTab(caughtMailHtml(ctx, ticket.emailId)) || '<p style="font-family:sans-serif;color:#555">This mail has no HTML part.</p>');
  });
}

/**
 * A mail's links open in a new tab, never inside the dashboard's frame (a signing page refuses to be
 * framed): a `<base target="_blank">` at the top of its head (the frame's sandbox allows popups).
 */
function linksInNewTab(html: string): string {
  if (!html) return html;
  const base = '<base target="_blank">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? doctype[0] + base + html.slice(doctype[0].length) : base + html;
}
