import { MAX_TYPED_MARK } from '../domain/limits.js';
import { initialsOf } from '../domain/initials.js';
import type { SignerOutcome, SignerView } from '../contract/signing.js';
import { VERIFICATION_HEADER } from '../domain/email-code.js';
import { cannotReach } from '../platform/unreachable-server.js';

/**
 * The signer's side over HTTP, through the same JSON API the signing page uses: `paraph sign` and the
 * programmatic sandbox's `sign()` / `decline()`. Talks only to the signing link's server.
 */

/** The text given is not a signing link (`…/sign/<token>` or `…/embed/<token>`). */
export class SigningLinkError extends Error {
  override name = 'SigningLinkError';
}

/** The signing link's server refused a step, or could not be reached: the message says which and why. */
export class SignerApiError extends Error {
  override name = 'SignerApiError';
  /** What stopped the signer: the API refused a step, or the email code is needed or was not found. */
  readonly reason: 'refused' | 'otp_required' | 'otp_not_found';

  constructor(message: string, reason: 'refused' | 'otp_required' | 'otp_not_found' = 'refused') {
    super(message);
    this.reason = reason;
  }
}

export interface SigningLink {
  /** `https://host/sign` (an embed link is answered by the same API). */
  base: string;
  token: string;
  lang: string | null;
  /**
   * The secret the server gave once this client entered the email code (the `Signer-Verification`
   * header): sent with every later call, as a browser sends its cookie. Another client with the same
   * link has none and must enter a code of its own.
   */
  verification?: string;
}

export function parseSigningLink(text: string): SigningLink {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SigningLinkError(`"${text.slice(0, 40)}…" is not a signing URL`);
  }
  const match = /^\/(?:sign|embed)\/([0-9A-Za-z]+)\/?$/.exec(url.pathname);
  // Never repeat a token: only the origin and the shape of the path.
  if (!match?.[1]) throw new SigningLinkError(`"${url.origin}${url.pathname.replace(/[0-9A-Za-z]{20,}/, '…')}" is not a signing URL (/sign/<token>)`);
  return { base: `${url.origin}/sign`, token: match[1], lang: url.searchParams.get('lang') };
}

/** Why a link cannot be used, said to whoever runs `paraph sign`. */
const CLOSED: Readonly<Record<NonNullable<SignerView['closed_reason']>, string>> = {
  signed: 'the link is closed: this signer has already signed',
  declined: 'the link is closed: the request was declined',
  cancelled: 'the link is closed: the request was cancelled',
  expired: 'the link is closed: it has expired',
  revoked: 'the link is closed: a newer link replaced it (a reminder, or a replaced signer); use the newest one',
  unavailable:
    'this server knows no open link at this URL: check that it was copied whole, from a request of the server it points to (each data directory has its own links), and that the request is active',
};

export async function callSignerApi<T>(link: SigningLink, action: string, body?: unknown, query = ''): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${link.base}/${link.token}/api/${action}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(link.verification !== undefined ? { [VERIFICATION_HEADER]: link.verification } : {}) },
      body: JSON.stringify(body ?? {}),
    });
  } catch (error) {
    throw new SignerApiError(cannotReach(new URL(link.base).origin, error));
  }
  const verification = response.headers.get(VERIFICATION_HEADER);
  if (verification !== null) link.verification = verification;
  const answer = (await response.json().catch(() => ({}))) as T & { error?: { message?: string } };
  if (!response.ok) throw new SignerApiError(answer.error?.message ?? `the server answered ${response.status}`);
  return answer;
}

export interface ActAsSignerOptions {
  /** Values of the signer's own text and date fields, by field name. */
  fields?: Record<string, string>;
  /** The typed signature; default the signer's name, else their email. */
  signature?: string;
  /**
   * The email code when the signer must verify one: the code itself, or a function that finds the
   * code once paraph has sent it (from the SMTP catcher). Without it, a signer who must verify gets a
   * code sent and a SignerApiError saying so.
   */
  otp?: string | ((view: SignerView) => Promise<string | null>);
  /** Decline with this reason instead of signing. */
  decline?: string;
  /**
   * Fill each text or date field the signer must type and `fields` does not give with a sample value
   * (`Sample`, or today's date as YYYY-MM-DD), as `paraph trigger` signs: without them the sign is refused.
   */
  sampleValues?: boolean;
}

export interface SignerResult {
  view: SignerView;
  outcome: SignerOutcome;
}

/** Opens the link (the signer is then `viewed`), verifies the email code if asked, then signs or declines. */
export async function actAsSigner(link: SigningLink, options: ActAsSignerOptions = {}): Promise<SignerResult> {
  const view = await callSignerApi<SignerView>(link, 'view', undefined, link.lang ? `?lang=${encodeURIComponent(link.lang)}` : '');
  if (view.state === 'closed') throw new SignerApiError(CLOSED[view.closed_reason ?? 'unavailable']);
  if (view.verification_required) {
    if (options.otp === undefined) {
      await callSignerApi(link, 'otp', {});
      throw new SignerApiError(
        'this signer must enter the code sent by email: a code was sent; give it (or let paraph read it from the SMTP catcher)',
        'otp_required',
      );
    }
    let code: string | null;
    if (typeof options.otp === 'string') {
      code = options.otp;
    } else {
      await callSignerApi(link, 'otp', {});
      code = await options.otp(view);
      if (code === null) throw new SignerApiError('no email code found in the SMTP catcher for this signer', 'otp_not_found');
    }
    const checked = await callSignerApi<{ verified: boolean; attempts_left: number }>(link, 'otp/verify', { code });
    if (!checked.verified) throw new SignerApiError(`wrong code (${checked.attempts_left} attempt(s) left for this code)`);
  }
  if (options.decline !== undefined) {
    return { view, outcome: await callSignerApi<SignerOutcome>(link, 'decline', { reason: options.decline }) };
  }
  if (view.waiting_for.length > 0) {
    throw new SignerApiError(`signing is sequential: ${view.waiting_for.map((r) => `"${r}"`).join(', ')} must sign first`);
  }
  const who = options.signature ?? (view.signer?.name || view.signer?.email || 'Signer');
  const needs = (type: string) => view.fields.some((f) => f.type === type);
  const outcome = await callSignerApi<SignerOutcome>(link, 'sign', {
    fields: options.sampleValues ? { ...sampleValues(view, options.fields ?? {}), ...options.fields } : (options.fields ?? {}),
    // (A name longer than a typed signature may be is cut by characters, never inside one; a signature given is sent whole.)
    ...(needs('signature') ? { signature: { type: 'typed', text: options.signature ?? [...who].slice(0, MAX_TYPED_MARK).join('') } } : {}),
    ...(needs('initials') ? { initials: { type: 'typed', text: initialsOf(who) || who.slice(0, 2).toUpperCase() } } : {}),
  });
  return { view, outcome };
}

/** A sample value, by field id, for each text or date field the signer must type that `given` leaves empty. */
function sampleValues(view: SignerView, given: Record<string, string>): Record<string, string> {
  const today = new Date().toISOString().slice(0, 10);
  const blank = view.fields.filter(
    (f) => f.editable && (f.type === 'text' || f.type === 'date') && f.value.trim() === '' && given[f.name] === undefined && given[f.id] === undefined,
  );
  return Object.fromEntries(blank.map((f) => [f.id, f.type === 'date' ? today : 'Sample']));
}
