import { MAIL_WORDS } from './messages.js';
/**
 * One of paraph's mails, plain text and HTML, in the signer's language (English without one), with
 * the client's branding: sender name, subject, message (line breaks kept, HTML escaped), logo.
 */
export function composeMail(input) {
    const locale = input.locale === 'fr' || input.locale === 'ar' ? input.locale : 'en';
    const words = MAIL_WORDS[locale];
    const sender = input.branding?.sender_name?.trim() || null;
    const fill = (template, values = {}) => template.replace(/\{(\w+)\}/g, (_, key) => values[key] ?? { sender: sender ?? input.brand, document: input.document, brand: input.brand, code: input.code ?? '' }[key] ?? '');
    const subject = input.kind !== 'otp' && input.branding?.subject ? input.branding.subject : fill(words.subject[input.kind]);
    const greeting = input.recipientName ? fill(words.greeting, { name: input.recipientName }) : words.greetingNoName;
    const behalf = sender ? fill(words.onBehalf) : fill(words.onBehalfNoSender);
    const message = input.kind === 'otp' ? null : (input.branding?.message ?? null);
    const expires = input.linkExpiresAt === undefined ? null : fill(words.expires, { date: formatDate(input.linkExpiresAt, locale) });
    const lines = [greeting, ''];
    if (input.kind === 'otp') {
        lines.push(fill(words.otpIntro), '', `    ${input.code ?? ''}`, '', words.otpValidity);
    }
    else {
        lines.push(fill(words.intro[input.kind]));
        if (message)
            lines.push('', message);
        lines.push('', `${words.button}: ${input.link ?? ''}`);
        if (expires)
            lines.push(expires);
    }
    lines.push('', '--', behalf, words.sandbox);
    const e = escapeHtml;
    const body = [`<p>${e(greeting)}</p>`];
    if (input.kind === 'otp') {
        body.push(`<p>${e(fill(words.otpIntro))}</p>`, `<p style="font-size:28px;font-weight:bold;letter-spacing:6px;margin:16px 0">${e(input.code ?? '')}</p>`, `<p>${e(words.otpValidity)}</p>`);
    }
    else {
        body.push(`<p>${e(fill(words.intro[input.kind]))}</p>`);
        if (message)
            body.push(`<p style="white-space:pre-line">${e(message).replace(/\r?\n/g, '<br>')}</p>`);
        body.push(`<p style="margin:24px 0"><a href="${e(input.link ?? '')}" style="background:#1f4fd1;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${e(words.button)}</a></p>`, `<p>${e(words.linkHint)}<br><a href="${e(input.link ?? '')}">${e(input.link ?? '')}</a></p>`);
        if (expires)
            body.push(`<p>${e(expires)}</p>`);
    }
    const logo = input.branding?.logo_url ? `<p><img src="${e(input.branding.logo_url)}" alt="${e(sender ?? input.brand)}" height="40" style="height:40px"></p>` : '';
    const html = [
        '<!doctype html>',
        `<html lang="${locale}" dir="${words.dir}">`,
        `<head><meta charset="utf-8"><title>${e(subject)}</title></head>`,
        `<body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#1b1b1b" dir="${words.dir}">`,
        logo,
        ...body,
        `<hr><p style="font-size:12px;color:#555">${e(behalf)}<br>${e(words.sandbox)}</p>`,
        '</body></html>',
    ].join('\n');
    return { fromName: sender ?? input.brand, subject, text: lines.join('\n'), html };
}
function formatDate(ms, locale) {
    return new Intl.DateTimeFormat(locale === 'ar' ? 'ar' : locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(ms) + ' UTC';
}
export function escapeHtml(text) {
    return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}
//# sourceMappingURL=compose.js.map