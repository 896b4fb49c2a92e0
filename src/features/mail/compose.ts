import type { EmailBranding } from '../../contract/signature-requests.js';
import { MAIL_WORDS, type MailKind } from './messages.js';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../domain/locales.js';
import { MINUTE_MS, OTP_CODE_TTL_MS } from '../../domain/limits.js';

/** How long an email code is valid, as its mail says (`{minutes}`). */
const OTP_MINUTES = { minutes: String(OTP_CODE_TTL_MS / MINUTE_MS) };

export interface ComposeInput {
  kind: MailKind;
  locale: string | null;
  brand: string;
  branding: EmailBranding | null;
  document: string;
  recipientName: string | null;
  /** The signing link (invitation, reminder, replacement). */
  link?: string;
  linkExpiresAt?: number;
  /** The code (otp). */
  code?: string;
  /** Who must sign before the recipient (sequential signing): the mail says they must wait. */
  waitingFor?: readonly string[];
  /** Who signed before the recipient (turn). */
  signedBefore?: readonly string[];
  /** The reason the sender gave (cancelled). */
  reason?: string | null;
}

export interface ComposedMail {
  fromName: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A sender's message that opens with its own greeting: paraph's is then left out (one greeting per mail).
 * The greeting is a word of its own ("Hi Ann", "Bonjour,"), not the start of another ("Higher prices…",
 * "History of…"); the Arabic ones are stems ("مرحبًا", "عزيزي").
 */
const OPENS_WITH_GREETING =
  /^\s*(?:(?:hello|hi|hey|dear|good (?:morning|afternoon|evening)|bonjour|bonsoir|salut|cher|chère|madame|monsieur)(?![\p{L}\p{N}])|مرحب|السلام|أهلا|أهلًا|عزيز)/iu;

/**
 * One of paraph's mails, plain text and HTML, in the signer's language (English without one), with
 * the client's branding: sender name, subject, message (line breaks kept, HTML escaped), logo. The
 * HTML is a 600 px column (header with the logo or the sender's name, one greeting, the sender's
 * message quoted, a button, the link again wrapped, and a footer saying who sends on whose behalf).
 */
export function composeMail(input: ComposeInput): ComposedMail {
  const locale: Locale = isLocale(input.locale) ? input.locale : DEFAULT_LOCALE;
  const words = MAIL_WORDS[locale];
  const sender = input.branding?.sender_name?.trim() || null;
  // In a right-to-left mail, a file name keeps its own direction inside the sentence.
  const isolate = (text: string) => (words.dir === 'rtl' ? `\u2068${text}\u2069` : text);
  const list = (names: readonly string[] | undefined) => new Intl.ListFormat(locale, { type: 'conjunction' }).format((names ?? []).map(isolate));
  const known: Record<string, string> = {
    sender: sender ?? input.brand,
    document: isolate(input.document),
    brand: input.brand,
    code: input.code ?? '',
    names: list(input.kind === 'turn' ? input.signedBefore : input.waitingFor),
  };
  const fill = (template: string, values: Record<string, string> = {}) => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? known[key] ?? '');

  const isOtp = input.kind === 'otp';
  const isCopy = input.kind === 'completed';
  const isNotice = input.kind === 'cancelled';
  const branded = input.kind === 'invitation' || input.kind === 'reminder' || input.kind === 'replacement' || input.kind === 'turn';
  const custom = branded ? input.branding?.subject : undefined;
  const prefix = input.kind === 'reminder' || input.kind === 'turn' ? words.subjectPrefix[input.kind] : '';
  const subject = custom ? prefix + custom : fill(words.subject[input.kind]);
  const message = branded ? (input.branding?.message ?? null) : isNotice ? input.reason?.trim() || null : null;
  const greeting =
    message && !isNotice && OPENS_WITH_GREETING.test(message)
      ? null
      : input.recipientName
        ? fill(words.greeting, { name: input.recipientName })
        : words.greetingNoName;
  const behalf = sender ? fill(words.onBehalf) : fill(words.onBehalfNoSender);
  const expires =
    input.linkExpiresAt === undefined ? null : fill(isCopy ? words.expiresCopy : words.expires, { date: formatMailDate(input.linkExpiresAt, locale) });
  const button = isCopy ? words.buttonCompleted : words.button;
  const notes: string[] = [];
  if (input.kind === 'reminder') notes.push(words.rotated);
  if (input.waitingFor && input.waitingFor.length > 0 && input.kind !== 'turn') notes.push(fill(words.waiting));
  const intro = [isOtp ? fill(words.otpIntro) : fill(words.intro[input.kind as Exclude<MailKind, 'otp'>]), ...notes].join(' ');
  const quoteFrom = isNotice ? fill(words.reasonFrom) : sender ? fill(words.messageFrom) : '';
  const link = input.link ?? '';

  const lines: string[] = [];
  if (greeting) lines.push(greeting, '');
  if (isOtp) {
    lines.push(intro, '', `    ${input.code ?? ''}`, '', fill(words.otpValidity, OTP_MINUTES));
  } else {
    lines.push(intro);
    if (message) lines.push('', quoteFrom, message);
    if (!isNotice) lines.push('', `${button}: ${link}`);
    if (expires && !isNotice) lines.push(expires);
  }
  lines.push('', '--', behalf, words.sandbox);

  const e = escapeHtml;
  const start = words.dir === 'rtl' ? 'right' : 'left';
  const p = (text: string, style = '') => `<p style="margin:0 0 16px;${style}">${text}</p>`;
  const body: string[] = [];
  if (greeting) body.push(p(e(greeting)));
  if (isOtp) {
    body.push(
      p(e(intro)),
      `<p style="margin:8px 0 24px;font-size:32px;font-weight:bold;letter-spacing:8px;font-family:Consolas,Menlo,monospace" dir="ltr">${e(input.code ?? '')}</p>`,
      p(e(fill(words.otpValidity, OTP_MINUTES)), 'color:#444'),
    );
  } else {
    body.push(p(e(intro)));
    if (message) {
      body.push(
        `<blockquote style="margin:0 0 20px;padding:12px 16px;border-${start}:4px solid #1f4fd1;background:#f3f5fb;color:#1b1b1b">` +
          (quoteFrom ? `<p style="margin:0 0 6px;font-size:13px;color:#555">${e(quoteFrom)}</p>` : '') +
          `<p style="margin:0;white-space:pre-line" dir="auto">${e(message).replace(/\r\n|\r|\n/g, '<br>')}</p></blockquote>`,
      );
    }
    if (!isNotice)
      body.push(
        `<p style="margin:24px 0"><a href="${e(link)}" style="background:#1f4fd1;color:#ffffff;padding:14px 24px;border-radius:6px;text-decoration:none;display:inline-block;font-weight:bold">${e(button)}</a></p>`,
      );
    if (expires && !isNotice) body.push(p(e(expires), 'color:#444'));
    if (!isNotice)
      body.push(
        `<p style="margin:0 0 16px;font-size:13px;color:#555">${e(words.linkHint)}<br><a href="${e(link)}" style="color:#1f4fd1;word-break:break-all;overflow-wrap:anywhere" dir="ltr">${e(link)}</a></p>`,
      );
  }
  const logo = input.branding?.logo_url
    ? `<img src="${e(input.branding.logo_url)}" alt="${e(sender ?? input.brand)}" height="40" style="height:40px;max-width:240px;border:0;display:block">`
    : `<span style="font-size:18px;font-weight:bold;color:#1b1b1b">${e(sender ?? input.brand)}</span>`;
  const html = [
    '<!doctype html>',
    `<html lang="${locale}" dir="${words.dir}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f2f3f5" dir="${words.dir}">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f2f3f5"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:8px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#1b1b1b;text-align:${start}">`,
    `<tr><td style="padding:20px 28px;border-bottom:1px solid #e3e5ea">${logo}</td></tr>`,
    `<tr><td style="padding:28px">`,
    ...body,
    `</td></tr>`,
    `<tr><td style="padding:16px 28px;border-top:1px solid #e3e5ea;font-size:12px;color:#555"><p style="margin:0 0 4px">${e(behalf)}</p><p style="margin:0">${e(words.sandbox)}</p></td></tr>`,
    '</table>',
    '</td></tr></table>',
    '</body></html>',
  ].join('\n');
  return { fromName: sender ?? input.brand, subject, text: lines.filter((line, i, all) => !(line === '' && all[i - 1] === '')).join('\n'), html };
}

/** A date as the signer's language writes it (Intl, the locale's own digits), in UTC. */
export function formatMailDate(ms: number, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(ms) + ' UTC';
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}
