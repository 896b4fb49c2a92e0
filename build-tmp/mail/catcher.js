import { randomUUID } from 'node:crypto';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { safeEqual } from '../crypto/tokens.js';
import { preparedQuery } from '../db/prepared-query.js';
import { mailTagOf } from './outbox.js';
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/**
 * The built-in SMTP catcher: accepts any sender, recipient and login, keeps each message (raw source,
 * parsed headers, text, HTML, envelope recipients) in the database, at most `maxMessages` of them
 * (the oldest go first). Nothing leaves the machine.
 */
export async function startCatcher(ctx, options) {
    const server = new SMTPServer({
        name: 'paraph-catcher',
        banner: 'paraph SMTP catcher: mail is kept, never delivered',
        authOptional: true,
        allowInsecureAuth: true,
        disabledCommands: ['STARTTLS'],
        size: MAX_MESSAGE_BYTES,
        logger: false,
        onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'anyone' }),
        onData: (stream, session, callback) => {
            receive(ctx, stream, session, options.maxMessages).then(() => callback(), (error) => callback(error));
        },
    });
    await new Promise((resolve, reject) => {
        server.once('error', (error) => reject(error.code === 'EADDRINUSE'
            ? new Error(`SMTP catcher port ${options.port} is already in use (choose another --smtp-port, or 0 for a free one)`)
            : error));
        server.listen(options.port, options.host, () => {
            server.removeAllListeners('error');
            server.on('error', (error) => ctx.log.warn({ err: error }, 'SMTP catcher connection error'));
            resolve();
        });
    });
    const port = server.server.address().port;
    return {
        port,
        close: () => new Promise((resolve) => server.close(() => resolve())),
    };
}
async function receive(ctx, stream, session, maxMessages) {
    const chunks = [];
    let size = 0;
    for await (const chunk of stream) {
        size += chunk.length;
        if (size <= MAX_MESSAGE_BYTES)
            chunks.push(chunk);
    }
    if (stream.sizeExceeded || size > MAX_MESSAGE_BYTES) {
        throw Object.assign(new Error('message exceeds the catcher limit of 10 MiB'), { responseCode: 552 });
    }
    const raw = Buffer.concat(chunks);
    const parsed = await PostalMime.parse(raw);
    const header = (name) => parsed.headers.find((h) => h.key === name)?.value.trim() || null;
    const own = ownMail(ctx, header);
    const envelopeFrom = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
    const recipients = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
    const { db } = ctx;
    db.transaction(() => {
        db.insert('emails', {
            id: randomUUID(),
            received_at: ctx.clock.now(),
            mail_from: parsed.from?.address ? formatAddress(parsed.from) : envelopeFrom,
            recipients: JSON.stringify(recipients),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html ?? '',
            headers: JSON.stringify(parsed.headers.map((h) => [h.originalKey, h.value])),
            raw,
            size,
            kind: own?.kind ?? null,
            account_id: own?.accountId ?? null,
            request_id: own?.requestId ?? null,
            signer_reference: own?.signerReference ?? null,
        });
        // Keep the newest `maxMessages`. Sequence numbers count every mail ever caught, so until the
        // newest passes `maxMessages` there cannot be more than that many.
        const newest = db.first(newestEmail)?.seq ?? 0;
        if (newest <= maxMessages)
            return;
        const cutoff = db.first(emailCutoff, maxMessages);
        if (cutoff)
            db.run(db.q.deleteFrom('emails').where('seq', '<=', cutoff.seq));
    });
}
const newestEmail = preparedQuery((q) => q.selectFrom('emails').select('seq').orderBy('seq', 'desc').limit(1));
const emailCutoff = preparedQuery((q, kept) => q.selectFrom('emails').select('seq').orderBy('seq', 'desc').offset(kept).limit(1));
/** paraph's own mail, recognised by its tag; anything else belongs to no account. */
function ownMail(ctx, header) {
    const kind = header('x-paraph-kind');
    const accountId = header('x-paraph-account-id');
    const requestId = header('x-paraph-signature-request-id');
    const reference = header('x-paraph-signer-reference');
    const tag = header('x-paraph-tag');
    if (!kind || !accountId || !requestId || reference === null || !tag)
        return null;
    let signerReference;
    try {
        signerReference = decodeURIComponent(reference);
    }
    catch {
        return null;
    }
    const mail = { kind, accountId, requestId, signerReference };
    return safeEqual(tag, mailTagOf(ctx, mail)) ? mail : null;
}
function formatAddress(address) {
    return address.name ? `${address.name} <${address.address ?? ''}>` : (address.address ?? '');
}
//# sourceMappingURL=catcher.js.map