import { Command } from 'commander';
import { initialsOf } from '../services/signer-view.js';
import { latestOtpCode } from '../services/caught-emails.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, UsageError } from './output.js';
/** A failure the signer's API or the link itself reports: exit 1 with its message. */
class SignError extends Error {
    name = 'SignError';
}
/**
 * `paraph sign`: acts as the signer over HTTP, through the same JSON API the signing page uses, so a
 * tester drives a whole signing flow from the terminal.
 */
export function signCommand(io, env) {
    return new Command('sign')
        .description('act as the signer of a signing link: view, verify the email code, sign or decline')
        .argument('<signing_url>', 'the signing_url (or embed_url) of the signer')
        .option('--field <name=value>', 'a value for one of your text or date fields (repeatable)', collect, [])
        .option('--otp <code>', "the email code, or 'auto' to read it from the SMTP catcher of --data-dir")
        .option('--decline <reason>', 'decline instead of signing')
        .option('--signature <text>', 'the typed signature (default: the signer name, else the email)')
        .option('--json', 'print JSON')
        .addOption(dataDirOption())
        .action(async (url, opts) => {
        const link = parseLink(url);
        const fields = Object.fromEntries(opts.field.map((pair) => {
            const at = pair.indexOf('=');
            if (at < 1)
                throw new UsageError(`--field takes NAME=VALUE, got "${pair}"`);
            return [pair.slice(0, at), pair.slice(at + 1)];
        }));
        const view = await call(link, 'view', undefined, link.lang ? `?lang=${encodeURIComponent(link.lang)}` : '');
        if (view.state === 'closed')
            throw new SignError(`the link is closed: ${view.closed_reason ?? 'unavailable'}`);
        if (view.verification_required) {
            if (opts.otp === undefined) {
                await call(link, 'otp', {});
                throw new SignError('this signer must enter the code sent by email: a code was sent; run again with --otp CODE or --otp auto');
            }
            let code = opts.otp;
            if (code === 'auto') {
                await call(link, 'otp', {});
                const found = await withContext(opts, env, (ctx) => latestOtpCode(ctx, view.request?.id ?? '', view.signer?.reference ?? ''));
                if (!found)
                    throw new SignError('no code found in the SMTP catcher of this data directory (is --data-dir the one serve uses?)');
                code = found;
            }
            const checked = await call(link, 'otp/verify', { code });
            if (!checked.verified)
                throw new SignError(`wrong code (${checked.attempts_left} attempt(s) left for this code)`);
        }
        let outcome;
        if (opts.decline !== undefined) {
            outcome = await call(link, 'decline', { reason: opts.decline });
        }
        else {
            if (view.waiting_for.length > 0) {
                throw new SignError(`signing is sequential: ${view.waiting_for.map((r) => `"${r}"`).join(', ')} must sign first`);
            }
            const who = opts.signature ?? (view.signer?.name || view.signer?.email || 'Signer');
            const needs = (type) => view.fields.some((f) => f.type === type);
            outcome = await call(link, 'sign', {
                fields,
                ...(needs('signature') ? { signature: { type: 'typed', text: who.slice(0, 100) } } : {}),
                ...(needs('initials') ? { initials: { type: 'typed', text: initialsOf(who) || who.slice(0, 2).toUpperCase() } } : {}),
            });
        }
        if (opts.json)
            return printJson(io, { signer_reference: view.signer?.reference, signature_request_id: view.request?.id, ...outcome });
        io.out(`${outcome.status === 'signed' ? 'Signed' : 'Declined'} as "${view.signer?.reference}"; the request is now ${outcome.request_status}.`);
    });
}
function parseLink(text) {
    let url;
    try {
        url = new URL(text);
    }
    catch {
        throw new UsageError(`"${text}" is not a signing URL`);
    }
    const match = /^\/(?:sign|embed)\/([0-9A-Za-z]+)\/?$/.exec(url.pathname);
    if (!match?.[1])
        throw new UsageError(`"${url.origin}${url.pathname.replace(/[0-9A-Za-z]{20,}/, '…')}" is not a signing URL (/sign/<token>)`);
    return { base: `${url.origin}${url.pathname.slice(0, url.pathname.indexOf('/', 1))}`, token: match[1], lang: url.searchParams.get('lang') };
}
async function call(link, action, body, query = '') {
    const base = link.base.replace(/\/embed$/, '/sign');
    let response;
    try {
        response = await fetch(`${base}/${link.token}/api/${action}${query}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body ?? {}),
        });
    }
    catch (error) {
        throw new SignError(`cannot reach ${new URL(base).origin}: ${error.message}`);
    }
    const answer = (await response.json().catch(() => ({})));
    if (!response.ok)
        throw new SignError(answer.error?.message ?? `the server answered ${response.status}`);
    return answer;
}
function collect(value, previous) {
    return [...previous, value];
}
//# sourceMappingURL=sign.js.map