import type { Context } from '../../context.js';
import { readSetting, writeSetting } from '../../db/settings.js';
import { notFound } from '../../domain/errors.js';
import { ensureDashboardToken } from './dashboard-token.js';

const SERVER_URL_KEY = 'server_url';

/** serve records its own address (not `--public-url`, which may be a tunnel) for `paraph dashboard url`. */
export function recordServerUrl(ctx: Context, url: string): void {
  writeSetting(ctx.db, SERVER_URL_KEY, url);
}

/** `http://HOST:PORT/_dashboard/#token=…` on `serverUrl`; the token rides in the fragment, never sent to a server. */
export function dashboardUrl(ctx: Context, serverUrl?: string): string {
  const base = serverUrl ?? readSetting(ctx.db, SERVER_URL_KEY);
  if (base === undefined) {
    // Made now all the same: the first serve then prints a URL with this token.
    ensureDashboardToken(ctx);
    throw notFound('no server has run on this data directory yet: start `paraph serve`, which prints the dashboard URL');
  }
  return `${base}/_dashboard/#token=${ensureDashboardToken(ctx)}`;
}

/** The dashboard URL, or null when no server has run on this data directory yet. */
export function knownDashboardUrl(ctx: Context): string | null {
  return readSetting(ctx.db, SERVER_URL_KEY) === undefined ? null : dashboardUrl(ctx);
}
