import { randomBase62 } from '../../platform/crypto/tokens.js';
import type { Context } from '../../context.js';
import { notFound } from '../../domain/errors.js';
import { slot } from '../../platform/slots.js';

/**
 * Short-lived tickets that let the dashboard's sandboxed iframe load one caught mail's HTML: an iframe
 * cannot send the `Authorization: Dashboard` header, and the dashboard token never goes in a URL. A
 * ticket opens one mail, in one image mode, for a minute (real time), and lives only in this process.
 */
const TTL_MS = 60_000;
const MAX_TICKETS = 500;

interface Ticket {
  emailId: string;
  remoteImages: boolean;
  expiresAt: number;
}

/** Per context (one per data directory in this process). */
const TICKETS = slot('dashboard-mail-tickets', () => new Map<string, Ticket>());

function ticketsOf(ctx: Context): Map<string, Ticket> {
  return ctx.state.get(TICKETS);
}

export function issueMailTicket(ctx: Context, emailId: string, remoteImages: boolean): string {
  const exists = ctx.db.first(ctx.db.q.selectFrom('emails').select('id').where('id', '=', emailId));
  if (!exists) throw notFound(`email ${emailId} does not exist`);
  const map = ticketsOf(ctx);
  const now = ctx.clock.realNow();
  for (const [key, ticket] of map) if (ticket.expiresAt <= now || map.size >= MAX_TICKETS) map.delete(key);
  const ticket = `pmail_${randomBase62(32)}`;
  map.set(ticket, { emailId, remoteImages, expiresAt: now + TTL_MS });
  return ticket;
}

/** The mail and mode a live ticket opens, or null. */
export function readMailTicket(ctx: Context, ticket: string): { emailId: string; remoteImages: boolean } | null {
  const found = ticketsOf(ctx).get(ticket);
  if (!found || found.expiresAt <= ctx.clock.realNow()) return null;
  return { emailId: found.emailId, remoteImages: found.remoteImages };
}

/** The HTML part of a caught mail (empty when it has none). */
export function caughtMailHtml(ctx: Context, emailId: string): string {
  const row = ctx.db.first(ctx.db.q.selectFrom('emails').select('html').where('id', '=', emailId));
  if (!row) throw notFound(`email ${emailId} does not exist`);
  return row.html;
}
