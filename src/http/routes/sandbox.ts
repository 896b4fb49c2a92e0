import type { Context } from '../../context.js';
import { principalOf } from '../hooks/auth.js';
import { advanceClock } from '../../features/sandbox/advance-clock.js';
import { forceExpire, forcePurge } from '../../features/sandbox/force-request-outcome.js';
import { clockState } from '../../features/sandbox/clock-state.js';
import { listCaughtEmails } from '../../features/mail/caught-emails.js';
import type { App } from '../app-type.js';
import { IdParams } from '../../contract/common.js';
import { CaughtEmailList, ClockAdvanceInput, ClockState, SandboxEmailQuery } from '../../contract/sandbox.js';
import { SignatureRequestStatus } from '../../contract/signature-requests.js';
import { errorResponses } from './responses.js';

/** The contract's `/_sandbox` controls, for clients that only speak HTTP; scoped to the key's account. */
export function registerSandbox(app: App, ctx: Context): void {
  app.get(
    '/_sandbox/emails',
    {
      config: { auth: true, summary: 'Mail the SMTP catcher caught for the account, newest first (at most 100)' },
      schema: { querystring: SandboxEmailQuery, response: { 200: CaughtEmailList, ...errorResponses(400, 401) } },
    },
    async (request) => ({
      data: listCaughtEmails(ctx, {
        accountId: principalOf(request).accountId,
        to: request.query.to,
        signatureRequestId: request.query.signature_request_id,
        kind: request.query.kind,
      }),
    }),
  );

  app.get(
    '/_sandbox/clock',
    {
      config: { auth: true, summary: 'The sandbox clock (global): now and how far it is ahead of real time' },
      schema: { response: { 200: ClockState, ...errorResponses(401) } },
    },
    async () => clockState(ctx),
  );

  app.post(
    '/_sandbox/clock/advance',
    {
      config: { auth: true, summary: 'Move the sandbox clock forward and run every job that falls due, in time order, before answering' },
      schema: { body: ClockAdvanceInput, response: { 200: ClockState, ...errorResponses(400, 401) } },
    },
    async (request) => {
      await advanceClock(ctx, request.body.seconds * 1000);
      return clockState(ctx);
    },
  );

  app.post(
    '/_sandbox/signature-requests/:id/expire',
    {
      config: { auth: true, summary: "Expire the request's links now, as if their expiry date had passed" },
      schema: { params: IdParams, response: { 200: SignatureRequestStatus, ...errorResponses(401, 404, 409) } },
    },
    async (request) => forceExpire(ctx, { accountId: principalOf(request).accountId, id: request.params.id }),
  );

  app.post(
    '/_sandbox/signature-requests/:id/purge',
    {
      config: { auth: true, summary: "Purge the request's content now, as if its retention deadline had passed" },
      schema: { params: IdParams, response: { 200: SignatureRequestStatus, ...errorResponses(401, 404, 409) } },
    },
    async (request) => forcePurge(ctx, { accountId: principalOf(request).accountId, id: request.params.id }),
  );
}
