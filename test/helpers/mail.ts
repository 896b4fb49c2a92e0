// Mail helpers over real HTTP and SMTP: the caught mail of /_sandbox/emails, reminders and signer
// replacement, the parts of a mail the tests read, and an SMTP client of the built-in catcher.
import assert from 'node:assert/strict';
import nodemailer from 'nodemailer';
import { resolveSigningLink } from '../../src/features/signing/resolve-signing-link.js';
import { listCaughtEmails } from '../../src/features/mail/caught-emails.js';
import { postJson } from './flows.js';
import { json, type TestServer } from './server.js';

const ROUTE = '/v1/signature-requests';

export interface CaughtEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  received_at: string;
  kind: string | null;
  signature_request_id: string | null;
  signer_reference: string | null;
}

/** The newest email code caught for `email`. */
export async function newestCode(server: TestServer, email: string): Promise<string> {
  const code = /\b(\d{6})\b/.exec((await emails(server, { to: email })).find((m) => m.kind === 'otp')?.text ?? '')?.[1];
  assert.ok(code, 'the code was mailed');
  return code;
}

/** How many email codes were caught for `email`. */
export async function codesMailed(server: TestServer, email: string): Promise<number> {
  return (await emails(server, { to: email })).filter((m) => m.kind === 'otp').length;
}

/** A six-digit code that is not `code`: the next one, wrapping at 999999. */
export function wrongCodeFor(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

/** GET /_sandbox/emails with a query; asserts 200. */
export async function emails(server: TestServer, query: Record<string, string> = {}, key?: string): Promise<CaughtEmail[]> {
  const qs = new URLSearchParams(query).toString();
  const response = await server.call('GET', `/_sandbox/emails${qs ? `?${qs}` : ''}`, key === undefined ? {} : { key });
  assert.equal(response.status, 200, await response.clone().text());
  return (await json<{ data: CaughtEmail[] }>(response)).data;
}

export async function remind(server: TestServer, id: string, body: Record<string, unknown> = {}) {
  const response = await postJson(server, `${ROUTE}/${id}/reminders`, body);
  assert.equal(response.status, 200, await response.clone().text());
  return json<{ id: string; status: string; reminders: Array<{ reference: string; email_delivery: string; signing_url: string }> }>(response);
}

export async function replace(server: TestServer, id: string, reference: string, body: Record<string, unknown>) {
  const response = await postJson(server, `${ROUTE}/${id}/signers/${reference}/replace`, body);
  assert.equal(response.status, 200, await response.clone().text());
  return json<{ id: string; signer: { id: string; reference: string; email: string; signing_url: string; email_delivery: string } }>(response);
}

const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '');

/** The href of every `<a>` in the HTML that is styled as a button (has a background). */
export function buttonHrefs(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*style="[^"]*background[^"]*"[^>]*>/g)].map((m) => unescapeHtml(m[1] ?? ''));
}

/** The display name of a caught mail's From (`Name <address>`). */
export function displayName(from: string): string {
  const match = /^"?(.*?)"?\s*<[^>]+>$/.exec(from);
  assert.ok(match, `From "${from}" should carry a display name`);
  return match[1] ?? '';
}

export function tokenOf(url: string): string {
  return new URL(url).pathname.split('/').pop() ?? '';
}

export function linkWorks(server: TestServer, url: string): boolean {
  return resolveSigningLink(server.running.ctx, tokenOf(url)).ok;
}

export function smtpClient(server: TestServer, auth?: { user: string; pass: string }) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: server.running.smtpPort,
    secure: false,
    ignoreTLS: true,
    ...(auth ? { auth } : {}),
  });
}

export function caughtCount(server: TestServer): number {
  return listCaughtEmails(server.running.ctx, { accountId: null, limit: 10_000 }).length;
}
